"""In-memory stores with the DynamoDB adapters' semantics (``harftet.store.ports``):
optimistic locking on the version (a lost save raises VersionConflictError with the current
item), idempotent move ids (the last MOVES_KEPT kept in the item, written with it), player
updates applied atomically with the table save (or not at all), the sparse ``due`` index and
the lobby. Items are kept encoded (the codec's bytes) so tests can compare what is stored."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from harftet.engine import codec
from harftet.engine.state import Table
from harftet.engine.view import lobby_status
from harftet.errors import NotFoundError
from harftet.store.errors import HeldLimitError, VersionConflictError
from harftet.store.holdings import HELD, MAX_HELD, holders
from harftet.store.items import deserialize
from harftet.store.players import DEFAULT_RATING
from harftet.store.tables import MAX_ID, WAITING_SECONDS, LobbyKey, Moves, StoredTable
from harftet.timing import next_due


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

    # -- the UpdateItem arguments of ``players.player_update``, applied to a copy ------------
    def _checked(self, update: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """The player and its item after ``update``, or None if its condition fails."""
        player_id = update["Key"]["playerId"]["S"]
        values = deserialize(update.get("ExpressionAttributeValues", {}))
        names = update.get("ExpressionAttributeNames", {})
        exists = player_id in self.items
        item = copy.deepcopy(self.items.get(player_id, {"playerId": player_id}))
        condition = update.get("ConditionExpression") or ""
        if "attribute_not_exists(abandons)" in condition and "abandons" in item:
            return None
        if "abandons = :read" in condition and item.get("abandons") != values[":read"]:
            return None
        if "size(#held) < :most" in condition and (  # harftet.store.holdings.hold
            not exists or len(item.get(names["#held"]) or ()) >= values[":most"]
        ):
            return None
        expression = update["UpdateExpression"]
        parts = re.split(r"\s*(ADD|SET|DELETE)\s+", " " + expression)
        for verb, body in zip(parts[1::2], parts[2::2], strict=True):
            for clause in body.split(","):
                if verb == "SET":
                    name, value = (s.strip() for s in clause.split("="))
                    item[names.get(name, name)] = values[value]
                    continue
                name, value = clause.split()
                name = names.get(name, name)
                if verb == "DELETE":
                    item[name] = set(item.get(name) or ()) - values[value]
                elif isinstance(values[value], set):
                    item[name] = set(item.get(name) or ()) | values[value]
                else:
                    item[name] = item.get(name, 0) + values[value]
        return player_id, item


class FakeTables:
    """The tables table: see the module docstring."""

    def __init__(self, players: FakePlayers) -> None:
        self.items: dict[str, Item] = {}
        self.players = players
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
        player_updates: list[dict[str, Any]] | None = None,
        now: float | None = None,
        answered: str | None = None,
    ) -> StoredTable:
        current = self.items.get(table.table_id)
        if current is None or current.version != stored.version:
            raise VersionConflictError(self._read(table.table_id) if current else None)
        applied = [self.players._checked(u) for u in player_updates or []]
        if any(a is None for a in applied):  # a player changed since read: redo it all
            raise VersionConflictError(None)
        moves = stored.moves
        version = stored.version + 1
        if move_id is not None:
            moves = moves.remember(move_id, version)
        for player_id, item in (a for a in applied if a is not None):
            self.players.items[player_id] = item
        self._store(StoredTable(table, version, moves), now or 0.0)
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


def fake_service(clock: Any, send: Any = None, **options: Any) -> Any:
    """A Service over the in-memory stores."""
    import os

    from harftet.identity import Tokens
    from harftet.service import Service

    players = FakePlayers()
    return Service(
        tables=FakeTables(players),
        players=players,
        connections=FakeConnections(),
        tokens=Tokens(os.environ["TOKEN_SECRET"]),
        send=send,
        clock=clock,
        test_mode=True,
        log=FakeLog(),
        **options,
    )
