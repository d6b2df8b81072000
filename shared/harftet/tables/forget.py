"""What a deleted player leaves at the tables they sat at (RULES §7): a running table is left
as RULES §4 says (a voluntary leave), and at every table — finished ones too — the player's
id becomes an anonymous one and their name "Silinmiş oyuncu", in the table and in its log
(`Forgetting`, used by the account's deletion)."""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any

from harftet.engine import ending
from harftet.engine import table as life
from harftet.engine.effects import Outcome
from harftet.engine.seating import DELETED_NAME, DELETED_PREFIX
from harftet.engine.state import Occupant, Table
from harftet.errors import NotFoundError
from harftet.store.ports import LogStorePort

from .writer import TableWriter

REPLAY_EVENTS = 100_000
LOG_WAIT_SECONDS = 5.0  # for the stream's consumer to log the changes before the deletion
LOG_POLL_SECONDS = 0.1


def anonymous_id() -> str:
    return DELETED_PREFIX + secrets.token_hex(8)


def _swap(value: Any, player_id: str, anon: str) -> Any:
    """``value`` with every occurrence of ``player_id`` (as a string, a key or an occupant)
    replaced by ``anon`` and the occupant's name by DELETED_NAME."""
    if isinstance(value, str):
        return anon if value == player_id else value
    if isinstance(value, Occupant):
        if value.player_id != player_id:
            return value
        return dataclasses.replace(value, player_id=anon, name=DELETED_NAME)
    if isinstance(value, dict):
        if value.get("playerId") == player_id and "name" in value:
            value = {**value, "name": DELETED_NAME}
        return {_swap(k, player_id, anon): _swap(v, player_id, anon) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, player_id, anon) for v in value]
    if isinstance(value, tuple):
        return tuple(_swap(v, player_id, anon) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: _swap(getattr(value, f.name), player_id, anon)
            for f in dataclasses.fields(value)
        }
        return dataclasses.replace(value, **changes)
    return value


def _mentions(value: Any, player_id: str) -> bool:
    return _swap(value, player_id, "\0") != value


def anonymized(table: Table, player_id: str, anon: str) -> Table:
    swapped: Table = _swap(table.clone(), player_id, anon)
    if swapped.status != "finished":
        for seat in swapped.seats:  # a dropped seat of theirs: its loss now goes to nobody
            if seat.original and seat.original.player_id == anon and seat.original_fate:
                seat.original_fate = "left"
    return swapped


@dataclass(eq=False)
class Forgetting:
    """Takes a deleted player out of the tables they sat at."""

    writer: TableWriter
    log: LogStorePort | None
    _: KW_ONLY
    sleep: Callable[[float], None] = time.sleep
    wait: float = LOG_WAIT_SECONDS  # for the stream's consumer to log before the deletion

    def forget(self, player_id: str, table_ids: list[str]) -> None:
        """Leave and anonymise the player at each of ``table_ids``."""
        for table_id in sorted(table_ids):
            self.forget_at_table(player_id, table_id)

    def forget_at_table(self, player_id: str, table_id: str) -> None:
        """Leave ``table_id`` if the player still sits there, then anonymise them in it.

        The log is written by the stream's consumer, shortly after each change: events of
        the changes before this one may still be on their way. So the log is rewritten once
        it holds every event up to the table's last one before this change (waiting up to
        ``wait`` s); a consumer later still than that could write an event of the player back
        (not seen here)."""
        anon = anonymous_id()
        seen: dict[str, int] = {}

        def change(table: Table, now: float) -> Outcome:
            seen["seq"] = table.seq
            if table.seat_of(player_id) is not None and table.status != "finished":
                left = life.leave(table, player_id, now)
                return dataclasses.replace(
                    left,
                    table=anonymized(left.table, player_id, anon),
                    events=_swap(left.events, player_id, anon),
                )
            if not _mentions(table, player_id):
                return Outcome(table)
            new = anonymized(table, player_id, anon)
            # a dropped seat of theirs held the game open for them: with them gone, it may
            # have nobody left to play for (docs/RULES.en.md)
            return ending.abandoned(new, now) or Outcome(new)

        try:
            self.writer.write(table_id, change)
        except NotFoundError:
            return  # the table is gone (expired): nothing of the player is left there
        if self.log is not None:
            self._rewrite_log(table_id, player_id, anon, seen.get("seq", 0))

    def _rewrite_log(self, table_id: str, player_id: str, anon: str, seq: int) -> None:
        """The table's logged events that name the player, named anonymously (once the log
        holds every event up to ``seq``, or ``wait`` s have passed)."""
        assert self.log is not None
        waited = 0.0
        while True:
            events = self.log.after(table_id, 0, limit=REPLAY_EVENTS)
            logged = max((int(e.get("seq", 0)) for e in events), default=0)
            if logged >= seq or waited >= self.wait:
                break
            self.sleep(LOG_POLL_SECONDS)
            waited += LOG_POLL_SECONDS
        named = [e for e in events if _mentions(e, player_id)]
        if not named:
            return
        # a change's events share one item: each change that names them is written whole, and
        # each event that names them once more alone, over an item of the former shape (an
        # item per event) that may hold it; reads take each seq once, the first item's
        versions = {e["version"] for e in named if "version" in e}
        whole = [
            _swap(e, player_id, anon)
            for e in events
            if e.get("version") in versions or ("version" not in e and _mentions(e, player_id))
        ]
        self.log.append(table_id, whole)
        ends = {max(int(e["seq"]) for e in whole if e.get("version") == v) for v in versions}
        alone = [_swap(e, player_id, anon) for e in named if int(e["seq"]) not in ends]
        if alone:  # never over its change's own item (the one under the change's last seq)
            self.log.append(table_id, alone, alone=True)
