"""The store's conditional writes, checked against two independent DynamoDB implementations
over HTTP: moto's server (as the local stack serves it) and dynalite (a Node server)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.config import Config
from testkit import moto_server

from harftet.engine import table as life
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant
from harftet.errors import NotFoundError
from harftet.localstack.dynalite import dynalite
from harftet.store.connections import ConnectionStore
from harftet.store.errors import VersionConflictError
from harftet.store.schema import create_tables
from harftet.store.table_items import StoredTable
from harftet.store.tables import TableStore
from harftet.store.writes import Commit


@pytest.fixture(scope="module")
def dynalite_endpoint() -> Iterator[str]:
    """A dynalite server in memory on a free port, for this module."""
    with dynalite() as endpoint:
        yield endpoint


@pytest.fixture(scope="module")
def moto_endpoint() -> Iterator[str]:
    """moto's server as the local stack runs it, in its own process (moto's state is global)."""
    with moto_server() as endpoint:
        yield endpoint


@pytest.fixture(params=["moto", "dynalite"])
def backend(request: pytest.FixtureRequest) -> Iterator[tuple[Any, dict[str, str]]]:
    """(client, table names) on a fresh set of tables."""
    suffix = uuid.uuid4().hex[:8]
    names = {
        "TablesTable": f"tables-{suffix}",
        "PlayersTable": f"players-{suffix}",
        "ConnectionsTable": f"connections-{suffix}",
    }
    endpoint = request.getfixturevalue(f"{request.param}_endpoint")
    client = boto3.client(
        "dynamodb",
        region_name="us-east-1",
        endpoint_url=endpoint,
        config=Config(max_pool_connections=16),
    )
    create_tables(client, names)
    yield client, names


def _store(backend: tuple[Any, dict[str, str]]) -> TableStore:
    client, names = backend
    return TableStore(client, names["TablesTable"], names["PlayersTable"])


def _table(now: float = 1000.0) -> Any:
    return life.new_table(
        uuid.uuid4().hex[:12],
        Occupant("p0", "Ayşe"),
        TableOptions("kastet", seats=2),
        seed=5,
        now=now,
    )


def _created(backend: tuple[Any, dict[str, str]]) -> tuple[TableStore, StoredTable]:
    """A store with a new table in it, and that table as stored."""
    store = _store(backend)
    table = _table()
    store.create(table)
    return store, store.get(table.table_id)


def test_a_table_id_is_created_once(backend):
    store = _store(backend)
    table = _table()
    assert store.create(table) == 1
    with pytest.raises(Exception, match="ConditionalCheckFailed"):
        store.create(table)
    assert store.get(table.table_id).table == table


def test_a_save_on_a_stale_version_loses_and_reports_the_current_table(backend):
    store, first = _created(backend)
    seated = life.sit(first.table, 1, Occupant("p1", "Ben"), 1001).table
    store.save(first, seated, Commit(move_id="p1:m1"))
    with pytest.raises(VersionConflictError) as conflict:
        store.save(first, life.sit(first.table, 1, Occupant("p2", "Can"), 1002).table)
    current = conflict.value.current
    assert current is not None and current.version == 2
    assert current.table.seats[1].occupant == Occupant("p1", "Ben")
    assert len(current.moves) == 1 and current.moves["p1:m1"] == 2
    assert store.get(first.table.table_id).table == seated


def test_of_many_concurrent_writers_on_one_version_exactly_one_wins(backend):
    store, start = _created(backend)
    barrier = threading.Barrier(8)
    results: list[str] = []

    def writer(i: int) -> None:
        new = life.sit(start.table, 1, Occupant(f"p{i}", f"Oyuncu {i}"), 1001).table
        barrier.wait()
        try:
            store.save(start, new)
            results.append(f"p{i}")
        except VersionConflictError:
            results.append("conflict")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [r for r in results if r != "conflict"]
    assert len(winners) == 1 and len(results) == 8
    final = store.get(start.table.table_id)
    assert final.version == 2 and final.table.seats[1].occupant.player_id == winners[0]


def test_the_lobby_lists_waiting_tables_only_and_the_deadline_index_finds_due_ones(backend):
    store = _store(backend)
    waiting, started = _table(1000.0), _table(1001.0)
    store.create(waiting)
    store.create(started)
    stored = store.get(started.table_id)
    full = life.sit(stored.table, 1, Occupant("p1", "Ben"), 1002).table
    playing = life.start(full, "p0", 1003).table
    store.save(stored, playing, Commit(now=1003))
    assert [t.table_id for t in store.lobby(1003)] == [waiting.table_id]
    assert store.lobby(1000 + 24 * 3600 + 1) == []  # a day later nobody is waiting for it
    deadline = playing.deadline
    assert deadline is not None
    assert store.due(deadline - 1) == []
    assert store.due(deadline + 1) == [started.table_id]
    assert store.next_due() == pytest.approx(deadline, abs=0.001)


def test_a_game_in_play_stays_in_the_watch_list_and_its_moves_leave_the_list_keys_alone(backend):
    client, _ = backend
    store = _store(backend)
    table = _table(1000.0)
    store.create(table)
    stored = store.get(table.table_id)
    full = life.sit(stored.table, 1, Occupant("p1", "Ben"), 1001).table
    stored = store.save(stored, full, Commit(now=1001))
    stored = store.save(stored, life.start(full, "p0", 1002).table, Commit(now=1002))
    written: list[str] = []

    def record(params: dict[str, Any], **_: Any) -> None:
        names = params["ExpressionAttributeNames"]
        sets = params["UpdateExpression"].split(" REMOVE ")[0]
        written.append(" ".join(n for alias, n in names.items() if f"{alias} =" in sets))

    client.meta.events.register("provide-client-params.dynamodb.UpdateItem", record)
    try:
        for now in (1003.0, 1004.0):  # a player drops and comes back: two versions in play
            step = life.disconnect if now == 1003.0 else life.reconnect
            stored = store.save(stored, step(stored.table, "p1", now).table, Commit(now=now))
    finally:
        client.meta.events.unregister("provide-client-params.dynamodb.UpdateItem", record)
    assert len(written) == 2
    # A move writes neither the list key nor its sort key again (each would be an index write)
    assert all("state" in w.split() for w in written)
    assert not any({"watch", "createdAt"} & set(w.split()) for w in written)
    tables, _ = store.lobby_page("playing", 1004)
    assert [t.table_id for t in tables] == [table.table_id]
    assert store.lobby(1004) == []


def test_an_unknown_table_is_not_found(backend):
    with pytest.raises(NotFoundError):
        _store(backend).get("nope")


def test_connections_are_found_by_table_and_removed_once(backend):
    client, names = backend
    connections = ConnectionStore(client, names["ConnectionsTable"])
    connections.add("c1", "t1", "p1", 1000)
    connections.add("c2", "t1", "p2", 1000)
    connections.add("c3", "t2", "p3", 1000)
    assert sorted(c["connectionId"] for c in connections.for_table("t1")) == ["c1", "c2"]
    assert connections.remove("c1")["playerId"] == "p1"
    assert connections.remove("c1") is None
    assert [c["connectionId"] for c in connections.for_table("t1")] == ["c2"]


def test_due_tables_are_found_across_every_index_shard_earliest_first(backend):
    store = _store(backend)
    started = []
    for i in range(12):
        table = _table(1000.0 + i)
        store.create(table)
        stored = store.get(table.table_id)
        full = life.sit(stored.table, 1, Occupant("p1", "Ben"), 1000 + i)
        playing = life.start(full.table, "p0", 1000 + i).table
        store.save(stored, playing, Commit(now=1000 + i))
        started.append(playing)
    assert len({store.index.due_key(t.table_id) for t in started}) > 1  # spread over shards
    latest = max(t.deadline for t in started)
    assert store.due(latest + 1) == [t.table_id for t in started]  # by deadline
    assert store.due(latest + 1, limit=3) == [t.table_id for t in started[:3]]
    assert store.next_due() == pytest.approx(started[0].deadline, abs=0.001)


def test_waiting_and_finished_tables_expire_and_games_in_play_never_do(backend):
    client, names = backend
    store = _store(backend)
    table = _table(1000.0)
    store.create(table)

    def expires() -> int | None:
        item = client.get_item(
            TableName=names["TablesTable"], Key={"tableId": {"S": table.table_id}}
        )
        value = item["Item"].get("expiresAt")
        return int(value["N"]) if value else None

    assert expires() == 1000 + 24 * 3600
    stored = store.get(table.table_id)
    full = life.sit(stored.table, 1, Occupant("p1", "Ben"), 1001).table
    playing = life.start(full, "p0", 1002).table
    stored = store.save(stored, playing, Commit(now=1002))
    assert expires() is None
    finished = life.leave(playing, "p1", 1003).table  # paused: still no expiry
    stored = store.save(stored, finished, Commit(now=1003))
    assert expires() is None
    finished = playing.clone()
    finished.status = "finished"
    store.save(stored, finished, Commit(now=5000))
    assert expires() == 5000 + 30 * 24 * 3600
