"""Friends' presence, pushed live (RULES §7, API.md v3 "WebSocket pushes").

A player is ``away`` with no open connection, ``table`` (with the table's game, never its
id: a private table's id is its invitation) while connected to a table they sit at that has
not finished, else ``online``. When that may have changed — a connection opened or closed
(`harftet.tables.sockets`, a lobby connection here), a seat taken or left or a game
ended at a table they are connected to (the fan-out, `seating_changed`) — `Presence.changed`
works it out and, if it differs from what was announced last, pushes
``{"type": "presence", "playerId", "status", "game"?}`` to every open connection of every
friend. Only friends: the friends map of the player's own item, less anyone either of them
blocked (a block also ends the friendship).

Cost of one change (harftet.store.connections keeps a ``presence#`` item per player):
1 consistent GetItem of the player's connections, 1 GetItem per table they are connected
to (usually one), 1 UpdateItem to swap the announced state; only when it changed: 1
consistent GetItem of the player (friends) and 1 BatchGetItem per 100 friends, then one
post per open connection of a friend. No query, no scan.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harftet.engine.seating import seated
from harftet.errors import NotFoundError, TooManyConnectionsError, UnauthorizedError
from harftet.identity import Caller
from harftet.push import Sender, fan_out
from harftet.store.ports import ConnectionStorePort, PlayerStorePort, TableStorePort

logger = logging.getLogger(__name__)
MAX_LOBBY_CONNECTIONS = 4  # a player's own connections with no table (tabs, devices)


@dataclass(eq=False)
class Presence:
    """Works out a player's presence and tells their friends when it changes."""

    connections: ConnectionStorePort
    tables: TableStorePort
    players: PlayerStorePort
    send: Sender | None
    clock: Callable[[], float]

    def of(self, player_id: str, sockets: dict[str, str] | None = None) -> dict[str, Any]:
        """``{"status": "online"|"table"|"away", "game"?}`` from the player's connections
        (``sockets``: connection → table, read here when not given)."""
        if sockets is None:
            sockets = self.connections.sockets(player_id)
        if not sockets:
            return {"status": "away"}
        for table_id in sorted({t for t in sockets.values() if t}):
            try:
                table = self.tables.get(table_id).table
            except NotFoundError:
                continue
            if table.seat_of(player_id) is not None and table.status != "finished":
                return {"status": "table", "game": table.game}
        return {"status": "online"}

    def of_many(self, player_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Presence of several players: one BatchGetItem of their connections."""
        found = self.connections.sockets_of(player_ids)
        return {p: self.of(p, found.get(p, {})) for p in player_ids}

    def changed(self, player_id: str) -> int:
        """Announce the player's presence to their friends if it changed; answers the posts
        made."""
        presence = self.of(player_id)
        state = ":".join(str(v) for v in presence.values())
        if self.connections.swap_presence(player_id, state, self.clock()) == state:
            return 0
        return self.tell_friends(player_id, presence)

    def tell_friends(
        self, player_id: str, presence: dict[str, Any], only: set[str] | None = None
    ) -> int:
        """Push ``presence`` to the open connections of the player's friends (``only``:
        of these of them)."""
        send = self.send
        if send is None:
            return 0
        try:
            player = self.players.get(player_id)
        except NotFoundError:
            return 0  # deleted meanwhile: nobody is told anything
        friends = set(player.get("friends") or {})
        friends -= set(player.get("blocks") or {}) | set(player.get("blockedBy") or {})
        if only is not None:
            friends &= only
        if not friends:
            return 0
        message = {"type": "presence", "playerId": player_id, **presence}
        batch = [
            (connection_id, message)
            for sockets in self.connections.sockets_of(sorted(friends)).values()
            for connection_id in sorted(sockets)
        ]
        lost, errors = fan_out(send, batch)  # a gone socket: its own $disconnect cleans up
        return len(batch) - len(lost) - errors

    def open(self, caller: Caller, connection_id: str) -> None:
        """A player's own connection, on no table: it receives invitations and friends'
        presence. At most MAX_LOBBY_CONNECTIONS at once."""
        connections = self.connections
        connections.add(connection_id, "", caller.player_id, self.clock())
        lobby = [c for c, t in connections.sockets(caller.player_id).items() if not t]
        if len(lobby) > MAX_LOBBY_CONNECTIONS:
            connections.remove(connection_id)
            raise TooManyConnectionsError(
                f"at most {MAX_LOBBY_CONNECTIONS} connections per player without a table"
            )
        if not self.players.exists(caller.player_id):  # deleted since the token's check: see
            connections.remove(connection_id)  # harftet.tables.sockets.Sockets._still_there
            raise UnauthorizedError("this player no longer exists")
        self.announce(caller.player_id)

    def announce(self, player_id: str) -> None:
        """`changed`, never failing the request or the batch it follows."""
        try:
            self.changed(player_id)
        except Exception:
            logger.warning("presence not announced", exc_info=True)

    def seating_changed(self, before: Any, after: Any) -> None:
        """Players who sat down, stood up or whose game ended at a table (the fan-out's
        hook): those connected to it may now show otherwise to their friends."""
        if before is None:
            return
        moved = seated(before) ^ seated(after)
        if not moved:
            return
        here = {str(c["playerId"]) for c in self.connections.for_table(after.table_id)}
        for player_id in sorted(moved & here):
            self.announce(player_id)
