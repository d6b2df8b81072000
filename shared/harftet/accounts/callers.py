"""Who is calling (API.md v4 "Deleted players"): a token's player, as long as they exist.

A token is a signature and an expiry: checking it reads nothing (`harftet.identity.Tokens`).
Deleting a player deletes their item, so "the player still exists" is one strongly consistent
read of that item's key: every route that reads nothing of the player otherwise makes it, and
a deleted player's tokens — a guest's 30-day token, a session's access token, a WebSocket
ticket — answer 401 on the very next request.

The move path does not pay for it (one strongly consistent read unit more on every move): a move,
a dry run and a hint are answered only for a player seated at the table, and a deletion takes
the player out of every table they sat at before their item goes. So those routes check the
token only, and the table's use case makes the read when it refuses the caller or answers a
retried move (`harftet.tables.writer.TableWriter.present`): a deleted player is never seated,
so every answer they could get there becomes 401.
"""

from __future__ import annotations

from dataclasses import dataclass

from harftet.errors import UnauthorizedError
from harftet.identity import Caller, Tokens
from harftet.store.ports import PlayerStorePort

GONE = "this player no longer exists"


@dataclass(eq=False)
class Callers:
    """Checks a request's token, and that its player still exists."""

    tokens: Tokens
    players: PlayerStorePort

    def check(self, token: str | None) -> Caller:
        """The caller the token names (401: missing, forged, expired, or a deleted player)."""
        return self.present(self.tokens.verify(token))

    def signed(self, token: str | None) -> Caller:
        """The caller the token names, its signature checked only (the move path: see the
        module)."""
        return self.tokens.verify(token)

    def present(self, caller: Caller) -> Caller:
        """``caller`` if their player still exists; UnauthorizedError otherwise."""
        if not self.players.exists(caller.player_id):
            raise UnauthorizedError(GONE)
        return caller
