"""Skill (*beceri*, RULES §8): an OpenSkill Plackett–Luce rating per player per game, its
tier, and the fixed rating a computer player's seat counts at. The one source of both
features that read skill (the skill feature rates and shows it, matchmaking seats by it) and
of the benches; a kernel module, standard library and ``openskill`` only.

The stored shape (the player's item, attribute ``skill``): ``{game: {"mu", "sigma",
"games"}}``; a game absent is the model's default rating with no games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, get_args

from openskill.models import PlackettLuce

Tier = Literal["bronz", "gumus", "altin", "platin", "elmas"]
"""The five tiers of RULES §8, weakest first (the catalogue names them: Bronz … Elmas)."""
TIERS: tuple[Tier, ...] = get_args(Tier)

MU = 25.0
SIGMA = MU / 3
TIER_FLOORS: tuple[float, ...] = (10.0, 18.0, 26.0, 34.0)
"""The ordinal (μ − 3σ) a player needs for Gümüş, Altın, Platin and Elmas. A new player
(ordinal 0) is Bronz; after some twenty games (σ ≈ 2.5) one level with ``medium`` computer
players is Gümüş, one level with ``hard`` Altın, one above it Platin and one level with
``expert`` Elmas (LEVEL_MU below)."""
TIER_WIDTH = TIER_FLOORS[1] - TIER_FLOORS[0]
"""The ordinal a tier spans (every gap between the floors alike): the matchmaker's band is
counted in it."""

BOT_SIGMA = 1.0
LEVEL_MU: dict[str, dict[str, float]] = {
    # bench/bench_skill.py ``--levels``: each rung of bench_levels' ladder (a level against
    # three of the level below, seeded hands) read pairwise — how often the stronger seat's
    # penalty is below a weaker one's — and solved for the μ at which OpenSkill's predict_win
    # gives that share; ``medium`` (the default level, an everyday player) is anchored at the
    # model's default μ. Over 160 hands a rung, medium/easy, hard/medium, expert/hard:
    # Harftet 78 %, 90 %, 99 %; Kastet 87 %, 85 %, 79 %.
    "harftet": {"easy": 20.3, "medium": 25.0, "hard": 32.9, "expert": 46.7},
    "kastet": {"easy": 18.1, "medium": 25.0, "hard": 31.4, "expert": 36.2},
}


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's skill in one game: ``mu`` and ``sigma`` of the model, rated ``games``."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown as a tier (μ − 3σ)."""
        return self.mu - 3 * self.sigma

    def to_item(self) -> dict[str, Any]:
        """The stored shape (floats rounded to 6 places)."""
        return {"mu": round(self.mu, 6), "sigma": round(self.sigma, 6), "games": self.games}

    @classmethod
    def from_item(cls, value: Mapping[str, Any] | None) -> Rating:
        """The rating stored as ``value`` (None: the default)."""
        if not value:
            return cls()
        return cls(float(value["mu"]), float(value["sigma"]), int(value.get("games", 0)))


def skill_of(item: Mapping[str, Any] | None, game: str) -> Rating:
    """The player's rating in ``game`` from their players-table item (absent: default)."""
    skills = (item or {}).get("skill") or {}
    return Rating.from_item(skills.get(game))


def tier(rating: Rating) -> Tier:
    """The tier shown for ``rating`` (never the number itself)."""
    ordinal = rating.ordinal
    return TIERS[sum(1 for floor in TIER_FLOORS if ordinal >= floor)]


def level_rating(game: str, level: str | None) -> Rating:
    """The fixed rating a computer player's seat counts at (unknown level: ``medium``)."""
    mus = LEVEL_MU.get(game, LEVEL_MU["harftet"])
    return Rating(mus.get(level or "medium", mus["medium"]), BOT_SIGMA)


def nearest_level(game: str, rating: Rating) -> str:
    """The computer level whose fixed rating is nearest ``rating``'s μ (the matchmaker fills
    seats with it)."""
    mus = LEVEL_MU.get(game, LEVEL_MU["harftet"])
    return min(mus, key=lambda level: (abs(mus[level] - rating.mu), mus[level]))


@cache
def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """Every member's rating after one game whose teams finished at ``ranks`` (1 first; equal
    ranks tie), each with one more game. A fixed member (a computer seat) is rated too: its
    caller keeps the fixed one."""
    m = model()
    given = [[m.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    after = m.rate(given, ranks=[float(r) for r in ranks])
    return [
        [Rating(new.mu, new.sigma, old.games + 1) for new, old in zip(t_new, t_old, strict=True)]
        for t_new, t_old in zip(after, teams, strict=True)
    ]


def predict_win(teams: Sequence[Sequence[Rating]]) -> list[float]:
    """The model's chance of each team finishing first."""
    m = model()
    return list(m.predict_win([[m.rating(mu=r.mu, sigma=r.sigma) for r in t] for t in teams]))
