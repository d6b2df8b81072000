"""Time at the tables: the one timed event due now (a timeout, a grace or wait end, one
computer player's move), applied by a timer or by the sweeper, the safety net."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from harftet.engine import timing
from harftet.engine.effects import Outcome
from harftet.store.ports import TableStorePort

from .writer import TableWriter, Written

logger = logging.getLogger(__name__)


class Deadlines:
    """Applies due timed events over the write path and the deadline index."""

    def __init__(self, writer: TableWriter, tables: TableStorePort) -> None:
        self.writer = writer
        self.tables = tables

    def advance(self, table_id: str, version: int | None = None) -> Written:
        """Apply the one timed event due now (a timeout, a grace or wait end, or one computer
        player's move) — only while the table is still at ``version`` when one is given."""
        return self.writer.write(
            table_id,
            lambda t, now: timing.due_event(t, now, bots=True) or Outcome(t),
            only_at=version,
        )

    def sweep(self, limit: int = 100) -> int:
        """Apply one due timed event to every table that is due now; returns how many."""
        done = 0
        for table_id in self.tables.due(self.writer.clock(), limit):
            try:
                if self.advance(table_id).status == "committed":
                    done += 1
            except Exception:  # one broken table must not stop the sweep
                logger.exception("sweeping a table failed", extra={"tableId": table_id})
        return done

    def sweep_for(self, seconds: float, sleep: Callable[[float], None] = time.sleep) -> int:
        """Sweep now, then keep sweeping as events fall due during the next ``seconds``:
        the safety net behind the timers (a lost timer still fires within a few seconds)."""
        clock = self.writer.clock
        end = clock() + seconds
        done = self.sweep()
        while True:
            due = self.tables.next_due()
            now = clock()
            if due is None or due > end or now >= end:
                return done
            if due > now:
                sleep(min(due, end) - now)
            swept = self.sweep()
            done += swept
            if not swept:  # a due table that could not be swept: retry later, never spin
                sleep(max(0.0, min(1.0, end - clock())))
