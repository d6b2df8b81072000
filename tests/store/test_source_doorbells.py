"""The local stack's pollers skip an empty poll by looking at moto in their own process
(sources.py): the look must ring for every record and every receivable message — none may be
left unread until some later write — and stay silent otherwise."""

from __future__ import annotations

import time
from typing import Any

import pytest
from streams import FANOUT, STREAMS_ENDPOINT
from testkit import TABLE_NAMES, aws_session

from harftet.localstack.sources import Mapping, QueueSource, StreamSource

TIMER = Mapping("timer", "TimerQueue", "queue", batch_size=10)


@pytest.fixture
def world(dynamodb: Any) -> tuple[Any, StreamSource]:
    """The template's tables in in-process moto (the root fixture) and a source on the stream."""
    arn = dynamodb.describe_table(TableName=TABLE_NAMES["TablesTable"])["Table"]["LatestStreamArn"]
    streams = aws_session().client("dynamodbstreams", endpoint_url=STREAMS_ENDPOINT)
    return dynamodb, StreamSource(streams, arn, FANOUT)


def _put(client: Any, table_id: str, version: int) -> None:
    client.put_item(
        TableName=TABLE_NAMES["TablesTable"],
        Item={"tableId": {"S": table_id}, "version": {"N": str(version)}},
    )


def test_the_stream_doorbell_rings_for_every_write_and_only_then(
    world: tuple[Any, StreamSource],
) -> None:
    client, source = world
    assert source.doorbell
    source.poll()
    assert source.quiet()  # nothing written since: no request needed
    _put(client, "t1", 1)
    assert not source.quiet()
    assert [r["dynamodb"]["Keys"]["tableId"]["S"] for [r] in [source.poll()[0]]] == ["t1"]
    assert source.quiet()
    _put(client, "t1", 2)
    _put(client, "t2", 1)
    assert not source.quiet()
    assert sum(len(records) for records in source.poll()) == 2
    assert source.quiet()


def test_a_cancelled_transaction_leaves_it_silent_and_the_next_write_still_rings(
    world: tuple[Any, StreamSource],
) -> None:
    client, source = world
    name = TABLE_NAMES["TablesTable"]
    _put(client, "t1", 1)
    source.poll()
    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.transact_write_items(
            TransactItems=[
                {
                    "Put": {
                        "TableName": name,
                        "Item": {"tableId": {"S": "t2"}, "version": {"N": "1"}},
                    }
                },
                {
                    "Update": {
                        "TableName": name,
                        "Key": {"tableId": {"S": "t1"}},
                        "UpdateExpression": "SET version = :n",
                        "ConditionExpression": "version = :old",
                        "ExpressionAttributeValues": {":n": {"N": "3"}, ":old": {"N": "9"}},
                    }
                },
            ]
        )
    assert source.quiet()  # the cancelled writes left no record
    _put(client, "t3", 1)  # as many records as the cancelled put would have made: still new
    assert not source.quiet()
    [records] = source.poll()
    assert [r["dynamodb"]["Keys"]["tableId"]["S"] for r in records] == ["t3"]


def test_the_queue_doorbell_rings_once_a_delayed_message_is_due_and_not_while_in_flight() -> None:
    from moto import mock_aws

    with mock_aws():
        sqs = aws_session().client("sqs")
        url = sqs.create_queue(QueueName="harftet-timers")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        source = QueueSource(sqs, url, arn, TIMER)
        assert source.doorbell and source.quiet()
        sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=1)
        assert source.quiet()  # not receivable during its delay
        time.sleep(1.1)
        assert not source.quiet()
        [message] = source.receive()
        assert message["Body"] == "later"
        assert source.quiet()  # in flight: hidden for the visibility timeout
        sqs.send_message(QueueUrl=url, MessageBody="now")
        assert not source.quiet()


def test_without_moto_in_this_process_the_sources_poll_over_http() -> None:
    source = StreamSource(
        None, "arn:aws:dynamodb:us-east-1:123456789012:table/elsewhere/stream/x", FANOUT
    )
    assert not source.doorbell and not source.quiet()
    queue = QueueSource(None, "http://x", "arn:aws:sqs:us-east-1:123456789012:elsewhere", TIMER)
    assert not queue.doorbell and not queue.quiet()
