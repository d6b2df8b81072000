"""The tables table's stream: publish every stored version (pushes, log, next timer)."""

from __future__ import annotations

import gc

# A cold start's imports run with the cyclic collector paused: each pass it makes while they
# build boto3's and our modules walks everything built so far (bench/bench_cold_start.py:
# ~60 ms of the REST handler's init). Collection resumes at the end of this file.
gc.disable()

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import app, settings
from harftet.fanout import changes_from_stream
from harftet.observability import new_metrics, traced

logger = Logger()
metrics = new_metrics()


@logger.inject_lambda_context
@traced(settings().tracing)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    published = app().publisher.publish(changes_from_stream(event))
    metrics.add_metric(name="Pushes", unit=MetricUnit.Count, value=published.pushed)
    # ReportBatchItemFailures: Lambda retries from the oldest record of a failed table.
    return {"batchItemFailures": [{"itemIdentifier": seq} for seq in published.failed]}


# What the init built lives as long as the instance: frozen out of every later collection pass
# (a request's pass walks only what requests make), and collection resumes.
gc.freeze()
gc.enable()
