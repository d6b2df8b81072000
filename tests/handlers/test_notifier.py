"""The notifier function (functions/notifier/app.py) fed the SQS batches Lambda hands it
(events/notifier/): each notification is delivered once; a message that is no notification
is dropped; a delivery to retry is reported as that record's failure only."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from harftet.notify.deliver import RetryLater

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")
ROOT = Path(__file__).resolve().parents[2]


class Context:
    function_name = "harftet-NotifierFunction"
    function_version = "$LATEST"
    memory_limit_in_mb = 512
    aws_request_id = "52fdfc07-2182-154f-163f-5f0f9a621d72"
    log_group_name = "/aws/lambda/harftet-notifier"
    log_stream_name = "2026/01/01/[$LATEST]0123456789abcdef"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:harftet-notifier"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def _event(**values: Any) -> dict[str, Any]:
    text = (ROOT / "events" / "notifier" / "notification.json").read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", str(value))
    event: dict[str, Any] = json.loads(text)
    return event


@pytest.fixture
def notifier(dynamodb, table_names, monkeypatch):
    from harftet import wiring
    from harftet.store.schema import create_tables

    create_tables(dynamodb, {"MailTable": "harftet-mail"})
    monkeypatch.setitem(os.environ, "MAIL_TABLE", "harftet-mail")
    monkeypatch.setitem(os.environ, "TABLES_TABLE", table_names["TablesTable"])
    monkeypatch.setitem(os.environ, "PLAYERS_TABLE", table_names["PlayersTable"])
    monkeypatch.setitem(os.environ, "CONNECTIONS_TABLE", table_names["ConnectionsTable"])
    wiring.default_notifier.cache_clear()
    spec = importlib.util.spec_from_file_location(
        "harftet_handler_notifier_app", ROOT / "functions" / "notifier" / "app.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    wiring.default_notifier.cache_clear()


def test_a_notification_reaches_each_browser_once(notifier, monkeypatch) -> None:
    targets = notifier.notifier.targets
    monkeypatch.setattr(targets, "_clock", lambda: 1_800_000_000.0)
    sent: list[dict[str, Any]] = []
    notifier.notifier.web = lambda sub, payload: sent.append(payload) or "sent"
    notifier.notifier.clock = lambda: 1_796_205_600.0  # 2026-12-02 10:00 in Istanbul: awake
    sub = {"endpoint": "https://push.example.com/s/1", "keys": {"p256dh": "BN" + "A" * 85,
           "auth": "A" * 22}}  # fmt: skip
    targets.add_subscription("p1", sub, lang="tr", resolve=lambda host: ["142.250.74.78"])
    from harftet.wiring import default_service

    default_service().players.create("p1", "Ayşe", 1_796_205_600.0)  # "others" leaves her out
    event = _event(playerId="p1", tableId="T1", version=12, kind="gameEnd")
    assert notifier.handler(event, Context()) == {"batchItemFailures": []}
    assert notifier.handler(event, Context()) == {"batchItemFailures": []}  # redelivered
    assert [p["title"] for p in sent] == ["Oyun bitti"]
    assert sent[0]["body"].startswith("Harftet: Barış ile oynadığın oyun bitti.")


def test_a_delivery_to_retry_fails_only_its_record(notifier) -> None:
    def down(sub: dict[str, str], payload: dict[str, Any]) -> str:
        raise RetryLater("503")

    notifier.notifier.web = down
    notifier.notifier.clock = lambda: 1_796_205_600.0
    delays: list[tuple[str, int]] = []

    class Sqs:
        def change_message_visibility(self, QueueUrl, ReceiptHandle, VisibilityTimeout):
            delays.append((ReceiptHandle, VisibilityTimeout))

    notifier._sqs = lambda: Sqs()
    notifier.notifier.targets.add_subscription(
        "p1",
        {"endpoint": "https://push.example.com/s/2", "keys": {"p256dh": "BN" + "A" * 85,
         "auth": "A" * 22}},
        lang="tr", resolve=lambda host: ["142.250.74.78"],
    )  # fmt: skip
    event = _event(playerId="p1", tableId="T1", version=12, kind="gameEnd")
    bad = json.loads(json.dumps(event["Records"][0]))
    bad["messageId"], bad["body"] = "not-a-notification", "{}"
    event["Records"].append(bad)
    event["Records"][0]["attributes"]["ApproximateReceiveCount"] = "3"
    answer = notifier.handler(event, Context())
    assert answer == {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}
    assert delays == [("MessageReceiptHandle", 120)]  # backing off: 30, 60, 120 s...
