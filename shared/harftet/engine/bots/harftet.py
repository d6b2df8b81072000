"""Harftet's computer players, by level (RULES §4a); each proposes only legal moves.

- ``easy`` lays words from its own hand only (new words, and pairs when the pair area is
  open), and only common words;
- ``medium`` also extends table words, on a small budget: solid, not perfect;
- ``hard`` is the whole search (splits, moves between words) with a sense of strategy: it
  sheds the most value, keeps a joker that would only replace a letter it holds (unless the
  hand is nearly over, when a joker left in hand costs 50), and finishes when it can.

With nothing to lay, a player draws if it may, else passes; after a lay it lays again or
passes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import cache

from harftet.engine.hand import legal_to_draw
from harftet.engine.moves import Draw, Move, Pass
from harftet.engine.search import BotLevel, Proposal
from harftet.engine.search import harftet as search
from harftet.engine.state import Table
from harftet.engine.tiles import HARFTET_TILES

EASY_BUDGET_MS = 2.0
MEDIUM_BUDGET_MS = 5.0
HARD_BUDGET_MS = 80.0

_EASY_MOVES = frozenset({"new", "pairs"})
_MEDIUM_MOVES = frozenset({"new", "ext", "pairs"})


def _all_common(word: str) -> bool:
    return True


@cache
def common_words() -> Callable[[str], bool]:
    """``harftet.words.frequency.is_common`` (wordfreq's ranking, generated at set-up with the
    dictionary); every word counts as common, with a warning, if the ranking is missing."""
    from harftet.words.frequency import FrequencyMissingError, is_common, ranks

    try:
        ranks()
    except FrequencyMissingError as e:
        import warnings

        warnings.warn(f"easy computer players accept every word: {e}", stacklevel=2)
        return _all_common
    return is_common


def endgame(table: Table, seat: int) -> bool:
    """Whether the hand may end soon: a joker kept in hand then risks 50 (what the seat sees:
    the pile's size and the other hands' tile counts)."""
    others = [len(s.hand) for i, s in enumerate(table.seats) if i != seat]
    return len(table.pile) <= 2 * len(table.seats) or min(others, default=14) <= 4


def proposal(
    table: Table, seat: int, level: BotLevel, words: Collection[str] | None = None
) -> Proposal | None:
    """The lay ``level`` would make now, or None."""
    if level == "easy":
        return search.best_lay(
            table,
            seat,
            budget_ms=EASY_BUDGET_MS,
            words=words,
            moves=_EASY_MOVES,
            accept=common_words(),
            top=2,
        )
    if level == "medium":
        return search.best_lay(
            table, seat, budget_ms=MEDIUM_BUDGET_MS, words=words, moves=_MEDIUM_MOVES, top=2
        )
    hand = table.seats[seat].hand
    only_jokers = all(HARFTET_TILES[t].joker for t in hand)
    keep = 0 if not only_jokers and not endgame(table, seat) else 50
    return search.best_lay(table, seat, budget_ms=HARD_BUDGET_MS, words=words, joker_value=keep)


def choose_move(
    table: Table, seat: int, level: BotLevel = "medium", words: Collection[str] | None = None
) -> Move:
    """The move a ``level`` computer player makes for ``seat`` (whose turn it is)."""
    found = proposal(table, seat, level, words)
    if found is not None:
        return found.lay
    return Draw() if legal_to_draw(table, seat) else Pass()
