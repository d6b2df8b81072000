"""Kastet's computer players (RULES §4a), stdlib only.

- ``easy`` lays new melds from its own hand only (and pairs when the pair area is open).
- ``medium`` may also extend and rearrange the table melds near its tiles: the exact search
  on that restricted problem (``search.kastet.local_lay``: the few table melds that
  the most of its tiles touch), not the whole table.
- ``hard`` runs the full search (``search.kastet.search``) and plays it with a strategy: it
  lays whatever finishes its hand; otherwise it keeps a joker when laying it gains nothing
  beyond the joker's own 50 — precisely, when the best lay with the jokers held back (on
  the same table melds the search was free to change) sheds at least as much of the *other*
  tiles as the best lay does (``lay.shed - 50 * jokers laid <= best lay without jokers``),
  it lays the one without jokers (or draws, when that lay is empty). The search already
  sheds the most value, so high tiles go first.

After a lay the next call in the same turn lays again, or passes when nothing is left.
"""

from __future__ import annotations

from harftet.engine.hand import legal_to_draw
from harftet.engine.moves import Draw, Move, Pass
from harftet.engine.search import BotLevel, Proposal
from harftet.engine.search.kastet import lay_within, local_lay, search
from harftet.engine.state import Table
from harftet.engine.tiles import JOKER_HAND_VALUE, KASTET_TILES

MEDIUM_MELDS = 4  # table melds near its tiles that a medium player may rebuild


def _jokers(tiles: tuple[int, ...] | list[int]) -> list[int]:
    return [t for t in tiles if KASTET_TILES[t].joker]


def hard_lay(table: Table, seat: int) -> Proposal | None:
    """The hard player's lay (see the module docstring), or None to keep its tiles."""
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
    if level == "easy":
        proposal = local_lay(table, seat, None)
    elif level == "medium":
        proposal = local_lay(table, seat, 1, MEDIUM_MELDS)
    else:
        proposal = hard_lay(table, seat)
    if proposal is not None:
        return proposal.lay
    if not table.laid and legal_to_draw(table, seat):
        return Draw()
    return Pass()
