"""Turn timers and paced computer players: apply a table's due event when its timer fires.

The batch's timers are fired side by side (``TimerFiring.fire_batch``), and nothing here
sleeps: a timer that came early is sent again with the delay it still has.
"""

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
from harftet.observability import new_metrics, traced
from harftet.timers import Timer

logger = Logger()
metrics = new_metrics()


@logger.inject_lambda_context
@traced(settings().tracing)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    records, timers = [], []
    for record in event.get("Records") or []:
        try:
            timer = Timer.parse(record["body"])
        except (KeyError, TypeError, ValueError):
            logger.warning("not a timer message: dropped", extra={"body": record.get("body")})
            continue
        records.append(record)
        timers.append(timer)
    outcomes = app().firing.fire_batch(timers)
    # SQS retries what failed (then the dead-letter queue); the sweeper stays behind it.
    failures = [
        {"itemIdentifier": r["messageId"]}
        for r, o in zip(records, outcomes, strict=True)
        if o == "failed"
    ]
    metrics.add_metric(name="TimersFired", unit=MetricUnit.Count, value=outcomes.count("committed"))
    return {"batchItemFailures": failures}


# What the init built lives as long as the instance: frozen out of every later collection pass
# (a request's pass walks only what requests make), and collection resumes.
gc.freeze()
gc.enable()
