"""The SQS queues the functions hand work to: timers (a table's next deadline) and
notifications (to the notifier). boto3 ``sqs`` clients; nothing else here speaks SQS."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

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


class Message(Protocol):
    """What a queue carries: its body."""

    def body(self) -> str: ...


class TimerQueue:
    """Schedules timers on an SQS queue."""

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


class NotifyQueue:
    """Puts notifications on the notify queue, ten to a request."""

    def __init__(self, client: Any, queue_url: str) -> None:
        self._client = client
        self._url = queue_url

    def send(self, notifications: Sequence[Message], delay: int = 0) -> None:
        for start in range(0, len(notifications), 10):
            batch = notifications[start : start + 10]
            entries = [
                {"Id": str(i), "MessageBody": n.body(), "DelaySeconds": delay}
                for i, n in enumerate(batch)
            ]
            answer = self._client.send_message_batch(QueueUrl=self._url, Entries=entries)
            if answer.get("Failed"):
                raise RuntimeError(f"the notify queue refused {len(answer['Failed'])} messages")

    def change_visibility(self, receipt: str, seconds: int) -> None:
        """Bring a received message back after ``seconds`` (a delivery to retry later)."""
        self._client.change_message_visibility(
            QueueUrl=self._url, ReceiptHandle=receipt, VisibilityTimeout=seconds
        )
