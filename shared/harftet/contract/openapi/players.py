"""Guest players: creating one (with its token), and a player's record."""

from __future__ import annotations

from pydantic import BaseModel, Field

from harftet.api.models import CreatePlayer
from harftet.contract.openapi.route import Route


class Player(BaseModel):
    playerId: str
    name: str
    rating: int
    gamesPlayed: int
    gamesAbandoned: int
    bannedUntil: int | None


class NewPlayer(Player):
    token: str = Field(description="send as Authorization: Bearer <token>")


def routes() -> list[Route]:
    """The guest players' routes."""
    return [
        Route("post", "/players", "Create a guest player", CreatePlayer, "201", NewPlayer, False),
        Route("get", "/players/{playerId}", "A player's profile", None, "200", Player, True),
    ]
