"""Delayed triggers: one SQS message per table version whose next timed event falls due.

The stream consumer schedules ``{tableId, version, due}`` with a per-message ``DelaySeconds``;
the timer function receives it when it falls due and applies the event only while the table
is still at that version (a trigger that fires after the table moved on does nothing).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

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
