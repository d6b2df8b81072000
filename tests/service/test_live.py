"""Time and people at a live table, with a clock the test controls (RULES.md §4)."""

from __future__ import annotations

import pytest
from service_helpers import full_table, player, turn_player

from harftet.engine.errors import NotManagerError, WrongStatusError
from harftet.engine.moves import Draw
from harftet.service import StaleVersionError


def test_when_the_turn_timer_runs_out_the_server_draws_for_the_player(service, clock):
    table_id, callers = full_table(service, turn_seconds=30)
    caller, view = turn_player(service, table_id, callers)
    clock.advance(29)
    assert service.sweep() == 0
    clock.advance(2)
    assert service.sweep() == 1
    after = service.view(caller, table_id)
    assert len(after["hand"]) == 15 and after["turn"]["seat"] != view["turn"]["seat"]
    assert after["turn"]["deadline"] == pytest.approx(clock.now + 30)


def test_a_timer_that_fires_after_a_real_move_does_nothing(service, clock):
    table_id, callers = full_table(service, turn_seconds=30)
    caller, view = turn_player(service, table_id, callers)
    clock.advance(20)
    moved = service.move(caller, table_id, view["version"], "d", Draw())
    clock.advance(15)  # the old deadline has passed, the new one has not
    assert service.sweep() == 0
    assert service.view(caller, table_id)["version"] == moved["version"]


def test_a_timeout_computed_on_an_old_version_cannot_overwrite_a_real_move(service, clock):
    from harftet.engine import table as life
    from harftet.store.errors import VersionConflictError

    table_id, callers = full_table(service, turn_seconds=30)
    _caller, _view = turn_player(service, table_id, callers)
    clock.advance(31)
    before = service.tables.get(table_id)
    timed_out = life.sweep(before.table, clock.now)
    assert timed_out is not None
    service.tables.save(before, before.table)  # somebody else writes first
    with pytest.raises(VersionConflictError):
        service.tables.save(before, timed_out.table)


def test_a_late_move_gets_a_conflict_with_the_timed_out_table(service, clock):
    table_id, callers = full_table(service, turn_seconds=30)
    caller, view = turn_player(service, table_id, callers)
    clock.advance(31)
    with pytest.raises(StaleVersionError) as stale:
        service.move(caller, table_id, view["version"], "late", Draw())
    assert stale.value.view["turn"]["seat"] != view["turn"]["seat"]
    assert len(stale.value.view["hand"]) == 15  # the server drew for them


def test_three_timeouts_in_a_row_count_as_a_disconnect(service, clock):
    table_id, callers = full_table(service, seats=2, turn_seconds=10)
    sleeper = turn_player(service, table_id, callers)[0]
    seat = callers.index(sleeper)
    for _ in range(3):
        clock.advance(11)
        service.sweep()  # the sleeper times out
        mover, view = turn_player(service, table_id, callers)
        assert mover != sleeper
        service.move(mover, table_id, view["version"], f"m{clock.now}", Draw())
    view = service.view(callers[0], table_id)
    assert view["seats"][seat]["connected"] is False


def _drop(service, clock, table_id, callers, seat):
    """The player at ``seat`` closes their only socket."""
    service.connect(callers[seat], table_id, f"sock{seat}")
    service.disconnect(f"sock{seat}")


def test_a_dropped_player_keeps_the_seat_during_grace_and_can_come_back(service, clock):
    table_id, callers = full_table(service, seats=2)
    _drop(service, clock, table_id, callers, 1)
    assert service.view(callers[0], table_id)["seats"][1]["connected"] is False
    clock.advance(100)
    service.connect(callers[1], table_id, "back")
    clock.advance(100)
    service.sweep()
    view = service.view(callers[0], table_id)
    assert view["status"] == "playing" and view["seats"][1]["connected"] is True


def test_grace_then_vacant_then_a_substitute_and_continue(service, clock):
    table_id, callers = full_table(service, seats=2)
    _drop(service, clock, table_id, callers, 1)
    clock.advance(121)
    service.sweep()
    view = service.view(callers[0], table_id)
    assert view["status"] == "paused" and view["seats"][1]["vacant"] is True
    assert view["seats"][1]["tiles"] == 14  # the hand waits on the seat
    sub = player(service, "Yedek")
    service.sit(sub, table_id, 1)
    assert service.view(sub, table_id)["status"] == "paused"
    assert len(service.view(sub, table_id)["hand"]) == 14  # inherits the hand
    with pytest.raises(NotManagerError):
        service.continue_game(sub, table_id)
    view = service.continue_game(callers[0], table_id)
    assert view["status"] == "playing"


def test_a_dropped_player_who_returns_before_a_substitute_takes_the_seat_back(service, clock):
    table_id, callers = full_table(service, seats=2)
    _drop(service, clock, table_id, callers, 1)
    clock.advance(121)
    service.sweep()
    service.connect(callers[1], table_id, "again")
    view = service.view(callers[1], table_id)
    assert view["status"] == "playing" and view["seat"] == 1 and len(view["hand"]) == 14


def test_nobody_comes_so_a_computer_player_takes_the_seat_and_play_goes_on(service, clock):
    table_id, callers = full_table(service, seats=2)
    _drop(service, clock, table_id, callers, 1)
    clock.advance(121)
    service.sweep()
    clock.advance(121)
    service.sweep()
    view = service.view(callers[0], table_id)
    assert view["seats"][1]["bot"] is True and view["status"] in ("playing", "finished")
    if view["status"] == "playing":
        assert view["turn"]["seat"] == 0  # the computer player moved on its own


def test_leaving_during_a_game_costs_2n_pauses_and_hands_the_manager_role_on(service, clock):
    table_id, callers = full_table(service, seats=3, hands=5)
    view = service.leave(callers[0], table_id, 0)
    assert view["status"] == "paused" and view["manager"] == callers[1].player_id
    assert view["seats"][0]["vacant"] is True
    profile = service.player(callers[0].player_id)
    assert profile["rating"] == 1000 - 10 and profile["gamesAbandoned"] == 1
    with pytest.raises(WrongStatusError, match="vacant"):
        service.continue_game(callers[1], table_id)


def test_the_game_end_updates_ratings_exactly_once_with_the_dropper_charged(service, clock):
    table_id, callers = full_table(service, seats=2, hands=1)
    _drop(service, clock, table_id, callers, 1)
    clock.advance(121)
    service.sweep()  # seat 1 vacant
    service.leave(callers[0], table_id, 0)  # the other one walks away too: −2
    clock.advance(121)
    service.sweep()  # computer players take both seats and play the hand out
    for _ in range(20):
        if service.view(None, table_id)["status"] == "finished":
            break
        clock.advance(1)
        service.sweep()
    view = service.view(None, table_id)
    assert view["status"] == "finished"
    points = view["result"]["points"]
    dropper = service.player(callers[1].player_id)
    leaver = service.player(callers[0].player_id)
    assert leaver["rating"] == 1000 - 2  # a voluntary leaver pays 2·N and nothing more
    expected = 1000 + min(points[1], 0)  # a loss goes to the dropper, a gain to nobody
    assert dropper["rating"] == expected
    assert dropper["gamesPlayed"] == (1 if points[1] < 0 else 0)
    service.sweep()
    assert service.player(callers[1].player_id)["rating"] == expected


def test_one_sweeper_run_keeps_ending_turns_as_they_fall_due(service, clock):
    table_id, callers = full_table(service, seats=2, turn_seconds=10)
    start = service.view(callers[0], table_id)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    swept = service.sweep_for(35, sleep=sleep)
    view = service.view(callers[0], table_id)
    assert swept == 3  # deadlines at +10, +20 and +30 s; the next (+40) is past the window
    assert view["version"] == start["version"] + 3
    assert sum(view["seats"][i]["tiles"] for i in (0, 1)) == 28 + 3
    assert sum(slept) == pytest.approx(30)


def test_a_table_that_cannot_be_swept_does_not_make_the_sweeper_spin(service, clock, monkeypatch):
    full_table(service, seats=2, turn_seconds=10)
    clock.advance(11)
    monkeypatch.setattr(service, "sweep", lambda limit=100: 0)  # e.g. the table keeps failing
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    service.sweep_for(5, sleep=sleep)
    assert 1 <= len(slept) <= 6 and sum(slept) == pytest.approx(5, abs=1)
