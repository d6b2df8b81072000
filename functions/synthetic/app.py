"""The synthetic game of a cell (docs/DEPLOY.md "Deploys", alarm `<stack>-synthetic-game`):
every few minutes a guest plays a short game against a computer player as players' clients do
(harftet.probe.play_with_computer): the table made over the cell's public REST API, the moves
sent and the pushes received on its public WebSocket. It publishes SyntheticGameOk (1 or 0),
SyntheticGameSeconds and SyntheticPushSeconds (the slowest move's send-to-push); the alarm
fires when games fail or stop being played."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import settings
from harftet.observability import new_logger, new_metrics, observed
from harftet.probe import over_http, over_websocket, play_with_computer

logger = new_logger()
metrics = new_metrics()
MOVES = 3


@observed(logger, metrics, tracing=settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    environ = settings().environ
    call = over_http(environ["REST_URL"])
    result = play_with_computer(call, over_websocket, environ["WS_URL"], moves=MOVES)
    metrics.add_metric(name="SyntheticGameOk", unit=MetricUnit.Count, value=int(result["ok"]))
    metrics.add_metric(
        name="SyntheticGameSeconds", unit=MetricUnit.Seconds, value=round(result["seconds"], 3)
    )
    if result["ok"]:
        push = round(result["pushSeconds"], 3)
        metrics.add_metric(name="SyntheticPushSeconds", unit=MetricUnit.Seconds, value=push)
    (logger.info if result["ok"] else logger.error)("synthetic game", extra=result)
    return result
