"""The WebSocket connections table: who is connected to which table (index by table).

Beside each connection's item, a player's ``presence#<playerId>`` item lists their open
connections (one attribute ``c:<connectionId>`` = the table, "" for a player's own lobby
connection) and the presence last announced to their friends (``st``). It has neither
``tableId`` nor ``playerId``, so the two indexes never hold it. It makes a player's own
connections a consistent GetItem (the indexes lag) and every friend's a BatchGetItem of 100
players (harftet.accounts.presence): one more write per connect and per disconnect."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from .items import deserialize, query_items, serialize

CONNECTION_TTL = 3 * 3600  # API Gateway closes a WebSocket after 2 hours at the latest
PRESENCE = "presence#"
SOCKET = "c:"
BATCH = 100  # BatchGetItem's most keys


class ConnectionStore:
    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._name = table_name

    @property
    def table_name(self) -> str:
        """The connections table (phrase and code counters live there too)."""
        return self._name

    def add(self, connection_id: str, table_id: str, player_id: str, now: float) -> None:
        """Remember a live connection."""
        item: dict[str, Any] = {
            "connectionId": connection_id,
            "playerId": player_id,
            # to the millisecond: the fan-out compares it with when a table version was stored
            "connectedAt": Decimal(f"{now:.3f}"),
            "expiresAt": int(now) + CONNECTION_TTL,
        }
        if table_id:  # none: a player's own (lobby) connection, in no table's index
            item["tableId"] = table_id
        self._client.put_item(TableName=self._name, Item=serialize(item))
        self._client.update_item(
            TableName=self._name,
            Key={"connectionId": {"S": PRESENCE + player_id}},
            UpdateExpression="SET #c = :t, expiresAt = :e",
            ExpressionAttributeNames={"#c": SOCKET + connection_id},
            ExpressionAttributeValues=serialize({":t": table_id, ":e": int(now) + CONNECTION_TTL}),
        )

    def remove(self, connection_id: str) -> dict[str, Any] | None:
        """Forget a connection; returns what it was, or None if it was already gone."""
        response = self._client.delete_item(
            TableName=self._name,
            Key={"connectionId": {"S": connection_id}},
            ReturnValues="ALL_OLD",
        )
        old = response.get("Attributes")
        if not old:
            return None
        found = deserialize(old)
        if "playerId" in found:
            try:  # a presence item that is gone (a deleted player) is not made again
                self._client.update_item(
                    TableName=self._name,
                    Key={"connectionId": {"S": PRESENCE + str(found["playerId"])}},
                    UpdateExpression="REMOVE #c",
                    ConditionExpression="attribute_exists(connectionId)",
                    ExpressionAttributeNames={"#c": SOCKET + connection_id},
                )
            except ClientError as error:
                if error.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                    raise
        return found

    # -- presence (harftet.accounts.presence) --------------------------------------------
    def sockets(self, player_id: str) -> dict[str, str]:
        """A player's open connections → their table ("" for a lobby connection), read
        consistently (what a connect just wrote is in it)."""
        item = self._client.get_item(
            TableName=self._name,
            Key={"connectionId": {"S": PRESENCE + player_id}},
            ConsistentRead=True,
        ).get("Item")
        return _sockets(deserialize(item)) if item else {}

    def sockets_of(self, player_ids: list[str]) -> dict[str, dict[str, str]]:
        """``sockets`` of many players: one BatchGetItem per 100 (players with no open
        connection are left out)."""
        found: dict[str, dict[str, str]] = {}
        ids = sorted(set(player_ids))
        for start in range(0, len(ids), BATCH):
            keys = [{"connectionId": {"S": PRESENCE + p}} for p in ids[start : start + BATCH]]
            request: dict[str, Any] = {self._name: {"Keys": keys, "ConsistentRead": True}}
            for _ in range(8):  # unprocessed keys (throttling): asked again
                response = self._client.batch_get_item(RequestItems=request)
                for raw in response.get("Responses", {}).get(self._name, []):
                    item = deserialize(raw)
                    sockets = _sockets(item)
                    if sockets:
                        found[str(item["connectionId"])[len(PRESENCE) :]] = sockets
                request = response.get("UnprocessedKeys") or {}
                if not request:
                    break
        return found

    def forget_presence(self, player_id: str) -> None:
        """Drop the player's presence item (a deleted player: nothing of them is left)."""
        self._client.delete_item(
            TableName=self._name, Key={"connectionId": {"S": PRESENCE + player_id}}
        )

    def swap_presence(self, player_id: str, state: str, now: float) -> str | None:
        """Store ``state`` as the presence last announced; answers the one before it."""
        response = self._client.update_item(
            TableName=self._name,
            Key={"connectionId": {"S": PRESENCE + player_id}},
            UpdateExpression="SET st = :s, expiresAt = :e",
            ExpressionAttributeValues=serialize({":s": state, ":e": int(now) + CONNECTION_TTL}),
            ReturnValues="ALL_OLD",  # (moto leaves an unchanged value out of UPDATED_OLD)
        )
        old = response.get("Attributes", {}).get("st")
        return str(old["S"]) if old else None

    def get(self, connection_id: str) -> dict[str, Any] | None:
        """One connection, or None."""
        response = self._client.get_item(
            TableName=self._name, Key={"connectionId": {"S": connection_id}}
        )
        item = response.get("Item")
        return deserialize(item) if item else None

    def for_player(self, player_id: str) -> list[dict[str, Any]]:
        """Every live connection of a player, whatever table (player-index: the ids and
        ``tableId``)."""
        return self._on_index("player-index", "playerId", player_id)

    def for_table(self, table_id: str) -> list[dict[str, Any]]:
        """Every live connection watching a table (index query, never a Scan)."""
        return self._on_index("table-index", "tableId", table_id)

    def _on_index(self, index: str, key: str, value: str) -> list[dict[str, Any]]:
        """Every item of ``index`` whose ``key`` is ``value``, all pages."""
        query = {
            "TableName": self._name,
            "IndexName": index,
            "KeyConditionExpression": f"{key} = :v",
            "ExpressionAttributeValues": {":v": {"S": value}},
        }
        return [deserialize(i) for i in query_items(self._client, query)]


def _sockets(item: dict[str, Any]) -> dict[str, str]:
    return {k[len(SOCKET) :]: str(v) for k, v in item.items() if k.startswith(SOCKET)}
