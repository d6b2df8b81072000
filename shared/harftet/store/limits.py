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
