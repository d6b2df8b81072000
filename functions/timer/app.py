"""Turn timers and paced computer players: apply a table's due event when its timer fires.

The batch's timers are fired side by side (``TimerFiring.fire_batch``), and nothing here
sleeps: a timer that came early is sent again with the delay it still has.
"""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import app, settings
from harftet.observability import new_logger, observed
from harftet.timers import Timer

logger = new_logger()


@observed(logger, None, tracing=settings().tracing)
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
    return {"batchItemFailures": failures}


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
