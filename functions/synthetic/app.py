"""The synthetic game of a cell (docs/DEPLOY.md "Deploys", alarm `<stack>-synthetic-game`):
every few minutes two guests play a short game through the cell's public REST API, as
players' clients do (harftet.probe). It publishes SyntheticGameOk (1 or 0) and
SyntheticGameSeconds; the alarm fires when games fail or stop being played."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import settings
from harftet.observability import new_metrics, observed
from harftet.probe import over_http, play

logger = Logger()
metrics = new_metrics()
MOVES = 3


@observed(logger, metrics, tracing=settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    result = play(over_http(settings().environ["REST_URL"]), moves=MOVES)
    metrics.add_metric(name="SyntheticGameOk", unit=MetricUnit.Count, value=int(result["ok"]))
    metrics.add_metric(
        name="SyntheticGameSeconds", unit=MetricUnit.Seconds, value=round(result["seconds"], 3)
    )
    (logger.info if result["ok"] else logger.error)("synthetic game", extra=result)
    return result
