"""The local stack's moto serialises AttributeValues by plain key lookups
(``dynamo.quick_attribute_values``): every answer must be what moto's own path gives."""

from __future__ import annotations

import json
from typing import Any

import pytest
from streams import STREAMS_ENDPOINT
from testkit import aws_session

ITEM: dict[str, Any] = {
    "id": {"S": "t1"},
    "n": {"N": "-12.5"},
    "empty": {"S": ""},
    "blob": {"B": b"\x00\xffstate"},
    "names": {"SS": ["Ayşe", "Çağrı"]},
    "numbers": {"NS": ["1", "2"]},
    "blobs": {"BS": [b"a", b"\x01"]},
    "yes": {"BOOL": True},
    "no": {"BOOL": False},
    "none": {"NULL": True},
    "friends": {
        "M": {
            f"p{i}": {"M": {"since": {"N": str(i)}, "seen": {"L": [{"S": "x"}, {"BOOL": False}]}}}
            for i in range(30)
        }
    },
    "deep": {"L": [{"L": [{"M": {"a": {"B": b"z"}}}]}, {"NULL": True}]},
}


def _answers(client: Any, streams: Any) -> list[Any]:
    """What several operations answer, as the JSON a client receives (blobs as bytes)."""
    found = [
        client.get_item(TableName="t", Key={"id": {"S": "t1"}})["Item"],
        client.query(
            TableName="t",
            KeyConditionExpression="id = :i",
            ExpressionAttributeValues={":i": {"S": "t1"}},
        )["Items"],
        client.scan(TableName="t")["Items"],
        client.batch_get_item(RequestItems={"t": {"Keys": [{"id": {"S": "t1"}}]}})["Responses"],
        client.update_item(
            TableName="t",
            Key={"id": {"S": "t1"}},
            UpdateExpression="SET n = n",
            ReturnValues="ALL_NEW",
        )["Attributes"],
    ]
    arn = client.describe_table(TableName="t")["Table"]["LatestStreamArn"]
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(
        StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON"
    )["ShardIterator"]
    first = streams.get_records(ShardIterator=iterator)["Records"][0]["dynamodb"]  # the put
    found.append({key: first[key] for key in ("Keys", "NewImage", "SequenceNumber")})
    return json.loads(json.dumps(found, default=repr))


def test_quick_attribute_values_answer_exactly_as_moto_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from moto import mock_aws
    from moto.core.serialize import ResponseSerializer

    quick = ResponseSerializer._serialize_type_structure
    assert getattr(quick, "quick", False)  # installed for every test (tests/conftest.py)
    with mock_aws():
        client = aws_session().client("dynamodb")
        streams = aws_session().client("dynamodbstreams", endpoint_url=STREAMS_ENDPOINT)
        client.create_table(
            TableName="t",
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        )
        client.put_item(TableName="t", Item=ITEM)
        fast = _answers(client, streams)
        monkeypatch.setattr(ResponseSerializer, "_serialize_type_structure", quick.original)
        slow = _answers(client, streams)
    assert fast == slow
    assert fast[0] == json.loads(json.dumps(ITEM, default=repr))  # and both are the item


def test_quick_dispatch_gives_moto_its_own_module_list_and_handler_methods() -> None:
    """The local stack's moto reads its module list and each handler's methods once
    (``dynamo.quick_dispatch``): they must be what moto itself would find now."""
    from moto import backends
    from moto.core import responses
    from moto.dynamodb.responses import DynamoHandler
    from moto.sqs.responses import SQSResponse

    listing = backends.list_of_moto_modules
    assert getattr(listing, "quick", False), "tests/conftest.py installs quick_dispatch"
    modules = listing()
    assert list(modules) == list(listing.original())
    assert {"dynamodb", "sqs", "apigatewaymanagementapi"} <= set(modules)

    names = responses.method_names_from_class
    for handler in (DynamoHandler, SQSResponse):
        assert names(handler) == names.original(handler)
        assert names(handler) is names(handler)  # worked out once
    assert "transact_write_items" in names(DynamoHandler)
    assert "receive_message" in names(SQSResponse)


def test_quick_queues_list_the_receivable_messages_moto_lists() -> None:
    """Visible and due messages only: not those still delayed, nor those in flight; the same
    list as moto's own property (``dynamo.quick_queues``)."""
    from moto import mock_aws
    from moto.sqs.models import Queue, sqs_backends

    assert getattr(Queue.messages.fget, "quick", False), "tests/conftest.py installs quick_queues"
    with mock_aws():
        sqs = aws_session().client("sqs")
        url = sqs.create_queue(QueueName="timers")["QueueUrl"]
        for n in range(6):
            sqs.send_message(QueueUrl=url, MessageBody=f"due {n}")
        for n in range(4):
            sqs.send_message(QueueUrl=url, MessageBody=f"later {n}", DelaySeconds=600)
        taken = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2, VisibilityTimeout=600)
        assert len(taken["Messages"]) == 2
        queue = sqs_backends["123456789012"]["us-east-1"].queues["timers"]
        listed = [m.body for m in queue.messages]
        assert listed == [m.body for m in Queue.messages.fget.original(queue)]
        assert len(listed) == 4 and all(b.startswith("due") for b in listed)
        assert {b for b in listed} == {f"due {n}" for n in range(6)} - {
            m["Body"] for m in taken["Messages"]
        }
        names = ("delayed", "not_visible")  # the counts every SendMessage reads too
        counts = [getattr(Queue, f"approximate_number_of_messages_{n}").fget for n in names]
        assert [c(queue) for c in counts] == [c.original(queue) for c in counts] == [4, 2]
        again = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        assert sorted(m["Body"] for m in again) == sorted(listed)
