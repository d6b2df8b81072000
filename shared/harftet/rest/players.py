"""Players (API.md "Identity", v3 "Profiles, leaderboards"): a new guest, a player's public
record and profile, the leaderboards."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from .common import Routes, app, count, limit, reply

router = Routes()


@router.post("/players")
def create_player() -> Response:
    from harftet.api.models import CreatePlayer

    limit("guest", router.source_ip())
    request = router.sent(CreatePlayer)
    return reply(201, app().guests.create_player(request.name))


@router.get("/players/<player_id>")
def get_player(player_id: str) -> Response:
    router.caller()
    return reply(200, app().guests.player(player_id))


@router.get("/players/<player_id>/profile")
def profile(player_id: str) -> Response:
    router.caller()
    return reply(200, app().profiles.profile(player_id))


@router.get("/leaderboards/<game>")
def leaderboard(game: str) -> Response:
    who = router.caller()
    query = router.current_event.get_query_string_value
    page = app().profiles.leaderboard(
        who.player_id,
        game,
        query("period", "all") or "",
        count("limit", query("limit", "100")),
        query("cursor", None),
    )
    return reply(200, page)
