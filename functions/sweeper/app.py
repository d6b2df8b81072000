"""Scheduled sweeper: turn timeouts, disconnect grace, substitutes' wait, computer players."""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import App, app, settings
from harftet.observability import new_logger, observed

logger = new_logger()


@observed(logger, None, tracing=settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    current = app()
    # How long one invocation keeps sweeping as deadlines fall due (SWEEP_WINDOW_SECONDS: the
    # schedule runs once a minute; 0 sweeps once and returns, as the local stack's loop wants).
    window = current.settings.sweep_window_seconds
    budget = min(window, context.get_remaining_time_in_millis() / 1000 - 5)
    _remind(current)
    _arm(current)
    deadlines = current.deadlines
    swept = deadlines.sweep_for(budget) if budget > 0 else deadlines.sweep()
    return {"swept": swept}


def _arm(current: App) -> int:
    """Arm exact timers for the correspondence deadlines now within SQS's reach."""
    queue = current.timer_queue
    if queue is None:
        return 0
    try:
        from harftet.timers import arm

        return arm(current.stores.tables, queue, current.clock())
    except Exception:  # never stop the turn sweep; the sweep itself fires them a minute late
        logger.exception("arming timers failed")
        return 0


def _remind(current: App) -> int:
    """Queue the due "1 hour before your deadline" reminders (harftet.notify.outbox)."""
    try:
        return int(current.outbox.remind(current.clock()))
    except Exception:  # never stop the turn sweep; the next run tries again
        logger.exception("queueing reminders failed")
        return 0


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
