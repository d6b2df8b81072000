"""Races only DynamoDB's conditional writes settle, and retries of writes whose answer was
lost (tests/service holds the same rules over the in-memory stores):

- a burst of creates by one manager cannot get past three waiting tables: a request that read
  the player's list of waiting tables before another wrote it is refused by its condition
  (in-process moto);
- RULES §6, a player holds at most 20 running correspondence tables — exactly, under a burst
  of joins and creates from threads, and when a join's answer was lost and botocore sent it
  again: against moto's server (serialised, so its conditional writes are atomic as
  DynamoDB's are)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import boto3
import botocore.endpoint
import pytest
from botocore.config import Config
from service_helpers import (
    adds_of,
    corr_options,
    corr_table,
    held_by,
    hold_tables,
    player,
    sitting_at,
)
from testkit import Clock, Fault, Faults, Sleeps, app_over, moto_server

from harftet.api.errors import error_response
from harftet.bootstrap import DYNAMODB_CONFIG, App
from harftet.engine.options import TableOptions
from harftet.errors import TooManyHeldError
from harftet.store.holdings import MAX_HELD
from harftet.store.schema import create_tables


def _kastet(app, caller):
    return app.tables.create_table(
        caller, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    )["tableId"]


def test_a_burst_of_creates_cannot_get_past_three_waiting_tables(app, monkeypatch):
    from harftet.errors import TooManyTablesError

    busy = player(app, "Acele")
    for _ in range(2):
        _kastet(app, busy)
    # Two requests read the player's list of tables before either wrote it.
    client = app.stores.tables._client
    real_get = client.get_item
    stale = real_get(
        TableName=app.stores.tables._players,
        Key={"playerId": {"S": busy.player_id}},
        ConsistentRead=True,
    )["Item"]
    reads = iter([stale])

    def get_item(**kwargs):
        item = next(reads, None) if kwargs["TableName"] == app.stores.tables._players else None
        return {"Item": item} if item is not None else real_get(**kwargs)

    _kastet(app, busy)  # the third: fine
    monkeypatch.setattr(client, "get_item", get_item)
    with pytest.raises(TooManyTablesError):
        _kastet(app, busy)  # read two, found three when its write was refused
    assert len(app.tables.lobby()["tables"]) == 3


# -- a burst, a retry: against moto's server from threads ---------------------------------
@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        yield url


def _app(endpoint: str, clock: Clock, config: Config | None = None, like: App | None = None) -> App:
    """The application on moto's server at ``endpoint``: on fresh tables, or on those of
    ``like`` through a client of its own (``config``)."""
    client = boto3.client(
        "dynamodb",
        region_name="us-east-1",
        endpoint_url=endpoint,
        config=config or Config(max_pool_connections=16),
    )
    if like is None:
        kinds = ("TablesTable", "PlayersTable", "ConnectionsTable")
        names = {k: f"{k.lower()}-{uuid.uuid4().hex[:6]}" for k in kinds}
        create_tables(client, names)
    else:
        names = like.names  # type: ignore[attr-defined]
    app: App = app_over(client, names, clock)
    app.names = names  # type: ignore[attr-defined]
    app.client = client  # type: ignore[attr-defined]
    return app


def test_a_burst_of_joins_and_creates_at_19_lets_exactly_one_through(endpoint):
    app = _app(endpoint, Clock())
    me = player(app, "Ayşe")
    mine = hold_tables(app, me, MAX_HELD - 1)
    hosts = [player(app, f"Misafir{i}") for i in range(5)]
    targets = [corr_table(app, h) for h in hosts]
    before = {t: app.stores.tables.get(t) for t in targets}
    barrier = threading.Barrier(len(targets) + 2)
    answers: list[tuple[str, Any]] = []
    lock = threading.Lock()

    def attempt(what: str, call: Any) -> None:
        barrier.wait()
        try:
            result: Any = ("ok", call())
        except Exception as error:  # recorded, asserted below
            result = ("refused", error)
        with lock:
            answers.append((what, result))

    calls = [(t, lambda t=t: app.tables.sit(me, t, 1)) for t in targets]
    calls += [(f"new{i}", lambda: corr_table(app, me)) for i in range(2)]
    threads = [threading.Thread(target=attempt, args=c) for c in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    won = [what for what, (kind, _) in answers if kind == "ok"]
    refused = [result for _, (kind, result) in answers if kind == "refused"]
    assert len(answers) == 7 and len(won) == 1, answers
    for error in refused:
        assert isinstance(error, TooManyHeldError), error
        status, body = error_response(error)
        assert status == 409 and body["error"]["code"] == "too_many_tables"
        assert "at most 20" in body["error"]["message"]
    # Every table refused is as it was; the player holds exactly where they sit: 20.
    for table_id in targets:
        if table_id not in won:
            assert app.stores.tables.get(table_id) == before[table_id]
    held = held_by(app, me)
    assert len(held) == MAX_HELD and set(mine) <= held
    made = held - set(mine) - set(targets)
    assert held == sitting_at(app, me, [*mine, *targets, *made])
    assert len(made) == (1 if won[0].startswith("new") else 0)


def test_a_join_whose_answer_was_lost_is_counted_once(endpoint, monkeypatch):
    monkeypatch.setattr(botocore.endpoint, "time", Sleeps())  # backoffs recorded, not slept
    clock = Clock()
    plain = _app(endpoint, clock)
    me = player(plain, "Ayşe")
    hold_tables(plain, me, MAX_HELD - 2)
    faulty = _app(endpoint, clock, DYNAMODB_CONFIG, like=plain)  # production retries
    faults = Faults(faulty.client)
    host = player(plain, "Ev")
    target = corr_table(plain, host)
    adds = adds_of(plain, me)
    # DynamoDB wrote the join; its answer never came; botocore sends it again.
    faults.fail("TransactWriteItems", Fault(lose=True))
    view = faulty.tables.sit(me, target, 1)
    assert view["seats"][1]["playerId"] == me.player_id
    assert faults.attempts["TransactWriteItems"] == 2
    assert adds_of(plain, me) == adds + 1 and len(held_by(plain, me)) == MAX_HELD - 1
    # A table created the same way: counted once; then the limit stands.
    faults.fail("TransactWriteItems", Fault(lose=True))
    made = faulty.tables.create_table(
        me,
        corr_options(),
    )
    assert adds_of(plain, me) == adds + 2 and made["tableId"] in held_by(plain, me)
    assert len(held_by(plain, me)) == MAX_HELD
    with pytest.raises(TooManyHeldError):
        plain.tables.sit(me, corr_table(plain, player(plain, "Son")), 1)
