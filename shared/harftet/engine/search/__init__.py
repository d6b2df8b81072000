"""The search: the best lay a seat can make, for hints and computer players (stdlib only).

``kastet.best_lay`` is exact (any rearrangement of the series area, new pairs when open);
``harftet.best_lay`` is anytime (the best found within a budget). Both return a
``Proposal`` whose ``lay`` the engine accepts as a move at the table's current version.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

# The levels live with the table (an occupant has one) and the proposal in its own module, so
# that the searches below import neither this package nor anything that imports it back; both
# are importable from here, where the service, the API and the computer players ask for them.
from harftet.engine.search.proposal import Proposal
from harftet.engine.state import BOT_LEVELS, DEFAULT_BOT_LEVEL, BotLevel, Table

__all__ = ["BOT_LEVELS", "DEFAULT_BOT_LEVEL", "BotLevel", "Proposal", "hint"]


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
