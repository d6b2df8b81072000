"""The log table in memory (``harftet.store.log``): a table's events by ``seq``, kept as the
JSON the adapter stores; appending an event again writes the same item again."""

from __future__ import annotations

import json
from typing import Any


class FakeLog:
    def __init__(self) -> None:
        self.items: dict[str, dict[int, str]] = {}

    def append(self, table_id: str, events: list[dict[str, Any]]) -> None:
        kept = self.items.setdefault(table_id, {})
        for event in events:
            kept[int(event["seq"])] = json.dumps(event, ensure_ascii=False, sort_keys=True)

    def after(self, table_id: str, seq: int, limit: int = 500) -> list[dict[str, Any]]:
        kept = self.items.get(table_id, {})
        return [json.loads(kept[s]) for s in sorted(kept) if s > seq][:limit]
