"""A player's skill as matchmaking reads it (RULES §8): the OpenSkill rating the skill
feature keeps in the player's item (``skill``: game → ``{"mu", "sigma", "games"}``; absent:
OpenSkill's default), its ordinal and tier, and the computer levels' fixed places.

The tier here is matchmaking's own minimal one (keyed on OpenSkill's ordinal, mu − 3·sigma,
in steps of ``TIER_WIDTH``); the skill feature's tiers replace it when the two meet."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

from harftet.engine.state import BotLevel

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
TIER_WIDTH = 5.0  # ordinal points a tier spans
# Where each computer level sits on the ordinal scale (a fixed rating per level, RULES §8):
# a first estimate, to be replaced by the ladder's measured ratings (the skill feature).
LEVEL_ORDINALS: dict[BotLevel, float] = {"easy": 0.0, "medium": 8.0, "hard": 16.0, "expert": 24.0}


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """OpenSkill's conservative estimate (its ``ordinal``: mu − 3·sigma)."""
    return mu - 3 * sigma


def tier(mu: float, sigma: float) -> int:
    """The tier of a rating: 0 for a newcomer, one up for each ``TIER_WIDTH`` of ordinal."""
    return max(0, math.floor(ordinal(mu, sigma) / TIER_WIDTH))


def nearest_level(at: float) -> BotLevel:
    """The computer level whose fixed rating is nearest the ordinal ``at``."""
    return min(LEVEL_ORDINALS, key=lambda level: (abs(LEVEL_ORDINALS[level] - at), level))


class Skills(Protocol):
    """A player's skill in a game (the default when they have none yet)."""

    def of(self, player_id: str, game: str) -> Skill: ...


class StoredSkills:
    """Skills read from the player's item (``get``: the players store's read)."""

    def __init__(self, players: Any) -> None:
        self.players = players

    def of(self, player_id: str, game: str) -> Skill:
        found = (self.players.get(player_id).get("skill") or {}).get(game)
        return from_value(found)


def from_value(found: Any) -> Skill:
    """The stored ``{"mu", "sigma", "games"}`` of one game as a Skill (None: the default)."""
    if not isinstance(found, dict):
        return Skill()
    return Skill(
        float(found.get("mu", DEFAULT_MU)),
        float(found.get("sigma", DEFAULT_SIGMA)),
        int(found.get("games", 0)),
    )
