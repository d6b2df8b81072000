"""Kastet's computer players (RULES §4a): each level plays like a person of that strength.

A person's turn is a few looks at the table (``kastet_looks``): what their own hand shows,
where its tiles fit on the table, which table meld they rebuild. A level is what it looks at
while the pile lasts and once it is empty, and how it looks when few tiles are left
(``Person``); docs/LEVELS.kastet.md says it in words, bench/bench_levels_kastet.py measures it.

- ``easy``: one lay a turn, from its own hand only while the pile lasts: the melds its hand
  shows. Once the pile is empty it looks harder, as a stuck person does (else four easy
  players block nearly every hand): its hand's melds, its tiles added to table melds, one
  table meld rebuilt with them; with two tiles or fewer, the whole table — still one lay a
  turn.
- ``medium``: one lay a turn — all its hand's melds, its tiles added to any table melds, one
  table meld rebuilt with them. Once the pile is empty, lay after lay of those, and with
  eight tiles or fewer the whole table.
- ``hard``: the whole series area reworked, lay after lay, but the melds holding a joker (a
  person leaves the table's jokers where they are: freeing one is the expert's move); its own
  jokers laid as readily as its other tiles.
- ``expert``: the full search (``search.kastet.search``) with a strategy: it lays whatever
  finishes its hand; otherwise it keeps a joker when laying it gains nothing beyond the
  joker's own 50 — precisely, when the best lay with the jokers held back (on the same table
  melds the search was free to change) sheds at least as much of the *other* tiles as the
  best lay does (``lay.shed - 50 * jokers laid <= best lay without jokers``), it lays the one
  without jokers (or draws, when that lay is empty).

Every search runs on a budget of states; past it a look falls back to a simpler one (the
hand first), so no level passes or draws while a lay it could make by its own rules is in
sight of a simpler look (``Person.exactly`` is the level without budgets, what the benches
and tests hold it to).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from harftet.engine.hand import legal_to_draw
from harftet.engine.moves import Draw, Lay, Move, Pass
from harftet.engine.search import BotLevel, Proposal
from harftet.engine.search.kastet import search, within
from harftet.engine.search.kastet_melds import _hand_value
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import JOKER_HAND_VALUE, KASTET_TILES

from .kastet_looks import (
    Extensions,
    HandMelds,
    Look,
    OneMeld,
    Whole,
    exactly,
    simpler,
)

EXPERT_BUDGET = 30_000  # states of the expert's exact search (the hints' search has 120,000)
EXPERT_FIXED = 10_000  # states of its fall-back with the table's jokers left in place
EXPERT_KEEP = 10_000  # states of the lay without its jokers (whether to keep them)
EXPERT_LADDER = 2_000  # states of the budgeted ladder it falls back on
EASY_LATE_FEW = 2  # easy, once the pile is empty: with this many tiles or fewer, the whole table
MEDIUM_LATE_FEW = 8  # medium, once the pile is empty: with this many or fewer, the whole table


@dataclass(frozen=True, slots=True)
class Strongest:
    """The expert's look: the full search with its joker strategy (the module docstring);
    past its budget (which bounds the decision's time), what the search's own fall-backs
    find (the table's jokers left in place, the budgeted ladder), else the simpler looks."""

    budget: int = EXPERT_BUDGET
    fixed: int = EXPERT_FIXED
    keep: int = EXPERT_KEEP

    def __call__(self, table: Table, seat: int) -> Proposal | None:
        hand = table.seats[seat].hand
        if not hand:
            return None
        found = search(
            table,
            seat,
            tree_budget=self.budget,
            decision_budget=EXPERT_LADDER,
            fixed_budget=self.fixed,
        )
        best = found.proposal
        if best is None:
            return None if found.exact else simpler(table, seat)
        jokers = [t for t in best.tiles if KASTET_TILES[t].joker]
        if not jokers or len(best.tiles) == len(hand):
            return best  # nothing to keep, or it finishes the hand
        others = [t for t in hand if not KASTET_TILES[t].joker]
        without = within(table, others, found.released, self.keep) if others else None
        if without is not None and without.proposal is None and not without.proven:
            return best  # too much to work out: lay what was found
        kept = without.proposal if without is not None else None
        if best.shed - JOKER_HAND_VALUE * len(jokers) <= (0 if kept is None else kept.shed):
            return kept
        return best


@dataclass(frozen=True, slots=True)
class Turn:
    """How a player looks at the table in a turn: its ``looks`` together make one lay a turn
    (``once``); or each call lays what the first look that finds anything finds, lay after
    lay, until none does."""

    looks: tuple[Look, ...]
    once: bool = True

    def lay(self, table: Table, seat: int) -> Proposal | None:
        """The next lay of the turn (None: nothing more to lay this turn)."""
        if not self.once:
            for look in self.looks:
                found = look(table, seat)
                if found is not None:
                    return found
            return None
        return None if table.laid else _together(self.looks, table, seat)

    def exactly(self) -> Turn:
        return replace(self, looks=tuple(exactly(look) for look in self.looks))


def _together(looks: Sequence[Look], table: Table, seat: int) -> Proposal | None:
    """One lay of every look's find, each look seeing the table the ones before left."""
    current = table
    pairs: list[tuple[Placed, ...]] = []
    laid: list[int] = []
    for look in looks:
        found = look(current, seat)
        if found is None:
            continue
        pairs += found.lay.pairs
        laid += found.tiles
        hand = [t for t in current.seats[seat].hand if t not in set(found.tiles)]
        seats = [replace(s, hand=hand) if i == seat else s for i, s in enumerate(current.seats)]
        series = [list(m) for m in found.lay.series]
        pairs_now = [*current.pairs, *(list(p) for p in found.lay.pairs)]
        current = replace(current, series=series, pairs=pairs_now, seats=seats)
    if not laid:
        return None
    lay = Lay(tuple(tuple(m) for m in current.series), tuple(pairs))
    return Proposal(lay, _hand_value(laid), tuple(sorted(laid)))


@dataclass(frozen=True, slots=True)
class Phase:
    """A level's turns in one part of the hand: ``turn``, or ``close`` with ``few`` tiles or
    fewer in hand."""

    turn: Turn
    few: int = 0
    close: Turn | None = None

    def exactly(self) -> Phase:
        close = None if self.close is None else self.close.exactly()
        return replace(self, turn=self.turn.exactly(), close=close)


@dataclass(frozen=True, slots=True)
class Person:
    """A level: how it plays while the pile lasts (``playing``) and once it is empty
    (``late``: no draw is left, and a stuck person looks harder)."""

    playing: Phase
    late: Phase

    def turn(self, table: Table, seat: int) -> Turn:
        """How it looks at the table now."""
        phase = self.playing if table.pile else self.late
        if phase.close is not None and len(table.seats[seat].hand) <= phase.few:
            return phase.close
        return phase.turn

    def exactly(self) -> Person:
        """The same level without budgets: every lay its own rules allow is found."""
        return Person(self.playing.exactly(), self.late.exactly())


def _people() -> dict[str, Person]:
    hand, added, rebuilt = HandMelds(), Extensions(), OneMeld()
    own_hand_first = Turn((hand, added, rebuilt))
    hard = Phase(Turn((Whole(), added), once=False))
    expert = Phase(Turn((Strongest(),), once=False))
    return {
        "easy": Person(
            Phase(Turn((hand,))),
            Phase(own_hand_first, EASY_LATE_FEW, Turn((Whole(),))),
        ),
        "medium": Person(
            Phase(own_hand_first),
            Phase(
                replace(own_hand_first, once=False),
                MEDIUM_LATE_FEW,
                Turn((hand, Whole()), once=False),
            ),
        ),
        "hard": Person(hard, hard),
        "expert": Person(expert, expert),
    }


PEOPLE = _people()


def choose_move(table: Table, seat: int, level: BotLevel = "medium") -> Move:
    """The move of a ``level`` computer player in ``seat``, whose turn it is: its next lay,
    else a draw when allowed, else a pass."""
    return move_of(PEOPLE[level], table, seat)


def move_of(person: Person, table: Table, seat: int) -> Move:
    """``person``'s move in ``seat``, whose turn it is."""
    found = person.turn(table, seat).lay(table, seat)
    if found is not None:
        return found.lay
    if not table.laid and legal_to_draw(table, seat):
        return Draw()
    return Pass()
