"""The tournaments' schedule (RULES §8, harftet.tournaments): every minute (template.yaml's
TournamentsFunction; the local stack runs the same schedule) it starts every tournament
whose start has come (round 1 seated, a repeating one's next made) and drives every running
one: a round still seating after its starter died is seated again, a table's end the
stream missed is counted, and a round whose last table ended starts the next once that
round's scheduled time (``roundMinutes``) has come. The tables' stream (the fan-out) does
the same at once when a tournament table ends and no time holds the next round back; any
number of runs may overlap (every step is a conditional write)."""

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
    report = app().rounds.tick()
    if any(report.values()):  # a run that found nothing to do is not worth a log line
        logger.info("tournaments", extra=report)
    return report


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
