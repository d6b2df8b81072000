"""The tables table's stream: publish every stored version (pushes, log, next timer)."""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import app, settings
from harftet.fanout import changes_from_stream
from harftet.observability import new_logger, observed

logger = new_logger()


@observed(logger, None, tracing=settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    published = app().publisher.publish(changes_from_stream(event))
    # ReportBatchItemFailures: Lambda retries from the oldest record of a failed table.
    return {"batchItemFailures": [{"itemIdentifier": seq} for seq in published.failed]}


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
