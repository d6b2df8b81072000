"""A division's standings and who moves (RULES §8): by league points, ties broken by fewer
games, then the earlier last game; the top 5 go up a tier, the bottom 5 down (Bronz and Elmas
stay), and a place among the top 5 never goes down (a division of fewer than ten)."""

from __future__ import annotations

from typing import Any, Literal

TIERS = ("bronz", "gumus", "altin", "platin", "elmas")  # RULES §8, lowest first
PROMOTE = 5
RELEGATE = 5
DIVISION_SIZE = 30
Move = Literal["up", "down", "stay"]


def ordered(members: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """(player id, entry) best first."""
    return sorted(
        members.items(),
        key=lambda kv: (-int(kv[1]["pts"]), int(kv[1]["g"]), int(kv[1]["at"]), kv[0]),
    )


def move_of(tier: str, rank: int, size: int) -> Move:
    """Where the player at ``rank`` (1 first) of a division of ``size`` in ``tier`` goes."""
    level = TIERS.index(tier)
    if rank <= PROMOTE:
        return "up" if level < len(TIERS) - 1 else "stay"
    if rank > size - RELEGATE and level > 0:
        return "down"
    return "stay"


def earned(tier: str, move: Move) -> str:
    """The tier after ``move``."""
    level = TIERS.index(tier) + {"up": 1, "down": -1, "stay": 0}[move]
    return TIERS[max(0, min(len(TIERS) - 1, level))]


def results(division: dict[str, Any]) -> dict[str, tuple[int, Move, str]]:
    """Player id → (rank, move, tier earned) in a division item (``tier``, ``m``)."""
    tier = str(division["tier"])
    rows = ordered(division.get("m") or {})
    found = {}
    for rank, (pid, _) in enumerate(rows, start=1):
        move = move_of(tier, rank, len(rows))
        found[pid] = (rank, move, earned(tier, move))
    return found


def division_id(tier: str, number: int) -> str:
    return f"{tier}-{number}"


def tier_of(division: str) -> str:
    return division.rsplit("-", 1)[0]
