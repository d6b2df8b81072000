"""The search: the best lay a seat can make, for hints and computer players (stdlib only).

``kastet.best_lay`` is exact (any rearrangement of the series area, new pairs when open);
``harftet.best_lay`` is anytime (the best found within a budget). Both return a
``Proposal`` whose ``lay`` the engine accepts as a move at the table's current version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from harftet.engine.moves import Lay

BotLevel = Literal["easy", "medium", "hard"]
BOT_LEVELS: tuple[BotLevel, ...] = ("easy", "medium", "hard")
DEFAULT_BOT_LEVEL: BotLevel = "medium"


@dataclass(frozen=True, slots=True)
class Proposal:
    """A legal lay, the hand value it sheds (a joker counting 50) and the hand tiles it uses."""

    lay: Lay
    shed: int
    tiles: tuple[int, ...]
