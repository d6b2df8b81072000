"""template.yaml's pieces for profiles, leaderboards and the operator API (harftet.profiles,
harftet.moderation)."""

from __future__ import annotations

from harftet.store.profiles import INDEX
from harftet.store.schema import load_template


def test_the_board_index_is_a_sparse_sorted_gsi_on_the_players_table() -> None:
    props = load_template()["Resources"]["PlayersTable"]["Properties"]
    (index,) = [i for i in props["GlobalSecondaryIndexes"] if i["IndexName"] == INDEX]
    assert index["KeySchema"] == [
        {"AttributeName": "board", "KeyType": "HASH"},
        {"AttributeName": "score", "KeyType": "RANGE"},
    ]
    types = {a["AttributeName"]: a["AttributeType"] for a in props["AttributeDefinitions"]}
    assert types["board"] == "S" and types["score"] == "N"
    assert props["TimeToLiveSpecification"] == {"AttributeName": "expiresAt", "Enabled": True}


def test_the_operator_api_takes_only_iam_signed_callers_and_the_functions_may_query_it() -> None:
    resources = load_template()["Resources"]
    operator = resources["OperatorApi"]
    assert operator["Type"] == "AWS::Serverless::Api"
    assert operator["Properties"]["Auth"]["DefaultAuthorizer"] == "AWS_IAM"
    policy = resources["FunctionAccessPolicy"]["Properties"]["PolicyDocument"]["Statement"][0]
    assert {"Fn::Sub": "${PlayersTable.Arn}/index/*"} in policy["Resource"]


def test_the_local_stack_creates_the_board_index_from_the_template(dynamodb) -> None:
    table = dynamodb.describe_table(TableName="harftet-players")["Table"]
    assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == [INDEX]
