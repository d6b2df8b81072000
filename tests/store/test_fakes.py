"""The in-memory fakes (tests/fakes.py) behave as the DynamoDB adapters do on the cases the
app relies on: the same test body runs on moto and on the fakes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from harftet.engine import table as life
from harftet.engine.effects import RatingChange
from harftet.engine.state import Occupant
from harftet.errors import NotFoundError
from harftet.store.errors import VersionConflictError
from harftet.store.players import PlayerStore
from harftet.store.ports import PlayerStorePort as PlayerPort
from harftet.store.ports import TableStorePort as TablePort
from harftet.store.table_items import MOVES_KEPT
from harftet.store.tables import TableStore
from harftet.store.writes import RatingWrite

sys.path.insert(0, str(Path(__file__).parent.parent))
from fakes import FakePlayers, FakeTables
from testkit import TABLE_NAMES


@pytest.fixture(params=["moto", "fakes"])
def stores(request: pytest.FixtureRequest) -> tuple[TablePort, PlayerPort]:
    if request.param == "fakes":
        players = FakePlayers()
        return FakeTables(players), players
    client = request.getfixturevalue("dynamodb")
    return (
        TableStore(client, TABLE_NAMES["TablesTable"], TABLE_NAMES["PlayersTable"]),
        PlayerStore(client, TABLE_NAMES["PlayersTable"]),
    )


def _table(now: float = 1000.0, turn_seconds: int = 30) -> Any:
    return life.new_table(
        "t-fake", "kastet", Occupant("p0", "Ayşe"), seed=5, now=now, seats=2,
        turn_seconds=turn_seconds,
    )  # fmt: skip


def test_a_lost_save_raises_a_conflict_carrying_the_current_item(stores):
    tables, _ = stores
    tables.create(_table())
    first = tables.get("t-fake")
    seated = life.sit(first.table, 1, Occupant("p1", "Ben"), 1001).table
    tables.save(first, seated, move_id="p1:m1")
    with pytest.raises(VersionConflictError) as conflict:
        tables.save(first, life.sit(first.table, 1, Occupant("p2", "Can"), 1002).table)
    current = conflict.value.current
    assert current is not None and current.version == 2
    assert len(current.moves) == 1 and current.moves["p1:m1"] == 2
    assert tables.get("t-fake").table == seated
    with pytest.raises(NotFoundError):
        tables.get("nope")


def test_move_ids_are_kept_with_the_item_each_players_last_ones_only(stores):
    tables, _ = stores
    tables.create(_table())
    stored = tables.get("t-fake")
    stored = tables.save(stored, stored.table, move_id="p1:only")
    for i in range(MOVES_KEPT + 3):
        stored = tables.save(stored, stored.table, move_id=f"p0:m{i}")
    moves = tables.get("t-fake").moves
    assert len(moves) == MOVES_KEPT + 1 and "p0:m0" not in moves
    assert moves[f"p0:m{MOVES_KEPT + 2}"] == stored.version
    assert "p0:m1" not in moves and f"p0:m{MOVES_KEPT + 1}" in moves
    assert moves["p1:only"] == 2  # another player's move is not pushed out by p0's


def test_rating_updates_land_with_the_save_or_not_at_all(stores):
    tables, players = stores
    players.create("p0", "Ayşe", 1000)
    tables.create(_table())
    first = tables.get("t-fake")
    leave = RatingChange("p0", -4, "leave")
    tables.save(first, first.table, writes=[RatingWrite(leave, None)], now=1000)
    after = players.get("p0")
    assert int(after["rating"]) == 996 and int(after["gamesAbandoned"]) == 1
    # read before that abandon: the condition on the abandons list fails, nothing is written
    second = tables.get("t-fake")
    with pytest.raises(VersionConflictError):
        tables.save(second, second.table, writes=[RatingWrite(leave, None)], now=1001)
    assert tables.get("t-fake").version == 2 and int(players.get("p0")["rating"]) == 996
    game = RatingChange("p0", 10, "game")
    tables.save(second, second.table, writes=[RatingWrite(game, after)], now=1002)
    assert int(players.get("p0")["rating"]) == 1006 and int(players.get("p0")["gamesPlayed"]) == 1


def test_the_due_index_finds_tables_whose_deadline_passed(stores):
    tables, _ = stores
    table = _table(turn_seconds=30)
    tables.create(table)
    stored = tables.get("t-fake")
    seated = life.sit(stored.table, 1, Occupant("p1", "Ben"), 1001).table
    started = life.start(seated, "p0", 1002).table
    stored = tables.save(stored, started, now=1002)
    deadline = started.deadline
    assert deadline is not None
    assert tables.due(deadline - 1) == [] and tables.due(deadline + 1) == ["t-fake"]
    assert tables.next_due() == pytest.approx(deadline, abs=0.001)
