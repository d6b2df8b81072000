"""Harftet's computer players, by level (RULES §4a); each proposes only legal moves.

Every level models a person (``PEOPLE``, docs/LEVELS.md), ``expert`` the strongest a person
could be:

- what they know: a vocabulary, the words up to a rank of the lemma-aware frequency ranking
  (``harftet.engine.words.frequency``: how common the *word* is, not its spelling), never a
  word of the blocked list (``harftet.engine.words.blocked``);
- how far they rework the table: their own hand only → one table word at a time → anything
  (splits, moves between words, two words rebuilt);
- what they find in one look: a search budget, the words laid or changed in a turn
  (``steps``) and the hand tiles laid in a turn (``tiles``): a person sees a word or two, not
  the best partition of 14 letters;
- whether they keep a joker back that would only replace a letter they hold.

The numbers were chosen by measurement (bench/bench_hand_length.py and bench/bench_levels.py,
bench/RESULTS.md): hands as long as people's (a person who draws still gets a third turn),
each level ahead of three of the level below.

A player that has a lay by its own rules lays: when its search runs out of budget without
one, it looks again for simpler lays (its own hand first, then one table word), then once
more with its own moves and more work, before it draws. One lay a turn, then it passes, as a
person does.
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
from harftet.engine.words.blocked import blocked

FALLBACK_BUDGET_MS = 60.0
"""The work of each simpler look after a search that ran out without a lay (18,000 units):
enough to find a word of a 22-tile hand. Measured (bench/bench_hand_length.py
``--check-draws``): the look for a word of the hand alone took up to 11,700 units on 21-tile
hands, one table word extended up to 15,000; the older 4 ms (1,200 units) was less than
Orta's own look, so Orta drew in 43 % of the turns it had a lay. It runs only at what would
otherwise be a draw, and on a full table only the cheap looks (extensions, pairs) remain."""
FALLBACKS = (frozenset({"new"}), frozenset({"new", "ext"}))
"""The simpler looks, in order: a word from the hand alone, then one table word extended."""
PATIENCE = 5
"""Then the level's own look once more, with this many times its work: what it still missed
(seeds 1–40, ``--check-draws``) reworked two table words, and took at most 2.5 (Orta), 5 (Zor)
and 2 (Usta) times its look."""


@dataclass(frozen=True, slots=True)
class Person:
    """What a level's player knows and does in one turn."""

    vocabulary: int  # the words it knows: lemma frequency rank at most this
    moves: frozenset[str]  # the search's moves (how much of the table it reworks)
    budget_ms: float  # how long it looks
    steps: int  # words laid or changed in one turn
    tiles: int  # hand tiles laid in one turn
    keeps_joker: bool  # keeps a joker that would only replace a letter it holds


PEOPLE: dict[str, Person] = {
    "easy": Person(1_500, frozenset({"new", "pairs"}), 2.0, 1, 2, False),
    "medium": Person(3_000, frozenset({"new", "ext", "split", "pairs"}), 5.0, 1, 2, False),
    "hard": Person(6_000, search.ALL_MOVES, 20.0, 2, 2, True),
    "expert": Person(8_000, search.ALL_MOVES, 40.0, 2, 3, True),
}

KNOWN_LIST = PEOPLE["expert"].vocabulary
"""The published cut: every word a computer player lays is among this many of the ranking."""


@cache
def known_words(vocabulary: int) -> Callable[[str], bool]:
    """Whether a word is among the ``vocabulary`` most common dictionary words (the lemma
    ranking generated at set-up with the dictionary) and not blocked; every unblocked word
    counts as known, with a warning, if the ranking is missing."""
    from harftet.engine.words.frequency import FrequencyMissingError, ranks

    barred = blocked()
    try:
        table = ranks()
    except FrequencyMissingError as e:
        import warnings

        warnings.warn(f"computer players accept every unblocked word: {e}", stacklevel=2)
        return lambda word: word not in barred
    known = frozenset(w for w, n in table.items() if n <= vocabulary) - barred
    return known.__contains__


def vocabulary(level: str) -> Callable[[str], bool]:
    """The words a ``level`` player knows."""
    return known_words(PEOPLE[level].vocabulary)


def common_words() -> Callable[[str], bool]:
    """The easy player's words (the older name)."""
    return vocabulary("easy")


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
    """The lay ``level`` would make now, or None (no lay by its own rules)."""
    person = PEOPLE[level]
    stats: dict[str, int] = {}

    def look(moves: frozenset[str], budget_ms: float) -> Proposal | None:
        return search.best_lay(
            table,
            seat,
            budget_ms=budget_ms,
            words=words,
            moves=moves,
            joker_value=_joker_value(table, seat) if person.keeps_joker else 50,
            accept=vocabulary(level),
            top=2,
            steps=person.steps,
            max_tiles=person.tiles,
            stats=stats,
        )

    found = look(person.moves, person.budget_ms)
    if found is not None or not stats.get("exhausted"):
        return found  # a lay, or none by its own rules: the look saw everything
    simpler = [(m & person.moves | {"pairs"} & person.moves, FALLBACK_BUDGET_MS) for m in FALLBACKS]
    tried: dict[frozenset[str], float] = {}
    for moves, budget_ms in (*simpler, (person.moves, PATIENCE * person.budget_ms)):
        if found is None and tried.get(moves, 0.0) < budget_ms:  # easy: no ext, one look
            tried[moves] = budget_ms
            found = look(moves, budget_ms)
    return found


def choose_move(
    table: Table, seat: int, level: BotLevel = "medium", words: Collection[str] | None = None
) -> Move:
    """The move a ``level`` computer player makes for ``seat`` (whose turn it is)."""
    if table.laid:
        return Pass()  # a person's turn: one lay, then pass
    found = proposal(table, seat, level, words)
    if found is not None:
        return found.lay
    return Draw() if legal_to_draw(table, seat) else Pass()
