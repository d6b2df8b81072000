"""Kastet's computer players (RULES §4a), stdlib only.

``easy``, ``medium`` and ``hard`` model a person: how much of the table they rework in a
turn and how long they look (RULES §4a); ``expert`` is the full exact search.

- ``easy`` lays new melds from its own hand only (and pairs when the pair area is open).
- ``medium`` reworks one table meld in a turn: the best of its own hand alone and of each
  table meld near its tiles rebuilt alone with it (``one_meld_lay``).
- ``hard`` may rework any table meld but those holding a joker (``hard_lay``: the exact
  search with those melds held fixed), and lays its jokers as readily as its other tiles.
  Measured (bench/bench_levels.py): a hard player restricted to the melds near its tiles
  was hardly stronger than a medium one, the full search without the joker strategy as
  strong as the expert; leaving the table's jokers alone puts it between the two.
- ``expert`` runs the full search (``search.kastet.search``) and plays it with a strategy: it
  lays whatever finishes its hand; otherwise it keeps a joker when laying it gains nothing
  beyond the joker's own 50 — precisely, when the best lay with the jokers held back (on
  the same table melds the search was free to change) sheds at least as much of the *other*
  tiles as the best lay does (``lay.shed - 50 * jokers laid <= best lay without jokers``),
  it lays the one without jokers (or draws, when that lay is empty). The search already
  sheds the most value, so high tiles go first.

An easy or medium player's turn is one lay; after a lay, a hard or expert player's next
call in the same turn lays again (a hard player so reworks one part of the table after
another), or passes when nothing is left.
"""

from __future__ import annotations

from harftet.engine.hand import legal_to_draw
from harftet.engine.moves import Draw, Move, Pass
from harftet.engine.search import BotLevel, Proposal
from harftet.engine.search.kastet import (
    LOCAL_BUDGET,
    _attempt,
    _proposal,
    _touching,
    lay_within,
    local_lay,
    search,
)
from harftet.engine.state import Table
from harftet.engine.tiles import JOKER_HAND_VALUE, KASTET_TILES

MEDIUM_MELDS = 6  # table melds near its tiles a medium player tries, one at a time


def _jokers(tiles: tuple[int, ...] | list[int]) -> list[int]:
    return [t for t in tiles if KASTET_TILES[t].joker]


def one_meld_lay(table: Table, seat: int, most: int = MEDIUM_MELDS) -> Proposal | None:
    """The best lay that changes at most one table meld: the hand alone, then each of the
    ``most`` table melds its tiles touch most, rebuilt alone with the hand's tiles."""
    hand = list(table.seats[seat].hand)
    if not hand:
        return None
    best = local_lay(table, seat, None)
    for i in _touching(table, hand, 1, most):
        plan, overflow = _attempt(table, hand, [i], 1, LOCAL_BUDGET)
        if plan is None or overflow:
            continue
        found = _proposal(table, hand, [i], plan)
        if found is not None and (best is None or found.shed > best.shed):
            best = found
    return best


def hard_lay(table: Table, seat: int) -> Proposal | None:
    """The hard player's lay: the best lay reworking any table meld but those holding a
    joker (a person leaves the table's jokers where they are: freeing one is the expert's
    move), its own jokers laid as readily as its other tiles."""
    hand = list(table.seats[seat].hand)
    if not hand:
        return None
    released = [
        i for i, m in enumerate(table.series) if not any(KASTET_TILES[p.id].joker for p in m)
    ]
    return lay_within(table, seat, released, hand)


def expert_lay(table: Table, seat: int) -> Proposal | None:
    """The expert player's lay (see the module docstring), or None to keep its tiles."""
    hand = table.seats[seat].hand
    found = search(table, seat)
    best = found.proposal
    if best is None or len(best.tiles) == len(hand):
        return best  # nothing to lay, or it finishes the hand
    jokers = _jokers(best.tiles)
    if not jokers:
        return best
    others = [t for t in hand if not KASTET_TILES[t].joker]
    without = lay_within(table, seat, found.released, others) if others else None
    kept = 0 if without is None else without.shed
    if best.shed - JOKER_HAND_VALUE * len(jokers) <= kept:
        return without
    return best


def choose_move(table: Table, seat: int, level: BotLevel = "medium") -> Move:
    """The move of a ``level`` computer player in ``seat``, whose turn it is."""
    if table.laid and level in ("easy", "medium"):
        return Pass()  # their turn is one lay
    if level == "easy":
        proposal = local_lay(table, seat, None)
    elif level == "medium":
        proposal = one_meld_lay(table, seat)
    elif level == "hard":
        proposal = hard_lay(table, seat)
    else:
        proposal = expert_lay(table, seat)
    if proposal is not None:
        return proposal.lay
    if not table.laid and legal_to_draw(table, seat):
        return Draw()
    return Pass()
