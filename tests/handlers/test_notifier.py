"""The notifier function (functions/notifier/app.py) fed the SQS batches Lambda hands it
(events/notifier/): each notification is delivered once; a message that is no notification
is dropped; a delivery to retry is reported as that record's failure only."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from testkit import LambdaContext

from harftet.identity import Caller
from harftet.notify.deliver import RetryLater
from harftet.queues import NotifyQueue

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")
ROOT = Path(__file__).resolve().parents[2]
NOTIFIER = LambdaContext("harftet-NotifierFunction")


def _event(**values: Any) -> dict[str, Any]:
    text = (ROOT / "events" / "notifier" / "notification.json").read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", str(value))
    event: dict[str, Any] = json.loads(text)
    return event


@pytest.fixture
def notifier(dynamodb, table_names, clock):
    """functions/notifier/app.py over this test's tables (with the mail table): its handler
    and the application it delivers with."""
    from types import SimpleNamespace

    from testkit import app_over, with_mail

    from harftet import bootstrap

    names = with_mail(dynamodb, table_names)
    app = app_over(dynamodb, names, clock, mail=True)
    app.subscriptions.resolve = lambda host: ["142.250.74.78"]
    bootstrap.install(app)
    spec = importlib.util.spec_from_file_location(
        "harftet_handler_notifier_app", ROOT / "functions" / "notifier" / "app.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield SimpleNamespace(handler=module.handler, app=app)
    bootstrap.install(None)


SUB = {"endpoint": "https://push.example.com/s/1", "keys": {"p256dh": "BN" + "A" * 85,
       "auth": "A" * 22}}  # fmt: skip


def test_a_notification_reaches_each_browser_once(notifier) -> None:
    app = notifier.app
    sent: list[dict[str, Any]] = []
    app.notifier.web = lambda sub, payload: sent.append(payload) or "sent"
    app.notifier.clock = lambda: 1_796_205_600.0  # 2026-12-02 10:00 in Istanbul: awake
    app.subscriptions.subscribe(Caller("p1", ""), SUB, "tr")
    app.stores.players.create("p1", "Ayşe", 1_796_205_600.0)  # "others" leaves her out
    event = _event(playerId="p1", tableId="T1", version=12, kind="gameEnd")
    assert notifier.handler(event, NOTIFIER) == {"batchItemFailures": []}
    assert notifier.handler(event, NOTIFIER) == {"batchItemFailures": []}  # redelivered
    assert [p["title"] for p in sent] == ["Oyun bitti"]
    assert sent[0]["body"].startswith("Harftet: Barış ile oynadığın oyun bitti.")


def test_a_delivery_to_retry_fails_only_its_record(notifier) -> None:
    def down(sub: Any, payload: dict[str, Any]) -> str:
        raise RetryLater("503")

    app = notifier.app
    app.notifier.web = down
    app.notifier.clock = lambda: 1_796_205_600.0
    delays: list[tuple[str, int]] = []

    class Sqs:
        def change_message_visibility(self, QueueUrl, ReceiptHandle, VisibilityTimeout):
            delays.append((ReceiptHandle, VisibilityTimeout))

    app.notify_queue = NotifyQueue(Sqs(), "url")
    app.subscriptions.subscribe(
        Caller("p1", ""), {**SUB, "endpoint": "https://push.example.com/s/2"}, "tr"
    )
    event = _event(playerId="p1", tableId="T1", version=12, kind="gameEnd")
    bad = json.loads(json.dumps(event["Records"][0]))
    bad["messageId"], bad["body"] = "not-a-notification", "{}"
    event["Records"].append(bad)
    event["Records"][0]["attributes"]["ApproximateReceiveCount"] = "3"
    answer = notifier.handler(event, NOTIFIER)
    assert answer == {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}
    assert delays == [("MessageReceiptHandle", 120)]  # backing off: 30, 60, 120 s...
