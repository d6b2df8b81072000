"""Harftet's computer players, by level (RULES §4a); each proposes only legal moves.

``easy``, ``medium`` and ``hard`` model a person (``PEOPLE``): what they know (a vocabulary,
the words up to a rank of wordfreq's Turkish ranking, ``harftet.engine.words.frequency``), how much
of the table they rework in a turn (their own hand only → one table word at a time →
anything), how long they look (a search budget), how much they do in one turn (the words
laid or changed: a person does not lay out a whole hand of 14 tiles at once) and whether
they keep a joker back. ``expert`` is the full search over the whole list, as strong as
the search is.

- ``easy`` lays new words from its own hand (and pairs when the pair area is open), only
  the commonest words, one a turn;
- ``medium`` also extends a table word, knows everyday words, two words a turn;
- ``hard`` reworks the table freely (splits, moves between words, rebuilding two words)
  with the words a well-read player knows, three words a turn, and keeps a joker that would
  only replace a letter it holds;
- ``expert``: every move, every word, as many words as the hand allows, on a larger budget,
  with the same joker strategy.

The cut-offs were chosen by measurement (bench/bench_levels.py, bench/RESULTS.md): a hard
player's first turn empties its hand in well under 10 % of deals (an unrestricted search:
~60 %), and each level beats three of the level below.

With nothing to lay, a player draws if it may, else passes; after a lay a person's level
passes (its turn's work is done), the expert lays again or passes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cache

from harftet.engine.hand import legal_to_draw
from harftet.engine.moves import Draw, Move, Pass
from harftet.engine.search import BotLevel, Proposal
from harftet.engine.search import harftet as search
from harftet.engine.state import Table
from harftet.engine.tiles import HARFTET_TILES

EXPERT_BUDGET_MS = 80.0


@dataclass(frozen=True, slots=True)
class Person:
    """What a level's player knows and does in one turn."""

    vocabulary: int  # the words it knows: frequency rank at most this
    moves: frozenset[str]  # the search's moves (how much of the table it reworks)
    budget_ms: float  # how long it looks
    steps: int  # words laid or changed in one turn
    keeps_joker: bool  # keeps a joker that would only replace a letter it holds


PEOPLE: dict[str, Person] = {
    "easy": Person(2_000, frozenset({"new", "pairs"}), 2.0, 1, False),
    "medium": Person(5_000, frozenset({"new", "ext", "pairs"}), 5.0, 2, False),
    "hard": Person(10_000, search.ALL_MOVES, 30.0, 2, True),
}


def _all_words(word: str) -> bool:
    return True


@cache
def known_words(vocabulary: int) -> Callable[[str], bool]:
    """Whether a word is among the ``vocabulary`` most frequent dictionary words
    (wordfreq's ranking, generated at set-up with the dictionary); every word counts as
    known, with a warning, if the ranking is missing."""
    from harftet.engine.words.frequency import FrequencyMissingError, ranks

    try:
        table = ranks()
    except FrequencyMissingError as e:
        import warnings

        warnings.warn(f"computer players accept every word: {e}", stacklevel=2)
        return _all_words
    known = frozenset(w for w, n in table.items() if n <= vocabulary)
    return known.__contains__


def common_words() -> Callable[[str], bool]:
    """The easy player's words (the older name)."""
    return known_words(PEOPLE["easy"].vocabulary)


def endgame(table: Table, seat: int) -> bool:
    """Whether the hand may end soon: a joker kept in hand then risks 50 (what the seat sees:
    the pile's size and the other hands' tile counts)."""
    others = [len(s.hand) for i, s in enumerate(table.seats) if i != seat]
    return len(table.pile) <= 2 * len(table.seats) or min(others, default=14) <= 4


def _joker_value(table: Table, seat: int) -> int:
    """What laying a joker is worth to a player that keeps one back: nothing while the hand
    goes on (it is laid only where it adds a letter the hand lacks), its 50 near the end."""
    hand = table.seats[seat].hand
    only_jokers = all(HARFTET_TILES[t].joker for t in hand)
    return 50 if only_jokers or endgame(table, seat) else 0


def proposal(
    table: Table, seat: int, level: BotLevel, words: Collection[str] | None = None
) -> Proposal | None:
    """The lay ``level`` would make now, or None."""
    if level == "expert":
        return search.best_lay(
            table,
            seat,
            budget_ms=EXPERT_BUDGET_MS,
            words=words,
            joker_value=_joker_value(table, seat),
        )
    person = PEOPLE[level]
    return search.best_lay(
        table,
        seat,
        budget_ms=person.budget_ms,
        words=words,
        moves=person.moves,
        joker_value=_joker_value(table, seat) if person.keeps_joker else 50,
        accept=known_words(person.vocabulary),
        top=2,
        steps=person.steps,
    )


def choose_move(
    table: Table, seat: int, level: BotLevel = "medium", words: Collection[str] | None = None
) -> Move:
    """The move a ``level`` computer player makes for ``seat`` (whose turn it is)."""
    if table.laid and level != "expert":
        return Pass()  # a person's turn: one lay, then pass
    found = proposal(table, seat, level, words)
    if found is not None:
        return found.lay
    if table.laid:
        return Pass()
    return Draw() if legal_to_draw(table, seat) else Pass()
