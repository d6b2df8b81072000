"""A canary's mixed versions on one table (docs/DEPLOY.md "State that migrates"): the release
before (writing table format 1) and this one (writing format 2) save the moves of one game in
turn, over dynalite (an independent DynamoDB); every move saves (0 failed moves), the game
ends."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import boto3
import pytest
from testkit import moto_server

from harftet.engine import codec
from harftet.engine import table as life
from harftet.engine.bot import choose_move
from harftet.engine.hand import apply_move
from harftet.engine.options import TableOptions
from harftet.engine.rules import KastetRules
from harftet.engine.state import Occupant
from harftet.localstack.dynalite import dynalite
from harftet.store.schema import create_tables
from harftet.store.tables import TableStore
from harftet.store.writes import Commit


@pytest.fixture(scope="module", params=["dynalite"])
def endpoint(request: pytest.FixtureRequest) -> Iterator[str]:
    server = moto_server() if request.param == "moto" else dynalite()
    with server as url:
        yield url


def test_old_and_new_code_play_one_table_side_by_side_with_no_failed_move(endpoint: str) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=endpoint)
    suffix = uuid.uuid4().hex[:8]
    names = {"TablesTable": f"tables-{suffix}", "PlayersTable": f"players-{suffix}"}
    create_tables(client, names)
    old = TableStore(client, names["TablesTable"], names["PlayersTable"], write_format=1)
    new = TableStore(client, names["TablesTable"], names["PlayersTable"])
    assert (old.write_format, new.write_format) == (codec.FORMAT - 1, codec.FORMAT)
    table = life.new_table(
        "mixed1", Occupant("p0", "Ayşe"), TableOptions("kastet", seats=2, hands=1, bot_seconds=0),
        seed=3, now=1000.0,
    )  # fmt: skip
    table = life.seat_bot(table, 1, "p0", 1000.0).table
    table = life.start(table, "p0", 1000.0).table
    old.create(table)
    now, moves, failed, formats = 1000.0, 0, 0, set()
    sides = [new, old]
    while True:
        side = sides[moves % 2]
        stored = side.get("mixed1")
        formats.add(  # the format the other side wrote
            client.get_item(TableName=names["TablesTable"], Key={"tableId": {"S": "mixed1"}})[
                "Item"
            ]["state"]["B"][0]
        )
        current = stored.table
        if current.status != "playing":
            break
        if current.break_until is not None:
            current = life.sweep(current, current.break_until).table
        seat = current.turn_seat
        assert seat is not None
        now += 1
        after = apply_move(
            current, seat, choose_move(current, seat), now, rules=KastetRules()
        ).table
        try:
            side.save(stored, after, Commit(move_id=f"m{moves}", now=now))
        except Exception:
            failed += 1
            raise
        moves += 1
        assert moves < 3000
    assert failed == 0 and moves > 10
    assert formats == {1, 2}  # each side read what the other wrote
    assert current.status == "finished" and current.result is not None
