"""Delayed triggers: one SQS message per deadline a table version sets.

The stream consumer schedules ``{tableId, version, due}`` with a per-message ``DelaySeconds``
when a version in its batch set the table's deadline (``deadline_set``: the item's ``dueV``);
a change that keeps the deadline (a draw, a reconnect) sends nothing, since the message already
on its way still stands for it, and so does one whose new deadline comes after a message asked
for before that is still ahead (``timer_asked``: a person's 45 s turns that end in seconds lean
on one message). The timer function (``fire_batch``) receives it when it falls due and applies
the table's one due event, whatever version the table is at (applying a due event is always
right: the sweeper does the same); a message whose deadline the table no longer has does
nothing — unless it is the one the table's later deadlines leaned on (the item's ``tq``): that
one is sent again for the deadline the table has now — and one that came early is sent again,
never slept on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal, Protocol

from harftet.engine.timing import next_due
from harftet.queues import Timer
from harftet.store.table_items import StoredTable

logger = logging.getLogger(__name__)


class Scheduler(Protocol):
    """Sends a timer when it falls due (``harftet.queues.TimerQueue``)."""

    def schedule(self, timer: Timer, now: float) -> None: ...


class Advance(Protocol):
    """Applies a table's due event (``harftet.tables.deadlines.Deadlines.advance``)."""

    def __call__(self, table_id: str, version: int | None = None) -> _Written: ...


class _Written(Protocol):
    @property
    def status(self) -> str: ...

    @property
    def stored(self) -> StoredTable: ...


Fired = Literal["committed", "unchanged", "requeued", "stale", "failed"]
SAME_DUE = 0.001  # seconds: a due read back from a message body is the one the table holds


@dataclass(eq=False)
class TimerFiring:
    """The timer function's work: fire each timer of a batch side by side, never sleeping."""

    advance: Advance
    queue: Scheduler | None
    clock: Callable[[], float]

    def fire(self, timer: Timer) -> Fired:
        """Apply the table's due event when ``timer`` falls due; send it again when it came
        early (beyond SQS's longest delay, or a clock's skew); drop it when the table holds
        another deadline now (that deadline's own message is on its way)."""
        now = self.clock()
        if timer.due > now:
            self._again(timer, now)
            return "requeued"
        written = self.advance(timer.table_id)
        if written.status != "unchanged":
            return written.status  # type: ignore[return-value]
        stored = written.stored
        due = next_due(stored.table)
        if due is None:
            return "stale"
        if abs(due - timer.due) > SAME_DUE:
            asked = stored.timer_due
            if asked is None or abs(asked / 1000 - timer.due) > SAME_DUE:
                return "stale"  # the table's deadline has a message of its own
            if due <= self.clock():  # due, yet nothing to apply: never a message in a loop
                return "unchanged"
            # the table's later deadlines leaned on this message: it goes on to the one now
            self._again(Timer(timer.table_id, stored.version, due), self.clock())
            return "requeued"
        if due > self.clock():  # the same deadline, not due yet by the table's clock
            self._again(timer, self.clock())
            return "requeued"
        return "unchanged"

    def fire_batch(self, timers: Sequence[Timer]) -> list[Fired]:
        """Fire every timer at once (one thread each: the batch is at most SQS's 10); a timer
        that raises is ``failed`` (SQS retries it), the others stand."""

        def one(timer: Timer) -> Fired:
            try:
                return self.fire(timer)
            except Exception:
                logger.exception("a timer failed", extra={"tableId": timer.table_id})
                return "failed"

        if len(timers) <= 1:
            return [one(t) for t in timers]
        with ThreadPoolExecutor(len(timers)) as pool:
            return list(pool.map(one, timers))

    def _again(self, timer: Timer, now: float) -> None:
        if self.queue is not None:
            self.queue.schedule(timer, now)
