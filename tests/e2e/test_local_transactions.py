"""The local stack's DynamoDB keeps TransactWriteItems all-or-nothing without copying tables.

moto backs up whole tables (every item and stream record) before each transaction; the local
stack backs up only the items a transaction names (`dynamo.cheap_transactions`). These tests
hold it to DynamoDB's answer: a cancelled transaction leaves items and stream as they were, a
successful one writes everything, and a stream reader keeps reading across both.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from harftet.localstack.dynamo import MotoDynamo


@pytest.fixture(scope="module")
def dynamo() -> Iterator[Any]:
    server = MotoDynamo()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _table(client: Any, *, range_key: bool) -> str:
    name = f"tx-{uuid.uuid4().hex[:8]}"
    schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
    attributes = [{"AttributeName": "pk", "AttributeType": "S"}]
    if range_key:
        schema.append({"AttributeName": "sk", "KeyType": "RANGE"})
        attributes.append({"AttributeName": "sk", "AttributeType": "S"})
    client.create_table(
        TableName=name,
        KeySchema=schema,
        AttributeDefinitions=attributes,
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )
    return name


def _everything(client: Any, table: str) -> list[dict[str, Any]]:
    return sorted(client.scan(TableName=table)["Items"], key=repr)


def _stream_reader(dynamo: Any, table: str) -> tuple[Any, str]:
    streams = dynamo.client("dynamodbstreams")
    arn = dynamo.client().describe_table(TableName=table)["Table"]["LatestStreamArn"]
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(
        StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON"
    )["ShardIterator"]
    return streams, iterator


def _read(streams: Any, iterator: str) -> tuple[list[dict[str, Any]], str]:
    page = streams.get_records(ShardIterator=iterator)
    return page["Records"], page["NextShardIterator"]


def test_a_cancelled_transaction_leaves_items_and_stream_as_they_were(dynamo: Any) -> None:
    client = dynamo.client()
    seats, players = _table(client, range_key=True), _table(client, range_key=False)
    client.put_item(TableName=seats, Item={"pk": {"S": "t1"}, "sk": {"S": "a"}, "v": {"N": "1"}})
    client.put_item(TableName=players, Item={"pk": {"S": "p1"}, "held": {"N": "19"}})
    streams, iterator = _stream_reader(dynamo, seats)
    written, iterator = _read(streams, iterator)
    assert [r["eventName"] for r in written] == ["INSERT"]
    before = (_everything(client, seats), _everything(client, players))

    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.transact_write_items(
            TransactItems=[
                {  # passes and is written first, then undone
                    "Update": {
                        "TableName": seats,
                        "Key": {"pk": {"S": "t1"}, "sk": {"S": "a"}},
                        "UpdateExpression": "SET v = :two",
                        "ExpressionAttributeValues": {":two": {"N": "2"}},
                    }
                },
                {"Put": {"TableName": seats, "Item": {"pk": {"S": "t2"}, "sk": {"S": "b"}}}},
                {  # fails: the player already holds 19, the limit is 19 here
                    "Update": {
                        "TableName": players,
                        "Key": {"pk": {"S": "p1"}},
                        "UpdateExpression": "ADD held :one",
                        "ConditionExpression": "held < :max",
                        "ExpressionAttributeValues": {":one": {"N": "1"}, ":max": {"N": "19"}},
                    }
                },
            ]
        )

    assert (_everything(client, seats), _everything(client, players)) == before
    assert _read(streams, iterator)[0] == []  # nothing of the cancelled transaction is read
    client.put_item(TableName=seats, Item={"pk": {"S": "t3"}, "sk": {"S": "c"}})
    later, _ = _read(streams, iterator)  # the same iterator chain goes on reading
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in later] == ["t3"]


def test_a_transaction_that_passes_writes_every_item_and_its_stream_records(dynamo: Any) -> None:
    client = dynamo.client()
    table = _table(client, range_key=False)
    client.put_item(TableName=table, Item={"pk": {"S": "a"}, "n": {"N": "1"}})
    streams, iterator = _stream_reader(dynamo, table)
    _, iterator = _read(streams, iterator)

    client.transact_write_items(
        TransactItems=[
            {
                "Update": {
                    "TableName": table,
                    "Key": {"pk": {"S": "a"}},
                    "UpdateExpression": "ADD n :one",
                    "ConditionExpression": "n = :one",
                    "ExpressionAttributeValues": {":one": {"N": "1"}},
                }
            },
            {"Put": {"TableName": table, "Item": {"pk": {"S": "b"}}}},
            {"Delete": {"TableName": table, "Key": {"pk": {"S": "missing"}}}},
        ]
    )

    assert _everything(client, table) == [
        {"pk": {"S": "a"}, "n": {"N": "2"}},
        {"pk": {"S": "b"}},
    ]
    records, _ = _read(streams, iterator)
    assert [(r["eventName"], r["dynamodb"]["Keys"]["pk"]["S"]) for r in records] == [
        ("MODIFY", "a"),
        ("INSERT", "b"),
    ]


def test_two_operations_on_one_item_are_refused_and_change_nothing(dynamo: Any) -> None:
    client = dynamo.client()
    table = _table(client, range_key=False)
    client.put_item(TableName=table, Item={"pk": {"S": "a"}, "n": {"N": "1"}})
    update = {
        "TableName": table,
        "Key": {"pk": {"S": "a"}},
        "UpdateExpression": "ADD n :one",
        "ExpressionAttributeValues": {":one": {"N": "1"}},
    }
    with pytest.raises(client.exceptions.ClientError, match="ValidationException"):
        client.transact_write_items(TransactItems=[{"Update": update}, {"Update": update}])
    assert _everything(client, table) == [{"pk": {"S": "a"}, "n": {"N": "1"}}]
