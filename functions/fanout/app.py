"""The tables table's stream: publish every stored version (pushes, log, next timer)."""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import app, settings
from harftet.fanout import changes_from_stream
from harftet.observability import new_metrics, observed

logger = Logger()
metrics = new_metrics()


@observed(logger, metrics, tracing=settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    published = app().publisher.publish(changes_from_stream(event))
    metrics.add_metric(name="Pushes", unit=MetricUnit.Count, value=published.pushed)
    # ReportBatchItemFailures: Lambda retries from the oldest record of a failed table.
    return {"batchItemFailures": [{"itemIdentifier": seq} for seq in published.failed]}


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
