"""A lay that ends the turn (API.md: ``"pass": true`` on a lay; issue 40): the lay and the
turn's pass are one change — the table after it is the table after the lay and then the pass,
its events are theirs, and a refused lay changes nothing, pass or not."""

from __future__ import annotations

import dataclasses

from engine_helpers import NOW, arrange, k, lay, make_table, meld, play, rejected, rules_of

from harftet.engine.codec import encode
from harftet.engine.hand import apply_move
from harftet.engine.moves import Lay, Pass
from harftet.engine.state import Table

RED, BLUE = "red", "blue"


def ending(move: Lay) -> Lay:
    return dataclasses.replace(move, end_turn=True)


def kastet(hands: dict[int, list[int]], players: int = 2) -> Table:
    return arrange(make_table("kastet", players), hands)


def test_a_lay_that_ends_the_turn_is_the_lay_and_the_pass_in_one_change() -> None:
    hand = [k(RED, 1), k(RED, 2), k(RED, 3), k(BLUE, 9)]
    table = kastet({0: hand})
    move = lay(meld(hand[:3]))
    at = NOW + 1
    laid = apply_move(table, 0, move, at, rules=rules_of("kastet"))
    passed = apply_move(laid.table, 0, Pass(), at, rules=rules_of("kastet"))
    one = apply_move(table, 0, ending(move), at, rules=rules_of("kastet"))
    assert [e["type"] for e in one.events] == ["lay", "pass"]
    assert one.events == laid.events + passed.events
    passed.table.recent = one.table.recent  # the change's own events: lay and pass
    assert encode(one.table) == encode(passed.table)
    after = one.table
    assert after.turn_seat == 1 and not after.laid and after.seats[0].hand == [k(BLUE, 9)]
    assert after.series == [meld(hand[:3])]


def test_a_refused_lay_that_would_end_the_turn_changes_nothing() -> None:
    hand = [k(RED, 1), k(RED, 2), k(BLUE, 9)]
    table = kastet({0: hand})
    rejected(table, 0, ending(lay(meld(hand))), "meld")  # not a run: neither the lay nor the pass
    assert table.turn_seat == 0 and not table.laid


def test_laying_the_last_tiles_and_ending_the_turn_finishes_the_hand_in_one_change() -> None:
    run = [k(RED, 1), k(RED, 2), k(RED, 3)]
    table = kastet({0: run, 1: [k(BLUE, 9)], 2: [k(RED, 13)]}, players=3)
    out = apply_move(table, 0, ending(lay(meld(run))), NOW + 1, rules=rules_of("kastet"))
    assert [e["type"] for e in out.events][:3] == ["lay", "pass", "handEnd"]
    assert out.table.hand_results[-1].finisher == 0
    assert out.table.hand_results[-1].penalties[0] == -50


def test_a_lay_that_ends_the_turn_after_an_earlier_lay_of_the_same_turn() -> None:
    hand = [k(RED, 1), k(RED, 2), k(RED, 3), k(RED, 4), k(BLUE, 9)]
    table = kastet({0: hand})
    once = play(table, 0, lay(meld(hand[:3])))
    after = play(once, 0, ending(lay(meld(hand[:4]))))
    assert after.turn_seat == 1 and after.seats[0].hand == [k(BLUE, 9)] and after.passes == 0
