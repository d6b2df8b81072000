"""The table routes (API.md "Tables"): create, the lobby, view, seats, start, continue,
moves and dry runs, hints, WebSocket tickets, the log and replays."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from harftet.tickets import issue_ticket

from .common import Routes, app, count, limit, reply, seat

router = Routes()


@router.post("/tables")
def create_table() -> Response:
    from harftet.api.models import CreateTable

    who = router.caller()
    limit("table", who.player_id)
    current = app()
    r = CreateTable.model_validate(router.body(), context={"testMode": current.settings.test_mode})
    view = current.tables.create_table(who, r.options(), seed=r.seed_value())
    return reply(201, view)


@router.get("/tables")
def lobby() -> Response:
    router.caller()
    query = router.current_event.get_query_string_value
    page = app().tables.lobby(
        query("status", "waiting") or "",
        count("limit", query("limit", "50")),
        query("cursor", None),
        query("pace", "live"),
    )
    return reply(200, page)


@router.post("/tables/<table_id>/seats/<seat_number>")
def sit(table_id: str, seat_number: str) -> Response:
    from harftet.api.models import SitDown

    who = router.caller()
    request = router.sent(SitDown)
    view = app().tables.sit(who, table_id, seat(seat_number), bot=request.bot, level=request.level)
    return reply(200, view)


@router.delete("/tables/<table_id>/seats/<seat_number>")
def leave(table_id: str, seat_number: str) -> Response:
    return reply(200, app().tables.leave(router.caller(), table_id, seat(seat_number)))


@router.post("/tables/<table_id>/moves")
def move(table_id: str) -> Response:
    from harftet.api.models import MoveRequest

    who = router.signed()  # a refusal checks that the player still exists
    request = MoveRequest.model_validate({"body": router.body()})
    sent = request.body
    limit("dryRun" if sent.dryRun else "move", who.player_id)
    current = app()
    if sent.dryRun:
        return reply(200, current.hints.dry_run(who, table_id, sent.version, request.move()))
    assert sent.moveId is not None  # the model requires it for a real move
    view = current.tables.move(who, table_id, sent.version, sent.moveId, request.move())
    return reply(200, view)


@router.get("/tables/<table_id>/hint")
def hint(table_id: str) -> Response:
    who = router.signed()  # a refusal checks that the player still exists
    limit("hint", who.player_id)
    raw = router.current_event.get_query_string_value("reveal", None)
    reveal = None if raw is None else count("reveal", raw)
    return reply(200, app().hints.hint(who, table_id, reveal))


@router.post("/tables/<table_id>/ticket")
def ticket(table_id: str) -> Response:
    """A 60 s WebSocket connect ticket for this table (harftet.tickets)."""
    who = router.caller()
    current = app()
    current.stores.tables.get(table_id)  # 404 for a table that does not exist
    return reply(201, issue_ticket(current.tokens, who, table_id))


@router.get("/tables/<table_id>/log")
def log(table_id: str) -> Response:
    who = router.caller()
    after = count("after", router.current_event.get_query_string_value("after", "0"))
    return reply(200, app().records.events(who, table_id, after))


# The routes that only hand the caller and the path's parameters to a use case.
router.relay(
    {
        "GET /tables/<table_id>": "tables.view",
        "POST /tables/<table_id>/start": "tables.start",
        "POST /tables/<table_id>/continue": "tables.continue_game",
        "GET /tables/<table_id>/replay": "records.replay",
    }
)
