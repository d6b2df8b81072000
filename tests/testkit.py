"""What several test folders share: the local table names and the clock and push doubles.

A plain module (not a conftest): ``from conftest import ...`` finds whichever folder's conftest
was imported last, so shared names live here.
"""

from __future__ import annotations

from typing import Any

TABLE_NAMES = {
    "TablesTable": "harftet-tables",
    "PlayersTable": "harftet-players",
    "ConnectionsTable": "harftet-connections",
    "LogTable": "harftet-log",
}


class Clock:
    """A clock that moves only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Outbox:
    """A WebSocket sender that records every push; ids in ``gone`` answer GoneException."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.gone: set[str] = set()

    def __call__(self, connection_id: str, payload: dict[str, Any]) -> bool:
        if connection_id in self.gone:
            return False
        self.sent.append((connection_id, payload))
        return True

    def to(self, connection_id: str) -> list[dict[str, Any]]:
        return [p for c, p in self.sent if c == connection_id]
