"""The connections table in memory: live WebSocket connections (``harftet.store.connections``:
found by table and by player, each player's sockets and last announced presence), and the
rate-limit counters kept beside them (``harftet.store.limits``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harftet.store.connections import CONNECTION_TTL


@dataclass
class Presence:
    """A player's ``presence#`` item: their open sockets (→ table, "" for the lobby) and the
    presence last announced (``st``)."""

    sockets: dict[str, str] = field(default_factory=dict)
    state: str | None = None


class FakeConnections:
    """Connection items by connection id (``items``) and presence by player (``presence``)."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}
        self.presence: dict[str, Presence] = {}

    def add(self, connection_id: str, table_id: str, player_id: str, now: float) -> None:
        item: dict[str, Any] = {
            "connectionId": connection_id,
            "playerId": player_id,
            "connectedAt": round(now, 3),
            "expiresAt": int(now) + CONNECTION_TTL,
        }
        if table_id:
            item["tableId"] = table_id
        self.items[connection_id] = item
        self.presence.setdefault(player_id, Presence()).sockets[connection_id] = table_id

    def remove(self, connection_id: str) -> dict[str, Any] | None:
        old = self.items.pop(connection_id, None)
        if old is not None:
            mine = self.presence.get(str(old["playerId"]))
            if mine is not None:  # a presence that is gone (a deleted player) stays gone
                mine.sockets.pop(connection_id, None)
        return old

    def get(self, connection_id: str) -> dict[str, Any] | None:
        item = self.items.get(connection_id)
        return dict(item) if item else None

    def for_table(self, table_id: str) -> list[dict[str, Any]]:
        return [dict(c) for c in self.items.values() if c.get("tableId") == table_id]

    def for_player(self, player_id: str) -> list[dict[str, Any]]:
        """As the player index projects them: the keys and ``tableId``."""
        keys = ("connectionId", "playerId", "tableId")
        return [
            {k: c[k] for k in keys if k in c}
            for c in self.items.values()
            if c["playerId"] == player_id
        ]

    def sockets(self, player_id: str) -> dict[str, str]:
        mine = self.presence.get(player_id)
        return dict(mine.sockets) if mine else {}

    def sockets_of(self, player_ids: list[str]) -> dict[str, dict[str, str]]:
        found = {p: self.sockets(p) for p in set(player_ids)}
        return {p: s for p, s in found.items() if s}

    def swap_presence(self, player_id: str, state: str, now: float) -> str | None:
        mine = self.presence.setdefault(player_id, Presence())
        old, mine.state = mine.state, state
        return old

    def forget_presence(self, player_id: str) -> None:
        self.presence.pop(player_id, None)


class FakeLimits:
    """Counters of uses in windows (``items``: key → hits, lastAt, expiresAt); a refused
    use counts nothing. Expired counters are not read as gone: the keys carry their window."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}

    def hit(self, key: str, limit: int, expires_at: int) -> bool:
        item = self.items.get(key)
        if item is not None and int(item["hits"]) >= limit:
            return False
        item = self.items.setdefault(key, {"hits": 0, "expiresAt": int(expires_at)})
        item["hits"] += 1
        return True

    def forget(self, key: str) -> None:
        self.items.pop(key, None)

    def hit_spaced(
        self, key: str, most: int, gap: float, now: float, kept: int
    ) -> tuple[int, float] | None:
        item = self.items.get(key)
        if item is not None and (item["hits"] >= most or item["lastAt"] > now - gap):
            return int(item["hits"]), float(item["lastAt"])
        hits = 0 if item is None else int(item["hits"])
        self.items[key] = {"hits": hits + 1, "lastAt": float(now), "expiresAt": int(now) + kept}
        return None
