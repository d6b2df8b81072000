"""Concurrency of a tournament's rounds (RULES §8, issue 39): 256 tables of a 1,024-player
round ending within one second — each told to the rounds by its own thread, as the tables'
stream and the schedule tell them at once in AWS — start round 2 exactly once (the stream
claims it, the schedule seats a round that big), and nobody is seated twice. The fakes hold
DynamoDB's per-item atomicity (a lock per write), so the threads race on the counter and the
claim as concurrent Lambdas do."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

from service_helpers import finish

from harftet.tournaments.models import TournamentRequest

PEOPLE = 1024


def _tournament(app: Any) -> str:
    body = {
        "name": "Büyük Kupa", "game": "kastet", "seats": 4, "hands": 1, "rounds": 2,
        "capacity": PEOPLE, "turnSeconds": 45, "startsAt": int(app.clock()) + 60,
    }  # fmt: skip
    tid = app.tournaments.create(TournamentRequest.model_validate(body))["tournamentId"]
    for i in range(PEOPLE):
        pid = f"p{i:04}"
        app.stores.tournaments.register(tid, pid, {"name": f"Oyuncu {i}", "rating": 1000,
                                                  "at": 0}, app.clock())  # fmt: skip
        app.stores.players.create(pid, f"Oyuncu {i}", app.clock())
    return tid


def test_256_tables_ending_within_a_second_start_round_2_once(app):
    tid = _tournament(app)
    app.clock.advance(61)
    assert app.rounds.tick()["started"] == 1
    first = [table for table in _tables(app, tid, 1)]
    assert len(first) == 256
    for n, table_id in enumerate(first):  # every table ends; the stream is held back
        app.clock.advance(0.001)
        finish(app, table_id, [n % 7, 10, 20, 30])
    seated: list[int] = []
    seat = app.rounds.seat

    def counted_seat(t: dict[str, Any], round_number: int) -> list[str]:
        seated.append(round_number)
        return seat(t, round_number)

    app.rounds.seat = counted_seat
    start = threading.Barrier(len(first) + 2)
    errors: list[BaseException] = []

    def told(table_id: str) -> None:
        try:
            start.wait()
            app.rounds.table_ended(app.stores.tables.get(table_id).table)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    def schedule() -> None:
        start.wait()
        for _ in range(20):
            app.rounds.tick()

    threads = [threading.Thread(target=told, args=(t,)) for t in first]
    threads += [threading.Thread(target=schedule) for _ in range(2)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[:3]
    assert time.monotonic() - began < 30
    for _ in range(2):  # the schedule's next runs (a 256-table round is theirs to seat)
        app.rounds.tick()
    assert seated == [2]  # round 2 claimed and seated exactly once
    assert app.stores.tournaments.ended(tid, 1) == 256  # each table counted once
    t = app.stores.tournaments.get(tid)
    assert (t["round"], t["phase"], t["tables"]) == (2, "playing", 256)
    people = Counter(p for table in app.stores.tournaments.plan(tid, 2) for p in table)
    assert len(people) == PEOPLE and set(people.values()) == {1}
    second = _tables(app, tid, 2)
    assert len(second) == 256
    sat = Counter(
        s.occupant.player_id
        for table_id in second
        for s in app.stores.tables.get(table_id).table.seats
    )
    assert len(sat) == PEOPLE and set(sat.values()) == {1}


def _tables(app: Any, tid: str, round_number: int) -> list[str]:
    from harftet.tournaments.ids import table_id

    plan = app.stores.tournaments.plan(tid, round_number) or []
    return [table_id("", tid, round_number, i) for i in range(len(plan))]
