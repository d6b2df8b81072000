"""Hint budgets in the engine (RULES §4a): one meld per hint, one hint per meld, counted per
seat and hand; a meld already revealed is free; a new position starts at its first meld."""

from __future__ import annotations

import pytest
from engine_helpers import make_table

from harftet.engine import hints
from harftet.engine.errors import EngineError, NoHintsLeftError
from harftet.engine.moves import Lay
from harftet.engine.state import Placed


def test_each_meld_costs_one_hint_and_a_revealed_one_is_free() -> None:
    table = make_table("kastet", 2)
    table.hints = 2
    mark = hints.position_mark(table, 0)
    out, index = hints.take(table, 0, 3, mark, None)
    assert index == 0 and out.table is not table and out.table.seats[0].hints_used == 1
    again, index = hints.take(out.table, 0, 3, mark, 1)
    assert index == 0 and again.table is out.table  # nothing stored, nothing spent
    second, index = hints.take(out.table, 0, 3, mark, None)
    assert index == 1 and second.table.seats[0].hints_used == 2
    assert second.table.seats[1].hints_used == 0  # the other seat's budget is its own
    with pytest.raises(NoHintsLeftError):
        hints.take(second.table, 0, 3, mark, None)
    with pytest.raises(EngineError, match="one at a time"):
        hints.take(out.table, 0, 3, mark, 3)


def test_a_new_position_starts_again_at_its_first_meld_and_unlimited_is_never_counted() -> None:
    table = make_table("kastet", 2)
    table.hints = 3
    out, _ = hints.take(table, 0, 2, hints.position_mark(table, 0), None)
    moved = out.table.clone()
    moved.seats[0].hand.append(moved.pile.pop())  # a draw: another position
    assert hints.shown(moved, 0) == 0 and hints.shown(out.table, 0) == 1
    again, index = hints.take(moved, 0, 2, hints.position_mark(moved, 0), None)
    assert index == 0 and again.table.seats[0].hints_used == 2
    table.hints = "unlimited"
    free, index = hints.take(table, 0, 2, hints.position_mark(table, 0), None)
    assert free.table is table and index == 0


def test_the_melds_revealed_are_the_changed_series_melds_then_the_new_pairs() -> None:
    table = make_table("kastet", 2)
    kept = [Placed(0), Placed(1), Placed(2)]
    table.series = [kept]
    changed = (Placed(13), Placed(14), Placed(15))
    pair = (Placed(50), Placed(102))
    lay = Lay(series=(tuple(kept), changed), pairs=(pair,))
    assert hints.melds_of(table, lay) == [changed, pair]
    shown = hints.meld_json(changed, [13, 14])
    assert [t["from"] for t in shown] == ["hand", "hand", "table"]
