"""The fakes of the other AWS services and of the tables' stream (tests/fakes/aws.py,
stream.py) against moto's: the app's queues on SQS (delays, batches of ten, a message brought
back by its visibility), SNS mobile push through ``MobilePush``, and the stream's records as
the fan-out reads them (each body runs on both)."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from botocore.exceptions import ClientError
from fakes import FakeSns, FakeSqs, FakeStream
from store_kit import seated, waiting
from streams import TableStream
from testkit import aws_session

from harftet.fanout import changes_from_stream
from harftet.notify.deliver import MobilePush
from harftet.queues import NotifyQueue, Timer, TimerQueue
from harftet.store.mail import Device
from harftet.store.writes import Commit


@pytest.fixture(params=["moto", "fakes"])
def aws(request: pytest.FixtureRequest) -> Iterator[Any]:
    """An SQS queue's URL, the sqs and sns clients, and ``messages(arn)``: what an SNS
    endpoint was sent."""
    if request.param == "fakes":
        sqs, sns = FakeSqs(), FakeSns()
        yield SimpleNamespace(sqs=sqs, sns=sns, url="https://sqs/q", messages=sns.messages)
        return
    from moto import mock_aws
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.sns import sns_backends

    with mock_aws():
        sqs, sns = aws_session().client("sqs"), aws_session().client("sns")
        url = sqs.create_queue(QueueName="harftet-notify")["QueueUrl"]
        endpoints = sns_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].platform_endpoints

        def messages(arn: str) -> list[str]:
            return list(endpoints[arn].messages.values())

        yield SimpleNamespace(sqs=sqs, sns=sns, url=url, messages=messages)


def _received(aws: Any) -> list[Any]:
    answer = aws.sqs.receive_message(QueueUrl=aws.url, MaxNumberOfMessages=10)
    return list(answer.get("Messages", []))


class Note:
    def __init__(self, n: int) -> None:
        self.n = n

    def body(self) -> str:
        return f'{{"n": {self.n}}}'


def test_queued_notifications_go_ten_to_a_request_and_come_back_when_let_go(aws):
    NotifyQueue(aws.sqs, aws.url).send([Note(n) for n in range(12)])
    first = _received(aws)
    assert len(first) == 10
    second = _received(aws)
    assert sorted(m["Body"] for m in first + second) == sorted(Note(n).body() for n in range(12))
    assert _received(aws) == []  # received: invisible for a while
    NotifyQueue(aws.sqs, aws.url).change_visibility(first[0]["ReceiptHandle"], 0)
    assert [m["Body"] for m in _received(aws)] == [first[0]["Body"]]
    with pytest.raises(ClientError):
        entries = [{"Id": str(i), "MessageBody": "x"} for i in range(11)]
        aws.sqs.send_message_batch(QueueUrl=aws.url, Entries=entries)


def test_a_timer_waits_for_its_delay_and_one_beyond_sqs_reach_is_not_sent(aws):
    timers = TimerQueue(aws.sqs, aws.url)
    timers.schedule(Timer("t1", 3, 1000.0), 1000.0)  # due now
    timers.schedule(Timer("t2", 4, 1045.0), 1000.0)  # in 45 s
    timers.schedule(Timer("t3", 5, 5000.0), 1000.0)  # beyond 15 minutes: the sweeper's
    [message] = _received(aws)
    assert Timer.parse(message["Body"]) == Timer("t1", 3, 1000.0)
    assert _received(aws) == []


def test_mobile_push_reaches_each_device_once_per_publish_until_disabled(aws):
    arn = aws.sns.create_platform_application(
        Name="harftet-fcm", Platform="GCM", Attributes={"PlatformCredential": "x"}
    )["PlatformApplicationArn"]
    mobile = MobilePush(aws.sns, {"fcm": arn, "apns": ""})
    token = "f" * 40
    endpoint = mobile.create_endpoint("fcm", token)
    assert mobile.create_endpoint("fcm", token) == endpoint  # one device, one endpoint
    assert mobile.create_endpoint("fcm", "g" * 40) != endpoint
    device = Device("d1", "fcm", endpoint)
    assert mobile(device, {"title": "Sıra sende", "body": "Kastet: sıra sende."}) == "sent"
    [message] = aws.messages(endpoint)
    assert "Kastet: sıra sende." in message
    aws.sns.set_endpoint_attributes(EndpointArn=endpoint, Attributes={"Enabled": "false"})
    assert mobile(device, {"title": "x", "body": "y"}) == "gone"
    assert mobile(Device("d2", "fcm", endpoint + "-none"), {"title": "x", "body": "y"}) == "gone"
    assert len(aws.messages(endpoint)) == 1


@pytest.fixture(params=["moto", "fakes"])
def streamed(request: pytest.FixtureRequest) -> Any:
    """(the stores, their tables' stream as Lambda hands it on)."""
    stores = request.getfixturevalue("stores_" + request.param)
    if request.param == "fakes":
        return stores, FakeStream(stores.tables)
    return stores, TableStream(stores.client, stores.settings.tables_table)


@pytest.fixture
def stores_fakes() -> Any:
    from fakes import FakeStores

    return FakeStores()


@pytest.fixture
def stores_moto(dynamodb: Any) -> Any:
    from testkit import TABLE_NAMES, test_settings

    from harftet.bootstrap import DynamoStores

    return DynamoStores(dynamodb, test_settings(TABLE_NAMES))


def test_the_stream_hands_on_each_version_with_the_one_it_replaced(streamed):
    stores, stream = streamed
    tables = stores.tables
    tables.create(waiting("t1"))
    first = tables.get("t1")
    sat = tables.save(first, seated(first.table), Commit(answered="sock"))
    tables.create(waiting("t2", "m2"))
    tables.save(sat, sat.table, Commit(move_id="p1:m"))
    [event] = stream.events()
    assert all(r["eventName"] in ("INSERT", "MODIFY") for r in event["Records"])
    changes = changes_from_stream(event)
    seen = [
        (c.stored.table.table_id, c.stored.version, c.old.version if c.old else None)
        for c in changes
    ]
    assert seen == [("t1", 1, None), ("t1", 2, 1), ("t2", 1, None), ("t1", 3, 2)]
    assert changes[1].stored.answered == "sock" and changes[3].stored.answered is None
    assert changes[1].stored.table == seated(first.table) and "p1:m" in changes[3].stored.moves
    assert stream.events() == []
    handed: list[Any] = []
    tables.save(tables.get("t2"), waiting("t2", "m2"))
    assert stream.deliver(handed.append) == 1 and stream.deliver(handed.append) == 0
    assert [(c.stored.version, c.old.version) for c in changes_from_stream(handed[0])] == [(2, 1)]
