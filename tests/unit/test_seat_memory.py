"""One seat per player per game and one charge per leave, with no cap on how many people
came and went (RULES §4): twelve people come and go at a four-seat game, the table stored
and read back through the codec between every step, as the store does."""

from __future__ import annotations

import pytest
from engine_helpers import NOW

from harftet.engine import table as life
from harftet.engine.codec import decode, encode
from harftet.engine.errors import WrongStatusError
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant, Table

HANDS = 3


def person(pid: str) -> Occupant:
    return Occupant(pid, f"Oyuncu {pid}", rating=1000)


def stored(table: Table) -> Table:
    return decode(encode(table))


def started() -> Table:
    table = life.new_table(
        "t-memory", person("p0"), TableOptions("kastet", seats=4, hands=HANDS), seed=7, now=NOW
    )
    for seat in (1, 2, 3):
        table = life.sit(table, seat, person(f"p{seat}"), NOW).table
    return stored(life.start(table, "p0", NOW).table)


def test_twelve_people_coming_and_going_each_pay_once_and_keep_their_one_seat() -> None:
    table = started()
    charged: list[tuple[str, int]] = []
    left_from: dict[str, int] = {}
    now = NOW
    for i in range(12):
        now += 10
        seat = 1 + i % 3
        leaver = table.seats[seat].occupant
        assert leaver is not None
        out = life.leave(table, leaver.player_id, now)
        charged += [(c.player_id, c.delta) for c in out.effects]
        left_from[leaver.player_id] = seat
        table = stored(out.table)
        table = stored(life.sit(table, seat, person(f"g{i}"), now + 1).table)
        table = stored(life.continue_game(table, "p0", now + 2).table)
    assert len(left_from) == 12  # p1, p2, p3 and g0..g8 came and went
    assert charged == [(pid, -2 * HANDS) for pid in left_from]  # each exactly once

    # The very first ones to leave are still remembered: none may take another seat ...
    vacated = table.seats[1].occupant
    assert vacated is not None
    table = stored(life.leave(table, vacated.player_id, now + 10).table)
    for pid, seat in left_from.items():
        if seat != 1:
            with pytest.raises(WrongStatusError, match=f"seat {seat}"):
                life.sit(table, 1, person(pid), now + 11)
    # ... one who left seat 1 may come back there, and leaving again costs nothing more.
    first = next(pid for pid, seat in left_from.items() if seat == 1)
    table = stored(life.sit(table, 1, person(first), now + 12).table)
    table = stored(life.continue_game(table, "p0", now + 13).table)
    again = life.leave(table, first, now + 14)
    assert again.effects == []
    # Thirteen departures remembered in a small item: about a dozen bytes each.
    assert len(encode(again.table)) <= 1024
    assert len(again.table.former) == 13 and len(again.table.paid) == 13


def test_a_leaver_remembered_by_id_before_tags_is_still_known() -> None:
    table = started()
    table.former = {"p9": 2}  # an item stored before players were remembered by tags
    table.paid = ["p9"]
    table = stored(life.leave(table, "p1", NOW + 1).table)
    with pytest.raises(WrongStatusError, match="seat 2"):
        life.sit(table, 1, person("p9"), NOW + 2)
