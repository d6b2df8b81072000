"""Hints that reveal one meld at a time (RULES §4a, API.md v3).

The search proposes the best lay for a seat's position (its hand and the table); a hint
reveals the next meld of that lay — a series meld the lay makes or changes, then each new
pair — and costs one from the seat's budget for the hand. What was revealed is kept on the
seat (``hints_used``, ``hint_shown``, ``hint_mark``: the position it belongs to), in the
table item, so that every reveal is one stored change and a retry never pays twice: asking
for a meld already revealed (``reveal``) costs nothing. The search is deterministic (its
budget counts work, not time), so the same position always gives the same lay.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from .effects import Outcome, begin, changed, placed_json
from .errors import EngineError, NoHintsLeftError
from .moves import Lay
from .options import hint_budget
from .state import Placed, Table


def position_mark(table: Table, seat: int) -> int:
    """A fingerprint of what a hint for ``seat`` depends on: its hand and the table."""
    key = [
        table.hand_number,
        sorted(table.seats[seat].hand),
        [[placed_json(p) for p in m] for m in table.series],
        [[placed_json(p) for p in m] for m in table.pairs],
    ]
    return zlib.crc32(json.dumps(key, separators=(",", ":")).encode())


def melds_of(table: Table, lay: Lay) -> list[tuple[Placed, ...]]:
    """The melds ``lay`` reveals one by one: the series melds it makes or changes — first
    those that take a tile from the hand (a meld only rearranged from table tiles helps least
    as a first hint), each group in the lay's order — then its new pairs."""
    on_table = {p.id for m in [*table.series, *table.pairs] for p in m}
    melds = series_melds(table, lay)
    takes = [m for m in melds if any(p.id not in on_table for p in m)]
    return takes + [m for m in melds if m not in takes] + list(lay.pairs)


def series_melds(table: Table, lay: Lay) -> list[tuple[Placed, ...]]:
    """The series melds ``lay`` makes or changes."""
    before = {tuple(m) for m in table.series}
    return [m for m in lay.series if tuple(m) not in before]


def meld_json(meld: tuple[Placed, ...], hand: list[int]) -> list[dict[str, Any]]:
    """A revealed meld: ``[{"id", "as"?, "from": "hand"|"table"}, ...]``."""
    mine = set(hand)
    return [{**placed_json(p), "from": "hand" if p.id in mine else "table"} for p in meld]


def shown(table: Table, seat: int) -> int:
    """How many melds of the current position's best lay ``seat`` has seen."""
    chair = table.seats[seat]
    return chair.hint_shown if chair.hint_mark == position_mark(table, seat) else 0


def wanted(table: Table, seat: int, reveal: int | None) -> int:
    """Which meld (1-based) a hint asking for ``reveal`` (None: the next) shows. Raises
    NoHintsLeftError when it would need a hint the budget no longer has."""
    seen = shown(table, seat)
    want = seen + 1 if reveal is None else reveal
    if want < 1 or want > seen + 1:
        raise EngineError(
            f"reveal must be between 1 and {seen + 1}: melds are revealed one at a time"
        )
    budget = hint_budget(table.hints)
    if want > seen and budget is not None and table.seats[seat].hints_used >= budget:
        raise NoHintsLeftError(f"you took all {budget} hints of this hand")
    return want


def take(table: Table, seat: int, melds: int, mark: int, reveal: int | None) -> tuple[Outcome, int]:
    """Reveal meld ``wanted(...)`` of a lay of ``melds`` melds found for the position
    ``mark``: the outcome (a new table when it costs a hint, else ``table`` itself) and the
    0-based index of the meld to show. Nothing is charged where hints are unlimited, for a
    meld already revealed, or when there is no lay or nothing left to reveal."""
    want = wanted(table, seat, reveal)
    if hint_budget(table.hints) is None or melds == 0:
        return Outcome(table), 0
    if want > melds or want <= shown(table, seat):
        return Outcome(table), min(want, melds) - 1
    new = begin(table.clone())
    chair = new.seats[seat]
    chair.hints_used += 1
    chair.hint_shown = want
    chair.hint_mark = mark
    return changed(new), want - 1
