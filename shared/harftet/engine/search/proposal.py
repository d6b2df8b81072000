"""What both searches answer: a lay the engine accepts, with what it sheds."""

from __future__ import annotations

from dataclasses import dataclass

from harftet.engine.moves import Lay


@dataclass(frozen=True, slots=True)
class Proposal:
    """A legal lay, the hand value it sheds (a joker counting 50) and the hand tiles it uses."""

    lay: Lay
    shed: int
    tiles: tuple[int, ...]
