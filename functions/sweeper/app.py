"""Scheduled sweeper: turn timeouts, disconnect grace, substitutes' wait, computer players."""

from __future__ import annotations

import gc

# A cold start's imports run with the cyclic collector paused: each pass it makes while they
# build boto3's and our modules walks everything built so far (bench/bench_cold_start.py:
# ~60 ms of the REST handler's init). Collection resumes at the end of this file.
gc.disable()

import os
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.observability import new_metrics, traced
from harftet.wiring import default_outbox, default_service

logger = Logger()
metrics = new_metrics()
service = default_service()
# How long one invocation keeps sweeping as deadlines fall due (the schedule runs once a
# minute; 0 sweeps once and returns, as the local stack's 10-second loop wants).
WINDOW = float(os.environ.get("SWEEP_WINDOW_SECONDS", "0"))


@logger.inject_lambda_context
@traced
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    budget = min(WINDOW, context.get_remaining_time_in_millis() / 1000 - 5)
    reminded = _remind()
    armed = _arm()
    metrics.add_metric(name="TimersArmed", unit=MetricUnit.Count, value=armed)
    swept = service.sweep_for(budget) if budget > 0 else service.sweep()
    metrics.add_metric(name="TablesSwept", unit=MetricUnit.Count, value=swept)
    metrics.add_metric(name="RemindersQueued", unit=MetricUnit.Count, value=reminded)
    return {"swept": swept}


def _arm() -> int:
    """Arm exact timers for the correspondence deadlines now within SQS's reach."""
    url = os.environ.get("TIMER_QUEUE_URL")
    if not url:
        return 0
    try:
        import boto3

        from harftet.far_timers import arm
        from harftet.timers import TimerQueue

        return arm(service.tables, TimerQueue(boto3.client("sqs"), url), service.clock())
    except Exception:  # never stop the turn sweep; the sweep itself fires them a minute late
        logger.exception("arming timers failed")
        return 0


def _remind() -> int:
    """Queue the due "1 hour before your deadline" reminders (harftet.notify.outbox)."""
    outbox = default_outbox(service)
    if outbox is None:
        return 0
    try:
        return int(outbox.remind(service.clock()))
    except Exception:  # never stop the turn sweep; the next run tries again
        logger.exception("queueing reminders failed")
        return 0


# What the init built lives as long as the instance: frozen out of every later collection pass
# (a request's pass walks only what requests make), and collection resumes.
gc.freeze()
gc.enable()
