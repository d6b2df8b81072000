"""The log table: what happened at each table, one item per event (RULES §5: only what
everyone at the table saw).

Item: ``tableId`` (S), ``seq`` (N, the event's number, 1 upwards), ``event`` (S, the event as
JSON) and ``expiresAt`` (N, TTL: a month after the event, as long as a finished table is kept).
Appending is idempotent on ``seq``: the stream consumer may deliver a change twice, and the
same event written again is the same item.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .items import query_items

KEPT_SECONDS = 31 * 24 * 3600
BATCH = 25  # BatchWriteItem's most
PAGE = 500
RETRIES = 8


class LogStore:
    """Appends and reads the events of a table, oldest first."""

    def __init__(self, client: Any, table_name: str, *, sleep: Any = time.sleep) -> None:
        self._client = client
        self._name = table_name
        self._sleep = sleep

    def append(self, table_id: str, events: list[dict[str, Any]]) -> None:
        """Store ``events`` (each with an int ``seq``); an event already stored is written
        again unchanged, so delivering a change twice changes nothing."""
        items = {int(e["seq"]): e for e in events}  # one item per seq in a batch
        requests = [
            {
                "PutRequest": {
                    "Item": {
                        "tableId": {"S": table_id},
                        "seq": {"N": str(seq)},
                        "event": {"S": json.dumps(event, ensure_ascii=False, sort_keys=True)},
                        "expiresAt": {"N": str(int(_at(event) + KEPT_SECONDS))},
                    }
                }
            }
            for seq, event in sorted(items.items())
        ]
        for start in range(0, len(requests), BATCH):
            self._write(requests[start : start + BATCH])

    def _write(self, requests: list[dict[str, Any]]) -> None:
        pending = requests
        for attempt in range(RETRIES):
            answer = self._client.batch_write_item(RequestItems={self._name: pending})
            pending = answer.get("UnprocessedItems", {}).get(self._name, [])
            if not pending:
                return
            self._sleep(min(1.0, 0.02 * 2**attempt))
        raise RuntimeError(f"the log kept {len(pending)} events unprocessed: try again")

    def after(self, table_id: str, seq: int, limit: int = PAGE) -> list[dict[str, Any]]:
        """Up to ``limit`` events of the table after event ``seq``, oldest first."""
        query = {
            "TableName": self._name,
            "KeyConditionExpression": "#t = :t AND #s > :s",
            "ExpressionAttributeNames": {"#t": "tableId", "#s": "seq"},
            "ExpressionAttributeValues": {":t": {"S": table_id}, ":s": {"N": str(int(seq))}},
            "ConsistentRead": True,
            "Limit": min(limit, 1000),
        }
        found = query_items(self._client, query, most=limit)
        return [json.loads(i["event"]["S"]) for i in found[:limit]]


def _at(event: dict[str, Any]) -> float:
    at = event.get("at")
    return float(at) if isinstance(at, int | float) else time.time()
