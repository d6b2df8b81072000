"""Guests (API.md "Identity"): a name and a token make a player; a player's public record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harftet.errors import NotFoundError
from harftet.identity import Tokens
from harftet.store.ports import PlayerStorePort


def public_player(item: dict[str, Any], now: float) -> dict[str, Any]:
    """What anybody may see of a player."""
    banned = item.get("bannedUntil")
    return {
        "playerId": item["playerId"],
        "name": item["name"],
        "rating": int(item.get("rating", 0)),
        "gamesPlayed": int(item.get("gamesPlayed", 0)),
        "gamesAbandoned": int(item.get("gamesAbandoned", 0)),
        "bannedUntil": int(banned) if banned is not None and banned > now else None,
    }


@dataclass(eq=False)
class Guests:
    """New guest players and their public record."""

    players: PlayerStorePort
    tokens: Tokens
    clock: Callable[[], float]
    new_player_id: Callable[[], str]  # <cellId>.<hex> in a cell (harftet.router)

    def create_player(self, name: str) -> dict[str, Any]:
        """A guest account and its token."""
        item = self.players.create(self.new_player_id(), name, self.clock())
        token = self.tokens.issue(item["playerId"], name)  # wall-clock time, like its check
        return {**public_player(item, self.clock()), "token": token}

    def player(self, player_id: str) -> dict[str, Any]:
        """A player's public record."""
        try:
            return public_player(self.players.get(player_id), self.clock())
        except NotFoundError as error:
            raise NotFoundError(f"no player {player_id}") from error
