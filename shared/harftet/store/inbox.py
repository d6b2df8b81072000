"""The mail table's inbox items: each player's tables, one item per (player, table), and the
"1 hour before your deadline" reminders' sparse index (`harftet.inbox` decides what they say).

Item: ``playerId`` + ``sk = "table#<tableId>"``, ``rank`` (orders the local index
``rank-index`` as the inbox shows it), ``version`` (an older version never overwrites a newer
one), ``pace``, ``status``, ``entry`` (what the inbox shows, as JSON), ``expiresAt`` (TTL) and,
while a reminder waits, ``remind`` (a shard) and ``remindAt`` (ms) for ``remind-index``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError

from .items import deserialize, query_items

TABLE = "table#"
REMIND = "remind"
REMIND_SHARDS = 4  # the reminder index's partitions


@dataclass(frozen=True, slots=True)
class InboxItem:
    """One table in one player's inbox, at a version of the table."""

    player_id: str
    table_id: str
    version: int
    rank: str
    pace: str
    status: str
    entry: dict[str, Any]
    expires_at: int | None = None
    remind_shard: int | None = None
    remind_at: int | None = None  # ms


@dataclass(frozen=True, slots=True)
class DueReminder:
    """A reminder the index says is due: whose, of which table, and when (ms)."""

    player_id: str
    table_id: str
    remind_at: int


def _failed_condition(error: ClientError) -> bool:
    return error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


def _key(player_id: str, table_id: str) -> dict[str, Any]:
    return {"playerId": {"S": player_id}, "sk": {"S": TABLE + table_id}}


def _to_item(item: InboxItem) -> dict[str, Any]:
    stored: dict[str, Any] = {
        **_key(item.player_id, item.table_id),
        "rank": {"S": item.rank},
        "version": {"N": str(item.version)},
        "pace": {"S": item.pace},
        "status": {"S": item.status},
        "entry": {"S": json.dumps(item.entry, ensure_ascii=False, separators=(",", ":"))},
    }
    if item.expires_at is not None:
        stored["expiresAt"] = {"N": str(item.expires_at)}
    if item.remind_shard is not None and item.remind_at is not None:
        stored[REMIND] = {"S": f"{REMIND}#{item.remind_shard}"}
        stored["remindAt"] = {"N": str(item.remind_at)}
    return stored


def _from_item(raw: dict[str, Any]) -> InboxItem:
    remind = raw.get(REMIND)
    return InboxItem(
        player_id=raw["playerId"]["S"],
        table_id=raw["sk"]["S"].removeprefix(TABLE),
        version=int(raw["version"]["N"]),
        rank=raw["rank"]["S"],
        pace=raw["pace"]["S"],
        status=raw["status"]["S"],
        entry=json.loads(raw["entry"]["S"]),
        expires_at=int(raw["expiresAt"]["N"]) if "expiresAt" in raw else None,
        remind_shard=int(remind["S"].split("#")[1]) if remind else None,
        remind_at=int(raw["remindAt"]["N"]) if "remindAt" in raw else None,
    )


class InboxStore:
    """Inbox items of the mail table (a boto3 low-level DynamoDB client)."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._name = table_name

    def put(self, item: InboxItem) -> bool:
        """Store ``item`` unless the player's item of that table is at its version or newer;
        whether it was written."""
        try:
            self._client.put_item(
                TableName=self._name,
                Item=_to_item(item),
                ConditionExpression="attribute_not_exists(#v) OR #v < :v",
                ExpressionAttributeNames={"#v": "version"},
                ExpressionAttributeValues={":v": {"N": str(item.version)}},
            )
        except ClientError as error:
            if not _failed_condition(error):
                raise
            return False
        return True

    def delete_older(self, player_id: str, table_id: str, version: int) -> None:
        """Remove the player's item of the table if it is older than ``version``."""
        try:
            self._client.delete_item(
                TableName=self._name,
                Key=_key(player_id, table_id),
                ConditionExpression="#v < :v",
                ExpressionAttributeNames={"#v": "version"},
                ExpressionAttributeValues={":v": {"N": str(version)}},
            )
        except ClientError as error:
            if not _failed_condition(error):
                raise

    def page(
        self, player_id: str, limit: int, after: dict[str, str] | None = None
    ) -> tuple[list[InboxItem], dict[str, str] | None]:
        """One page of the player's items in the inbox's order, and where the next page starts
        (plain strings: ``playerId``, ``sk``, ``rank``)."""
        kwargs: dict[str, Any] = {
            "TableName": self._name,
            "IndexName": "rank-index",
            "KeyConditionExpression": "playerId = :p",
            "ExpressionAttributeValues": {":p": {"S": player_id}},
            "ScanIndexForward": True,
            "Limit": limit,
            "ConsistentRead": True,  # a local index: what a request just wrote is in it
        }
        if after is not None:
            kwargs["ExclusiveStartKey"] = {k: {"S": v} for k, v in after.items()}
        answer = self._client.query(**kwargs)
        last = answer.get("LastEvaluatedKey")
        items = [_from_item(raw) for raw in answer.get("Items", [])]
        return items, {k: v["S"] for k, v in last.items()} if last else None

    def get(self, player_id: str, table_id: str) -> InboxItem | None:
        """The player's item of a table, read consistently (None: none)."""
        answer = self._client.get_item(
            TableName=self._name, Key=_key(player_id, table_id), ConsistentRead=True
        )
        raw = answer.get("Item")
        return _from_item(raw) if raw else None

    def due_reminders(self, now: float, limit: int = 100) -> list[DueReminder]:
        """The reminders due at ``now``: one Query of ``remind-index`` (keys only) per shard."""
        found: list[DueReminder] = []
        for shard in range(REMIND_SHARDS):
            answer = self._client.query(
                TableName=self._name,
                IndexName="remind-index",
                KeyConditionExpression="#r = :r AND remindAt <= :now",
                ExpressionAttributeNames={"#r": REMIND},
                ExpressionAttributeValues={
                    ":r": {"S": f"{REMIND}#{shard}"},
                    ":now": {"N": str(int(now * 1000))},
                },
                Limit=limit,
            )
            found += [
                DueReminder(
                    raw["playerId"]["S"],
                    raw["sk"]["S"].removeprefix(TABLE),
                    int(raw["remindAt"]["N"]),
                )
                for raw in answer.get("Items", [])
            ]
        return found

    def claim_reminder(self, item: DueReminder) -> InboxItem | None:
        """Take a due reminder off the index (only if it still is the one read); the item as
        it is now when taken, None when another sweeper took it or it moved on."""
        try:
            answer = self._client.update_item(
                TableName=self._name,
                Key=_key(item.player_id, item.table_id),
                UpdateExpression="REMOVE #r, remindAt",
                ConditionExpression="remindAt = :at",
                ExpressionAttributeNames={"#r": REMIND},
                ExpressionAttributeValues={":at": {"N": str(item.remind_at)}},
                ReturnValues="ALL_NEW",
            )
        except ClientError as error:
            if _failed_condition(error):
                return None
            raise
        return _from_item(answer["Attributes"])

    def forget(self, player_id: str) -> list[dict[str, Any]]:
        """Delete every item of the player's partition (inbox, subscriptions, devices,
        preferences, sent marks): for ``DELETE /players/me``. Answers what was deleted."""
        items = self.everything_of(player_id)
        for item in items:
            self._client.delete_item(
                TableName=self._name,
                Key={"playerId": {"S": player_id}, "sk": {"S": str(item["sk"])}},
            )
        return items

    def everything_of(self, player_id: str) -> list[dict[str, Any]]:
        """Every item of the player's partition of the mail table (inbox, subscriptions,
        devices, preferences, sent marks) as plain values: for the export and the deletion."""
        query = {
            "TableName": self._name,
            "KeyConditionExpression": "playerId = :p",
            "ExpressionAttributeValues": {":p": {"S": player_id}},
            "ConsistentRead": True,
        }
        return [deserialize(raw) for raw in query_items(self._client, query)]
