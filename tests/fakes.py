"""In-memory stores with the DynamoDB adapters' semantics (``harftet.store.ports``):
optimistic locking on the version (a lost save raises VersionConflictError with the current
item), idempotent move ids (the last MOVES_KEPT kept in the item, written with it), player
updates applied atomically with the table save (or not at all), the sparse ``due`` index and
the lobby. Items are kept encoded (the codec's bytes) so tests can compare what is stored."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harftet.engine import codec
from harftet.engine.seating import holders
from harftet.engine.state import Table
from harftet.engine.timing import next_due
from harftet.engine.view import lobby_status
from harftet.errors import NotFoundError
from harftet.store.errors import HeldLimitError, VersionConflictError
from harftet.store.holdings import ADDS, HELD, MAX_HELD
from harftet.store.players import DAY, DEFAULT_RATING, ban_until
from harftet.store.profiles import board_key, profile_key
from harftet.store.table_items import WAITING_SECONDS, LobbyKey, Moves, StoredTable
from harftet.store.tables import MAX_ID
from harftet.store.writes import (
    BoardWrite,
    HoldWrite,
    PlayerWrite,
    ProfileWrite,
    RatingWrite,
    ReleaseWrite,
)


@dataclass(slots=True)
class Item:
    version: int
    state: bytes
    moves: Moves
    deadline: int | None  # ms, the deadline index (None: not in the index)
    created_ms: int
    due_version: int | None = None  # the version that set the deadline (dueV)


class FakePlayers:
    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}

    def create(self, player_id: str, name: str, now: float) -> dict[str, Any]:
        if player_id in self.items:
            raise ValueError("ConditionalCheckFailed")
        item = {
            "playerId": player_id,
            "name": name,
            "rating": DEFAULT_RATING,
            "gamesPlayed": 0,
            "gamesAbandoned": 0,
            "createdAt": int(now),
        }
        self.items[player_id] = item
        return dict(item)

    def get(self, player_id: str) -> dict[str, Any]:
        if not 0 < len(player_id) <= 64 or player_id not in self.items:
            raise NotFoundError(f"no player {player_id[:64]}")
        return copy.deepcopy(self.items[player_id])

    # -- what a table's save writes beside it (harftet.store.writes), applied to a copy ---
    def applied(self, write: PlayerWrite, now: float) -> tuple[str, dict[str, Any]] | None:
        """The player and its item after ``write``, or None if its condition fails."""
        player_id = write.change.player_id if isinstance(write, RatingWrite) else write.player_id
        exists = player_id in self.items
        item = copy.deepcopy(self.items.get(player_id, {"playerId": player_id}))
        if isinstance(write, RatingWrite):
            return _rated(item, write, now)
        if isinstance(write, HoldWrite):
            held = set(item.get(HELD) or ())
            if not exists or len(held) >= write.limit:
                return None
            item[HELD] = held | {write.table_id}
            item[ADDS] = int(item.get(ADDS, 0)) + 1
            return player_id, item
        assert isinstance(write, ReleaseWrite)
        item[HELD] = set(item.get(HELD) or ()) - {write.table_id}
        return player_id, item


def _rated(
    item: dict[str, Any], write: RatingWrite, now: float
) -> tuple[str, dict[str, Any]] | None:
    """As ``players.player_update``: a game's points, or a leave's penalty and abandon (on the
    abandons read, so a concurrent abandon makes the save lose)."""
    change = write.change
    item["rating"] = item.get("rating", 0) + change.delta
    if change.reason == "game":
        item["gamesPlayed"] = item.get("gamesPlayed", 0) + 1
        return change.player_id, item
    read = (write.player or {}).get("abandons")
    if item.get("abandons") != read:
        return None
    abandons = [*(float(t) for t in read or [] if now - float(t) < DAY), now]
    item["gamesAbandoned"] = item.get("gamesAbandoned", 0) + 1
    item["abandons"] = [int(t) for t in abandons]
    banned = ban_until(abandons, now)
    if banned is not None:
        item["bannedUntil"] = int(banned)
    return change.player_id, item


class FakeTables:
    """The tables table: see the module docstring."""

    def __init__(self, players: FakePlayers, profiles: FakeProfiles | None = None) -> None:
        self.items: dict[str, Item] = {}
        self.players = players
        self.profiles = profiles if profiles is not None else FakeProfiles(players)
        self.stream: list[StoredTable] = []  # every stored version, in order (the stream)

    def _store(self, stored: StoredTable, now: float) -> None:
        due = next_due(stored.table)
        deadline = None if due is None else int(due * 1000)
        old = self.items.get(stored.table.table_id)
        due_version = None
        if deadline is not None:
            kept = old is not None and old.deadline == deadline
            due_version = old.due_version if kept and old is not None else stored.version
        self.items[stored.table.table_id] = Item(
            stored.version,
            codec.encode(stored.table),
            stored.moves,
            deadline,
            int(stored.table.created_at * 1000),
            due_version,
        )
        self.stream.append(self._read(stored.table.table_id))

    def _read(self, table_id: str) -> StoredTable:
        item = self.items[table_id]
        return StoredTable(codec.decode(item.state), item.version, item.moves, item.due_version)

    def get(self, table_id: str) -> StoredTable:
        if not 0 < len(table_id) <= MAX_ID or table_id not in self.items:
            raise NotFoundError(f"no table {table_id[:MAX_ID]}")
        return self._read(table_id)

    def create(self, table: Table) -> int:
        if table.table_id in self.items:
            raise ValueError("ConditionalCheckFailed")
        self._store(StoredTable(table.clone(), 1), table.created_at)
        return 1

    def create_within_limit(self, table: Table, limit: int, now: float) -> int | None:
        waiting = [
            i
            for i in self.items.values()
            if (t := codec.decode(i.state)).status == "waiting"
            and t.manager == table.manager
            and t.created_at > now - WAITING_SECONDS
        ]
        if len(waiting) >= limit:
            return None
        manager = table.manager
        if manager is not None and manager in holders(table, now):  # as TableStore's
            count = self.held_count(manager, now)
            if count >= MAX_HELD:
                raise HeldLimitError(manager, count)
            self.players.items[manager][HELD] = {
                *(self.players.items[manager].get(HELD) or ()),
                table.table_id,
            }
        return self.create(table)

    def save(
        self,
        stored: StoredTable,
        table: Table,
        *,
        move_id: str | None = None,
        writes: Sequence[PlayerWrite] = (),
        now: float | None = None,
        answered: str | None = None,
    ) -> StoredTable:
        current = self.items.get(table.table_id)
        if current is None or current.version != stored.version:
            raise VersionConflictError(self._read(table.table_id) if current else None)
        at = now or 0.0
        players = [self.players.applied(w, at) for w in writes if not _is_profile(w)]
        profiles = [self.profiles.applied(w) for w in writes if _is_profile(w)]
        if any(a is None for a in [*players, *profiles]):  # one changed since read: redo it all
            raise VersionConflictError(None)
        moves = stored.moves
        version = stored.version + 1
        if move_id is not None:
            moves = moves.remember(move_id, version)
        for player_id, item in (a for a in players if a is not None):
            self.players.items[player_id] = item
        for key, item in (a for a in profiles if a is not None):
            self.profiles.items[key] = item
        self._store(StoredTable(table, version, moves), at)
        return self._read(table.table_id)

    def held_count(self, player_id: str, now: float, limit: int = MAX_HELD) -> int:
        """As TableStore's: the player's held set, ids no longer held dropped at the limit."""
        item = self.players.items.get(player_id, {})
        ids = set(item.get(HELD) or ())
        if len(ids) >= limit:
            ids = {
                i for i in ids if i in self.items and player_id in holders(self._read(i).table, now)
            }
            item[HELD] = ids
        return len(ids)

    def due(self, now: float, limit: int = 100) -> list[str]:
        found = sorted(
            (i.deadline, table_id)
            for table_id, i in self.items.items()
            if i.deadline is not None and i.deadline <= int(now * 1000)
        )
        return [table_id for _, table_id in found[:limit]]

    def next_due(self) -> float | None:
        deadlines = [i.deadline for i in self.items.values() if i.deadline is not None]
        return min(deadlines) / 1000 if deadlines else None

    def lobby_page(
        self, status: str, now: float, limit: int = 50, after: LobbyKey | None = None
    ) -> tuple[list[Table], LobbyKey | None]:
        listed = sorted(
            (
                ((i.created_ms, table_id), t)
                for table_id, i in self.items.items()
                if lobby_status(t := codec.decode(i.state)) == status
                and (status != "waiting" or t.created_at >= now - WAITING_SECONDS)
            ),
            key=lambda kt: kt[0],
            reverse=True,
        )
        if after is not None:
            listed = [(k, t) for k, t in listed if k < after]
        page = listed[:limit]
        last = page[-1][0] if len(listed) > limit else None
        return [t for _, t in page], last


class FakeConnections:
    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}
        self.presence: dict[str, str] = {}

    def add(self, connection_id: str, table_id: str, player_id: str, now: float) -> None:
        self.items[connection_id] = {
            "connectionId": connection_id,
            "playerId": player_id,
            "connectedAt": round(now, 3),
        }
        if table_id:
            self.items[connection_id]["tableId"] = table_id

    def sockets(self, player_id: str) -> dict[str, str]:
        return {
            k: str(c.get("tableId", ""))
            for k, c in self.items.items()
            if c["playerId"] == player_id
        }

    def sockets_of(self, player_ids: list[str]) -> dict[str, dict[str, str]]:
        found = {p: self.sockets(p) for p in set(player_ids)}
        return {p: s for p, s in found.items() if s}

    def forget_presence(self, player_id: str) -> None:
        self.presence.pop(player_id, None)

    def swap_presence(self, player_id: str, state: str, now: float) -> str | None:
        old = self.presence.get(player_id)
        self.presence[player_id] = state
        return old

    def remove(self, connection_id: str) -> dict[str, Any] | None:
        return self.items.pop(connection_id, None)

    def get(self, connection_id: str) -> dict[str, Any] | None:
        item = self.items.get(connection_id)
        return dict(item) if item else None

    def for_table(self, table_id: str) -> list[dict[str, Any]]:
        return [dict(c) for c in self.items.values() if c.get("tableId") == table_id]

    def for_player(self, player_id: str) -> list[dict[str, Any]]:
        return [
            {"connectionId": k, "playerId": player_id}
            | ({"tableId": c["tableId"]} if "tableId" in c else {})
            for k, c in self.items.items()
            if c["playerId"] == player_id
        ]


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


def _is_profile(write: PlayerWrite) -> bool:
    return isinstance(write, ProfileWrite | BoardWrite)


class FakeProfiles:
    """Profiles, leaderboard entries, reports and bans (``harftet.store.profiles``)."""

    def __init__(self, players: FakePlayers) -> None:
        self.players = players
        self.items: dict[str, dict[str, Any]] = {}  # keyed as the players table's items

    def applied(self, write: PlayerWrite) -> tuple[str, dict[str, Any]] | None:
        """The item a profile or board write leaves, or None if its condition fails."""
        if isinstance(write, ProfileWrite):
            key = profile_key(write.player_id)
            old = self.items.get(key)
            read = None if old is None else int(old["n"])
            if read != write.read_n:
                return None
            item = {k: v for k, v in (old or {}).items() if k not in write.remove}
            return key, {**item, **copy.deepcopy(write.fields), "playerId": key}
        assert isinstance(write, BoardWrite)
        key = board_key(write.game, write.period, write.player_id)
        item = dict(self.items.get(key) or {"playerId": key, "score": 0})
        item |= {
            "pid": write.player_id,
            "name": write.name,
            "board": f"{write.game}#{write.period}",
        }
        item["score"] = int(item["score"]) + write.delta
        if write.expires is not None:
            item["expiresAt"] = write.expires
        return key, item

    def profile(self, player_id: str, consistent: bool = False) -> dict[str, Any] | None:
        item = self.items.get(profile_key(player_id))
        return copy.deepcopy(item) if item else None

    def entry(self, game: str, period: str, player_id: str) -> dict[str, Any] | None:
        item = self.items.get(board_key(game, period, player_id))
        return dict(item) if item else None

    def _board(self, game: str, period: str) -> list[dict[str, Any]]:
        found = [i for i in self.items.values() if i.get("board") == f"{game}#{period}"]
        return sorted(found, key=lambda i: (-int(i["score"]), str(i["pid"])))

    def top(
        self, game: str, period: str, limit: int, after: tuple[int, str] | None
    ) -> list[dict[str, Any]]:
        board = self._board(game, period)
        if after is not None:
            board = [i for i in board if (-int(i["score"]), str(i["pid"])) > (-after[0], after[1])]
        return board[:limit]

    def ahead(self, game: str, period: str, score: int) -> int | None:
        return sum(1 for i in self._board(game, period) if int(i["score"]) > score)

    def around(self, game: str, period: str, score: int, n: int) -> tuple[list, list]:
        board = self._board(game, period)
        above = [i for i in board if int(i["score"]) > score]
        below = [i for i in board if int(i["score"]) < score]
        return above[-n:], below[:n]

    def entries_of(self, player_id: str, now: float) -> list[dict[str, Any]]:
        found = []
        for key, item in self.items.items():
            if key.startswith("board#") and key.endswith(f"#{player_id}"):
                _, game, period, _ = key.split("#", 3)
                found.append({**item, "game": game, "period": period})
        return sorted(found, key=lambda i: (i["game"], i["period"]))

    def filed(self, player_id: str) -> list[dict[str, Any]]:
        return list(self.items.get(f"filed#{player_id}", {}).get("r") or [])

    def forget(self, player_id: str, now: float) -> int:
        keys = [
            k
            for k in self.items
            if k in (profile_key(player_id), f"filed#{player_id}")
            or (k.startswith("board#") and k.endswith(f"#{player_id}"))
        ]
        for key in keys:
            del self.items[key]
        return len(keys)

    def add_report(self, report: dict[str, Any], key: str, day: str, at: int) -> None:
        self.items[key] = {**report, "playerId": key, "board": f"reports#{day}", "score": at}
        filed = self.items.setdefault(f"filed#{report['reporter']}", {"r": []})
        filed["r"].append({k: v for k, v in report.items() if k != "reporter"})

    def reports(self, day: str, limit: int) -> list[dict[str, Any]]:
        found = [i for i in self.items.values() if i.get("board") == f"reports#{day}"]
        return sorted(found, key=lambda i: -int(i["score"]))[:limit]

    def set_ban(self, player_id: str, banned: bool, now: float) -> None:
        item = self.players.items.get(player_id)
        if item is None:
            raise NotFoundError(f"no player {player_id}")
        if banned:
            item["operatorBan"] = int(now)
        else:
            item.pop("operatorBan", None)


class FakeStores:
    """Every store in memory, as ``harftet.bootstrap.DynamoStores`` holds the real ones (a
    store this fake world does not have yet is None)."""

    def __init__(self) -> None:
        self.players = FakePlayers()
        self.profiles = FakeProfiles(self.players)
        self.tables = FakeTables(self.players, self.profiles)
        self.connections = FakeConnections()
        self.log: FakeLog | None = FakeLog()
        self.accounts: Any = None
        self.counters: Any = None
        self.inbox: Any = None
        self.mail: Any = None
        self.word_reports: Any = None


def fake_app(clock: Any, send: Any = None, **options: Any) -> Any:
    """The application (test mode) over the in-memory stores."""
    import os

    from harftet.bootstrap import App, Settings
    from harftet.identity import Tokens

    return App(
        Settings(test_mode=True),
        FakeStores(),
        clock=clock,
        send=send,
        tokens=Tokens(os.environ["TOKEN_SECRET"]),
        **options,
    )
