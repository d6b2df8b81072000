"""REST API: parse → one service call → reply. Errors are mapped in one place.

The import is a Lambda's cold start (bench/bench_cold_start.py), so it holds only what every
request needs: the request models (pydantic) are imported by the routes that read a body, the
DynamoDB client is made on the first request that uses it (harftet.wiring), and the dictionary
is loaded by the first Harftet rule that needs it. `prime` does all of it ahead (SnapStart).
"""

from __future__ import annotations

import gc

# A cold start's imports run with the cyclic collector paused: each pass it makes while they
# build boto3's and our modules walks everything built so far (bench/bench_cold_start.py:
# ~60 ms of the REST handler's init). Collection resumes at the end of this file.
gc.disable()

import os
import re
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, CORSConfig, Response
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit

from harftet.accounts.routes import remember_table
from harftet.accounts.routes import router as accounts_router
from harftet.api.body import MAX_BODY_BYTES
from harftet.api.errors import error_response, language, parse_json
from harftet.api.events import body_text
from harftet.api.methods import allowed_methods, method_not_allowed
from harftet.errors import BadRequestError, RateLimitedError
from harftet.identity import Caller, bearer
from harftet.limits import default_limits
from harftet.observability import new_metrics, traced
from harftet.tickets import issue_ticket
from harftet.wiring import default_service, dynamodb
from harftet.words.routes import router as words_router

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.typing import LambdaContext

logger = Logger()
metrics = new_metrics()


def _cors(origins: str) -> CORSConfig | None:
    """CORS for browser clients on ALLOWED_ORIGINS (comma-separated); none when empty."""
    allowed = [o.strip() for o in origins.split(",") if o.strip()]
    if not allowed:
        return None
    return CORSConfig(
        allow_origin=allowed[0],
        extra_origins=allowed[1:],
        allow_headers=["Authorization", "Content-Type", "Accept-Language"],
        expose_headers=["Retry-After"],
        max_age=600,
    )


app = APIGatewayRestResolver(cors=_cors(os.environ.get("ALLOWED_ORIGINS", "")))
app.include_router(accounts_router)  # passkeys, sessions, export/delete, phrases (API.md v3)
app.include_router(words_router)  # GET /words/{word}, POST /words/{word}/reports (API.md v3)
service = default_service()
limits = default_limits()
SEAT = re.compile(r"[0-9]{1,2}")
COUNT = re.compile(r"[0-9]{1,9}")


def _reply(status: int, body: Any) -> Response:
    return Response(status_code=status, content_type="application/json", body=body)


@app.exception_handler(Exception)
def _error(error: Exception) -> Response:
    status, body = error_response(error, language(app.current_event.headers))
    if status >= 500:
        logger.exception("unexpected error")
    if isinstance(error, RateLimitedError):
        headers = {"Retry-After": str(error.retry_after)}
        return Response(status, content_type="application/json", body=body, headers=headers)
    return _reply(status, body)


@app.not_found
def _not_found(_: Exception) -> Response:
    path = app.current_event.path
    allowed = allowed_methods(path)
    if allowed:  # a known path, another method: 405 with Allow (harftet.api.methods)
        status, body, allow = method_not_allowed(app.current_event.http_method, allowed)
        headers = {"Allow": allow}
        return Response(status, content_type="application/json", body=body, headers=headers)
    return _reply(404, {"error": {"code": "not_found", "message": f"no route {path[:200]}"}})


def _body() -> Any:
    return parse_json(
        body_text(app.current_event.raw_event, limit=MAX_BODY_BYTES), limit=MAX_BODY_BYTES
    )


def _caller() -> Caller:
    return service.tokens.verify(bearer(app.current_event.headers.get("authorization")))


def _limit(kind: str, who: str) -> None:
    """429 rate_limited when ``who`` is over its ``kind`` budget (harftet.limits)."""
    limits.check(kind, who, service.clock())


def _source_ip() -> str:
    return app.current_event.request_context.identity.source_ip or "unknown"


def _seat(raw: str) -> int:
    if not SEAT.fullmatch(raw):
        raise BadRequestError(f"seat must be a seat number (0-3), not '{raw[:16]}'")
    return int(raw)


def _count(name: str, raw: str | None) -> int:
    if raw is None or not COUNT.fullmatch(raw):
        raise BadRequestError(f"{name} must be a whole number, not '{(raw or '')[:16]}'")
    return int(raw)


@app.get("/health")
def health() -> Response:
    return _reply(200, {"status": "ok"})


@app.get("/texts")
def texts() -> Response:
    """The catalogue of what a player reads (API.md v4), cacheable by its ETag."""
    from harftet.api.texts import texts_reply

    event = app.current_event
    lang = event.get_query_string_value("lang", None) or language(event.headers)
    status, body, headers = texts_reply(lang, event.headers.get("if-none-match"))
    return Response(status, content_type="application/json", body=body, headers=headers)


@app.post("/players")
def create_player() -> Response:
    from harftet.api.models import CreatePlayer

    _limit("guest", _source_ip())
    request = CreatePlayer.model_validate(_body())
    return _reply(201, service.create_player(request.name))


@app.get("/players/<player_id>")
def get_player(player_id: str) -> Response:
    _caller()
    return _reply(200, service.player(player_id))


@app.post("/tables")
def create_table() -> Response:
    from harftet.api.models import CreateTable

    caller = _caller()
    _limit("table", caller.player_id)
    r = CreateTable.model_validate(_body(), context={"testMode": service.test_mode})
    view = service.create_table(
        caller,
        game=r.game,
        seats=r.seats,
        hands=r.hands,
        partners=r.partners,
        turn_seconds=r.turn_seconds(),
        hints=r.hints,
        private=r.private,
        bot_seconds=r.botSeconds,
        seed=r.seed,
        rated=r.rated,
        break_seconds=r.breakSeconds,
        grace_seconds=r.graceSeconds,
        wait_seconds=r.waitSeconds,
        pace=r.pace,
    )
    metrics.add_metric(name="TablesCreated", unit=MetricUnit.Count, value=1)
    remember_table(caller, view["tableId"])
    return _reply(201, view)


@app.get("/tables")
def lobby() -> Response:
    _caller()
    query = app.current_event.get_query_string_value
    limit = _count("limit", query("limit", "50"))
    page = service.lobby(
        query("status", "waiting") or "", limit, query("cursor", None), query("pace", "live")
    )
    return _reply(200, page)


@app.get("/tables/<table_id>")
def get_table(table_id: str) -> Response:
    return _reply(200, service.view(_caller(), table_id))


@app.post("/tables/<table_id>/seats/<seat>")
def sit(table_id: str, seat: str) -> Response:
    from harftet.api.models import SitDown

    caller = _caller()
    request = SitDown.model_validate(_body())
    view = service.sit(caller, table_id, _seat(seat), bot=request.bot, level=request.level)
    if not request.bot:
        remember_table(caller, table_id)
    return _reply(200, view)


@app.delete("/tables/<table_id>/seats/<seat>")
def leave(table_id: str, seat: str) -> Response:
    return _reply(200, service.leave(_caller(), table_id, _seat(seat)))


@app.post("/tables/<table_id>/start")
def start(table_id: str) -> Response:
    return _reply(200, service.start(_caller(), table_id))


@app.post("/tables/<table_id>/continue")
def continue_game(table_id: str) -> Response:
    return _reply(200, service.continue_game(_caller(), table_id))


@app.post("/tables/<table_id>/moves")
def move(table_id: str) -> Response:
    from harftet.api.models import MoveRequest

    caller = _caller()
    request = MoveRequest.model_validate({"body": _body()})
    body = request.body
    _limit("dryRun" if body.dryRun else "move", caller.player_id)
    if body.dryRun:
        return _reply(200, service.dry_run(caller, table_id, body.version, request.move()))
    assert body.moveId is not None  # the model requires it for a real move
    view = service.move(caller, table_id, body.version, body.moveId, request.move())
    metrics.add_metric(name="Moves", unit=MetricUnit.Count, value=1)
    return _reply(200, view)


@app.get("/tables/<table_id>/hint")
def hint(table_id: str) -> Response:
    caller = _caller()
    _limit("hint", caller.player_id)
    raw = app.current_event.get_query_string_value("reveal", None)
    reveal = None if raw is None else _count("reveal", raw)
    return _reply(200, service.hint(caller, table_id, reveal))


@app.post("/tables/<table_id>/ticket")
def ticket(table_id: str) -> Response:
    """A 60 s WebSocket connect ticket for this table (harftet.tickets)."""
    caller = _caller()
    service.tables.get(table_id)  # 404 for a table that does not exist (ids are bounded)
    return _reply(201, issue_ticket(service.tokens, caller, table_id))


@app.get("/tables/<table_id>/log")
def log(table_id: str) -> Response:
    caller = _caller()
    after = _count("after", app.current_event.get_query_string_value("after", "0"))
    return _reply(200, service.events(caller, table_id, after))


@app.get("/tables/<table_id>/replay")
def replay(table_id: str) -> Response:
    return _reply(200, service.replay(_caller(), table_id))


# -- profiles, leaderboards, reports, operator (harftet.people) ----------------------------
@app.get("/players/<player_id>/profile")
def profile(player_id: str) -> Response:
    from harftet.people import People

    _caller()
    return _reply(200, People(service).profile(player_id))


@app.get("/leaderboards/<game>")
def leaderboard(game: str) -> Response:
    from harftet.people import People

    caller = _caller()
    query = app.current_event.get_query_string_value
    limit = _count("limit", query("limit", "100"))
    page = People(service).leaderboard(
        caller.player_id, game, query("period", "all") or "", limit, query("cursor", None)
    )
    return _reply(200, page)


@app.post("/tables/<table_id>/reports")
def report(table_id: str) -> Response:
    from harftet.api.models import ReportRequest
    from harftet.people import People

    caller = _caller()
    request = ReportRequest.model_validate(_body())
    _limit("report", caller.player_id)
    return _reply(
        202, People(service).report(caller.player_id, table_id, request.seat, request.kind)
    )


def _operator() -> Any:
    """The operator API (OperatorApi, AWS_IAM): API Gateway names the signed caller; without
    one only a test-mode stack (the local stack) lets the request through."""
    from harftet.people import OperatorOnlyError, People

    if not (app.current_event.request_context.identity.user_arn or service.test_mode):
        raise OperatorOnlyError("operator routes need IAM authorisation")
    return People(service)


@app.get("/operator/reports")
def operator_reports() -> Response:
    people = _operator()
    query = app.current_event.get_query_string_value
    return _reply(200, people.reports(query("day", None), _count("limit", query("limit", "50"))))


@app.post("/operator/players/<player_id>/ban")
def operator_ban(player_id: str) -> Response:
    return _reply(200, _operator().ban(player_id, True))


@app.delete("/operator/players/<player_id>/ban")
def operator_unban(player_id: str) -> Response:
    return _reply(200, _operator().ban(player_id, False))


@app.post("/operator/tables/<table_id>/close")
def operator_close(table_id: str) -> Response:
    return _reply(200, _operator().close_table(table_id))


# -- the inbox and notifications (harftet.notify.api) ---------------------------------------
def _mail() -> Any:
    from harftet.wiring import default_mail

    mail = default_mail(service)
    if mail is None:
        raise BadRequestError("this server keeps no inbox (MAIL_TABLE is not set)")
    return mail


@app.get("/players/me/tables")
def my_tables() -> Response:
    caller = _caller()
    cursor = app.current_event.get_query_string_value("cursor", None)
    return _reply(200, _mail().tables(caller, cursor))


@app.post("/players/me/push-subscriptions")
def add_push_subscription() -> Response:
    caller = _caller()
    headers = app.current_event.headers or {}
    asked = any(str(k).lower() == "accept-language" for k in headers)
    lang = language(headers) if asked else "tr"  # notifications are Turkish unless asked
    return _reply(201, _mail().subscribe(caller, _body(), lang))


@app.delete("/players/me/push-subscriptions/<id>")
def remove_push_subscription(id: str) -> Response:
    _mail().unsubscribe(_caller(), id)
    return Response(status_code=204, content_type="application/json", body="")


@app.post("/players/me/devices")
def add_device() -> Response:
    caller = _caller()
    return _reply(201, _mail().add_device(caller, _body()))


@app.get("/push/key")
def push_key() -> Response:
    return _reply(200, _mail().key())


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@traced
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    logger.append_keys(tableId=(event.get("pathParameters") or {}).get("tableId"))  # sam logs
    return app.resolve(event, context)


def prime() -> None:
    """Load now what a first request would: the DynamoDB client, the request models, the
    dictionary and its word index. Lambda SnapStart runs it before the snapshot (below), so a
    restored instance has it all; no network call (the client connects on its first request)."""
    from harftet.api import models
    from harftet.words import default_words
    from harftet.words.index import for_words

    dynamodb().real()
    for model in (models.CreatePlayer, models.CreateTable, models.SitDown, models.MoveRequest):
        model.model_rebuild()
    for_words(default_words())


try:  # the Lambda Python runtime (3.12+) ships it; elsewhere there is no snapshot to prime
    from snapshot_restore_py import register_before_snapshot
except ImportError:
    pass
else:
    register_before_snapshot(prime)


# What the init built lives as long as the instance: frozen out of every later collection pass
# (a request's pass walks only what requests make), and collection resumes.
gc.freeze()
gc.enable()
