"""The log table: what happened at each table (RULES §5: only what everyone at the table saw),
one item per stored change.

Item: ``tableId`` (S), ``seq`` (N: the number of the change's LAST event), ``event`` (S, that
last event as JSON), ``earlier`` (S, only for a change of several events: the JSON list of its
events before the last) and ``expiresAt`` (N, TTL: a month after the change, as long as a
finished table is kept). A change's events (a lay and its pass, a hand's end and the next
start) fit one write unit together where an item each took one apiece; an item written before
(one event, no ``earlier``) reads the same. Appending is idempotent: the stream consumer may
deliver a change twice, and the same change written again is the same item (its events and
so its last seq are fixed); reads take each seq once, so items that overlap (a change written
by a release that stored an item per event) never double an event.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

KEPT_SECONDS = 31 * 24 * 3600
BATCH = 25  # BatchWriteItem's most
PAGE = 500
RETRIES = 8
QUERY_PAGE = 1000  # items a Query page asks for (each one change: one to a few events)


def changes(events: list[dict[str, Any]], alone: bool = False) -> list[list[dict[str, Any]]]:
    """``events`` as the changes that made them, each change's events by seq: those of one
    ``version`` (the fan-out's stamp) together, an event without one (or every event,
    ``alone``) by itself; each seq once."""
    by_seq = {int(e["seq"]): e for e in events}  # one event per seq in a batch
    groups: dict[Any, list[dict[str, Any]]] = {}
    for seq in sorted(by_seq):
        event = by_seq[seq]
        key = ("v", event["version"]) if "version" in event and not alone else ("s", seq)
        groups.setdefault(key, []).append(event)
    return sorted(groups.values(), key=lambda g: int(g[-1]["seq"]))


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def item_of(table_id: str, group: list[dict[str, Any]]) -> dict[str, Any]:
    """The log item of one change's events (seq order)."""
    last = group[-1]
    item = {
        "tableId": {"S": table_id},
        "seq": {"N": str(int(last["seq"]))},
        "event": {"S": _dump(last)},
        "expiresAt": {"N": str(int(_at(last) + KEPT_SECONDS))},
    }
    if len(group) > 1:
        item["earlier"] = {"S": _dump(group[:-1])}
    return item


def events_of(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The events one log item holds, oldest first."""
    earlier = item.get("earlier")
    found: list[dict[str, Any]] = json.loads(earlier["S"]) if earlier else []
    return [*found, json.loads(item["event"]["S"])]


class LogStore:
    """Appends and reads the events of a table, oldest first."""

    def __init__(
        self, client: Any, table_name: str, *, sleep: Any = time.sleep, per_change: bool = True
    ) -> None:
        self._client = client
        self._name = table_name
        self._sleep = sleep
        # an item per change; off: an item per event, the former shape, which the release
        # before reads whole (the template's LogItemPerChange, off for this shape's first deploy)
        self.per_change = per_change

    def append(self, table_id: str, events: list[dict[str, Any]], alone: bool = False) -> None:
        """Store ``events`` (each with an int ``seq``; the fan-out stamps each with the
        ``version`` that made it), an item per change; a change already stored is written
        again unchanged, so delivering a change twice changes nothing. ``alone``: an item per
        event, the former shape (what rewrites an event over an item of that shape)."""
        groups = changes(events, alone or not self.per_change)
        requests = [{"PutRequest": {"Item": item_of(table_id, g)}} for g in groups]
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
        found: list[dict[str, Any]] = []
        last = int(seq)
        for item in self._items(table_id, last, limit):
            for event in events_of(item):
                if int(event["seq"]) > last:  # each seq once, in order
                    found.append(event)
                    last = int(event["seq"])
                    if len(found) >= limit:
                        return found
        return found

    def _items(self, table_id: str, seq: int, limit: int) -> Iterator[dict[str, Any]]:
        """The table's items whose change ends after event ``seq`` (the change holding
        ``seq + 1`` first), page after page as they are read (a page of ``limit`` items holds
        ``limit`` events at least)."""
        kwargs: dict[str, Any] = {
            "TableName": self._name,
            "KeyConditionExpression": "#t = :t AND #s > :s",
            "ExpressionAttributeNames": {"#t": "tableId", "#s": "seq"},
            "ExpressionAttributeValues": {":t": {"S": table_id}, ":s": {"N": str(int(seq))}},
            "ConsistentRead": True,
        }
        while True:
            page = self._client.query(**kwargs, Limit=min(max(1, limit), QUERY_PAGE))
            yield from page.get("Items", [])
            if "LastEvaluatedKey" not in page:
                return
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def _at(event: dict[str, Any]) -> float:
    at = event.get("at")
    return float(at) if isinstance(at, int | float) else time.time()
