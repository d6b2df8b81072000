"""WebSocket connections to tables: a seated player who connects is back, one whose last
connection closes is gone (RULES §4: grace, substitutes). API.md "WebSocket" bounds them."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harftet.engine import table as life
from harftet.errors import NotFoundError, TooManyConnectionsError, UnauthorizedError
from harftet.identity import Caller
from harftet.store.ports import ConnectionStorePort, TableStorePort

from .writer import TableWriter

logger = logging.getLogger(__name__)

# API.md "WebSocket": beyond these a connect is refused.
MAX_PLAYER_CONNECTIONS = 4
MAX_TABLE_CONNECTIONS = 200
PresenceHook = Callable[[str], object]


@dataclass(eq=False)
class Sockets:
    """Connects and disconnects over the write path; ``on_presence(player_id)`` is told when a
    player's connections changed (their friends may be told: harftet.presence)."""

    writer: TableWriter
    tables: TableStorePort
    connections: ConnectionStorePort
    on_presence: PresenceHook | None = None

    def connect(self, caller: Caller, table_id: str, connection_id: str) -> None:
        """A WebSocket opened on a table: a seated player is connected again. Refused beyond
        API.md's limits (a player's connections to a table, a table's connections)."""
        table = self.tables.get(table_id).table
        # Registered first and counted after, so two racing connects cannot both slip in.
        self.connections.add(connection_id, table_id, caller.player_id, self.writer.clock())
        others = self.connections.for_table(table_id)
        mine = [c for c in others if c["playerId"] == caller.player_id]
        if len(others) > MAX_TABLE_CONNECTIONS or len(mine) > MAX_PLAYER_CONNECTIONS:
            self.connections.remove(connection_id)
            raise TooManyConnectionsError(
                f"at most {MAX_PLAYER_CONNECTIONS} connections per player and "
                f"{MAX_TABLE_CONNECTIONS} per table"
            )
        self._still_there(caller.player_id, connection_id)
        if table.seat_of(caller.player_id) is not None or any(
            s.original and s.original.player_id == caller.player_id for s in table.seats
        ):
            self.writer.write(table_id, lambda t, now: life.reconnect(t, caller.player_id, now))
        self.presence_changed(caller.player_id)

    def _still_there(self, player_id: str, connection_id: str) -> None:
        """The player's deletion may have run between their token's check and the item's
        write: its sweep of their connections then missed this one, which no push would reach
        until the idle timeout closed it. So the player is read again (consistently) once the
        item is written, and the connection refused (401) and its item removed if they are
        gone: an item written after the sweep is always caught here (the read follows the
        write, the sweep follows the player item's deletion)."""
        try:
            self.writer.present(player_id)
        except UnauthorizedError:
            self.connections.remove(connection_id)
            raise

    def disconnect(self, connection_id: str) -> None:
        """A WebSocket closed (or was found gone): with no other connection of that player
        left on the table, the player counts as gone."""
        old = self.connections.remove(connection_id)
        if old is None:
            return
        table_id, player_id = str(old.get("tableId") or ""), str(old["playerId"])
        if table_id and not any(
            c["playerId"] == player_id for c in self.connections.for_table(table_id)
        ):
            with contextlib.suppress(NotFoundError):
                self.writer.write(table_id, lambda t, now: life.disconnect(t, player_id, now))
        self.presence_changed(player_id)

    def presence_changed(self, player_id: str) -> None:
        """Tell ``on_presence``; never fails the caller's request."""
        if self.on_presence is None:
            return
        try:
            self.on_presence(player_id)
        except Exception:
            logger.warning("presence not announced", exc_info=True)

    def connection(self, connection_id: str) -> dict[str, Any] | None:
        """What a connection is watching."""
        return self.connections.get(connection_id)
