"""The stores as the service sees them: one ``Protocol`` per store (``../STYLE.md``, ports and
fakes). The DynamoDB adapters (``tables``, ``players``, ``connections``, ``log``) implement
them; ``tests/fakes.py`` implements them in memory with the same semantics, so service tests
and the state machine run without moto while ``tests/store/`` keeps proving the adapters."""

from __future__ import annotations

from typing import Any, Protocol

from harftet.engine.state import Table

from .tables import LobbyKey, StoredTable


class TableStorePort(Protocol):
    """Tables with optimistic locking on ``version``; idempotent move ids; the due index."""

    def get(self, table_id: str) -> StoredTable: ...

    def create(self, table: Table) -> int: ...

    def create_within_limit(self, table: Table, limit: int, now: float) -> int | None: ...

    def save(
        self,
        stored: StoredTable,
        table: Table,
        *,
        move_id: str | None = None,
        player_updates: list[dict[str, Any]] | None = None,
        now: float | None = None,
        answered: str | None = None,
    ) -> StoredTable: ...

    def held_count(self, player_id: str, now: float, limit: int = ...) -> int: ...

    def due(self, now: float, limit: int = 100) -> list[str]: ...

    def next_due(self) -> float | None: ...

    def lobby_page(
        self, status: str, now: float, limit: int = 50, after: LobbyKey | None = None
    ) -> tuple[list[Table], LobbyKey | None]: ...


class PlayerStorePort(Protocol):
    """Guest accounts: name, rating, record and bans (rating updates go with table saves)."""

    def create(self, player_id: str, name: str, now: float) -> dict[str, Any]: ...

    def get(self, player_id: str) -> dict[str, Any]: ...


class ConnectionStorePort(Protocol):
    """Live WebSocket connections, found by table."""

    def add(self, connection_id: str, table_id: str, player_id: str, now: float) -> None: ...

    def remove(self, connection_id: str) -> dict[str, Any] | None: ...

    def get(self, connection_id: str) -> dict[str, Any] | None: ...

    def for_table(self, table_id: str) -> list[dict[str, Any]]: ...

    def for_player(self, player_id: str) -> list[dict[str, Any]]: ...

    def sockets(self, player_id: str) -> dict[str, str]: ...

    def sockets_of(self, player_ids: list[str]) -> dict[str, dict[str, str]]: ...

    def swap_presence(self, player_id: str, state: str, now: float) -> str | None: ...

    def forget_presence(self, player_id: str) -> None: ...


class LogStorePort(Protocol):
    """A table's events, appended idempotently on seq."""

    def append(self, table_id: str, events: list[dict[str, Any]]) -> None: ...

    def after(self, table_id: str, seq: int, limit: int = 500) -> list[dict[str, Any]]: ...


# The names the issue uses.
TableStore = TableStorePort
PlayerStore = PlayerStorePort
ConnectionStore = ConnectionStorePort
LogStore = LogStorePort
