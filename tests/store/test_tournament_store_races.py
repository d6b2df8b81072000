"""A round's 256 tables ending at once against moto's server (serialised, so its conditional
writes are atomic as DynamoDB's are), told from 32 threads — each end told twice, as the
tables' stream and the schedule may both tell it: every result counted once, and the next
round claimed by exactly one caller (harftet.tournaments.rounds, the real adapter). And a
round seated through a transaction conflict and a lost answer: each table made once."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from testkit import Clock, Fault, Faults, cancelled, moto_server

from harftet.bootstrap import DYNAMODB_CONFIG
from harftet.engine import proof
from harftet.engine.state import Table
from harftet.store.schema import create_tables
from harftet.store.tables import TableStore
from harftet.store.tournaments import ResultWrite, TournamentStore, result_update
from harftet.tournaments import Rounds
from harftet.tournaments.ids import table_id

TABLES = 256
THREADS = 32
TID = "0123456789ab"


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        yield url


def _store(endpoint: str) -> tuple[Any, TournamentStore, TableStore]:
    client = boto3.client(
        "dynamodb", region_name="us-east-1", endpoint_url=endpoint, config=DYNAMODB_CONFIG
    )
    names = {"PlayersTable": f"players-{uuid.uuid4().hex[:6]}",
             "TablesTable": f"tables-{uuid.uuid4().hex[:6]}"}  # fmt: skip
    create_tables(client, names)
    return (client, TournamentStore(client, names["PlayersTable"]),
            TableStore(client, names["TablesTable"], names["PlayersTable"]))  # fmt: skip


def test_256_ends_told_twice_from_32_threads_count_once_and_claim_once(endpoint):
    client, store, tables = _store(endpoint)
    clock = Clock()
    assert store.create({
        "tournamentId": TID, "name": "Kupa", "game": "kastet", "seats": 4, "hands": 1,
        "rounds": 3, "round": 1, "phase": "playing", "tables": TABLES, "status": "running",
        "capacity": 1024, "turnSeconds": 45, "opensAt": 0, "startsAt": 0, "entries": 1024,
        "draw": "gizli",
    })  # fmt: skip
    for i in range(TABLES):  # what each table's last save wrote beside it
        players = tuple(f"p{4 * i + s:04}" for s in range(4))
        write = ResultWrite(TID, 1, i, players, (0, 10, 20, 30), 1000 + i)
        client.update_item(TableName=store.name, **result_update(write))
    rounds = Rounds(store, tables, clock, stream_tables=TABLES)  # the stream seats it
    claimed: list[int] = []
    rounds.seat = lambda t, r: claimed.append(r) or []  # type: ignore[method-assign]
    start = threading.Barrier(THREADS)

    def ends(part: int) -> None:
        start.wait()
        for i in range(part, TABLES, THREADS):
            for _ in range(2):  # the stream and the schedule both tell it
                finished = Table(table_id("", TID, 1, i), "kastet", 1, "p", status="finished")
                rounds.table_ended(finished)

    threads = [threading.Thread(target=ends, args=(n,)) for n in range(THREADS)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert claimed == [2]  # round 2 started exactly once
    assert store.ended(TID, 1) == TABLES  # each end counted once, though told twice
    t = store.get(TID)
    assert (t["round"], t["phase"]) == (2, "seating")
    assert time.monotonic() - began < 120


def test_a_round_seated_through_a_conflict_and_a_lost_answer_makes_each_table_once(endpoint):
    """30 tables, 25 to a transaction: the first meets a conflict (sent again), its second
    try lands but its answer is lost (botocore sends it again: the tables exist, read back).
    Every table made once, everyone seated once, each deal commitment the stored table's."""
    client, store, tables = _store(endpoint)
    clock = Clock()
    assert store.create({
        "tournamentId": TID, "name": "Kupa", "game": "harftet", "seats": 4, "hands": 1,
        "rounds": 1, "round": 0, "status": "registering", "capacity": 120, "turnSeconds": 45,
        "opensAt": 0, "startsAt": int(clock()) + 60, "entries": 0, "draw": "gizli",
    })  # fmt: skip
    people = [f"p{i:03}" for i in range(120)]
    for pid in people:
        assert store.register(TID, pid, {"name": pid, "rating": 1000, "at": 0}, clock())
    faults = Faults(client)
    faults.fail("TransactWriteItems", cancelled(*["None"] * 24, "TransactionConflict"))
    faults.fail("TransactWriteItems", Fault(lose=True))
    clock.advance(61)
    rounds = Rounds(store, tables, clock, workers=1)  # the batches in turn: the faults' order
    assert rounds.start(store.get(TID) or {})
    assert faults.injected["TransactWriteItems"] == 2
    plan = store.plan(TID, 1) or []
    ids = [table_id("", TID, 1, i) for i in range(len(plan))]
    made = [tables.get(i) for i in ids]
    assert len(made) == 30 and {m.version for m in made} == {1}
    seated = sorted(s.occupant.player_id for m in made for s in m.table.seats if s.occupant)
    assert seated == people  # 120 people at 30 tables of four: each once, no computer
    assert store.proofs(TID, 1) == [proof.deal_proof(m.table.salt, m.table.seed, 1) for m in made]
    assert (store.get(TID) or {})["phase"] == "playing"
