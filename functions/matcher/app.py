"""The matcher (RULES §8, harftet.matchmaking): seats waiting matchmaking tickets. Woken by
the match table's stream when a ticket arrives (a pass over that ticket's pool) and by a
schedule (passes over every pool, every MATCH_EVERY_SECONDS for MATCH_WINDOW_SECONDS: the
bands widen and waits end with no write at all). Any number may run at once."""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

import time
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import app, settings
from harftet.observability import new_logger, observed
from harftet.store.matchmaking import pools_in

logger = new_logger()


@observed(logger, None, tracing=settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    current = app()
    matcher = current.matcher
    records = event.get("Records")
    if records is not None:  # the stream: the pools new tickets arrived in
        made = matcher.run(pools_in(records))
    else:  # the schedule: every pool, again and again until the window closes
        environ = current.settings.environ
        window = float(environ.get("MATCH_WINDOW_SECONDS") or 0)
        every = float(environ.get("MATCH_EVERY_SECONDS") or 2)
        budget = min(window, context.get_remaining_time_in_millis() / 1000 - 5)
        ends = time.monotonic() + budget
        made = matcher.run()
        while time.monotonic() + every < ends:
            time.sleep(every)
            made += matcher.run()
    return {"matched": made}


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
