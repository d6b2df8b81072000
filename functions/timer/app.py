"""Turn timers and paced computer players: apply a table's due event when its timer fires."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.observability import new_metrics, traced
from harftet.timers import Timer
from harftet.wiring import default_publisher

logger = Logger()
metrics = new_metrics()
publisher = default_publisher()


@logger.inject_lambda_context
@traced
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    failures = []
    fired = 0
    for record in event.get("Records") or []:
        try:
            timer = Timer.parse(record["body"])
        except (KeyError, TypeError, ValueError):
            logger.warning("not a timer message: dropped", extra={"body": record.get("body")})
            continue
        try:
            fired += publisher.fire(timer) == "committed"
        except Exception:  # retried by SQS, then the dead-letter queue; the sweeper stays
            logger.exception("a timer failed", extra={"tableId": timer.table_id})
            failures.append({"itemIdentifier": record["messageId"]})
    metrics.add_metric(name="TimersFired", unit=MetricUnit.Count, value=fired)
    return {"batchItemFailures": failures}
