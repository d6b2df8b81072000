"""The match table's fake (tests/fakes/matchmaking.py) against ``harftet.store.matchmaking``
over moto: one open ticket per player, the queues oldest first, a claim all or none, each
step only from the status before."""

from __future__ import annotations

from typing import Any

import pytest
from fakes.matchmaking import FakeMatches
from store_kit import NOW

from harftet.store.matchmaking import MatchStore, Ticket, pool_of


@pytest.fixture(params=["moto", "fakes"])
def matches(request: pytest.FixtureRequest) -> Any:
    if request.param == "fakes":
        return FakeMatches()
    from harftet.store.schema import create_tables

    client = request.getfixturevalue("dynamodb")
    create_tables(client, {"MatchTable": "harftet-match"})
    return MatchStore(client, "harftet-match")


def _ticket(n: int, player: str | None = None, **more: Any) -> Ticket:
    values: dict[str, Any] = {
        "ticket_id": f"t{n}",
        "player_id": player or f"p{n}",
        "name": f"Oyuncu {n}",
        "rating": 1000,
        "game": "kastet",
        "seats": 4,
        "wait_seconds": 30,
        "at": NOW + n / 1000,
        "mu": 25.0 + n / 4,
        "sigma": 8.25,
    }
    return Ticket(**{**values, **more})


def test_a_player_holds_one_ticket_and_gets_another_once_it_ends(matches):
    assert matches.open(_ticket(1, avoid=frozenset({"p9"}))) is None
    assert matches.open(_ticket(2, player="p1")) == "t1"  # a second: the one held
    assert matches.ticket("t2") is None
    got = matches.ticket("t1")
    assert got == _ticket(1, avoid=frozenset({"p9"})) and got.status == "waiting"
    assert matches.holder("p1") == "t1"
    matches.release("p1", "t9")  # not its ticket: the lock stays
    assert matches.holder("p1") == "t1"
    assert matches.cancel("t1") and not matches.cancel("t1")
    assert matches.ticket("t1").status == "cancelled"
    assert matches.waiting(pool_of("kastet", 4)) == []
    matches.release("p1", "t1")
    assert matches.holder("p1") is None
    assert matches.open(_ticket(2, player="p1")) is None
    assert matches.ticket("nope") is None and matches.ticket("") is None


def test_queues_hold_the_waiting_oldest_first_and_the_claimed_until_settled(matches):
    for n in (3, 1, 2):
        matches.open(_ticket(n))
    matches.open(_ticket(4, game="harftet"))
    matches.open(_ticket(5, seats=2))
    assert [t.ticket_id for t in matches.waiting("kastet#4")] == ["t1", "t2", "t3"]
    assert [t.ticket_id for t in matches.waiting("kastet#4", limit=2)] == ["t1", "t2"]
    assert [t.ticket_id for t in matches.waiting("harftet#4")] == ["t4"]
    plan = {"tableId": "T1", "game": "kastet", "seats": 4, "tickets": ["t1", "t3"], "bots": []}
    assert matches.claim(["t1", "t3"], plan)
    assert not matches.claim(["t2", "t3"], {**plan, "tableId": "T2"})  # t3 is taken: none
    assert matches.ticket("t2").status == "waiting"
    assert [t.ticket_id for t in matches.waiting("kastet#4")] == ["t2"]
    seating = matches.seating()
    assert [t.ticket_id for t in seating] == ["t1", "t3"]
    assert seating[0].plan == plan and seating[0].table_id == "T1"
    assert seating[0].status == "seating"
    assert matches.settle("t1") and not matches.settle("t1")
    assert not matches.cancel("t3")  # claimed: no longer cancellable
    assert [t.ticket_id for t in matches.seating()] == ["t3"]
    done = matches.ticket("t1")
    assert done.status == "matched" and done.table_id == "T1" and done.plan == plan


def test_a_deleted_players_tickets_go_and_a_waiting_one_can_no_longer_be_claimed(matches):
    matches.open(_ticket(1))
    matches.cancel("t1")
    matches.release("p1", "t1")
    matches.open(_ticket(2, player="p1"))
    matches.open(_ticket(3))
    matches.forget("p1")
    assert matches.ticket("t1") is None and matches.ticket("t2") is None
    assert matches.holder("p1") is None
    plan = {"tableId": "T", "game": "kastet", "seats": 4, "tickets": ["t2", "t3"], "bots": []}
    assert not matches.claim(["t2", "t3"], plan)
    assert [t.ticket_id for t in matches.waiting("kastet#4")] == ["t3"]
    matches.forget("p9")  # nothing of theirs: fine
