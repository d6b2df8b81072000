"""Delayed triggers: one SQS message per deadline a table version sets.

The stream consumer schedules ``{tableId, version, due}`` with a per-message ``DelaySeconds``
when a version in its batch set the table's deadline (``deadline_set``: the item's ``dueV``);
a change that keeps the deadline (a draw, a reconnect) sends nothing, since the message already
on its way still stands for it. The timer function (``fire_batch``) receives it when it falls
due and applies the table's one due event, whatever version the table is at (applying a due
event is always right: the sweeper does the same); a message whose deadline the table no
longer has does nothing, and one that came early is sent again, never slept on.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from harftet.service import Service
    from harftet.store.tables import StoredTable

logger = logging.getLogger(__name__)

MAX_DELAY_SECONDS = 900  # SQS's limit; a later event is re-scheduled when this one arrives


@dataclass(frozen=True, slots=True)
class Timer:
    """A table's next timed event: due at ``due`` (epoch seconds) for ``version``."""

    table_id: str
    version: int
    due: float

    def body(self) -> str:
        """The message body."""
        return json.dumps({"tableId": self.table_id, "version": self.version, "due": self.due})

    @classmethod
    def parse(cls, body: str) -> Timer:
        """A timer from a message body; ValueError when it is not one."""
        data = json.loads(body)
        if not isinstance(data, dict):
            raise ValueError("a timer message is a JSON object")
        return cls(str(data["tableId"]), int(data["version"]), float(data["due"]))


class TimerQueue:
    """Schedules timers on an SQS queue (boto3 ``sqs`` client)."""

    def __init__(self, client: Any, queue_url: str) -> None:
        self._client = client
        self._url = queue_url

    def schedule(self, timer: Timer, now: float) -> None:
        """Deliver ``timer`` when it falls due (SQS delays are whole seconds: never early).
        An event beyond SQS's longest delay (a correspondence table's turn of hours or days)
        gets no message: the sweeper's deadline index fires it (docs/DEPLOY.md, "Timers of
        correspondence tables"), instead of a chain of a message every 15 minutes."""
        if timer.due - now > MAX_DELAY_SECONDS:
            return
        delay = min(MAX_DELAY_SECONDS, max(0, math.ceil(timer.due - now)))
        self._client.send_message(QueueUrl=self._url, MessageBody=timer.body(), DelaySeconds=delay)


def deadline_set(versions: Sequence[StoredTable]) -> bool:
    """Whether one of these consecutive versions of a table (oldest first) set its newest
    deadline, so that a timer must be sent for it; False when an earlier version set it (its
    timer is on its way). An item without ``dueV`` (written before it existed) says yes."""
    newest = versions[-1]
    return newest.due_version is None or newest.due_version >= versions[0].version


Fired = Literal["committed", "unchanged", "requeued", "stale", "failed"]
SAME_DUE = 0.001  # seconds: a due read back from a message body is the one the table holds


class TimerFiring:
    """The timer function's work: fire each timer of a batch side by side, never sleeping."""

    def __init__(
        self, service: Service, queue: TimerQueue | None, clock: Callable[[], float] | None = None
    ) -> None:
        self.service = service
        self.queue = queue
        self._clock = clock

    def clock(self) -> float:
        return self._clock() if self._clock is not None else self.service.clock()

    def fire(self, timer: Timer) -> Fired:
        """Apply the table's due event when ``timer`` falls due; send it again when it came
        early (beyond SQS's longest delay, or a clock's skew); drop it when the table holds
        another deadline now (that deadline's own message is on its way)."""
        now = self.clock()
        if timer.due > now:
            self._again(timer, now)
            return "requeued"
        written = self.service.advance(timer.table_id)
        if written.status != "unchanged":
            return written.status
        from harftet.timing import next_due

        due = next_due(written.stored.table)
        if due is None or abs(due - timer.due) > SAME_DUE:
            return "stale"
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
