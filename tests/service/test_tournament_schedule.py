"""A tournament's round times (RULES §8: "a round starts when every table of the last one
has ended, or at its scheduled time, whichever is later"; issue 39): ``roundMinutes``
schedules round n at startsAt + (n − 1)·roundMinutes; the page says when the next round
starts (``nextRoundAt``); the schedule starts a due round exactly once however many of its
runs overlap. Also the podium's ties (everyone tied for a place gets its badge)."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from service_helpers import finish
from test_tournaments import _create, _end_round, _entered, _started, _viewer

from harftet.errors import BadRequestError


def _round(app: Any, tid: str) -> tuple[int, str]:
    t = app.stores.tournaments.get(tid)
    return int(t["round"]), str(t["phase"])


def test_a_round_waits_for_its_time_even_when_every_table_has_ended(app):
    t = _create(app, rounds=3, roundMinutes=30)
    tid, starts = t["tournamentId"], t["startsAt"]
    assert t["roundMinutes"] == 30
    _entered(app, t, 8)
    assert app.tournaments.view(_viewer(app), tid)["nextRoundAt"] == starts  # round 1's
    view = _started(app, t)
    assert view["nextRoundAt"] == starts + 30 * 60
    _end_round(app, view, 1)  # every table ends, a few seconds after the start
    assert _round(app, tid) == (1, "playing")  # the stream did not start round 2 early
    app.clock.advance(starts + 30 * 60 - 1 - app.clock())
    assert app.rounds.tick() == {"started": 0, "driven": 0}
    view = app.tournaments.view(_viewer(app), tid)
    assert view["round"] == 1 and view["nextRoundAt"] == starts + 30 * 60
    assert {e["round"] for e in view["tables"]} == {1}
    app.clock.advance(1)  # its time: the schedule's run starts it
    assert app.rounds.tick()["driven"] == 1
    view = app.tournaments.view(_viewer(app), tid)
    assert view["round"] == 2 and len([e for e in view["tables"] if e["round"] == 2]) == 2
    assert view["nextRoundAt"] == starts + 60 * 60
    assert app.rounds.tick()["driven"] == 0  # started once


def test_a_round_whose_time_has_passed_starts_when_its_last_table_ends(app):
    t = _create(app, rounds=2, roundMinutes=5)
    tid = t["tournamentId"]
    _entered(app, t, 8)
    view = _started(app, t)
    app.clock.advance(10 * 60)  # the tables play longer than the round's time
    assert app.tournaments.view(_viewer(app), tid)["nextRoundAt"] is None  # its time passed
    _end_round(app, view, 1)  # the last table's end starts round 2 at once (the stream)
    view = app.tournaments.view(_viewer(app), tid)
    assert view["round"] == 2 and len(view["tables"]) == 4
    assert view["nextRoundAt"] is None  # no round to come
    _end_round(app, view, 2)
    assert app.tournaments.view(_viewer(app), tid)["status"] == "finished"


def test_without_round_times_a_round_starts_as_soon_as_the_last_one_ends(app):
    t = _create(app, rounds=2)
    _entered(app, t, 4)
    view = _started(app, t)
    assert view["nextRoundAt"] is None and view["roundMinutes"] is None
    _end_round(app, view, 1)
    assert _round(app, t["tournamentId"]) == (2, "playing")


def test_a_due_round_starts_exactly_once_under_concurrent_schedule_runs(app):
    t = _create(app, rounds=2, roundMinutes=10)
    tid = t["tournamentId"]
    _entered(app, t, 16)
    view = _started(app, t)
    _end_round(app, view, 1)
    assert _round(app, tid) == (1, "playing")
    app.clock.advance(t["startsAt"] + 600 - app.clock())
    seated: list[int] = []
    seat = app.rounds.seat

    def counted(t: dict[str, Any], round_number: int) -> list[str]:
        seated.append(round_number)
        return seat(t, round_number)

    app.rounds.seat = counted
    first = [e["tableId"] for e in view["tables"]]
    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            start.wait()
            if i % 2:  # the schedule's overlapping runs
                app.rounds.tick()
            else:  # the stream told of a table again (a retried batch)
                app.rounds.table_ended(app.stores.tables.get(first[i % len(first)]).table)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    app.rounds.tick()
    assert seated == [2]
    assert _round(app, tid) == (2, "playing")
    people = Counter(p for table in app.stores.tournaments.plan(tid, 2) for p in table)
    assert len(people) == 16 and set(people.values()) == {1}


def test_round_minutes_are_refused_without_rounds_to_space_out(app):
    with pytest.raises(BadRequestError) as refused:
        _create(app, rounds=1, roundMinutes=30)
    assert refused.value.field == "roundMinutes"
    assert app.tournaments.page("registering", None)["tournaments"] == []


def test_everyone_tied_for_third_place_gets_the_third_places_badge(app):
    t = _create(app, rounds=1, capacity=4)
    tid = t["tournamentId"]
    callers = _entered(app, t, 4)
    view = _started(app, t)
    [table_id] = [e["tableId"] for e in view["tables"]]
    seats = [s.occupant.player_id for s in app.stores.tables.get(table_id).table.seats]
    app.clock.advance(1)
    finish(app, table_id, [0, 10, 20, 20])  # the last two tie: 3rd place shared
    app.rounds.table_ended(app.stores.tables.get(table_id).table)
    view = app.tournaments.view(callers[0], tid)
    assert view["status"] == "finished"
    assert sorted((s["rank"], s["points"], s["playerId"]) for s in view["standings"]) == sorted(
        [(1, 3, seats[0]), (2, 2, seats[1]), (3, 0.5, seats[2]), (3, 0.5, seats[3])]
    )
    assert [p["place"] for p in view["podium"]] == [1, 2, 3, 3]
    for pid, place in zip(seats, (1, 2, 3, 3), strict=True):
        badges = app.profiles.profile(pid)["badges"]
        assert badges == [{"tournamentId": tid, "name": "Akşam Kupası", "place": place}]


def test_a_round_without_tables_waits_for_the_next_ones_time_too(app):
    t = _create(app, rounds=2, roundMinutes=60)  # nobody enters
    view = _started(app, t)
    assert (view["status"], view["round"], view["tables"]) == ("running", 1, [])
    assert view["nextRoundAt"] == t["startsAt"] + 3600
    app.clock.advance(3600)
    app.rounds.tick()  # round 2 (no table either), then the end
    assert app.tournaments.view(_viewer(app), t["tournamentId"])["status"] == "finished"
