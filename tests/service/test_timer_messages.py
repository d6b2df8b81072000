"""Timer messages at a live table (harftet.store.table_items.timer_asked, harftet.timers): people
whose turns end in seconds lean on one message, which goes on to the deadline the table has
when it falls due; every deadline still fires, a computer player's second included."""

from __future__ import annotations

from service_helpers import full_table, turn_player
from test_live import _with_bots

from harftet.engine.moves import Draw


def _move(app, table_id, callers):
    caller, view = turn_player(app, table_id, callers)
    return app.tables.move(caller, table_id, view["version"], f"d{view['version']}", Draw())


def test_turns_that_end_in_seconds_lean_on_one_message_and_the_last_one_still_times_out(
    app, clock, live
):
    table_id, callers = full_table(app, seats=2, turn_seconds=30)
    live.pump()
    [first] = live.timers.scheduled
    for _ in range(4):  # four turns of two seconds each: their deadlines come after the first
        clock.advance(2)
        _move(app, table_id, callers)
        live.pump()
    assert live.timers.scheduled == [first]  # one message for five deadlines, not five
    waiting, view = turn_player(app, table_id, callers)
    assert view["turn"]["deadline"] > first.due
    clock.advance(first.due - clock.now)
    assert live.firing.fire(first) == "requeued"  # it goes on to the deadline the table has
    again = live.timers.scheduled[-1]
    assert again.due == view["turn"]["deadline"]
    assert app.tables.view(waiting, table_id)["version"] == view["version"]  # nothing applied
    clock.advance(again.due - clock.now)
    assert live.firing.fire(again) == "committed"  # nobody moved: the server drew for them
    after = app.tables.view(waiting, table_id)
    assert len(after["hand"]) == len(view["hand"]) + 1
    assert after["turn"]["seat"] != view["turn"]["seat"]
    live.pump()
    assert live.timers.scheduled[-1].due == after["turn"]["deadline"]  # the next turn's own
    assert live.firing.fire(first) == "stale" and live.firing.fire(again) == "stale"


def test_a_leaning_message_is_dropped_once_a_later_turn_asked_for_its_own(app, clock, live):
    table_id, callers = full_table(app, seats=2, turn_seconds=30)
    live.pump()
    [first] = live.timers.scheduled
    clock.advance(10)
    _move(app, table_id, callers)  # leans on the first message
    clock.advance(first.due - clock.now)
    assert live.firing.fire(first) == "requeued"
    again = live.timers.scheduled[-1]
    clock.advance(5)
    moved = _move(app, table_id, callers)  # the first message has passed: a message of its own
    live.pump()
    own = live.timers.scheduled[-1]
    assert own.due == moved["turn"]["deadline"] and own != again
    clock.advance(again.due - clock.now)
    assert live.firing.fire(again) == "stale"  # the table's deadline has its own message
    assert app.tables.view(callers[0], table_id)["version"] == moved["version"]


def test_a_computer_players_second_gets_its_own_message_before_a_persons_turn(app, clock, live):
    table_id, owner = _with_bots(app)
    view = app.tables.start(owner, table_id)
    live.pump()
    fired = 0
    while view["status"] == "playing" and fired < 10:  # the person draws, the bots follow
        if view["turn"]["seat"] == 0:
            clock.advance(1)
            view = app.tables.move(owner, table_id, view["version"], f"d{fired}", Draw())
            live.pump()
            continue
        bot_due = view["turn"].get("deadline")
        due = [t for t in live.timers.scheduled if t.due <= clock.now + 1.001]
        assert due, f"no message for a computer player's turn due {bot_due}"
        clock.advance(max(0.0, due[-1].due - clock.now))
        outcomes = [live.firing.fire(t) for t in due]
        live.timers.scheduled = [t for t in live.timers.scheduled if t not in due]
        assert "committed" in outcomes
        fired += 1
        live.pump()
        view = app.tables.view(owner, table_id)
    assert fired >= 10  # the computer players kept playing, each turn fired by its message
