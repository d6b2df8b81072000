"""The moves a seated player can make: three in a hand, and ``Ready`` between hands."""

from __future__ import annotations

from dataclasses import dataclass

from .state import Placed


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Lay:
    """The whole new series area (each meld's tiles in order) and the new pairs only;
    ``end_turn``: the player's pass follows in the same change (API ``"pass": true``)."""

    series: tuple[tuple[Placed, ...], ...]
    pairs: tuple[tuple[Placed, ...], ...] = ()
    end_turn: bool = False


@dataclass(frozen=True, slots=True)
class Ready:
    """Between hands: the player is ready for the next one (RULES §2a)."""


Move = Draw | Pass | Lay | Ready
