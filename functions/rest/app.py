"""REST API: parse → one service call → reply. Errors are mapped in one place."""

from __future__ import annotations

import re
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.api.errors import error_response, language, parse_json
from harftet.api.models import MAX_BODY_BYTES, CreatePlayer, CreateTable, MoveRequest, SitDown
from harftet.identity import Caller, bearer
from harftet.observability import traced
from harftet.service import BadRequestError
from harftet.wiring import default_service

logger = Logger()
metrics = Metrics()
app = APIGatewayRestResolver()
service = default_service()
SEAT = re.compile(r"[0-9]{1,2}")


def _reply(status: int, body: Any) -> Response:
    return Response(status_code=status, content_type="application/json", body=body)


@app.exception_handler(Exception)
def _error(error: Exception) -> Response:
    status, body = error_response(error, language(app.current_event.headers))
    if status >= 500:
        logger.exception("unexpected error")
    return _reply(status, body)


@app.not_found
def _not_found(_: Exception) -> Response:
    path = app.current_event.path
    return _reply(404, {"error": {"code": "not_found", "message": f"no route {path}"}})


def _body() -> Any:
    return parse_json(app.current_event.body, limit=MAX_BODY_BYTES)


def _caller() -> Caller:
    return service.tokens.verify(bearer(app.current_event.headers.get("authorization")))


def _seat(raw: str) -> int:
    if not SEAT.fullmatch(raw):
        raise BadRequestError(f"seat must be a seat number (0-3), not '{raw[:16]}'")
    return int(raw)


@app.get("/health")
def health() -> Response:
    return _reply(200, {"status": "ok"})


@app.post("/players")
def create_player() -> Response:
    request = CreatePlayer.model_validate(_body())
    return _reply(201, service.create_player(request.name))


@app.get("/players/<player_id>")
def get_player(player_id: str) -> Response:
    _caller()
    return _reply(200, service.player(player_id))


@app.post("/tables")
def create_table() -> Response:
    caller = _caller()
    r = CreateTable.model_validate(_body())
    view = service.create_table(
        caller,
        game=r.game,
        seats=r.seats,
        hands=r.hands,
        partners=r.partners,
        turn_seconds=r.turnSeconds,
        seed=r.seed,
    )
    metrics.add_metric(name="TablesCreated", unit=MetricUnit.Count, value=1)
    return _reply(201, view)


@app.get("/tables")
def lobby() -> Response:
    _caller()
    status = app.current_event.get_query_string_value("status", "waiting")
    if status != "waiting":
        raise BadRequestError("the lobby lists waiting tables only: use status=waiting")
    return _reply(200, {"tables": service.lobby()})


@app.get("/tables/<table_id>")
def get_table(table_id: str) -> Response:
    return _reply(200, service.view(_caller(), table_id))


@app.post("/tables/<table_id>/seats/<seat>")
def sit(table_id: str, seat: str) -> Response:
    caller = _caller()
    request = SitDown.model_validate(_body())
    return _reply(200, service.sit(caller, table_id, _seat(seat), bot=request.bot))


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
    caller = _caller()
    request = MoveRequest.model_validate({"body": _body()})
    body = request.body
    view = service.move(caller, table_id, body.version, body.moveId, request.move())
    metrics.add_metric(name="Moves", unit=MetricUnit.Count, value=1)
    return _reply(200, view)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@traced
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
