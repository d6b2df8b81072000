"""The WebSocket connections table: who is connected to which table (index by table)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from .items import deserialize, serialize

CONNECTION_TTL = 3 * 3600  # API Gateway closes a WebSocket after 2 hours at the latest


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
        item = {
            "connectionId": connection_id,
            "tableId": table_id,
            "playerId": player_id,
            # to the millisecond: the fan-out compares it with when a table version was stored
            "connectedAt": Decimal(f"{now:.3f}"),
            "expiresAt": int(now) + CONNECTION_TTL,
        }
        self._client.put_item(TableName=self._name, Item=serialize(item))

    def remove(self, connection_id: str) -> dict[str, Any] | None:
        """Forget a connection; returns what it was, or None if it was already gone."""
        response = self._client.delete_item(
            TableName=self._name,
            Key={"connectionId": {"S": connection_id}},
            ReturnValues="ALL_OLD",
        )
        old = response.get("Attributes")
        return deserialize(old) if old else None

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
        items: list[dict[str, Any]] = []
        kwargs: dict[str, Any] = {
            "TableName": self._name,
            "IndexName": index,
            "KeyConditionExpression": f"{key} = :v",
            "ExpressionAttributeValues": {":v": {"S": value}},
        }
        while True:
            page = self._client.query(**kwargs)
            items += [deserialize(i) for i in page.get("Items", [])]
            if "LastEvaluatedKey" not in page:
                return items
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
