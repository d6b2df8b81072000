"""The table item's cost: per player only the move ids a client can still retry, under short
digests; the deadline index and dueV written only when a change moves the deadline."""

from __future__ import annotations

import base64
from typing import Any

from testkit import TABLE_NAMES

from harftet.engine import hand
from harftet.engine import table as life
from harftet.engine.moves import Draw
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant
from harftet.engine.timing import next_due
from harftet.store.table_items import MOVES_KEPT, IndexKeys, from_stream_image, move_digest
from harftet.store.tables import TableStore
from harftet.store.writes import Commit


class Recording:
    """The DynamoDB client, keeping every update_item it sends."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.updates: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def update_item(self, **kwargs: Any) -> Any:
        self.updates.append(kwargs)
        return self.client.update_item(**kwargs)


def _set_names(update: dict[str, Any]) -> set[str]:
    """The attribute names an update SETs."""
    names = update["ExpressionAttributeNames"]
    assignments = update["UpdateExpression"].split(" REMOVE ")[0].removeprefix("SET ")
    return {names[a.split(" = ")[0].strip()] for a in assignments.split(", ")}


def _started(store: TableStore) -> Any:
    table = life.new_table(
        "t-cost",
        Occupant("p0", "Ayşe"),
        TableOptions("kastet", seats=2, turn_seconds=30),
        seed=5,
        now=1000.0,
    )
    store.create(table)
    stored = store.get("t-cost")
    stored = store.save(stored, life.sit(stored.table, 1, Occupant("p1", "Ben"), 1001).table)
    return store.save(stored, life.start(stored.table, "p0", 1002).table, Commit(now=1002))


def test_a_change_that_keeps_the_deadline_writes_no_index_key_and_no_due_version(dynamodb):
    store = TableStore(Recording(dynamodb), TABLE_NAMES["TablesTable"], TABLE_NAMES["PlayersTable"])
    started = _started(store)
    assert started.due_version == started.version  # the start set the first deadline
    client: Recording = store._client  # type: ignore[assignment]
    client.updates.clear()
    kept = store.save(started, started.table, Commit(move_id="p0:again", now=1003))
    assert not _set_names(client.updates[-1]) & {"due", "deadline", "dueV", "lobby", "watch"}
    assert kept.due_version == started.version  # still the version that set it
    assert store.get("t-cost").due_version == started.version
    # a turn that ends moves the deadline: the index key and dueV are written with it (the
    # first turn's message, due at 1032 s, is too close to stand for it: a timer of its own)
    seat = started.table.turn_seat
    player = started.table.seats[seat].occupant.player_id
    drawn = hand.apply_move(kept.table.clone(), seat, Draw(), 1031).table
    assert next_due(drawn) != next_due(kept.table)
    moved = store.save(kept, drawn, Commit(move_id=f"{player}:d1", now=1031))
    assert {"deadline", "dueV", "tq"} <= _set_names(client.updates[-1])
    assert moved.due_version == moved.version == store.get("t-cost").due_version
    assert moved.timer_due == store.get("t-cost").timer_due == 1061_000


def test_each_player_keeps_only_its_last_move_ids_and_a_retry_of_them_is_still_known(dynamodb):
    store = TableStore(dynamodb, TABLE_NAMES["TablesTable"], TABLE_NAMES["PlayersTable"])
    stored = _started(store)
    for n in range(40):
        stored = store.save(
            stored, stored.table, Commit(move_id=f"p{n % 2}:move-{n:04d}", now=1003 + n)
        )
    again = store.get("t-cost")
    assert len(again.moves) == 2 * MOVES_KEPT
    for player in ("p0", "p1"):  # the last ones of each player are still retried safely
        last = max(n for n in range(40) if n % 2 == int(player[1]))
        assert again.moves[f"{player}:move-{last:04d}"] == stored.version - (39 - last)
        assert f"{player}:move-{last - 2 * MOVES_KEPT:04d}" not in again.moves
    item = dynamodb.get_item(TableName=TABLE_NAMES["TablesTable"], Key={"tableId": {"S": "t-cost"}})
    kept = item["Item"]["mv"]["M"]
    assert all(len(key) == 12 for key in kept)  # digests, not `{playerId}:{moveId}`
    assert "moves" not in item["Item"]


def test_an_item_of_the_former_shape_keeps_its_move_ids_and_sheds_the_old_map(dynamodb):
    store = TableStore(dynamodb, TABLE_NAMES["TablesTable"], TABLE_NAMES["PlayersTable"])
    stored = _started(store)
    name = TABLE_NAMES["TablesTable"]
    dynamodb.update_item(
        TableName=name,
        Key={"tableId": {"S": "t-cost"}},
        UpdateExpression="SET moves = :m REMOVE mv",
        ExpressionAttributeValues={":m": {"M": {"p0:old-move": {"N": str(stored.version)}}}},
    )
    old = store.get("t-cost")
    assert old.moves["p0:old-move"] == stored.version  # read from the former map
    store.save(old, old.table, Commit(move_id="p1:new", now=1004))
    item = dynamodb.get_item(TableName=name, Key={"tableId": {"S": "t-cost"}})["Item"]
    assert "moves" not in item and move_digest("p0:old-move") in item["mv"]["M"]
    image = {**item, "state": {"B": base64.b64encode(item["state"]["B"]).decode()}}
    assert "p1:new" in from_stream_image(image).moves  # the stream's image reads the same


def test_a_deadline_the_index_key_still_stands_for_writes_due_version_but_no_index_key(
    dynamodb,
):
    step = IndexKeys(step_ms=60_000)  # the template's DeadlineStepSeconds
    store = TableStore(
        Recording(dynamodb), TABLE_NAMES["TablesTable"], TABLE_NAMES["PlayersTable"], step
    )
    started = _started(store)  # the start at 1002 s: the first turn is due at 1032 s
    client: Recording = store._client  # type: ignore[assignment]
    # the key is as late as a step after the write allows: 1062 s, not earlier than 1032 s
    assert store.due(1061.0) == [] and store.due(1062.0) == ["t-cost"]

    def turn(stored: Any, at: float) -> Any:
        seat = stored.table.turn_seat
        player = stored.table.seats[seat].occupant.player_id
        drawn = hand.apply_move(stored.table.clone(), seat, Draw(), at).table
        assert next_due(drawn) != next_due(stored.table)
        return store.save(stored, drawn, Commit(move_id=f"{player}:d{at}", now=at))

    client.updates.clear()
    kept = turn(started, 1010)  # due at 1040 s: the key (1062 s) stands for it
    written = _set_names(client.updates[-1])
    assert not written & {"due", "deadline"}
    # the sweeper (the safety net) finds the table at the key, at most a step late
    assert store.due(1061.0) == [] and store.due(1062.0) == ["t-cost"]
    moved = turn(kept, 1035)  # due at 1065 s: past the key, so a new one (1095 s)
    assert {"deadline", "dueV"} <= _set_names(client.updates[-1])  # 1032 s passed: a timer
    assert store.due(1094.0) == [] and store.due(1095.0) == ["t-cost"]
    assert store.get("t-cost").due_version == moved.version


def test_turns_of_people_and_computer_players_rarely_move_the_index_key(dynamodb):
    """Deadlines that jump back and forth (a person's turn of 45 s, a computer player's of a
    second) keep the index key while it stands for them: never earlier than the deadline (the
    sweeper would come early), never more than a step later (a lost timer's most delay)."""
    step = IndexKeys(step_ms=60_000)
    store = TableStore(
        Recording(dynamodb), TABLE_NAMES["TablesTable"], TABLE_NAMES["PlayersTable"], step
    )
    stored = _started(store)
    client: Recording = store._client  # type: ignore[assignment]
    client.updates.clear()
    at = 1003.0
    for n in range(60):  # a person moves in 5 s, two computer players in 1 s each, ...
        table = stored.table.clone()
        table.deadline = at + (45 if n % 3 == 0 else 1)
        stored = store.save(stored, table, Commit(now=at))
        key = store.due(10**6)  # the table is in the index
        item = dynamodb.get_item(
            TableName=TABLE_NAMES["TablesTable"], Key={"tableId": {"S": "t-cost"}}
        )["Item"]
        held = int(item["deadline"]["N"])
        assert key == ["t-cost"] and stored.index_deadline == held
        assert table.deadline * 1000 <= held <= table.deadline * 1000 + 60_000
        at += 5 if n % 3 == 0 else 1
    rewritten = sum("deadline" in _set_names(u) for u in client.updates)
    assert rewritten <= 12  # 60 deadlines moved over 140 s: a key every ~15 s, not each one


def test_without_leaning_every_deadline_that_moves_asks_for_its_own_timer(dynamodb):
    """TimersLean off (the first deploy of leaning, while the release before still fires
    timers): each moved deadline asks for a message, as that release expects."""
    names = (TABLE_NAMES["TablesTable"], TABLE_NAMES["PlayersTable"])
    store = TableStore(Recording(dynamodb), *names, lean_timers=False)
    stored = _started(store)
    for at in (1004.0, 1006.0, 1008.0):  # quick turns, each deadline after the first message's
        table = stored.table.clone()
        table.deadline = at + 30
        stored = store.save(stored, table, Commit(now=at))
        assert stored.due_version == stored.version and stored.timer_due == int(
            table.deadline * 1000
        )
    leaning = TableStore(dynamodb, *names)
    table = stored.table.clone()
    table.deadline = 1040.0
    assert leaning.save(stored, table, Commit(now=1009)).due_version == stored.version  # leans
