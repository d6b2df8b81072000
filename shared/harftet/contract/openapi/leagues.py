"""Weekly leagues (harftet.rest.leagues, RULES §8): a division's standings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from harftet.contract.openapi.people import Tier
from harftet.contract.openapi.route import Route


class Standing(BaseModel):
    rank: int = Field(description="by points, then fewer games, then the earlier last game")
    playerId: str
    name: str
    points: int = Field(description="game points of the week's rated games (losses count)")
    games: int
    move: Literal["up", "down", "stay"] = Field(
        description="where the place goes at the week's end: the top 5 up, the bottom 5 down"
    )
    deleted: bool = Field(
        description="a deleted player's row (an anonymous id, or no name kept): no profile to "
        "open; show the catalogue's player.deleted as the name"
    )


class Division(BaseModel):
    week: str = Field(description="the ISO week, 2026-W49 (Europe/Istanbul)")
    tier: Tier
    division: str = Field(description="<tier>-<n>, e.g. gumus-12")
    endsAt: int = Field(description="Unix seconds: Monday 00:00 Europe/Istanbul")
    promote: int = Field(description="how many go up (5)")
    relegate: int = Field(description="how many go down (5)")
    rolled: bool = Field(description="the week is over and rolled: its moves are made")
    standings: list[Standing] = Field(description="at most 30, best first")


def routes() -> list[Route]:
    """The routes of harftet.rest.leagues."""
    return [
        Route("get", "/leagues/{game}/me", "My division this week (404 before my first rated "
              "game of the week)", None, "200", Division, True),
        Route("get", "/leagues/{game}/weeks/{week}/divisions/{division}",
              "A division of any week", None, "200", Division, True),
    ]  # fmt: skip
