"""Rate-limit counters: one fixed-window counter per (kind, who, window) in DynamoDB.

The counters live in the connections table (disposable, TTL on ``expiresAt``): their keys
(``limit#...``) never meet an API Gateway connection id, and they carry no ``tableId``, so
the table index never sees them. One conditional ``UpdateItem`` per request: one write unit,
also when it is refused (a failed condition is billed as a write).
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

KEY_PREFIX = "limit#"


class LimitStore:
    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._name = table_name

    def hit(self, key: str, limit: int, expires_at: int) -> bool:
        """Count one request against ``key``; False (and nothing counted) once ``limit``
        requests have been counted. The item disappears after ``expires_at`` (TTL)."""
        try:
            self._client.update_item(
                TableName=self._name,
                Key={"connectionId": {"S": KEY_PREFIX + key}},
                UpdateExpression="ADD hits :one SET expiresAt = if_not_exists(expiresAt, :exp)",
                ConditionExpression="attribute_not_exists(hits) OR hits < :limit",
                ExpressionAttributeValues={
                    ":one": {"N": "1"},
                    ":exp": {"N": str(expires_at)},
                    ":limit": {"N": str(limit)},
                },
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def forget(self, key: str) -> None:
        """Delete the counter ``key`` (there or not)."""
        self._client.delete_item(
            TableName=self._name, Key={"connectionId": {"S": KEY_PREFIX + key}}
        )

    def hit_spaced(
        self, key: str, most: int, gap: float, now: float, kept: int
    ) -> tuple[int, float] | None:
        """Count one use of ``key`` unless it was used ``most`` times or less than ``gap``
        seconds ago: None when counted, else (uses so far, when it was last used). The item
        goes ``kept`` seconds after its last use (TTL). One conditional write either way."""
        try:
            self._client.update_item(
                TableName=self._name,
                Key={"connectionId": {"S": KEY_PREFIX + key}},
                UpdateExpression="ADD hits :one SET lastAt = :now, expiresAt = :exp",
                ConditionExpression=(
                    "attribute_not_exists(hits) OR (hits < :most AND lastAt <= :gap)"
                ),
                ExpressionAttributeValues={
                    ":one": {"N": "1"},
                    ":now": {"N": repr(float(now))},
                    ":gap": {"N": repr(float(now) - gap)},
                    ":most": {"N": str(most)},
                    ":exp": {"N": str(int(now) + kept)},
                },
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                raise
            old: dict[str, Any] = dict(error.response.get("Item") or {})  # type: ignore[call-overload]
            hits, last = old.get("hits", {}).get("N", "0"), old.get("lastAt", {}).get("N", "0")
            return int(hits), float(last)
        return None
