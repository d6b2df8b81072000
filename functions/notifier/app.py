"""Notifications: deliver each queued one by Web Push and SNS mobile push (harftet.notify)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.notify import Notification
from harftet.notify.deliver import RetryLater
from harftet.observability import traced
from harftet.wiring import default_notifier

logger = Logger()
metrics = Metrics()
notifier = default_notifier()


@logger.inject_lambda_context
@traced
@metrics.log_metrics
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
            done = notifier.deliver(notification)
            sent += done.sent
            held += done.held
        except RetryLater as error:  # retried by SQS (visibility timeout), then dead letters
            logger.warning("a delivery will be retried", extra={"reason": str(error)})
            failures.append({"itemIdentifier": record["messageId"]})
        except Exception:
            logger.exception("a notification failed", extra={"tableId": notification.table_id})
            failures.append({"itemIdentifier": record["messageId"]})
    metrics.add_metric(name="NotificationsSent", unit=MetricUnit.Count, value=sent)
    metrics.add_metric(name="NotificationsHeld", unit=MetricUnit.Count, value=held)
    return {"batchItemFailures": failures}
