"""Tables built from template.yaml (harftet.store.schema) behave like the deployed ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError
from moto import mock_aws
from testkit import aws_session

from harftet.store import schema

NAMES = {
    "TablesTable": "schema-tables",
    "PlayersTable": "schema-players",
    "ConnectionsTable": "schema-connections",
    "LogTable": "schema-log",
    "MailTable": "schema-mail",
    "MatchTable": "schema-match",
}
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def client() -> Iterator[Any]:
    with mock_aws():
        yield aws_session().client("dynamodb")


@pytest.fixture
def tables(client: Any) -> Any:
    schema.create_tables(client, NAMES)
    return client


def _gsis(client: Any, logical_id: str) -> dict[str, dict[str, Any]]:
    table = client.describe_table(TableName=NAMES[logical_id])["Table"]
    return {gsi["IndexName"]: gsi for gsi in table.get("GlobalSecondaryIndexes", [])}


def _keys(index: dict[str, Any]) -> list[tuple[str, str]]:
    return [(k["AttributeName"], k["KeyType"]) for k in index["KeySchema"]]


def test_the_default_template_is_the_repos_template_yaml() -> None:
    assert schema.default_template_path() == REPO / "template.yaml"


def test_the_template_path_can_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(schema.TEMPLATE_ENV, str(tmp_path / "t.yaml"))
    assert schema.default_template_path() == tmp_path / "t.yaml"
    with pytest.raises(FileNotFoundError, match=r"t\.yaml"):
        schema.table_definitions()


def test_the_template_declares_its_tables_named_by_the_functions_environment() -> None:
    assert set(schema.table_definitions()) == set(NAMES)
    assert schema.table_env_vars() == {
        "TABLES_TABLE": "TablesTable",
        "PLAYERS_TABLE": "PlayersTable",
        "CONNECTIONS_TABLE": "ConnectionsTable",
        "MAIL_TABLE": "MailTable",
        "MATCH_TABLE": "MatchTable",
    }


def test_short_cloudformation_tags_are_read_as_intrinsics() -> None:
    template = schema.load_template()
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["TABLES_TABLE"] == {"Ref": "TablesTable"}
    assert "Fn::Sub" in variables["WS_ENDPOINT"]


def test_an_edited_template_is_read_again_and_no_caller_changes_anothers_copy(
    tmp_path: Path,
) -> None:
    """The parse is kept between calls (every test builds its tables from it), so a
    developer's edit to the file, or one caller's change to its dict, must not be missed or
    leak into the next caller's tables."""
    path = tmp_path / "template.yaml"
    table = "  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      BillingMode: {mode}\n"
    path.write_text("Resources:\n" + table.format(mode="PAY_PER_REQUEST"), encoding="utf-8")
    first = schema.table_definitions(path)
    assert first == {"T": {"BillingMode": "PAY_PER_REQUEST"}}
    first["T"]["BillingMode"] = "changed by a caller"
    assert schema.table_definitions(path)["T"]["BillingMode"] == "PAY_PER_REQUEST"

    path.write_text("Resources:\n" + table.format(mode="PROVISIONED"), encoding="utf-8")
    assert schema.table_definitions(path) == {"T": {"BillingMode": "PROVISIONED"}}
    tags = "Outputs:\n  X:\n    Value: !GetAtt T.Arn\n"
    path.write_text(path.read_text(encoding="utf-8") + tags, encoding="utf-8")
    assert schema.load_template(path)["Outputs"]["X"] == {"Value": {"Fn::GetAtt": ["T", "Arn"]}}


def test_created_tables_have_the_templates_keys_and_indexes(tables: Any) -> None:
    described = tables.describe_table(TableName=NAMES["TablesTable"])["Table"]
    assert _keys(described) == [("tableId", "HASH")]
    assert described["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    gsis = _gsis(tables, "TablesTable")
    assert _keys(gsis["lobby-index"]) == [("lobby", "HASH"), ("createdAt", "RANGE")]
    assert _keys(gsis["deadline-index"]) == [("due", "HASH"), ("deadline", "RANGE")]
    assert _keys(_gsis(tables, "ConnectionsTable")["table-index"]) == [("tableId", "HASH")]
    players = _gsis(tables, "PlayersTable")  # the leaderboards' sparse index (harftet.people)
    assert _keys(players["board-index"]) == [("board", "HASH"), ("score", "RANGE")]


def test_only_waiting_tables_appear_in_the_lobby_index_oldest_first(tables: Any) -> None:
    name = NAMES["TablesTable"]
    for table_id, created_at in (("b", "2"), ("a", "1")):
        item = {
            "tableId": {"S": table_id},
            "lobby": {"S": "waiting"},
            "createdAt": {"N": created_at},
        }
        tables.put_item(TableName=name, Item=item)
    tables.put_item(TableName=name, Item={"tableId": {"S": "playing"}, "createdAt": {"N": "0"}})

    found = tables.query(
        TableName=name,
        IndexName="lobby-index",
        KeyConditionExpression="lobby = :w",
        ExpressionAttributeValues={":w": {"S": "waiting"}},
    )["Items"]

    assert [item["tableId"]["S"] for item in found] == ["a", "b"]


def test_due_tables_are_found_by_deadline_keys_only(tables: Any) -> None:
    name = NAMES["TablesTable"]
    for table_id, deadline in (("late", 100), ("later", 300)):
        tables.put_item(
            TableName=name,
            Item={
                "tableId": {"S": table_id},
                "due": {"S": "due"},
                "deadline": {"N": str(deadline)},
                "version": {"N": "7"},
            },
        )

    found = tables.query(
        TableName=name,
        IndexName="deadline-index",
        KeyConditionExpression="#d = :due AND #t <= :now",
        ExpressionAttributeNames={"#d": "due", "#t": "deadline"},
        ExpressionAttributeValues={":due": {"S": "due"}, ":now": {"N": "200"}},
    )["Items"]

    # keys only: a change that moves the item's version and not its deadline writes nothing
    assert found == [{"tableId": {"S": "late"}, "due": {"S": "due"}, "deadline": {"N": "100"}}]


def test_connections_expire_through_ttl(tables: Any) -> None:
    ttl = tables.describe_time_to_live(TableName=NAMES["ConnectionsTable"])
    assert ttl["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED",
        "AttributeName": "expiresAt",
    }


def test_creating_again_keeps_existing_tables_and_their_items(tables: Any) -> None:
    tables.put_item(TableName=NAMES["PlayersTable"], Item={"playerId": {"S": "p1"}})
    schema.create_tables(tables, NAMES)
    item = tables.get_item(TableName=NAMES["PlayersTable"], Key={"playerId": {"S": "p1"}})
    assert "Item" in item


def test_creating_again_fails_when_existing_tables_are_not_expected(tables: Any) -> None:
    with pytest.raises(ClientError, match="ResourceInUseException"):
        schema.create_tables(tables, {"PlayersTable": NAMES["PlayersTable"]}, exist_ok=False)


def test_a_name_that_is_not_a_table_of_the_template_is_refused(client: Any) -> None:
    with pytest.raises(KeyError, match="RestFunction"):
        schema.create_tables(client, {"RestFunction": "nope"})
    assert client.list_tables()["TableNames"] == []


class _NoTtlEmulator:
    """A client like dynalite's: everything works except UpdateTimeToLive."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def update_time_to_live(self, **_: Any) -> None:
        error = {"Error": {"Code": "UnknownOperationException", "Message": ""}}
        raise ClientError(error, "UpdateTimeToLive")  # type: ignore[arg-type]


def test_an_emulator_without_ttl_still_gets_its_tables(client: Any) -> None:
    emulator: Any = _NoTtlEmulator(client)
    schema.create_tables(emulator, NAMES)
    assert sorted(client.list_tables()["TableNames"]) == sorted(NAMES.values())
