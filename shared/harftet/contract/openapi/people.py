"""People (harftet.profiles, harftet.moderation): profiles, leaderboards and reports of a seat."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from harftet.api.models import ReportRequest
from harftet.contract.openapi.route import Route


class GameRecord(BaseModel):
    played: int
    won: int = Field(description="games finished with the best points of the table")
    abandoned: int


class RatingChangeView(BaseModel):
    at: int
    delta: int
    game: Literal["kastet", "harftet"]
    tableId: str | None = Field(description="the finished game; null for a leave")


class RecentGame(BaseModel):
    tableId: str
    game: Literal["kastet", "harftet"]
    at: int
    points: int
    won: bool
    replay: str = Field(description="the replay's path, /tables/{id}/replay")


Tier = Literal["bronz", "gumus", "altin", "platin", "elmas"]


class SkillView(BaseModel):
    tier: Tier = Field(description="the skill's tier (RULES §8), never the number itself")
    games: int = Field(description="rated games in this game")


class LeagueView(BaseModel):
    tier: Tier = Field(description="this week's league tier, or the one earned")
    division: str | None = Field(description="this week's division; null: not played yet")
    rank: int | None = Field(description="the place in it; null: not played this week")


class Badge(BaseModel):
    tournamentId: str
    name: str = Field(description="the tournament's name")
    place: int = Field(description="1, 2 or 3 (ties share a place)")


class Profile(BaseModel):
    playerId: str
    name: str
    rating: int
    games: dict[str, GameRecord] = Field(description="per game: kastet, harftet")
    ratingChanges: list[RatingChangeView] = Field(description="the last 50, newest first")
    recentGames: list[RecentGame] = Field(description="the last 20 finished, newest first")
    skill: dict[str, SkillView] = Field(description="per game: kastet, harftet")
    league: dict[str, LeagueView] = Field(description="per game the player has played rated")
    badges: list[Badge] = Field(description="podium places of finished tournaments")


class BoardEntry(BaseModel):
    rank: int | None = Field(description="null past the first 10,000")
    playerId: str
    name: str
    score: int = Field(description="all: rating in this game; week: game points won")
    deleted: bool = Field(
        description="a deleted player's entry (an anonymous id, or no name kept): no profile "
        "to open; show the catalogue's player.deleted as the name"
    )


class BoardMe(BoardEntry):
    above: list[BoardEntry] = Field(description="up to 2 players just above")
    below: list[BoardEntry] = Field(description="up to 2 players just below")


class Leaderboard(BaseModel):
    entries: list[BoardEntry]
    me: BoardMe | None
    cursor: str | None


class ReportAccepted(BaseModel):
    reportId: str
    tableId: str
    version: int


LEADERBOARD_QUERY = (
    {"name": "period", "in": "query", "schema": {"type": "string", "enum": ["week", "all"]}},
    {
        "name": "limit",
        "in": "query",
        "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 100},
    },
    {"name": "cursor", "in": "query", "schema": {"type": "string", "maxLength": 600}},
)


def routes() -> list[Route]:
    """The routes of profiles, leaderboards and reports."""
    return [
        Route("get", "/players/{playerId}/profile", "A player's public profile", None, "200",
              Profile, True),
        Route("get", "/leaderboards/{game}", "A leaderboard: top 100, your rank and neighbours",
              None, "200", Leaderboard, True, LEADERBOARD_QUERY),
        Route("post", "/tables/{tableId}/reports", "Report a seat for review", ReportRequest,
              "202", ReportAccepted, True),
    ]  # fmt: skip
