"""DynamoDB faults injected through botocore's own hooks (testkit.Faults) on a client with the
production config (wiring.DYNAMODB_CONFIG: standard mode, 4 attempts) against moto's server.

At each call of the write path — the consistent read, the conditional update, the
TransactWriteItems of a leave, a game end and a table creation — throttling and 5xx are
retried by botocore (the attempts are counted, the backoffs recorded instead of slept); once
the attempts are spent the answer is 503 ``busy`` and nothing was written; a transaction
conflict is redone by the service; a write whose answer was lost is not applied twice; the
sweeper and a player racing on one table leave exactly one winner. After each: every move
answered 200 is in the table and its log exactly once, ratings changed exactly once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import botocore.endpoint
import pytest
from botocore.awsrequest import AWSResponse
from botocore.config import Config
from streams import FANOUT
from testkit import (
    INTERNAL,
    THROTTLED,
    THROTTLING,
    Clock,
    Fault,
    Faults,
    Sleeps,
    app_over,
    cancelled,
    moto_server,
    publisher_over,
)

from harftet.api.errors import error_response
from harftet.bootstrap import DYNAMODB_CONFIG, App
from harftet.engine.moves import Draw, Pass
from harftet.engine.options import TableOptions
from harftet.fanout import Published, changes_from_stream
from harftet.identity import Caller
from harftet.localstack.lambda_events import dynamodb_stream_event
from harftet.localstack.sources import StreamSource
from harftet.push import CLIENT_CONFIG, ManagementApiSender
from harftet.store.schema import create_tables

ATTEMPTS = 4  # DYNAMODB_CONFIG: botocore's standard mode, 4 attempts in all
MOVES = {"draw", "pass", "lay"}


class _Empty:
    """An empty response body, as botocore reads one."""

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield b""


TABLE_KEYS = ("TablesTable", "PlayersTable", "ConnectionsTable", "LogTable")


@dataclass
class World:
    """moto's server with one set of the template's tables for this module (each test makes
    its own players and tables), a clean client on it and the tables table's stream."""

    endpoint: str
    names: dict[str, str]
    client: Any
    stream: StreamSource


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with moto_server() as endpoint:
        names = {k: f"{k.lower()}-faults" for k in TABLE_KEYS}
        client = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=endpoint)
        create_tables(client, names)
        arn = client.describe_table(TableName=names["TablesTable"])["Table"]["LatestStreamArn"]
        streams = boto3.client("dynamodbstreams", region_name="us-east-1", endpoint_url=endpoint)
        yield World(endpoint, names, client, StreamSource(streams, arn, FANOUT))


def _app(client: Any, names: dict[str, str], clock: Clock) -> App:
    app: App = app_over(client, names, clock, log=True)
    return app


@dataclass
class Rig:
    """The app under faults, and a second one on a clean client to look with."""

    app: App  # its client carries the faults
    plain: App  # the same tables, no faults: to check what is stored
    faults: Faults
    sleeps: Sleeps
    clock: Clock
    stream: StreamSource

    def answer(self, call: Callable[[], Any]) -> tuple[int, Any]:
        """What the API answers for ``call`` (error_response maps every exception)."""
        try:
            return 200, call()
        except Exception as error:
            return error_response(error)

    def log(self, table_id: str) -> list[dict[str, Any]]:
        """The table's log after the stream so far is published (as the fan-out does)."""
        publisher = publisher_over(self.plain, log=self.plain.stores.log)
        while shards := self.stream.poll():  # a poll reads at most 1,000 records
            for records in shards:
                event = dynamodb_stream_event(records, self.stream.arn)
                publisher.publish(changes_from_stream(event))
        assert self.plain.stores.log is not None
        return self.plain.stores.log.after(table_id, 0)

    def consistent(self, table_id: str) -> dict[str, Any]:
        """The log holds every version's events exactly once, in order; the moves in it."""
        table = self.plain.stores.tables.get(table_id).table
        events = self.log(table_id)
        assert [e["seq"] for e in events] == list(range(1, table.seq + 1))
        return {"events": events, "moves": [e for e in events if e["type"] in MOVES]}


@pytest.fixture
def rig(world: World, monkeypatch: pytest.MonkeyPatch) -> Rig:
    """A fresh client with the production config (its own retry quota) and its faults."""
    client = boto3.client(
        "dynamodb", region_name="us-east-1", endpoint_url=world.endpoint, config=DYNAMODB_CONFIG
    )
    sleeps = Sleeps()
    monkeypatch.setattr(botocore.endpoint, "time", sleeps)  # backoffs recorded, not slept
    clock = Clock()
    return Rig(
        app=_app(client, world.names, clock),
        plain=_app(world.client, world.names, clock),
        faults=Faults(client),
        sleeps=sleeps,
        clock=clock,
        stream=world.stream,
    )


def _player(app: App, name: str) -> Caller:
    return app.tokens.verify(app.guests.create_player(name)["token"])


def _game(rig: Rig, seats: int = 2) -> tuple[str, list[Caller]]:
    """A started 1-hand Kastet game of ``seats`` players (made without faults)."""
    callers = [_player(rig.plain, f"Oyuncu{i}") for i in range(seats)]
    table_id = rig.plain.tables.create_table(
        callers[0],
        TableOptions(game="kastet", seats=seats, hands=1, partners=False, turn_seconds=45),
        seed=7,
    )["tableId"]
    for i, caller in enumerate(callers[1:], start=1):
        rig.plain.tables.sit(caller, table_id, i)
    rig.plain.tables.start(callers[0], table_id)
    return table_id, callers


def _turn(rig: Rig, table_id: str, callers: list[Caller]) -> tuple[Caller, dict[str, Any]]:
    seat = rig.plain.tables.view(None, table_id)["turn"]["seat"]
    return callers[seat], rig.plain.tables.view(callers[seat], table_id)


def _simple_move(view: dict[str, Any]) -> Draw | Pass:
    return Draw() if len(view["hand"]) < 22 and view["pile"] else Pass()


def _to_the_brink(rig: Rig, table_id: str, callers: list[Caller]) -> None:
    """Play draws and passes until the next move ends the game (seed 7: 17 moves): a pass
    that completes a round of passes ends the only hand."""
    for i in range(60):
        table = rig.plain.stores.tables.get(table_id).table
        seat = table.turn_seat
        assert seat is not None
        if table.passes == len(table.seats) - 1:
            return
        move = Draw() if len(table.seats[seat].hand) < 22 and table.pile else Pass()
        rig.plain.tables.move(
            callers[seat], table_id, rig.plain.stores.tables.get(table_id).version, f"b{i}", move
        )
    raise AssertionError("the game never came to its last move")


def _listed(rig: Rig, owner: Caller) -> list[str]:
    """The waiting tables of ``owner`` in the lobby (the tables table is the module's)."""
    return [
        t["tableId"] for t in rig.plain.tables.lobby()["tables"] if t["manager"] == owner.player_id
    ]


def _ratings(rig: Rig, callers: list[Caller]) -> list[tuple[int, int, int]]:
    profiles = [rig.plain.guests.player(c.player_id) for c in callers]
    return [(p["rating"], p["gamesPlayed"], p["gamesAbandoned"]) for p in profiles]


# -- the move: a consistent read, then one conditional update ---------------------------------
@pytest.mark.parametrize(
    ("operation", "fault"),
    [("GetItem", THROTTLED), ("UpdateItem", THROTTLING), ("UpdateItem", INTERNAL)],
    ids=["read-throttled", "update-throttling", "update-internal"],
)
def test_the_move_path_retries_then_answers_503_busy_and_never_stores_twice(
    rig: Rig, operation: str, fault: Fault
) -> None:
    table_id, callers = _game(rig)
    caller, view = _turn(rig, table_id, callers)
    version = view["version"]
    move = lambda: rig.app.tables.move(caller, table_id, version, "m1", Draw())  # noqa: E731

    rig.faults.fail(operation, fault, times=ATTEMPTS)  # every attempt fails
    status, body = rig.answer(move)
    assert (status, body["error"]["code"]) == (503, "busy")
    assert rig.faults.attempts[operation] == ATTEMPTS  # botocore retried, then gave up
    assert len(rig.sleeps.delays) == ATTEMPTS - 1  # with a backoff before each retry
    assert rig.plain.tables.view(None, table_id)["version"] == version  # nothing was stored

    rig.faults.clear()
    rig.faults.fail(operation, fault, times=ATTEMPTS - 1)  # the last attempt gets through
    status, body = rig.answer(move)
    assert status == 200 and body["version"] == version + 1
    assert rig.faults.attempts[operation] == ATTEMPTS
    assert rig.answer(move) == (200, body)  # the client's retry: the same answer, once stored
    assert rig.plain.tables.view(None, table_id)["version"] == version + 1
    assert [m["type"] for m in rig.consistent(table_id)["moves"]] == ["draw"]


def test_a_move_whose_answer_was_lost_after_the_write_is_stored_once_and_answered_200(
    rig: Rig,
) -> None:
    table_id, callers = _game(rig)
    caller, view = _turn(rig, table_id, callers)
    rig.faults.fail("UpdateItem", Fault(lose=True))  # DynamoDB wrote; the answer never came
    status, body = rig.answer(
        lambda: rig.app.tables.move(caller, table_id, view["version"], "m", Draw())
    )
    assert status == 200 and body["version"] == view["version"] + 1
    # botocore sent the conditional update again; it failed on the new version, and the
    # app found its own move in the item DynamoDB returned: replayed, not stale, not 5xx
    assert rig.faults.attempts["UpdateItem"] == 2
    assert len(body["hand"]) == len(view["hand"]) + 1
    assert [m["type"] for m in rig.consistent(table_id)["moves"]] == ["draw"]


# -- writes with ratings: one TransactWriteItems (the table and the players) -----------------
def test_a_leave_under_faults_charges_the_leaver_exactly_once_or_not_at_all(rig: Rig) -> None:
    fault = INTERNAL
    table_id, callers = _game(rig, seats=3)
    leaver = callers[2]
    before = _ratings(rig, callers)
    leave = lambda: rig.app.tables.leave(leaver, table_id, 2)  # noqa: E731

    rig.faults.fail("TransactWriteItems", fault, times=ATTEMPTS)
    status, body = rig.answer(leave)
    assert (status, body["error"]["code"]) == (503, "busy")
    assert rig.faults.attempts["TransactWriteItems"] == ATTEMPTS
    assert _ratings(rig, callers) == before  # neither the table nor the player changed
    assert rig.plain.tables.view(None, table_id)["seats"][2]["playerId"] == leaver.player_id

    rig.faults.clear()
    rig.faults.fail("GetItem", THROTTLED, times=ATTEMPTS - 1)  # the table's read, the player's
    rig.faults.fail("TransactWriteItems", fault, times=ATTEMPTS - 1)
    status, body = rig.answer(leave)
    assert status == 200 and body["status"] == "paused"
    assert rig.faults.attempts["TransactWriteItems"] == ATTEMPTS
    rating, played, abandoned = before[2]
    assert _ratings(rig, callers) == [*before[:2], (rating - 2, played, abandoned + 1)]
    assert [e["type"] for e in rig.consistent(table_id)["events"]].count("leave") == 1


def test_a_leave_that_meets_transaction_conflicts_is_redone_then_answered_503_busy(
    rig: Rig,
) -> None:
    table_id, callers = _game(rig, seats=3)
    before = _ratings(rig, callers)
    leave = lambda: rig.app.tables.leave(callers[2], table_id, 2)  # noqa: E731
    conflict = cancelled("None", "TransactionConflict")

    rig.faults.fail("TransactWriteItems", conflict, times=rig.app.writer.retries)
    status, body = rig.answer(leave)
    assert (status, body["error"]["code"]) == (503, "busy")
    # a cancelled transaction is not botocore's to retry: the app redoes it, read and all
    assert rig.faults.attempts["TransactWriteItems"] == rig.app.writer.retries
    # the table, the player, the player's profile (harftet.people)
    assert rig.faults.attempts["GetItem"] == 3 * rig.app.writer.retries
    assert _ratings(rig, callers) == before

    rig.faults.clear()
    rig.faults.fail("TransactWriteItems", conflict, times=2)
    assert rig.answer(leave)[0] == 200
    assert rig.faults.attempts["TransactWriteItems"] == 3
    assert _ratings(rig, callers)[2] == (before[2][0] - 2, before[2][1], before[2][2] + 1)
    assert [e["type"] for e in rig.consistent(table_id)["events"]].count("leave") == 1


@pytest.mark.parametrize(
    "fault",
    [THROTTLED, INTERNAL, cancelled("None", "TransactionConflict", "None")],
    ids=["throttled", "internal", "conflict"],
)
def test_the_game_end_under_faults_settles_the_ratings_exactly_once(rig: Rig, fault: Fault) -> None:
    table_id, callers = _game(rig)
    _to_the_brink(rig, table_id, callers)
    before = _ratings(rig, callers)
    caller, view = _turn(rig, table_id, callers)
    last = lambda: rig.app.tables.move(caller, table_id, view["version"], "last", Pass())  # noqa: E731

    spent = (
        ATTEMPTS if fault.status == 500 or "Throughput" in fault.code else rig.app.writer.retries
    )
    rig.faults.fail("TransactWriteItems", fault, times=spent)
    status, body = rig.answer(last)
    assert (status, body["error"]["code"]) == (503, "busy")
    assert rig.faults.attempts["TransactWriteItems"] == spent
    assert _ratings(rig, callers) == before
    assert rig.plain.tables.view(None, table_id)["status"] == "playing"

    rig.faults.clear()
    rig.faults.fail("TransactWriteItems", fault, times=spent - 1)
    status, body = rig.answer(last)
    assert status == 200 and body["status"] == "finished"
    assert rig.answer(last) == (200, body)  # the client's retry changes nothing
    points = body["result"]["points"]
    assert sorted(points) == [-1, 1]
    assert _ratings(rig, callers) == [
        (r + p, played + 1, abandoned)
        for (r, played, abandoned), p in zip(before, points, strict=True)
    ]
    events = rig.consistent(table_id)["events"]
    assert [e["type"] for e in events].count("gameEnd") == 1


def test_a_transaction_cancelled_by_throttling_is_503_busy_not_a_500(rig: Rig) -> None:
    table_id, callers = _game(rig, seats=3)
    before = _ratings(rig, callers)
    rig.faults.fail("TransactWriteItems", cancelled("None", "ThrottlingError"), times=20)
    status, body = rig.answer(lambda: rig.app.tables.leave(callers[2], table_id, 2))
    assert (status, body["error"]["code"]) == (503, "busy")
    assert _ratings(rig, callers) == before


# -- table creation: the new table and the manager's list in one TransactWriteItems ----------
@pytest.mark.parametrize("operation", ["GetItem", "TransactWriteItems"])
def test_creating_a_table_under_throttling_makes_one_table_or_none(
    rig: Rig, operation: str
) -> None:
    owner = _player(rig.plain, "Sahip")
    options = TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    first = rig.plain.tables.create_table(owner, options)["tableId"]  # so the limit reads it back
    create = lambda: rig.app.tables.create_table(owner, options)  # noqa: E731
    rig.faults.fail(operation, THROTTLED, times=ATTEMPTS)
    status, body = rig.answer(create)
    assert (status, body["error"]["code"]) == (503, "busy")
    assert rig.faults.attempts[operation] == ATTEMPTS
    assert _listed(rig, owner) == [first]

    rig.faults.clear()
    rig.faults.fail(operation, THROTTLED, times=ATTEMPTS - 1)
    status, body = rig.answer(create)
    assert status == 200
    assert sorted(_listed(rig, owner)) == sorted([body["tableId"], first])
    assert rig.plain.stores.players.get(owner.player_id)["waitingTables"] == [
        first,
        body["tableId"],
    ]


def test_creating_a_table_through_a_transaction_conflict_makes_exactly_one(rig: Rig) -> None:
    owner = _player(rig.plain, "Sahip")
    options = TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)

    def create() -> dict:
        return rig.app.tables.create_table(owner, options)

    conflict = cancelled("None", "TransactionConflict")
    rig.faults.fail("TransactWriteItems", conflict, times=10)  # the store's own 10 tries
    status, body = rig.answer(create)
    assert (status, body["error"]["code"]) == (503, "busy")
    assert _listed(rig, owner) == []

    rig.faults.clear()
    rig.faults.fail("TransactWriteItems", conflict, times=2)
    status, body = rig.answer(create)
    assert status == 200
    assert rig.faults.attempts["TransactWriteItems"] == 3
    assert _listed(rig, owner) == [body["tableId"]]


# -- the sweeper and a player on one table -----------------------------------------------------
def test_the_sweeper_slipping_in_before_the_players_write_wins_and_the_player_resyncs(
    rig: Rig,
) -> None:
    table_id, callers = _game(rig)
    caller, view = _turn(rig, table_id, callers)

    def sweeper_first() -> None:  # the deadline passes between the player's read and write
        rig.clock.advance(46)
        assert (
            rig.plain.deadlines.advance(table_id).status == "committed"
        )  # what sweep() does per table

    rig.faults.fail("UpdateItem", Fault(before=sweeper_first))
    status, body = rig.answer(
        lambda: rig.app.tables.move(caller, table_id, view["version"], "late", Draw())
    )
    assert (status, body["error"]["code"]) == (409, "stale_version")
    assert body["view"]["version"] == view["version"] + 1  # the timeout, as the player sees it
    assert body["view"]["turn"]["seat"] != view["turn"]["seat"]
    types = [e["type"] for e in rig.consistent(table_id)["events"]]
    assert types[-2:] == ["timeout", "draw"] and types.count("draw") == 1  # the forced one


def test_the_player_slipping_in_before_the_sweepers_write_wins_and_the_sweep_changes_nothing(
    rig: Rig,
) -> None:
    table_id, callers = _game(rig)
    caller, view = _turn(rig, table_id, callers)
    # Two functions, two clocks: the player moves 40 s into the 45 s turn, the sweeper looks
    # at 46 s, reads the table before the move lands and decides the turn timed out.
    player_side = App(
        rig.plain.settings, rig.plain.stores, clock=Clock(rig.clock.now + 40),
        signer=rig.plain.tokens,
    )  # fmt: skip
    rig.clock.advance(46)
    moved: list[dict[str, Any]] = []

    def player_first() -> None:  # the player's move lands between the sweeper's read and write
        moved.append(player_side.tables.move(caller, table_id, view["version"], "mine", Draw()))

    rig.faults.fail("UpdateItem", Fault(before=player_first))
    # what sweep() does for each due table: it lost the race, read again, found nothing due
    assert rig.app.deadlines.advance(table_id).status == "unchanged"
    assert rig.faults.attempts["UpdateItem"] == 1  # a lost race is no error to retry
    assert moved[0]["version"] == view["version"] + 1
    assert rig.plain.tables.view(None, table_id)["version"] == view["version"] + 1
    types = [e["type"] for e in rig.consistent(table_id)["events"]]
    assert "timeout" not in types and types.count("draw") == 1


# -- the fan-out: pushes through the Management API's client --------------------------------
def test_push_failures_lose_no_move_and_hold_up_no_other_connection(rig: Rig) -> None:
    table_id, callers = _game(rig)
    api = boto3.client(
        "apigatewaymanagementapi",
        region_name="us-east-1",
        endpoint_url="http://127.0.0.1:9",  # never reached: every attempt is answered below
        config=Config(**CLIENT_CONFIG),
    )
    received: dict[str, list[int]] = {}

    def gateway(request: Any) -> AWSResponse:  # API Gateway, where nothing failed
        connection = request.url.rsplit("/", 1)[-1]
        message = json.loads(request.body)  # a delta, or the whole view
        version = message["version"] if message["type"] == "delta" else message["view"]["version"]
        received.setdefault(connection, []).append(version)
        return AWSResponse(request.url, 200, {}, _Empty())

    pushes = Faults(api, otherwise=gateway)
    rig.plain.send = ManagementApiSender("http://127.0.0.1:9", client=api)
    publisher = publisher_over(rig.plain, log=rig.plain.stores.log)

    def publish() -> Published:
        done = Published()
        for records in rig.stream.poll():
            event = dynamodb_stream_event(records, rig.stream.arn)
            one = publisher.publish(changes_from_stream(event))
            done.pushed += one.pushed
            done.gone += one.gone
            done.failed += one.failed
        return done

    rig.plain.sockets.connect(callers[0], table_id, "flaky")
    rig.plain.sockets.connect(callers[0], table_id, "down")
    rig.plain.sockets.connect(callers[1], table_id, "gone")
    publish()
    rig.clock.advance(10)  # none of them is young any more
    caller, view = _turn(rig, table_id, callers)
    version = view["version"]
    received.clear()
    pushes.clear()

    pushes.fail("PostToConnection", Fault(410, "GoneException"), where="/gone")
    pushes.fail("PostToConnection", INTERNAL, times=2, where="/flaky")
    pushes.fail("PostToConnection", INTERNAL, times=3, where="/down")
    rig.plain.tables.move(caller, table_id, version, "m", Draw())
    published = publish()
    assert published.failed == []  # a push failure never makes the stream redo the table
    assert published.gone == ["gone"]
    assert received == {"flaky": [version + 1]}  # the third attempt got through
    assert published.pushed == 1  # what the Pushes metric counts: only what got through
    attempts = {url.rsplit("/", 1)[-1]: n for url, n in pushes.urls.items()}
    assert attempts == {"gone": 1, "flaky": 3, "down": 3}  # CLIENT_CONFIG: 3 attempts
    assert rig.plain.sockets.connection("gone") is None  # dropped, and its player counted as gone
    after = publish()  # the disconnect that dropping it stored: "down" is caught up
    assert received == {"flaky": [version + 1, version + 2], "down": [version + 2]}
    assert after.failed == [] and after.gone == []
    types = [e["type"] for e in rig.consistent(table_id)["events"]]
    assert types[-2:] == ["draw", "disconnect"] and types.count("draw") == 1


# -- a transaction whose answer was lost: botocore sends it again --------------------------
def _tokens(rig: Rig) -> list[str]:
    """The ClientRequestToken of every TransactWriteItems attempt the service's client sends."""
    sent: list[str] = []

    def capture(request: Any, **_: Any) -> None:
        sent.append(json.loads(request.body)["ClientRequestToken"])

    client = rig.app.stores.tables._client  # type: ignore[attr-defined]
    client.meta.events.register_first("before-send.dynamodb.TransactWriteItems", capture)
    return sent


def test_a_table_creation_whose_answer_was_lost_is_answered_once_and_stored_once(
    rig: Rig,
) -> None:
    owner = _player(rig.plain, "Sahip")
    tokens = _tokens(rig)
    rig.faults.fail("TransactWriteItems", Fault(lose=True))  # written; the answer never came
    status, body = rig.answer(
        lambda: rig.app.tables.create_table(
            owner, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
        )
    )
    assert status == 200 and body["manager"] == owner.player_id
    # the retry carried the same token (AWS answers it from the first write) ...
    assert len(tokens) == 2 and tokens[0] == tokens[1] and 1 <= len(tokens[0]) <= 36
    # ... and where the token is not honoured (moto) the store knew its own table again
    assert _listed(rig, owner) == [body["tableId"]]
    assert rig.plain.stores.players.get(owner.player_id)["waitingTables"] == [body["tableId"]]


def test_a_leave_whose_answer_was_lost_is_answered_200_and_charged_once(rig: Rig) -> None:
    table_id, callers = _game(rig, seats=3)
    before = _ratings(rig, callers)
    tokens = _tokens(rig)
    rig.faults.fail("TransactWriteItems", Fault(lose=True))
    status, body = rig.answer(lambda: rig.app.tables.leave(callers[2], table_id, 2))
    assert status == 200 and body["status"] == "paused"
    assert len(tokens) == 2 and tokens[0] == tokens[1]
    rating, played, abandoned = before[2]
    assert _ratings(rig, callers) == [*before[:2], (rating - 2, played, abandoned + 1)]
    assert [e["type"] for e in rig.consistent(table_id)["events"]].count("leave") == 1


def test_a_game_end_whose_answer_was_lost_is_answered_200_and_settled_once(rig: Rig) -> None:
    table_id, callers = _game(rig)
    _to_the_brink(rig, table_id, callers)
    before = _ratings(rig, callers)
    caller, view = _turn(rig, table_id, callers)
    rig.faults.fail("TransactWriteItems", Fault(lose=True))
    status, body = rig.answer(
        lambda: rig.app.tables.move(caller, table_id, view["version"], "last", Pass())
    )
    assert status == 200 and body["status"] == "finished"
    assert body["version"] == view["version"] + 1
    points = body["result"]["points"]
    assert _ratings(rig, callers) == [
        (r + p, played + 1, abandoned)
        for (r, played, abandoned), p in zip(before, points, strict=True)
    ]
    assert [e["type"] for e in rig.consistent(table_id)["events"]].count("gameEnd") == 1


def test_the_stream_keeps_flowing_after_moto_rolls_back_a_cancelled_transaction(
    world: World,
) -> None:
    """The cause of the local fan-out that stopped for good: moto replaces a table (and its
    stream shard) with a copy when it cancels a transaction, and a poller following its
    iterator chain read the old shard, which never got another record."""
    streams = boto3.client("dynamodbstreams", region_name="us-east-1", endpoint_url=world.endpoint)
    source = StreamSource(streams, world.stream.arn, FANOUT)
    while source.poll():  # the module's records so far
        pass
    tables, players = world.names["TablesTable"], world.names["PlayersTable"]
    with pytest.raises(world.client.exceptions.TransactionCanceledException):
        world.client.transact_write_items(
            TransactItems=[
                {"Put": {"TableName": tables, "Item": {"tableId": {"S": "phantom"}}}},
                {
                    "ConditionCheck": {
                        "TableName": players,
                        "Key": {"playerId": {"S": "nobody"}},
                        "ConditionExpression": "attribute_exists(playerId)",
                    }
                },
            ]
        )
    for n in range(3):
        world.client.put_item(TableName=tables, Item={"tableId": {"S": f"after-{n}"}})
    keys = [r["dynamodb"]["Keys"]["tableId"]["S"] for shard in source.poll() for r in shard]
    assert keys == ["after-0", "after-1", "after-2"]  # nothing lost, no rolled-back phantom


# -- the log: read-your-writes ---------------------------------------------------------------
def test_a_move_answered_200_is_in_the_log_read_right_after_it_with_its_version(rig: Rig) -> None:
    table_id, callers = _game(rig)
    rig.log(table_id)  # the fan-out caught up with the start
    caller, view = _turn(rig, table_id, callers)
    answer = rig.plain.tables.move(caller, table_id, view["version"], "m1", Draw())
    # the fan-out has not run yet: the log read completes itself from the table item
    events = rig.plain.records.events(None, table_id)["events"]
    assert events[-1]["type"] == "draw" and events[-1]["version"] == answer["version"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert "tile" not in events[-1]  # a draw never shows the tile (RULES §5)
    # once the fan-out has appended it, the same events, each with its version
    published = rig.consistent(table_id)["events"]
    assert published == rig.plain.stores.log.after(table_id, 0)  # type: ignore[union-attr]
    assert rig.plain.records.events(None, table_id)["events"] == [
        {k: v for k, v in e.items() if k != "tile"} for e in published
    ]
    assert all("version" in e for e in published)


def test_a_log_further_behind_is_waited_for_and_never_answered_with_a_hole(rig: Rig) -> None:
    table_id, callers = _game(rig)
    logged = rig.log(table_id)
    for n in range(2):  # two changes the fan-out has not published
        caller, view = _turn(rig, table_id, callers)
        rig.plain.tables.move(caller, table_id, view["version"], f"m{n}", Draw())
    waits: list[float] = []
    rig.plain.records.sleep = waits.append
    events = rig.plain.records.events(None, table_id)["events"]
    assert [e["seq"] for e in events] == [e["seq"] for e in logged]  # no hole
    assert 0 < sum(waits) <= 2  # the fan-out was given a bounded moment


def test_a_move_whose_every_answer_was_lost_is_503_busy_and_its_retry_is_answered_200(
    rig: Rig,
) -> None:
    table_id, callers = _game(rig)
    caller, view = _turn(rig, table_id, callers)
    rig.faults.fail("UpdateItem", Fault(lose=True), times=ATTEMPTS)  # written; no answer came
    move = lambda: rig.app.tables.move(caller, table_id, view["version"], "m", Draw())  # noqa: E731
    status, body = rig.answer(move)
    assert (status, body["error"]["code"]) == (503, "busy")  # never a 500
    rig.faults.clear()
    status, body = rig.answer(move)  # the client's retry, same moveId
    assert status == 200 and body["version"] == view["version"] + 1
    assert [m["type"] for m in rig.consistent(table_id)["moves"]] == ["draw"]
