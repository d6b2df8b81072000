"""Players' reports on words, in the players table (`harftet.words.reports` decides them).

One item per word (``word#<WORD>``: a count per kind and the total), added to atomically; a
marker per (word, kind, reporter) (``wordreport#<WORD>#<kind>#<SHA-256 of the player id>``,
gone after a year: TTL) written in the same transaction, so a player counts once."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

MARKER_SECONDS = 365 * 24 * 3600
COUNTED = ("wrong", "missing", "reports")


class WordReportStore:
    """Word reports over the players table (a boto3 DynamoDB client)."""

    def __init__(self, client: Any, players_table: str) -> None:
        self._client = client
        self._table = players_table

    def add(self, word: str, kind: str, reporter_hash: str, now: float) -> bool:
        """Count one report of ``word`` as ``kind`` unless this reporter counted it already;
        whether it was counted."""
        marker = {
            "playerId": {"S": f"wordreport#{word}#{kind}#{reporter_hash}"},
            "expiresAt": {"N": str(int(now) + MARKER_SECONDS)},
        }
        count = {
            "TableName": self._table,
            "Key": {"playerId": {"S": f"word#{word}"}},
            "UpdateExpression": (
                "ADD #kind :one, reports :one SET word = :word, lastReportAt = :now"
            ),
            "ExpressionAttributeNames": {"#kind": kind},
            "ExpressionAttributeValues": {
                ":one": {"N": "1"},
                ":word": {"S": word},
                ":now": {"N": str(int(now))},
            },
        }
        once = {"TableName": self._table, "Item": marker}
        once["ConditionExpression"] = "attribute_not_exists(playerId)"
        try:
            self._client.transact_write_items(TransactItems=[{"Put": once}, {"Update": count}])
        except ClientError as error:
            reasons = error.response.get("CancellationReasons") or []
            first = reasons[0].get("Code") if reasons else None
            if error.response.get("Error", {}).get("Code") != "TransactionCanceledException" or (
                first != "ConditionalCheckFailed"
            ):
                raise
            return False  # this player reported this word so before (or this is a retry)
        return True

    def counts(self, word: str) -> dict[str, int]:
        """``{"wrong": n, "missing": n, "reports": n}`` of a word."""
        item = self._client.get_item(
            TableName=self._table, Key={"playerId": {"S": f"word#{word}"}}, ConsistentRead=True
        ).get("Item", {})
        return {k: int(item[k]["N"]) if k in item else 0 for k in COUNTED}
