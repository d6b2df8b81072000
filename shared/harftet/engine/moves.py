"""The three moves a seated player can make."""

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
    """The whole new series area (each meld's tiles in order) and the new pairs only."""

    series: tuple[tuple[Placed, ...], ...]
    pairs: tuple[tuple[Placed, ...], ...] = ()


Move = Draw | Pass | Lay
