"""The tables table in memory (``harftet.store.tables``): optimistic locking on the version (a
lost save raises VersionConflictError with the current item), idempotent move ids (each
player's last MOVES_KEPT, written with the item), the players' and profiles' writes applied
with the table's save or not at all, the sparse deadline index and the lobby's pages, the
manager's waiting tables and held correspondence tables. Items are kept encoded (the codec's
bytes) so tests can compare what is stored; ``stream`` has every stored version, in order
(the table's stream; ``FakeStream`` hands it on as Lambda does)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from harftet.engine import codec
from harftet.engine.seating import holders
from harftet.engine.state import Table
from harftet.engine.timing import next_due
from harftet.engine.view import lobby_status
from harftet.errors import NotFoundError
from harftet.store.errors import HeldLimitError, VersionConflictError
from harftet.store.holdings import ADDS, HELD, MAX_HELD
from harftet.store.leagues import MemberWrite, OpenWrite, PlaceWrite
from harftet.store.lobby import WAITING
from harftet.store.table_items import (
    CORRESPONDENCE_LOBBY,
    WAITING_SECONDS,
    LobbyKey,
    Moves,
    StoredTable,
    timer_asked,
)
from harftet.store.tables import MAX_ID
from harftet.store.tournaments import ResultWrite
from harftet.store.writes import NO_COMMIT, BoardWrite, Commit, PlayerWrite, ProfileWrite

from .leagues import FakeLeagues
from .players import FakePlayers
from .profiles import FakeProfiles
from .tournaments import FakeTournaments
from .values import condition_failed


@dataclass(slots=True)
class Item:
    version: int
    state: bytes
    moves: Moves
    deadline: int | None  # ms, the deadline index (None: not in the index)
    created_ms: int
    due_version: int | None = None  # the version that set the deadline (dueV)
    answered: str | None = None  # the connection this version's move was answered on
    timer_due: int | None = None  # the latest timer message asked for (tq, ms)
    written_at: float | None = None  # a version without events: when it was written (wat)


def _deadline(table: Table) -> int | None:
    due = next_due(table)
    return None if due is None else int(due * 1000)


def _is_profile(write: PlayerWrite) -> bool:
    return isinstance(write, ProfileWrite | BoardWrite)


def _is_league(write: PlayerWrite) -> bool:
    return isinstance(write, PlaceWrite | MemberWrite | OpenWrite)


def _is_tournament(write: PlayerWrite) -> bool:
    return isinstance(write, ResultWrite)


class FakeTables:
    """The tables table: see the module docstring."""

    def __init__(
        self,
        players: FakePlayers,
        profiles: FakeProfiles | None = None,
        leagues: FakeLeagues | None = None,
        tournaments: FakeTournaments | None = None,
    ) -> None:
        self.items: dict[str, Item] = {}
        self.players = players
        self.profiles = profiles if profiles is not None else FakeProfiles(players)
        self.leagues = leagues if leagues is not None else FakeLeagues()
        self.tournaments = tournaments if tournaments is not None else FakeTournaments()
        self.stream: list[StoredTable] = []  # every stored version, in order (the stream)

    def _store(self, stored: StoredTable) -> None:
        table = stored.table
        self.items[table.table_id] = Item(
            stored.version,
            codec.encode(table),
            stored.moves,
            _deadline(table),
            int(table.created_at * 1000),
            stored.due_version if _deadline(table) is not None else None,
            stored.answered,
            stored.timer_due if _deadline(table) is not None else None,
            stored.written_at,
        )
        self.stream.append(self._read(table.table_id))

    def _read(self, table_id: str) -> StoredTable:
        i = self.items[table_id]
        return StoredTable(
            codec.decode(i.state), i.version, i.moves, i.due_version, i.answered,
            timer_due=i.timer_due, written_at=i.written_at,
        )  # fmt: skip

    def get(self, table_id: str) -> StoredTable:
        if not 0 < len(table_id) <= MAX_ID or table_id not in self.items:
            raise NotFoundError(f"no table {table_id[:MAX_ID]}")
        return self._read(table_id)

    def create(self, table: Table) -> int:
        if table.table_id in self.items:
            raise condition_failed("PutItem")
        due_version, timer_due = timer_asked(None, table, 1, time.time())
        self._store(StoredTable(table.clone(), 1, Moves(), due_version, timer_due=timer_due))
        return 1

    def create_all(self, tables: list[Table]) -> set[str]:
        """Each new table made, those whose id exists left as they are: the ids made now."""
        written = set()
        for table in tables:
            if table.table_id not in self.items:
                self.create(table)
                written.add(table.table_id)
        return written

    def _still_waiting(self, manager: str, ids: list[str], now: float) -> list[str]:
        found = [codec.decode(self.items[i].state) for i in ids if i in self.items]
        return [
            t.table_id
            for t in found
            if t.status == "waiting"
            and t.manager == manager
            and t.created_at > now - WAITING_SECONDS
        ]

    def create_within_limit(self, table: Table, limit: int, now: float) -> int | None:
        """The new table unless its manager's list of waiting tables (on their item, each
        checked against its table) is full; a correspondence table they hold joins their held
        set in the same write, refused with HeldLimitError when it is full."""
        manager = table.manager
        assert manager is not None
        holds_it = manager in holders(table, now)
        if holds_it:
            count = self.held_count(manager, now)
            if count >= MAX_HELD:
                raise HeldLimitError(manager, count)
        item = self.players.items.get(manager) or {"playerId": manager}
        waiting = self._still_waiting(manager, list(item.get(WAITING) or []), now)
        if len(waiting) >= limit:
            return None
        self.create(table)
        item[WAITING] = [*waiting, table.table_id]
        if holds_it:
            item[HELD] = {*(item.get(HELD) or ()), table.table_id}
            item[ADDS] = int(item.get(ADDS, 0)) + 1
        self.players.items[manager] = item
        return 1

    def save(self, stored: StoredTable, table: Table, commit: Commit = NO_COMMIT) -> StoredTable:
        current = self.items.get(table.table_id)
        if current is None:
            raise VersionConflictError(None)
        if current.version != stored.version:
            raise VersionConflictError(self._read(table.table_id))
        at = time.time() if commit.now is None else commit.now
        writes = commit.writes
        players = self.players.stage(
            [
                w for w in writes
                if not _is_profile(w) and not _is_league(w) and not _is_tournament(w)
            ], at,
        )  # fmt: skip
        profiles = self.profiles.stage([w for w in writes if _is_profile(w)])
        leagues = self.leagues.stage([w for w in writes if _is_league(w)])
        results = self.tournaments.stage(writes)
        if players is None or profiles is None or leagues is None or results is None:
            raise VersionConflictError(None)  # redo it all
        version = stored.version + 1
        moves = stored.moves.remember(commit.move_id, version)
        due_version, timer_due = timer_asked(stored, table, version, at)
        self.players.items.update(players)
        self.profiles.items.update(profiles)
        self.leagues.apply(leagues)
        self.tournaments.apply(results)
        self._store(
            StoredTable(
                table,
                version,
                moves,
                due_version,
                commit.answered,
                timer_due=timer_due,
                written_at=None if table.recent else round(at * 1000) / 1000,
            )
        )
        return self._read(table.table_id)

    def held_count(self, player_id: str, now: float, limit: int = MAX_HELD) -> int:
        """The player's held set; at ``limit`` the ids no longer held are dropped."""
        item = self.players.items.get(player_id, {})
        ids = set(item.get(HELD) or ())
        if len(ids) < limit:
            return len(ids)
        tables = {i: self._read(i).table for i in ids if i in self.items}
        kept = {i for i, table in tables.items() if player_id in holders(table, now)}
        if kept != ids:
            if kept:
                item[HELD] = kept
            else:
                item.pop(HELD, None)
        return len(kept)

    # -- the deadline index ----------------------------------------------------------------
    def _timed(self) -> list[tuple[int, str]]:
        return sorted((i.deadline, t) for t, i in self.items.items() if i.deadline is not None)

    def due(self, now: float, limit: int = 100) -> list[str]:
        return [t for d, t in self._timed() if d <= int(now * 1000)][:limit]

    def due_between(self, start: float, end: float, limit: int = 1000) -> list[tuple[float, str]]:
        low, high = int(start * 1000), int(end * 1000)
        return [(d / 1000, t) for d, t in self._timed() if low < d <= high][:limit]

    def next_due(self) -> float | None:
        timed = self._timed()
        return timed[0][0] / 1000 if timed else None

    # -- the lobby -------------------------------------------------------------------------
    def lobby_page(
        self, status: str, now: float, limit: int = 50, after: LobbyKey | None = None
    ) -> tuple[list[Table], LobbyKey | None]:
        base = status.removeprefix(CORRESPONDENCE_LOBBY)
        pace = "live" if base == status else "correspondence"
        since = int((now - WAITING_SECONDS) * 1000)
        listed = []
        for table_id, item in self.items.items():
            table = codec.decode(item.state)
            if lobby_status(table) != base or table.pace != pace:
                continue
            if base == "waiting" and item.created_ms < since:
                continue
            listed.append(((item.created_ms, table_id), table))
        listed.sort(key=lambda kt: kt[0], reverse=True)
        if after is not None:
            listed = [(k, t) for k, t in listed if k < tuple(after)]
        page = listed[:limit]
        last = page[-1][0] if len(listed) > limit else None
        return [t for _, t in page], last
