"""Time and people at a live table, with a clock the test controls (RULES.md §4)."""

from __future__ import annotations

import pytest
from service_helpers import full_table, player, turn_player

from harftet.engine.errors import NotManagerError, WrongStatusError
from harftet.engine.moves import Draw
from harftet.engine.options import TableOptions
from harftet.errors import StaleVersionError
from harftet.fanout import changes_from_stream


def test_when_the_turn_timer_runs_out_the_server_draws_for_the_player(app, clock):
    table_id, callers = full_table(app, turn_seconds=30)
    caller, view = turn_player(app, table_id, callers)
    clock.advance(29)
    assert app.deadlines.sweep() == 0
    clock.advance(2)
    assert app.deadlines.sweep() == 1
    after = app.tables.view(caller, table_id)
    assert len(after["hand"]) == 15 and after["turn"]["seat"] != view["turn"]["seat"]
    assert after["turn"]["deadline"] == pytest.approx(clock.now + 30)


def test_a_timer_that_fires_after_a_real_move_does_nothing(app, clock):
    table_id, callers = full_table(app, turn_seconds=30)
    caller, view = turn_player(app, table_id, callers)
    clock.advance(20)
    moved = app.tables.move(caller, table_id, view["version"], "d", Draw())
    clock.advance(15)  # the old deadline has passed, the new one has not
    assert app.deadlines.sweep() == 0
    assert app.tables.view(caller, table_id)["version"] == moved["version"]


def test_a_timeout_computed_on_an_old_version_cannot_overwrite_a_real_move(app, clock):
    from harftet.engine import table as life
    from harftet.store.errors import VersionConflictError

    table_id, callers = full_table(app, turn_seconds=30)
    _caller, _view = turn_player(app, table_id, callers)
    clock.advance(31)
    before = app.stores.tables.get(table_id)
    timed_out = life.sweep(before.table, clock.now)
    assert timed_out is not None
    app.stores.tables.save(before, before.table)  # somebody else writes first
    with pytest.raises(VersionConflictError):
        app.stores.tables.save(before, timed_out.table)


def test_a_late_move_gets_a_conflict_with_the_timed_out_table(app, clock):
    table_id, callers = full_table(app, turn_seconds=30)
    caller, view = turn_player(app, table_id, callers)
    clock.advance(31)
    with pytest.raises(StaleVersionError) as stale:
        app.tables.move(caller, table_id, view["version"], "late", Draw())
    assert stale.value.view["turn"]["seat"] != view["turn"]["seat"]
    assert len(stale.value.view["hand"]) == 15  # the server drew for them


def test_three_timeouts_in_a_row_count_as_a_disconnect(app, clock):
    table_id, callers = full_table(app, seats=2, turn_seconds=10)
    sleeper = turn_player(app, table_id, callers)[0]
    seat = callers.index(sleeper)
    for _ in range(3):
        clock.advance(11)
        app.deadlines.sweep()  # the sleeper times out
        mover, view = turn_player(app, table_id, callers)
        assert mover != sleeper
        app.tables.move(mover, table_id, view["version"], f"m{clock.now}", Draw())
    view = app.tables.view(callers[0], table_id)
    assert view["seats"][seat]["connected"] is False


def _drop(app, clock, table_id, callers, seat):
    """The player at ``seat`` closes their only socket."""
    app.sockets.connect(callers[seat], table_id, f"sock{seat}")
    app.sockets.disconnect(f"sock{seat}")


def test_a_dropped_player_keeps_the_seat_during_grace_and_can_come_back(app, clock):
    table_id, callers = full_table(app, seats=2)
    _drop(app, clock, table_id, callers, 1)
    assert app.tables.view(callers[0], table_id)["seats"][1]["connected"] is False
    clock.advance(100)
    app.sockets.connect(callers[1], table_id, "back")
    clock.advance(100)
    app.deadlines.sweep()
    view = app.tables.view(callers[0], table_id)
    assert view["status"] == "playing" and view["seats"][1]["connected"] is True


def test_grace_then_vacant_then_a_substitute_and_continue(app, clock):
    table_id, callers = full_table(app, seats=2)
    _drop(app, clock, table_id, callers, 1)
    clock.advance(121)
    app.deadlines.sweep()
    view = app.tables.view(callers[0], table_id)
    assert view["status"] == "paused" and view["seats"][1]["vacant"] is True
    assert view["seats"][1]["tiles"] == 14  # the hand waits on the seat
    sub = player(app, "Yedek")
    app.tables.sit(sub, table_id, 1)
    assert app.tables.view(sub, table_id)["status"] == "paused"
    assert len(app.tables.view(sub, table_id)["hand"]) == 14  # inherits the hand
    with pytest.raises(NotManagerError):
        app.tables.continue_game(sub, table_id)
    view = app.tables.continue_game(callers[0], table_id)
    assert view["status"] == "playing"


def test_a_dropped_player_who_returns_before_a_substitute_takes_the_seat_back(app, clock):
    table_id, callers = full_table(app, seats=2)
    _drop(app, clock, table_id, callers, 1)
    clock.advance(121)
    app.deadlines.sweep()
    app.sockets.connect(callers[1], table_id, "again")
    view = app.tables.view(callers[1], table_id)
    assert view["status"] == "playing" and view["seat"] == 1 and len(view["hand"]) == 14


def test_nobody_comes_so_a_computer_player_takes_the_seat_and_play_goes_on(app, clock):
    table_id, callers = full_table(app, seats=2)
    _drop(app, clock, table_id, callers, 1)
    clock.advance(121)
    app.deadlines.sweep()
    clock.advance(121)
    app.deadlines.sweep()
    view = app.tables.view(callers[0], table_id)
    assert view["seats"][1]["bot"] is True and view["status"] == "playing"
    for _ in range(5):  # a lay, then a pass: each its own change, paced
        if view["turn"]["seat"] == 0:
            break
        clock.advance(1)
        assert app.deadlines.sweep() == 1
        view = app.tables.view(callers[0], table_id)
    assert view["turn"]["seat"] == 0  # the computer player moved on its own


def test_leaving_during_a_game_costs_2n_pauses_and_hands_the_manager_role_on(app, clock):
    table_id, callers = full_table(app, seats=3, hands=5)
    view = app.tables.leave(callers[0], table_id, 0)
    assert view["status"] == "paused" and view["manager"] == callers[1].player_id
    assert view["seats"][0]["vacant"] is True
    profile = app.guests.player(callers[0].player_id)
    assert profile["rating"] == 1000 - 10 and profile["gamesAbandoned"] == 1
    with pytest.raises(WrongStatusError, match="vacant"):
        app.tables.continue_game(callers[1], table_id)


def test_the_game_end_updates_ratings_exactly_once_with_the_dropper_charged(app, clock):
    table_id, callers = full_table(app, "harftet", seats=2, hands=1)
    _drop(app, clock, table_id, callers, 1)
    clock.advance(121)
    app.deadlines.sweep()  # seat 1 vacant
    app.tables.leave(callers[0], table_id, 0)  # the other one walks away too: −2
    clock.advance(121)
    app.deadlines.sweep()  # computer players take both seats and play the hand out
    for _ in range(600):  # one computer-player move a second
        if app.tables.view(None, table_id)["status"] == "finished":
            break
        clock.advance(1)
        app.deadlines.sweep()
    view = app.tables.view(None, table_id)
    assert view["status"] == "finished"
    points = view["result"]["points"]
    dropper = app.guests.player(callers[1].player_id)
    leaver = app.guests.player(callers[0].player_id)
    assert leaver["rating"] == 1000 - 2  # a voluntary leaver pays 2·N and nothing more
    expected = 1000 + min(points[1], 0)  # a loss goes to the dropper, a gain to nobody
    assert dropper["rating"] == expected
    assert dropper["gamesPlayed"] == (1 if points[1] < 0 else 0)
    app.deadlines.sweep()
    assert app.guests.player(callers[1].player_id)["rating"] == expected


def test_one_sweeper_run_keeps_ending_turns_as_they_fall_due(app, clock):
    table_id, callers = full_table(app, seats=2, turn_seconds=10)
    start = app.tables.view(callers[0], table_id)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    swept = app.deadlines.sweep_for(35, sleep=sleep)
    view = app.tables.view(callers[0], table_id)
    assert swept == 3  # deadlines at +10, +20 and +30 s; the next (+40) is past the window
    assert view["version"] == start["version"] + 3
    assert sum(view["seats"][i]["tiles"] for i in (0, 1)) == 28 + 3
    assert sum(slept) == pytest.approx(30)


def test_a_table_that_cannot_be_swept_does_not_make_the_sweeper_spin(app, clock, monkeypatch):
    full_table(app, seats=2, turn_seconds=10)
    clock.advance(11)
    monkeypatch.setattr(app.deadlines, "sweep", lambda limit=100: 0)  # the table keeps failing
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    app.deadlines.sweep_for(5, sleep=sleep)
    assert 1 <= len(slept) <= 6 and sum(slept) == pytest.approx(5, abs=1)


# -- the write path's result ------------------------------------------------------------------
def test_a_write_says_whether_it_committed_replayed_or_changed_nothing(app, clock):
    table_id, callers = full_table(app, seats=2)
    caller, view = turn_player(app, table_id, callers)
    seat = callers.index(caller)

    def draw(table, now):
        from harftet.engine import hand

        return hand.apply_move(table, seat, Draw(), now)

    first = app.writer.write(table_id, draw, expected_version=view["version"], move_key="k")
    again = app.writer.write(table_id, draw, expected_version=view["version"], move_key="k")
    idle = app.writer.write(table_id, None)
    assert (first.status, again.status, idle.status) == ("committed", "replayed", "unchanged")
    assert first.stored.version == again.stored.version == idle.stored.version


# -- publishing from the stream ---------------------------------------------------------------
def test_every_stored_change_reaches_each_connection_as_its_own_players_view(app, outbox, live):
    table_id, callers = full_table(app)
    for i, caller in enumerate(callers):
        app.sockets.connect(caller, table_id, f"c{i}")
    spectator = player(app, "Seyirci")
    app.sockets.connect(spectator, table_id, "watch")
    live.pump()
    outbox.sent.clear()
    caller, view = turn_player(app, table_id, callers)
    app.tables.move(caller, table_id, view["version"], "d", Draw())
    assert outbox.sent == []  # the request itself pushes nothing: the stream does
    live.pump()
    for i, c in enumerate(callers):
        [pushed] = outbox.to(f"c{i}")
        assert pushed == {"type": "table", "view": app.tables.view(c, table_id)}
        assert pushed["view"]["version"] == view["version"] + 1 and pushed["view"]["seat"] == i
    [watched] = outbox.to("watch")
    assert "hand" not in watched["view"] and watched["view"]["version"] == view["version"] + 1


def test_a_gone_connection_is_dropped_its_player_shown_disconnected_and_that_published_too(
    app, outbox, clock, live
):
    table_id, callers = full_table(app, seats=2)
    app.sockets.connect(callers[0], table_id, "alive")
    app.sockets.connect(callers[1], table_id, "dead")
    live.pump()
    clock.advance(10)  # older than a connect that may not be open yet
    outbox.gone.add("dead")
    caller, view = turn_player(app, table_id, callers)
    app.tables.move(caller, table_id, view["version"], "d", Draw())
    live.pump()
    versions = [
        p["version"] if p["type"] == "delta" else p["view"]["version"] for p in outbox.to("alive")
    ]
    assert versions[-2:] == [view["version"] + 1, view["version"] + 2]
    assert outbox.view("alive")["seats"][1]["connected"] is False
    assert app.sockets.connection("dead") is None
    assert app.tables.view(callers[0], table_id)["seats"][1]["connected"] is False


def test_a_connection_just_registered_is_not_dropped_for_a_gone_answer(app, outbox, clock, live):
    table_id, callers = full_table(app, seats=2)
    app.sockets.connect(callers[1], table_id, "opening")
    outbox.gone.add("opening")  # API Gateway refuses posts until $connect has returned
    live.pump()
    assert app.sockets.connection("opening") is not None


def test_records_of_one_table_in_a_batch_are_published_once_at_the_newest_version(
    app, outbox, live
):
    table_id, callers = full_table(app, seats=2)
    app.sockets.connect(callers[0], table_id, "c0")
    live.pump()
    outbox.sent.clear()
    for n in range(3):
        mover, view = turn_player(app, table_id, callers)
        app.tables.move(mover, table_id, view["version"], f"d{n}", Draw())
    [event] = live.stream.events()
    assert len(event["Records"]) == 3
    published = live.publisher.publish(changes_from_stream(event))
    assert published.tables == 1 and published.pushed == 1
    [pushed] = outbox.to("c0")
    assert pushed["view"] == app.tables.view(callers[0], table_id)


def test_a_move_stored_by_a_writer_that_died_before_answering_still_reaches_everyone(
    app, outbox, live, monkeypatch
):
    table_id, callers = full_table(app, seats=2)
    for i, caller in enumerate(callers):
        app.sockets.connect(caller, table_id, f"c{i}")
    live.pump()
    outbox.sent.clear()
    real_save = app.stores.tables.save

    def save_then_die(*args, **kwargs):
        real_save(*args, **kwargs)
        raise SystemExit("the function was killed right after the write")

    monkeypatch.setattr(app.stores.tables, "save", save_then_die)
    mover, view = turn_player(app, table_id, callers)
    with pytest.raises(SystemExit):
        app.tables.move(mover, table_id, view["version"], "d", Draw())
    monkeypatch.undo()
    live.pump()
    for i, c in enumerate(callers):
        assert outbox.to(f"c{i}")[-1]["view"] == app.tables.view(c, table_id)
        assert outbox.to(f"c{i}")[-1]["view"]["version"] == view["version"] + 1


# -- timers and computer players --------------------------------------------------------------
def _with_bots(app, seats=3):
    owner = player(app, "Ayşe")
    table_id = app.tables.create_table(
        owner,
        TableOptions(game="kastet", seats=seats, hands=1, partners=False, turn_seconds=30),
        seed=11,
    )["tableId"]
    for seat in range(1, seats):
        app.tables.sit(owner, table_id, seat, bot=True)
    return table_id, owner


def test_a_persons_request_never_waits_for_computer_players(app, clock, live):
    table_id, owner = _with_bots(app)
    view = app.tables.start(owner, table_id)
    while view["turn"]["seat"] != 0:  # the computer players move one at a time, paced
        clock.advance(1)
        assert app.deadlines.advance(table_id, view["version"]).status == "committed"
        view = app.tables.view(owner, table_id)
    moved = app.tables.move(owner, table_id, view["version"], "d", Draw())
    assert moved["version"] == view["version"] + 1
    assert moved["turn"]["seat"] == 1  # the computer player has not moved inside the request


def test_each_computer_move_is_its_own_version_fired_by_its_timer_bot_seconds_apart(
    app, clock, live
):
    from harftet.timers import Timer

    table_id, owner = _with_bots(app)
    view = app.tables.start(owner, table_id)
    if view["turn"]["seat"] == 0:
        view = app.tables.move(owner, table_id, view["version"], "d", Draw())
    live.pump()
    timer = live.timers.scheduled[-1]
    assert timer == Timer(table_id, view["version"], clock.now + 1)
    early = Timer(table_id, view["version"], clock.now + 5)
    assert live.firing.fire(early) == "requeued" and live.timers.scheduled[-1] == early
    assert app.tables.view(owner, table_id)["version"] == view["version"]  # nothing applied
    clock.advance(1)
    assert live.firing.fire(timer) == "committed"
    after = app.tables.view(owner, table_id)
    assert after["version"] == view["version"] + 1
    moved_on = after["turn"]["seat"] == (view["turn"]["seat"] + 1) % 3
    assert moved_on or after["turn"]["laid"]  # a draw or pass, or a lay (then its pass)
    assert live.firing.fire(timer) == "stale"  # the table moved on: nothing happens
    assert app.tables.view(owner, table_id) == after


def test_a_turn_timer_forces_the_move_only_at_its_own_version(app, clock, live):
    from harftet.timers import Timer

    table_id, callers = full_table(app, seats=2, turn_seconds=10)
    caller, view = turn_player(app, table_id, callers)
    live.pump()
    timer = live.timers.scheduled[-1]
    assert timer == Timer(table_id, view["version"], view["turn"]["deadline"])
    clock.advance(10)
    assert live.firing.fire(timer) == "committed"
    after = app.tables.view(caller, table_id)
    assert len(after["hand"]) == 15 and after["turn"]["seat"] != view["turn"]["seat"]
    assert live.firing.fire(timer) == "stale"  # its deadline has passed: the next has its own
    assert app.tables.view(caller, table_id) == after


# -- connection limits (API.md "WebSocket") ---------------------------------------------------
def test_a_player_holds_at_most_four_connections_to_a_table(app):
    from harftet.errors import TooManyConnectionsError

    table_id, callers = full_table(app, seats=2)
    for n in range(4):
        app.sockets.connect(callers[1], table_id, f"tab{n}")
    with pytest.raises(TooManyConnectionsError):
        app.sockets.connect(callers[1], table_id, "tab4")
    assert app.sockets.connection("tab4") is None
    app.sockets.connect(callers[0], table_id, "owner")  # another player still may


def test_a_table_holds_at_most_200_connections(app, clock):
    from harftet.errors import TooManyConnectionsError

    table_id, _ = full_table(app, seats=2)
    for n in range(200):
        app.stores.connections.add(f"w{n}", table_id, f"watcher{n}", clock.now)
    spectator = player(app, "Seyirci")
    with pytest.raises(TooManyConnectionsError):
        app.sockets.connect(spectator, table_id, "one-too-many")
    assert app.sockets.connection("one-too-many") is None


def test_each_stored_version_appends_its_own_events_to_the_log_once_per_seq(app, live):
    table_id, callers = full_table(app, seats=2)
    live.pump()
    mover, view = turn_player(app, table_id, callers)
    app.tables.move(mover, table_id, view["version"], "d", Draw())
    live.pump()
    events = [e for t, batch in live.log.appended if t == table_id for e in batch]
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1))  # every event once, in order, none missing
    assert [e["type"] for e in events][-2:] == ["start", "draw"]
    assert events[-1]["seat"] == callers.index(mover) and "tile" not in events[-1]
