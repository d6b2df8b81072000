"""A table nobody is left at (docs/RULES.en.md "A table nobody is left at"): where a computer
player would take the last vacant seat and no person sits at the table or may come back, the
game ends as abandoned instead — nobody's rating or record changes, no computer player plays
it. A dropped player keeps the game going for them; a substitute sitting during the wait
does too; at a correspondence table the last leave ends it at once (RULES §6: no
substitutes are sought)."""

from __future__ import annotations

import json

from engine_helpers import NOW
from test_table_life import WAIT, created, do, person, started, swept

from harftet.engine import ending, replay
from harftet.engine import table as life
from harftet.engine.effects import Outcome, RatingChange
from harftet.engine.hand import apply_move, forced_move
from harftet.engine.options import TableOptions
from harftet.engine.state import Table
from harftet.engine.view import lobby_status, table_view

TURN = 600


def _everyone_left(players: int = 3, **kw: object) -> Table:
    table = started(players=players, turn_seconds=TURN, **kw)
    for i in range(players):
        table = do(life.leave, table, f"p{i}", NOW + i).table
    return table


def test_a_game_everybody_left_ends_as_abandoned_when_the_wait_for_the_last_seat_ends() -> None:
    table = _everyone_left(3)
    assert table.status == "paused" and all(s.occupant is None for s in table.seats)
    last = NOW + 2 + WAIT  # p2 left at NOW + 2: her seat's wait ends last
    # the first seats' waits end first: computer players sit there, the game stays paused
    table = swept(table, NOW + WAIT).table
    table = swept(table, NOW + 1 + WAIT).table
    assert table.status == "paused" and table.seats[2].occupant is None
    assert do(life.sweep, table, last - 1) is None
    out = swept(table, last)
    ended = out.table
    assert ended.status == "finished" and ended.seats[2].occupant is None  # no computer sat
    assert ended.result == {"penalties": [0, 0, 0], "ratings": {}, "closed": "abandoned"}
    assert out.effects == []  # the leavers paid 2·N when they left; nothing more
    assert [e["type"] for e in out.events] == ["gameEnd"]
    assert out.events[0]["closed"] == "abandoned"
    assert life.next_due(ended) is None and do(life.sweep, ended, last + 10**6) is None


def test_the_leavers_pay_2n_once_and_the_end_charges_nobody() -> None:
    table = started(players=2, turn_seconds=TURN, hands=3)
    first = do(life.leave, table, "p0", NOW)
    second = do(life.leave, first.table, "p1", NOW + 1)
    assert first.effects == [RatingChange("p0", -6, "leave")]
    assert second.effects == [RatingChange("p1", -6, "leave")]
    out = swept(swept(second.table, NOW + WAIT).table, NOW + 1 + WAIT)
    assert out.table.status == "finished" and out.effects == []


def test_the_view_and_the_lobby_say_it_ended_and_why() -> None:
    table = _everyone_left(2)
    view = table_view(table, None)
    assert view["closed"] is None and lobby_status(table) == "open"
    ended = swept(swept(table, NOW + WAIT).table, NOW + 1 + WAIT).table
    view = table_view(ended, None)
    assert view["status"] == "finished" and view["closed"] == "abandoned"
    assert view["result"]["ratings"] == {} and "points" not in view["result"]
    assert view["turn"] is None and lobby_status(ended) is None  # off the substitutes' list


def test_a_dropped_player_keeps_the_game_going_for_them() -> None:
    table = started(players=2, turn_seconds=TURN)
    table = do(life.leave, table, "p0", NOW).table
    table = do(life.disconnect, table, "p1", NOW).table
    table = swept(table, NOW + 120).table  # p1's grace ends: dropped, her seat offered
    assert table.seats[1].original_fate == "dropped" and ending.may_return(table) == ["p1"]
    table = swept(table, NOW + WAIT).table  # p0's seat: a computer player
    table = swept(table, NOW + 120 + WAIT).table  # p1's seat: a computer player, play goes on
    assert table.status == "playing"
    assert all(s.occupant is not None and s.occupant.bot for s in table.seats)
    back = do(life.reconnect, table, "p1", NOW + 1000).table  # she can always come back
    assert back.seats[1].occupant == person(1) and back.status == "playing"


def test_a_seated_player_who_is_offline_keeps_the_game_going() -> None:
    table = started(players=2, turn_seconds=TURN, grace_seconds=600)
    table = do(life.disconnect, table, "p1", NOW).table
    table = do(life.leave, table, "p0", NOW + 1).table
    # p0's wait ends while p1 (offline, within her grace) still sits there
    table = swept(table, NOW + 1 + WAIT).table
    assert table.status != "finished" and table.seats[0].occupant.bot


def test_a_substitute_who_sits_during_the_wait_keeps_the_game_going() -> None:
    table = _everyone_left(2)
    table = do(life.sit, table, 1, person("sub"), NOW + 30).table
    table = swept(table, NOW + WAIT).table  # seat 0: a computer player; sub waits for Continue
    assert table.status == "paused" and table.manager == "sub"
    table = do(life.continue_game, table, "sub", NOW + WAIT + 1).table
    assert table.status == "playing"


def test_a_leaver_who_sits_back_down_during_the_wait_keeps_it_going() -> None:
    table = _everyone_left(2)
    table = do(life.sit, table, 0, person(0), NOW + 30).table  # back, as a substitute
    table = swept(table, NOW + 1 + WAIT).table
    assert table.status == "paused" and table.seats[1].occupant.bot


def test_a_practice_game_everybody_left_ends_too() -> None:
    table = do(life.seat_bot, created(seats=2), 1, "p0", NOW).table
    table = do(life.start, table, "p0", NOW).table
    assert table.practice
    left = do(life.leave, table, "p0", NOW + 1)
    assert left.effects == []  # leaving a practice game costs nothing
    ended = swept(left.table, NOW + 1 + WAIT).table
    assert ended.status == "finished" and ended.result["closed"] == "abandoned"


def test_at_a_correspondence_table_the_last_leave_ends_the_game_at_once() -> None:
    table = started(players=2, turn_seconds=3600, pace="correspondence")
    first = do(life.leave, table, "p0", NOW).table
    assert first.status == "playing" and first.seats[0].occupant.bot
    out = do(life.leave, first, "p1", NOW + 5)
    assert out.effects == [RatingChange("p1", -22, "leave")]
    assert [e["type"] for e in out.events] == ["leave", "gameEnd"]  # no computer player sits
    assert out.table.status == "finished" and out.table.result["closed"] == "abandoned"
    assert life.next_due(out.table) is None


def test_a_correspondence_owner_dropped_by_timeouts_keeps_the_game_going() -> None:
    table = started(players=2, turn_seconds=3600, pace="correspondence")
    while table.seats[1].original_fate != "dropped":  # p0 plays, p1 never does
        assert table.deadline is not None
        if table.turn_seat == 0:
            table = do(apply_move, table, 0, forced_move(table), table.deadline - 1).table
        else:
            table = swept(table, table.deadline).table
    assert table.seats[1].occupant.bot
    table = do(life.leave, table, "p0", table.recent[-1]["at"] + 1).table
    assert table.status == "playing" and ending.may_return(table) == ["p1"]
    assert all(s.occupant is not None and s.occupant.bot for s in table.seats)


def test_a_replay_rebuilds_an_abandoned_game() -> None:
    events: list[dict] = []

    def step(out: Outcome) -> Table:
        events.extend(out.events)
        return out.table

    options = TableOptions("kastet", seats=2, turn_seconds=TURN)
    table = life.new_table("t1", person(0), options, seed=7, now=NOW)
    events.extend(table.recent)
    table = step(do(life.sit, table, 1, person(1), NOW))
    table = step(do(life.start, table, "p0", NOW))
    table = step(do(life.leave, table, "p0", NOW + 1))
    table = step(do(life.leave, table, "p1", NOW + 2))
    table = step(swept(table, NOW + 1 + WAIT))
    table = step(swept(table, NOW + 2 + WAIT))
    assert table.status == "finished"
    doc = json.loads(json.dumps(replay.document(table, events)))
    assert doc["result"]["closed"] == "abandoned"
    assert replay.play(doc) == table
