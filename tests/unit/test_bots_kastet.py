"""Kastet's computer players as people (RULES §4a, issue 37): every level's proposals are
legal, and no level passes or draws while a lay it could make is in sight — when a look runs
out of its work budget it falls back to a simpler lay (its own hand first), never to nothing.
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import NOW, arrange, kastet_id, make_table, meld, places
from test_search_kastet import random_position, table_of

from harftet.engine.bots.kastet import PEOPLE, Strongest, choose_move, move_of
from harftet.engine.bots.kastet_looks import (
    Extensions,
    HandMelds,
    Near,
    OneMeld,
    Whole,
    simpler,
)
from harftet.engine.hand import apply_move
from harftet.engine.moves import Draw, Lay, Pass
from harftet.engine.search import BOT_LEVELS
from harftet.engine.state import Table

EXACT = {level: person.exactly() for level, person in PEOPLE.items()}


def _positions(seed: int, count: int, hand: int | None = None) -> list[Table]:
    """Random positions with jokers on the table and in hand, the pile full or empty."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        size = hand if hand is not None else rng.randrange(1, 23)
        series, tiles = random_position(rng, rng.randrange(0, 27), size, i % 3, (i // 3) % 2)
        out.append(table_of(series, tiles, pile=0 if i % 4 == 3 else 10))
    return out


def _accepted(table: Table, move: Lay) -> Table:
    after = apply_move(table, 0, move, NOW + 1).table
    assert sorted(places(after)) == sorted(places(table))
    gone = set(table.seats[0].hand) - set(after.seats[0].hand)
    assert gone, "a lay adds at least one tile from the hand"
    return after


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_every_level_lays_only_what_the_engine_accepts_turn_after_turn(level: str) -> None:
    """A whole turn of each level (lay after lay until it draws or passes) on random
    positions, 22-tile hands among them: every lay is accepted, every tile stays in place."""
    lays = 0
    for table in _positions(37, 36) + _positions(38, 12, hand=22):
        for _ in range(30):
            move = choose_move(table, 0, level)  # type: ignore[arg-type]
            if not isinstance(move, Lay):
                break
            table = _accepted(table, move)
            lays += 1
        else:
            raise AssertionError("a turn of thirty lays")
        apply_move(table, 0, move, NOW + 2)  # the draw or pass is legal too
    assert lays >= 30


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_on_22_tile_hands_no_level_draws_or_passes_while_its_own_rules_lay(level: str) -> None:
    """The fall-back property on the largest hands: wherever the level without budgets
    (``Person.exactly``) would lay, the level itself lays."""
    could = 0
    for table in _positions(22, 24, hand=22):
        move = choose_move(table, 0, level)  # type: ignore[arg-type]
        exact = EXACT[level].turn(table, 0).lay(table, 0)
        if exact is not None:
            could += 1
            assert isinstance(move, Lay), (level, table.series, table.seats[0].hand)
        if isinstance(move, Lay):
            _accepted(table, move)
    assert could >= 12


@pytest.mark.parametrize(
    "look",
    [HandMelds(budget=1), Whole(budget=1), Near(budget=1), Strongest(budget=1, fixed=1, keep=1)],
    ids=["hand", "whole", "near", "expert"],
)
def test_a_look_out_of_budget_still_lays_what_the_hand_shows(look: object) -> None:
    """Starved of work (one state), each look falls back to a simpler lay, never to None,
    when the 22-tile hand holds melds of its own."""
    laid = 0
    for table in _positions(99, 12, hand=22):
        if HandMelds()(table, 0) is None:
            continue
        found = look(table, 0)  # type: ignore[operator]
        assert found is not None
        _accepted(table, found.lay)
        laid += 1
    assert laid >= 6


def test_the_simpler_looks_find_hand_melds_then_extensions_then_one_meld() -> None:
    run = meld([kastet_id("red", n) for n in (3, 4, 5)])
    table = arrange(make_table(), {0: [kastet_id("red", 6)]}, [run])
    assert HandMelds()(table, 0) is None
    grown = Extensions()(table, 0)
    assert grown is not None and grown.tiles == (kastet_id("red", 6),)
    assert simpler(table, 0) == grown
    sets = [meld([kastet_id(c, 7) for c in ("red", "yellow", "blue", "black")])]
    hand = [kastet_id("red", 8), kastet_id("red", 9)]  # red 7-8-9 takes the set's red 7
    table = arrange(make_table(), {0: hand}, [run, *sets])
    assert HandMelds()(table, 0) is None and Extensions()(table, 0) is None
    rebuilt = OneMeld()(table, 0)
    assert rebuilt is not None and sorted(rebuilt.tiles) == sorted(hand)
    _accepted(table, rebuilt.lay)


def test_easy_lays_its_hand_while_the_pile_lasts_and_looks_harder_once_it_is_empty() -> None:
    run = meld([kastet_id("red", n) for n in (3, 4, 5)])
    hand = [kastet_id("red", 6), kastet_id("blue", 11)]
    table = arrange(make_table(), {0: hand}, [run])
    assert choose_move(table, 0, "easy") == Draw()  # its hand shows no meld
    assert isinstance(choose_move(table, 0, "medium"), Lay)  # medium adds to the table's run
    empty = arrange(make_table(), {0: hand}, [run], pile=0)
    move = choose_move(empty, 0, "easy")
    assert isinstance(move, Lay)  # stuck, it sees where its red 6 goes
    after = _accepted(empty, move)
    after.laid = False
    assert choose_move(after, 0, "easy") == Pass()  # blue 11 fits nowhere


def test_four_easy_players_end_seeded_hands_by_finishing() -> None:
    """The hands do not run out of pile and block (bench/bench_levels_kastet.py measures
    ≥ 90 % over 400 deals)."""
    finished = 0
    for seed in range(1, 7):
        table = make_table(seed=seed)
        for n in range(2000):
            if table.hand_results:
                break
            seat = table.turn_seat
            assert seat is not None
            table = apply_move(table, seat, move_of(PEOPLE["easy"], table, seat), NOW + n).table
        finished += table.hand_results[0].finisher is not None
    assert finished >= 5
