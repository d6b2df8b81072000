"""What a transition asks the outside world to do besides saving the table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .state import Table


@dataclass(frozen=True, slots=True)
class RatingChange:
    """Change a player's rating and record. ``reason`` "leave": the 2·N leaver penalty
    (abandoned +1); "game": their share of a finished game's points (played +1)."""

    player_id: str
    delta: int
    reason: Literal["game", "leave"]


@dataclass(slots=True)
class Outcome:
    """A transition's result: the new table and the effects to apply with it, atomically."""

    table: Table
    effects: list[RatingChange] = field(default_factory=list)
