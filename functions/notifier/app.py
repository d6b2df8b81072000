"""Notifications: deliver each queued one by Web Push and SNS mobile push (harftet.notify)."""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import app, settings
from harftet.notify import Notification
from harftet.notify.deliver import RetryLater
from harftet.observability import new_logger, observed

logger = new_logger()
FIRST_RETRY_SECONDS = 30  # then 60, 120, 240, 480: the fifth failure goes to dead letters


def back_off(record: dict[str, Any]) -> int:
    """Retry a failed delivery later and later: the message comes back after 30 s, then 60,
    120, 240 and 480 s (its receive count says which try this was)."""
    tries = int((record.get("attributes") or {}).get("ApproximateReceiveCount", "1"))
    delay = min(900, FIRST_RETRY_SECONDS * 2 ** max(0, tries - 1))
    try:
        queue = app().notify_queue
        if queue is not None:
            queue.change_visibility(record["receiptHandle"], delay)
    except Exception:  # the queue's own visibility timeout (180 s) applies instead
        logger.warning("could not delay a retry", extra={"delay": delay})
    return delay


@observed(logger, None, tracing=settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    failures = []
    sent = held = 0
    for record in event.get("Records") or []:
        try:
            notification = Notification.parse(record["body"])
        except (KeyError, TypeError, ValueError):
            logger.warning("not a notification: dropped")
            continue
        try:
            done = app().notifier.deliver(notification)
            sent += done.sent
            held += done.held
        except RetryLater as error:  # retried by SQS (visibility timeout), then dead letters
            delay = back_off(record)
            logger.warning("a delivery will be retried", extra={"reason": str(error), "in": delay})
            failures.append({"itemIdentifier": record["messageId"]})
        except Exception:
            logger.exception("a notification failed", extra={"tableId": notification.table_id})
            failures.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failures}


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
