"""Timers of correspondence tables: a deadline hours or days away gets no SQS message when it
is set (SQS delays stop at 15 minutes, and a message re-queued every 15 minutes would cost 96
a day per table). It waits in the deadline index; each sweeper run (once a minute) arms an
exact timer for the deadlines that have just come within SQS's reach, so the timer function
applies them within a second or two of their time. One message per deadline; a run the
sweeper missed leaves the deadline to the sweeper itself (a minute late at most), and a
deadline armed twice (runs a little closer than a minute) is harmless: the timer function
applies a table's due event once, whatever the message says."""

from __future__ import annotations

from typing import Protocol

from harftet.queues import MAX_DELAY_SECONDS, Timer

# The sweeper's period (rate(1 minute)) and some slack for a late start.
ARM_WINDOW_SECONDS = 75


class Deadlines(Protocol):
    def due_between(
        self, start: float, end: float, limit: int = 1000
    ) -> list[tuple[float, str]]: ...


class Scheduler(Protocol):
    def schedule(self, timer: Timer, now: float) -> None: ...


def arm(tables: Deadlines, queue: Scheduler, now: float) -> int:
    """Send a timer for every deadline in (now + 15 min - window, now + 15 min]; how many."""
    end = now + MAX_DELAY_SECONDS
    found = tables.due_between(end - ARM_WINDOW_SECONDS, end)
    for due, table_id in found:
        # version 0: the timer function matches a table by its deadline, not its version
        queue.schedule(Timer(table_id, 0, due), now)
    return len(found)
