"""A game's end writes several things to one player's item in one transaction (the rating,
the table leaving their set, their skill, their league place): DynamoDB takes one update per
item, so they are merged — with conditions DynamoDB accepts, however many there are."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from moto import mock_aws
from testkit import aws_session

from harftet.store.holdings import merged


def _update(n: int, condition: str) -> dict[str, Any]:
    return {
        "TableName": "players",
        "Key": {"playerId": {"S": "p1"}},
        "UpdateExpression": f"SET #a{n} = :v{n}",
        "ConditionExpression": condition.format(n=n),
        "ExpressionAttributeNames": {f"#a{n}": f"field{n}"},
        "ExpressionAttributeValues": {f":v{n}": {"N": str(n)}},
    }


@pytest.fixture
def client() -> Any:
    with mock_aws():
        client = aws_session().client("dynamodb")
        client.create_table(
            TableName="players",
            KeySchema=[{"AttributeName": "playerId", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "playerId", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        client.put_item(TableName="players", Item={"playerId": {"S": "p1"}})
        yield client


def test_four_conditional_writes_to_one_item_land_together(client: Any) -> None:
    updates = merged([_update(n, "attribute_not_exists(#a{n})") for n in (1, 2, 3, 4)])
    assert len(updates) == 1
    # one level of parentheses: DynamoDB refuses nested ones as "redundant parentheses" (a
    # correspondence game's end wrote rating, release, skill and league place: 500 before)
    assert updates[0]["ConditionExpression"] == " AND ".join(
        f"(attribute_not_exists(#a{n}))" for n in (1, 2, 3, 4)
    )
    client.transact_write_items(TransactItems=[{"Update": u} for u in updates])
    item = client.get_item(TableName="players", Key={"playerId": {"S": "p1"}})["Item"]
    assert {k: v["N"] for k, v in item.items() if k != "playerId"} == {
        "field1": "1",
        "field2": "2",
        "field3": "3",
        "field4": "4",
    }


def test_one_failed_condition_of_four_writes_nothing(client: Any) -> None:
    client.update_item(
        TableName="players",
        Key={"playerId": {"S": "p1"}},
        UpdateExpression="SET field3 = :x",
        ExpressionAttributeValues={":x": {"N": "9"}},
    )
    updates = merged([_update(n, "attribute_not_exists(#a{n})") for n in (1, 2, 3, 4)])
    with pytest.raises(ClientError, match="TransactionCanceled"):
        client.transact_write_items(TransactItems=[{"Update": u} for u in updates])
    item = client.get_item(TableName="players", Key={"playerId": {"S": "p1"}})["Item"]
    assert "field1" not in item and item["field3"]["N"] == "9"
