"""Friends' presence, pushed live (RULES §7, API.md v3 "WebSocket pushes").

A player is ``away`` with no open connection, ``table`` (with the table's game, never its
id: a private table's id is its invitation) while connected to a table they sit at that has
not finished, else ``online``. When that may have changed — a connection opened or closed
(`Service.connect`/`disconnect`, a lobby connection here), a seat taken or left or a game
ended at a table they are connected to (the stream's publisher) — `Presence.changed`
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

from typing import TYPE_CHECKING, Any

from harftet.errors import NotFoundError
from harftet.push import fan_out

if TYPE_CHECKING:
    from harftet.identity import Caller
    from harftet.service import Service

MAX_LOBBY_CONNECTIONS = 4  # a player's own connections with no table (tabs, devices)


class Presence:
    def __init__(self, service: Service) -> None:
        self.service = service

    def of(self, player_id: str, sockets: dict[str, str] | None = None) -> dict[str, Any]:
        """``{"status": "online"|"table"|"away", "game"?}`` from the player's connections
        (``sockets``: connection → table, read here when not given)."""
        if sockets is None:
            sockets = self.service.connections.sockets(player_id)
        if not sockets:
            return {"status": "away"}
        for table_id in sorted({t for t in sockets.values() if t}):
            try:
                table = self.service.tables.get(table_id).table
            except NotFoundError:
                continue
            if table.seat_of(player_id) is not None and table.status != "finished":
                return {"status": "table", "game": table.game}
        return {"status": "online"}

    def of_many(self, player_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Presence of several players: one BatchGetItem of their connections."""
        found = self.service.connections.sockets_of(player_ids)
        return {p: self.of(p, found.get(p, {})) for p in player_ids}

    def changed(self, player_id: str) -> int:
        """Announce the player's presence to their friends if it changed; answers the posts
        made."""
        presence = self.of(player_id)
        state = ":".join(str(v) for v in presence.values())
        connections = self.service.connections
        if connections.swap_presence(player_id, state, self.service.clock()) == state:
            return 0
        return self.tell_friends(player_id, presence)

    def tell_friends(
        self, player_id: str, presence: dict[str, Any], only: set[str] | None = None
    ) -> int:
        """Push ``presence`` to the open connections of the player's friends (``only``:
        of these of them)."""
        send = self.service.send
        if send is None:
            return 0
        try:
            player = self.service.players.get(player_id)
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
            for sockets in self.service.connections.sockets_of(sorted(friends)).values()
            for connection_id in sorted(sockets)
        ]
        lost, errors = fan_out(send, batch)  # a gone socket: its own $disconnect cleans up
        return len(batch) - len(lost) - errors

    def open(self, caller: Caller, connection_id: str) -> None:
        """A player's own connection, on no table: it receives invitations and friends'
        presence. At most MAX_LOBBY_CONNECTIONS at once."""
        from harftet.errors import TooManyConnectionsError

        connections = self.service.connections
        connections.add(connection_id, "", caller.player_id, self.service.clock())
        lobby = [c for c, t in connections.sockets(caller.player_id).items() if not t]
        if len(lobby) > MAX_LOBBY_CONNECTIONS:
            connections.remove(connection_id)
            raise TooManyConnectionsError(
                f"at most {MAX_LOBBY_CONNECTIONS} connections per player without a table"
            )
        self.service.presence_changed(caller.player_id)


def seated(table: Any) -> set[str]:
    """Players a table shows as "at a table": seated at it while it has not finished."""
    if table is None or table.status == "finished":
        return set()
    return {
        seat.occupant.player_id
        for seat in table.seats
        if seat is not None and seat.occupant is not None and not seat.occupant.bot
    }
