"""The search: the best lay a seat can make, for hints and computer players (stdlib only).

``kastet.best_lay`` is exact (any rearrangement of the series area, new pairs when open);
``harftet.best_lay`` is anytime (the best found within a budget). Both return a
``Proposal`` whose ``lay`` the engine accepts as a move at the table's current version.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Literal, get_args

from harftet.engine.moves import Lay
from harftet.engine.state import Table

BotLevel = Literal["easy", "medium", "hard", "expert"]
"""The computer players' levels, weakest first (RULES §4a): ``easy``, ``medium`` and ``hard``
model a person (Kolay, Orta, Zor); ``expert`` is the full search (Usta). Declared here once;
the API's models and documents derive theirs from it."""
BOT_LEVELS: tuple[BotLevel, ...] = get_args(BotLevel)
DEFAULT_BOT_LEVEL: BotLevel = "medium"


@dataclass(frozen=True, slots=True)
class Proposal:
    """A legal lay, the hand value it sheds (a joker counting 50) and the hand tiles it uses."""

    lay: Lay
    shed: int
    tiles: tuple[int, ...]


def hint(table: Table, seat: int, *, words: Collection[str] | None = None) -> Proposal | None:
    """The best lay the search finds for ``seat`` (None: no lay adds a tile), computed from
    what that seat may see: its own hand and the table. Kastet's is exact
    (``kastet.best_lay``), Harftet's the best found within its budget (``harftet.best_lay``;
    ``words`` overrides its dictionary, as for the table's rules)."""
    visible = _visible_to(table, seat)
    if table.game == "kastet":
        from harftet.engine.search import kastet  # search-kastet's module, imported on demand

        return kastet.best_lay(visible, seat)
    from harftet.engine.search import harftet

    return harftet.best_lay(visible, seat, words=words)


def _visible_to(table: Table, seat: int) -> Table:
    """``table`` as ``seat`` sees it: the other hands, the pile and the seed (which decides
    the deals) left out, so a hint can never depend on them; everything else is shared with
    the original (not to be changed)."""
    seats = [s if i == seat else replace(s, hand=[]) for i, s in enumerate(table.seats)]
    return replace(table, seats=seats, pile=[], seed=0)
