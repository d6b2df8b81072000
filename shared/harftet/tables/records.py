"""What happened at a table: the log of public events (read-your-writes) and, once a game is
over, its whole replay."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harftet.engine.errors import WrongStatusError
from harftet.engine.view import public_event
from harftet.identity import Caller
from harftet.store.log import PAGE as LOG_PAGE
from harftet.store.ports import LogStorePort, TableStorePort
from harftet.store.table_items import StoredTable

from .writer import TableWriter

REPLAY_EVENTS = 100_000
# A log read waits this long in all (in steps) for a fan-out more than one change behind.
LOG_WAITS = (0.05, 0.1, 0.2, 0.4, 0.8)  # a game's whole log (a 21-hand game logs a few thousand)


@dataclass(eq=False)
class Records:
    """The log and replays of tables (no log table: an empty log, no replay events)."""

    writer: TableWriter
    tables: TableStorePort
    log: LogStorePort | None
    sleep: Callable[[float], None] = time.sleep  # the log read's short waits

    def events(self, caller: Caller | None, table_id: str, after: int = 0) -> dict[str, Any]:
        """What happened at the table this game after event ``after``, oldest first: only
        what everyone saw (RULES §5), so anyone who may view the table may read it."""
        stored = self.tables.get(table_id)  # 404 for a table that does not exist
        return {"events": [public_event(e) for e in self._log_after(stored, after)]}

    def _log_after(self, stored: StoredTable, after: int) -> list[dict[str, Any]]:
        """The log after ``after``, completed up to the version just read (read-your-writes).

        The fan-out appends a version's events after its commit, so the log may lag the
        table by a change or two. The table item holds its latest change's events: when the
        log reaches up to them they complete it; when it lags further, the fan-out is given
        a moment (LOG_WAITS) — never an answer with a hole in it."""
        if self.log is None:
            return []
        table = stored.table
        recent = [{**e, "version": stored.version} for e in table.recent]
        found: list[dict[str, Any]] = []
        for pause in (*LOG_WAITS, None):
            found = self.log.after(table.table_id, after)
            last = int(found[-1]["seq"]) if found else after
            if last >= table.seq or len(found) >= LOG_PAGE:
                return found
            missing = [e for e in recent if int(e["seq"]) > last]
            if missing and int(missing[0]["seq"]) == last + 1:
                return found + missing
            if pause is not None:
                self.sleep(pause)
        return found

    def replay(self, caller: Caller | None, table_id: str) -> dict[str, Any]:
        """The whole game once it is finished: the seed, every deal and pile, every move."""
        table = self.writer.write(table_id, None).stored.table
        if table.status != "finished":
            raise WrongStatusError(f"the table is {table.status}: a replay comes once it is over")
        from harftet.engine import replay  # only finished games need it

        events = self.log.after(table_id, 0, limit=REPLAY_EVENTS) if self.log is not None else []
        # The engine's events, as it replays them: without the store's version of each.
        events = [{k: v for k, v in e.items() if k != "version"} for e in events]
        return replay.document(table, events)
