"""The log table in memory (``harftet.store.log``): an item per change under its last event's
``seq``, kept as the JSON the adapter stores; appending a change again writes the same item
again, and reads take each seq once."""

from __future__ import annotations

from typing import Any

from harftet.store.log import changes, events_of, item_of


class FakeLog:
    def __init__(self) -> None:
        self.items: dict[str, dict[int, dict[str, Any]]] = {}

    def append(self, table_id: str, events: list[dict[str, Any]], alone: bool = False) -> None:
        kept = self.items.setdefault(table_id, {})
        for group in changes(events, alone):
            kept[int(group[-1]["seq"])] = item_of(table_id, group)

    def after(self, table_id: str, seq: int, limit: int = 500) -> list[dict[str, Any]]:
        kept = self.items.get(table_id, {})
        found: list[dict[str, Any]] = []
        last = seq
        for key in sorted(k for k in kept if k > seq):
            for event in events_of(kept[key]):
                if int(event["seq"]) > last:
                    found.append(event)
                    last = int(event["seq"])
        return found[:limit]
