"""The other AWS services the application reaches through ``App(aws=...)``, in memory: SQS as
its queues use it (``harftet.queues``: delayed messages, batches of ten, a received message
brought back by its visibility) and SNS mobile push (``harftet.notify.deliver.MobilePush``:
one endpoint per device token, a disabled or unknown endpoint refused)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .values import refused

VISIBILITY = 30  # a queue's default visibility timeout, seconds
_ids = itertools.count(1)


@dataclass
class Message:
    id: str
    body: str
    visible_at: float
    receipt: str = ""


class FakeSqs:
    """Queues by URL (``queues``), on ``clock`` (delays and visibility).  ``drain(url)``
    takes every message visible now, as a test delivers what the local stack would."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.queues: dict[str, list[Message]] = {}

    def send_message(
        self, QueueUrl: str, MessageBody: str, DelaySeconds: int = 0, **_: Any
    ) -> dict[str, Any]:
        message = Message(f"m-{next(_ids)}", MessageBody, self.clock() + DelaySeconds)
        self.queues.setdefault(QueueUrl, []).append(message)
        return {"MessageId": message.id}

    def send_message_batch(self, QueueUrl: str, Entries: list[dict[str, Any]]) -> dict[str, Any]:
        if len(Entries) > 10:
            raise refused("AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "SendMessageBatch")
        sent = []
        for entry in Entries:
            delay = entry.get("DelaySeconds", 0)
            answer = self.send_message(QueueUrl, entry["MessageBody"], delay)
            sent.append({"Id": entry["Id"], **answer})
        return {"Successful": sent, "Failed": []}

    def receive_message(
        self, QueueUrl: str, MaxNumberOfMessages: int = 1, VisibilityTimeout: int = VISIBILITY,
        **_: Any,
    ) -> dict[str, Any]:  # fmt: skip
        now = self.clock()
        visible = [m for m in self.queues.get(QueueUrl, []) if m.visible_at <= now]
        found = []
        for message in visible[:MaxNumberOfMessages]:
            message.visible_at = now + VisibilityTimeout
            message.receipt = f"r-{next(_ids)}"
            found.append({"MessageId": message.id, "ReceiptHandle": message.receipt,
                          "Body": message.body})  # fmt: skip
        return {"Messages": found} if found else {}

    def _received(self, QueueUrl: str, ReceiptHandle: str) -> Message:
        for message in self.queues.get(QueueUrl, []):
            if message.receipt and message.receipt == ReceiptHandle:
                return message
        raise refused("ReceiptHandleIsInvalid", "ChangeMessageVisibility")

    def change_message_visibility(
        self, QueueUrl: str, ReceiptHandle: str, VisibilityTimeout: int
    ) -> dict[str, Any]:
        self._received(QueueUrl, ReceiptHandle).visible_at = self.clock() + VisibilityTimeout
        return {}

    def delete_message(self, QueueUrl: str, ReceiptHandle: str) -> dict[str, Any]:
        self.queues[QueueUrl].remove(self._received(QueueUrl, ReceiptHandle))
        return {}

    def drain(self, url: str) -> list[str]:
        """The bodies of the messages visible now, taken off the queue."""
        now = self.clock()
        kept = self.queues.get(url, [])
        self.queues[url] = [m for m in kept if m.visible_at > now]
        return [m.body for m in kept if m.visible_at <= now]


@dataclass
class Endpoint:
    application: str
    token: str
    enabled: bool = True
    messages: list[str] = field(default_factory=list)


class FakeSns:
    """Platform applications and their endpoints (``endpoints``: ARN → token, whether it
    is enabled and the messages published to it)."""

    def __init__(self) -> None:
        self.applications: dict[str, str] = {}  # ARN → platform
        self.endpoints: dict[str, Endpoint] = {}

    def create_platform_application(
        self, Name: str, Platform: str, Attributes: dict[str, str]
    ) -> dict[str, Any]:
        arn = f"arn:aws:sns:us-east-1:123456789012:app/{Platform}/{Name}"
        self.applications[arn] = Platform
        return {"PlatformApplicationArn": arn}

    def create_platform_endpoint(
        self, PlatformApplicationArn: str, Token: str, **_: Any
    ) -> dict[str, Any]:
        if PlatformApplicationArn not in self.applications:
            raise refused("NotFound", "CreatePlatformEndpoint")
        for arn, endpoint in self.endpoints.items():
            if endpoint.application == PlatformApplicationArn and endpoint.token == Token:
                return {"EndpointArn": arn}  # the same token: the same endpoint
        platform = self.applications[PlatformApplicationArn]
        arn = f"arn:aws:sns:us-east-1:123456789012:endpoint/{platform}/e-{next(_ids)}"
        self.endpoints[arn] = Endpoint(PlatformApplicationArn, Token)
        return {"EndpointArn": arn}

    def set_endpoint_attributes(self, EndpointArn: str, Attributes: dict[str, str]) -> None:
        if EndpointArn not in self.endpoints:
            raise refused("NotFound", "SetEndpointAttributes")
        if "Enabled" in Attributes:
            self.endpoints[EndpointArn].enabled = Attributes["Enabled"].lower() == "true"

    def delete_endpoint(self, EndpointArn: str) -> None:
        self.endpoints.pop(EndpointArn, None)  # SNS: an unknown endpoint is no error

    def publish(self, TargetArn: str, Message: str, **_: Any) -> dict[str, Any]:
        endpoint = self.endpoints.get(TargetArn)
        if endpoint is None:
            raise refused("NotFound", "Publish", "Endpoint does not exist")
        if not endpoint.enabled:
            raise refused("EndpointDisabled", "Publish", "Endpoint is disabled")
        endpoint.messages.append(Message)
        return {"MessageId": f"m-{next(_ids)}"}

    def messages(self, arn: str) -> list[str]:
        """What was published to the endpoint ``arn``, in order."""
        return list(self.endpoints[arn].messages)


class FakeAws:
    """``App(aws=...)``: the process's one client of each service, in memory."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.sqs = FakeSqs(clock)
        self.sns = FakeSns()

    def __call__(self, service: str) -> Any:
        if service not in ("sqs", "sns"):
            raise ValueError(f"no fake of {service}")
        return getattr(self, service)
