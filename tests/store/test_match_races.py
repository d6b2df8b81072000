"""Two matchers at once against moto's server (serialised, so its conditional writes are
atomic as DynamoDB's are), from two threads: both read the same waiting tickets before
either claims, and every ticket still ends at exactly one table, every table made once; a
player's cancel racing the matchers leaves them out of every table."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from testkit import Clock, moto_server

from harftet.matchmaking import Matcher
from harftet.store.matchmaking import MatchStore, Ticket
from harftet.store.schema import create_tables
from harftet.store.tables import TableStore

PLAYERS = 24


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        yield url


def _stores(endpoint: str) -> tuple[MatchStore, TableStore]:
    client = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=endpoint)
    names = {k: f"{k.lower()}-{uuid.uuid4().hex[:6]}" for k in ("MatchTable", "TablesTable")}
    names["PlayersTable"] = f"players-{uuid.uuid4().hex[:6]}"
    create_tables(client, names)
    return (
        MatchStore(client, names["MatchTable"]),
        TableStore(client, names["TablesTable"], names["PlayersTable"]),
    )


def _ticket(n: int, clock: Clock) -> Ticket:
    return Ticket(
        ticket_id=f"t{n}", player_id=f"p{n}", name=f"Oyuncu {n}", rating=1000, game="kastet",
        seats=4, wait_seconds=30, at=clock.now + n / 100, mu=30.0 + n / 50, sigma=2.0,
    )  # fmt: skip


def _matchers(matches: MatchStore, tables: TableStore, clock: Clock, on_read: Any) -> list:
    """Two matchers over one match table, each pausing after its read (``on_read``)."""

    class Paused:
        def __init__(self) -> None:
            self.store = matches

        def __getattr__(self, name: str) -> Any:
            return getattr(self.store, name)

        def waiting(self, pool: str, limit: int = 1000) -> list[Ticket]:
            found = self.store.waiting(pool, limit)
            if pool == "kastet#4":
                on_read()
            return found

    return [
        Matcher(Paused(), tables, clock, lambda: f"T{uuid.uuid4().hex[:8]}", lambda p: set())  # type: ignore[arg-type]
        for _ in range(2)
    ]


def _both(matchers: list[Matcher]) -> list[Any]:
    made: list[Any] = []
    lock = threading.Lock()

    def run(m: Matcher) -> None:
        try:
            found: Any = m.run(["kastet#4"])
        except Exception as error:  # recorded, asserted by the caller
            found = error
        with lock:
            made.append(found)

    threads = [threading.Thread(target=run, args=(m,)) for m in matchers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return made


def test_two_matchers_that_read_the_same_tickets_make_each_table_once(endpoint):
    clock = Clock()
    matches, tables = _stores(endpoint)
    for n in range(PLAYERS):
        assert matches.open(_ticket(n, clock)) is None
    barrier = threading.Barrier(2)
    made = _both(_matchers(matches, tables, clock, lambda: barrier.wait(timeout=60)))
    assert all(isinstance(n, int) for n in made), made
    assert sum(made) == PLAYERS // 4  # between them, each table once
    seated: dict[str, str] = {}
    for n in range(PLAYERS):
        ticket = matches.ticket(f"t{n}")
        assert ticket is not None and ticket.status == "matched"
        seated[ticket.player_id] = str(ticket.table_id)
        assert matches.holder(ticket.player_id) is None  # free to look again
    for table_id in set(seated.values()):
        people = [s.occupant.player_id for s in tables.get(table_id).table.seats if s.occupant]
        assert sorted(people) == sorted(p for p, t in seated.items() if t == table_id)
        assert len(people) == 4


def test_a_cancel_between_the_read_and_the_claim_keeps_that_player_out(endpoint):
    clock = Clock()
    matches, tables = _stores(endpoint)
    for n in range(8):
        matches.open(_ticket(n, clock))
    barrier, after = threading.Barrier(2), threading.Barrier(2)
    cancelled: list[bool] = []

    def read() -> None:
        if barrier.wait(timeout=60) == 0:  # once both have read: the oldest cancels
            cancelled.append(matches.cancel("t0"))
        after.wait(timeout=60)  # then both claim what they read

    made = _both(_matchers(matches, tables, clock, read))
    assert cancelled == [True] and all(isinstance(n, int) for n in made), made
    assert matches.ticket("t0").status == "cancelled"
    statuses = [matches.ticket(f"t{n}").status for n in range(1, 8)]
    assert statuses.count("matched") == 4 and statuses.count("waiting") == 3
    assert sum(made) == 1
