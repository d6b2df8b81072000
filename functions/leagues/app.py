"""Scheduled league roll-over (RULES §8): Mondays from 00:00 Europe/Istanbul, every 10
minutes until 03:50 (template.yaml's LeaguesFunction; the local stack runs the same
schedule). Each run rolls the week that ended over, or finds it done and stops; a run that
ran out of time or died half-way is taken up by the next (harftet.leagues.rollover)."""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import app, settings
from harftet.observability import new_logger, observed

logger = new_logger()


@observed(logger, None, tracing=settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    roll_over = app().leagues.roll_over
    # Stop a minute before the function's timeout: the next scheduled run goes on from there.
    roll_over.budget = max(1.0, context.get_remaining_time_in_millis() / 1000 - 60)
    week = event.get("week") if isinstance(event.get("week"), str) else None
    report = roll_over(week)
    logger.info("league roll-over", extra=report)
    return report


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
