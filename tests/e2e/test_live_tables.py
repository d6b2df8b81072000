"""Live tables over real WebSockets: pushes after every change, privacy, moves, presence, timers.

Four fresh players open `websockets` sync clients on `/ws?token=…&tableId=…` of the local stack.
Every view pushed to a client is compared with what `GET /tables/{id}` answers that same
player, and every message is checked to hold no tile but the player's own hand and the tiles
on the table (the other hands are read from their owners' own GET views).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
import jwt
import pytest
from e2e_client import (
    PUSHES,
    Player,
    View,
    new_move_id,
    next_move,
    pushed_version,
    table_tile_ids,
    take_push,
    tile_ids,
)
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e

NAMES = ["Ayşe", "Barış", "Cem", "Deniz"]
# The turn time of the timer tests: test mode goes below the live floor of 10 s, and 6 s leave
# the clients time to connect and see the start on a busy machine before the deadline.
TIMER_SECONDS = 6


class Live:
    """One player's WebSocket on one table, every message it received, and the view it
    rebuilt from the pushes (asking for the whole view after a missed one, as clients do)."""

    def __init__(self, stack: RunningStack, player: Player, table_id: str) -> None:
        self.player = player
        self.table_id = table_id
        url = f"{stack.ws_url}?token={player.token}&tableId={table_id}"
        self.ws: ClientConnection = connect(url, open_timeout=10, legacy=True)
        self.received: list[dict[str, Any]] = []
        self.view: View | None = None
        self.syncs = 0

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        if message["type"] in PUSHES:
            self.view, sync = take_push(self.view, message)
            if sync:
                self.syncs += 1
                self.send({"action": "sync"})
        return message

    def next_view(self, timeout: float = 10) -> View:
        """The view after the next push that brings a newer version."""
        held = self.view
        while True:
            message = self.recv(timeout)
            assert message["type"] in PUSHES, message
            if self.view is not held and self.view is not None:
                return self.view

    def view_at(self, version: int, timeout: float = 10) -> View:
        """The next push of ``version`` or later, past pushes of older versions that were in
        flight when this client connected (clients compare versions, as API.md's do)."""
        view = self.view
        while view is None or view["version"] < version:
            view = self.next_view(timeout)
        return view

    def reply(self, timeout: float = 10) -> dict[str, Any]:
        """The next message that is not a table push (an answer to what this client sent);
        pushes may arrive at any time, e.g. one still in flight when the socket opened."""
        while True:
            message = self.recv(timeout)
            if message["type"] not in PUSHES:
                return message

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def hears_nothing(self, seconds: float = 0.5, past: int | None = None) -> None:
        """Nothing arrives within ``seconds`` — except, when ``past`` is given, pushes of that
        version or older, which were in flight before (the client skips them by version)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self.recv(left)
            except TimeoutError:
                return
            stale = message["type"] in PUSHES and past is not None
            assert stale and pushed_version(message) <= past, message

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


class LiveTable:
    """Four fresh players at one table, each with a live socket once `connect_all` ran."""

    def __init__(
        self, stack: RunningStack, game: str, turn_seconds: int, seed: int, spectators: int = 0
    ) -> None:
        self.stack = stack
        names = NAMES + [f"İzleyici {n + 1}" for n in range(spectators)]
        self.players = [Player(stack.base_url, name) for name in names]  # seats 0-3 first
        self.view = self.players[0].create_table(
            game, seats=4, hands=1, seed=seed, turn_seconds=turn_seconds
        )
        self.table_id: str = self.view["tableId"]
        self.clients: list[Live] = []

    def connect_all(self) -> None:
        self.clients = [Live(self.stack, p, self.table_id) for p in self.players]

    def sit_all(self) -> None:
        for seat, player in enumerate(self.players[1:4], start=1):
            response = player.sit(self.table_id, seat)
            assert response.status_code == 200, response.text

    def close(self) -> None:
        for client in self.clients:
            client.close()
        for player in self.players:
            player.close()

    def everyone_sees(self, version: int) -> list[View]:
        """Each client's next push is the new version and equals its own GET view; nothing in
        it belongs to another hand or to the pile."""
        pushes = [client.view_at(version) for client in self.clients]
        gets = [p.table(self.table_id) for p in self.players]
        hands = [{t["id"] for t in get.get("hand", [])} for get in gets]
        on_table = table_tile_ids(gets[0])
        for n, (client, pushed, get) in enumerate(zip(self.clients, pushes, gets, strict=True)):
            assert get["version"] == version
            assert pushed["version"] == version
            assert pushed == get  # its OWN seat and hand, as GET shows them to that player
            assert_only_own_and_table_tiles(client.received[-1], hands, n, on_table)
        return gets


def assert_only_own_and_table_tiles(
    message: dict[str, Any], hands: list[set[int]], me: int, on_table: set[int]
) -> None:
    ids = tile_ids(message)
    others = set().union(*(h for n, h in enumerate(hands) if n != me))
    assert not ids & others, f"tiles of another hand pushed to seat {me}: {ids & others}"
    if message["type"] == "delta":  # what changed: some of the tiles the receiver sees
        assert ids <= hands[me] | on_table, ids - hands[me] - on_table
    else:
        assert ids == hands[me] | on_table  # nothing else: no pile tile either


@pytest.fixture
def live_tables(local_stack_info: RunningStack) -> Iterator[Callable[..., LiveTable]]:
    made: list[LiveTable] = []

    def make(
        game: str = "kastet",
        turn_seconds: int = 600,
        seed: int = 4242,
        stack: RunningStack | None = None,
        spectators: int = 0,
    ) -> LiveTable:
        table = LiveTable(stack or local_stack_info, game, turn_seconds, seed, spectators)
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


@pytest.fixture
def started(live_tables: Callable[..., LiveTable]) -> LiveTable:
    """A started 4-seat Kastet table whose four players are connected (no push pending)."""
    table = live_tables()
    table.sit_all()
    table.view = table.players[0].start(table.table_id)
    table.connect_all()
    return table


def test_every_client_gets_its_own_new_view_after_each_change_and_never_another_hand(
    live_tables: Callable[..., LiveTable],
) -> None:
    table = live_tables("kastet", spectators=1)
    table.connect_all()  # before anybody sits: whoever watches the table gets pushes
    version = table.view["version"]
    for seat, player in enumerate(table.players[1:4], start=1):
        assert player.sit(table.table_id, seat).status_code == 200
        version += 1
        gets = table.everyone_sees(version)
        assert gets[seat]["seat"] == seat
        assert gets[seat].get("hand", []) == []  # nothing dealt yet
        assert "hand" not in gets[3] or seat == 3  # not seated: no hand at all
    table.players[0].start(table.table_id)
    version += 1
    gets = table.everyone_sees(version)
    assert [len(g["hand"]) for g in gets[:4]] == [14, 14, 14, 14]
    assert "hand" not in gets[4] and "seat" not in gets[4]  # the spectator

    kinds = []
    for _ in range(8):  # the player in turn lays what it finds, else draws, else passes
        seat = gets[0]["turn"]["seat"]
        mine = gets[seat]
        move = next_move(mine)
        kinds.append(move["type"])
        response = table.players[seat].move(table.table_id, mine["version"], move)
        assert response.status_code == 200, response.text
        version += 1
        gets = table.everyone_sees(version)
    assert "draw" in kinds
    for client in table.clients:
        assert all(m["type"] in PUSHES for m in client.received)
        assert {m["type"] for m in client.received} == {"table", "delta"}  # whole, then deltas
        assert client.syncs == 0  # no push was missed


def test_a_bad_token_is_refused_at_connect_and_ping_answers_pong(
    live_tables: Callable[..., LiveTable], local_stack_info: RunningStack
) -> None:
    table = live_tables("harftet")
    url = f"{local_stack_info.ws_url}?tableId={table.table_id}"
    claims = {"sub": table.players[0].id, "iss": "harftet", "iat": int(time.time())}
    forged = jwt.encode({**claims, "exp": claims["iat"] + 3600}, "not-the-secret" * 4, "HS256")
    for query in ("&token=forged", f"&token={forged}", ""):
        with pytest.raises(InvalidStatus) as refused:
            connect(url + query, open_timeout=10)
        assert refused.value.response.status_code == 401
    table.connect_all()
    for client in table.clients:
        client.send({"action": "ping"})
        assert client.reply() == {"type": "pong"}
    table.clients[1].send({"action": "dance"})
    assert table.clients[1].reply()["error"]["code"] == "bad_request"
    stored = table.players[0].table(table.table_id)["version"]
    table.clients[0].hears_nothing(0.3, past=stored)  # the error went to its sender only


def test_a_move_over_the_websocket_is_pushed_to_all_and_a_rejected_one_answers_its_sender_only(
    started: LiveTable,
) -> None:
    table = started
    version = table.view["version"]
    seat = table.view["turn"]["seat"]
    mover = table.clients[seat]
    mover.send(
        {
            "action": "move",
            "tableId": table.table_id,
            "version": version,
            "moveId": new_move_id(),
            "type": "draw",
        }
    )
    gets = table.everyone_sees(version + 1)
    assert len(gets[seat]["hand"]) == 15
    assert gets[seat]["turn"]["seat"] == (seat + 1) % 4

    # Not this player's turn any more: an error on its socket only, and nothing changes.
    mover.send(
        {
            "action": "move",
            "tableId": table.table_id,
            "version": version + 1,
            "moveId": new_move_id(),
            "type": "draw",
        }
    )
    error = mover.reply()
    assert error["type"] == "error"
    assert error["error"]["code"] == "not_your_turn"
    # A stale version: the error carries the current view to resync from (own hand only).
    nxt = table.clients[(seat + 1) % 4]
    nxt.send(
        {
            "action": "move",
            "tableId": table.table_id,
            "version": version,
            "moveId": new_move_id(),
            "type": "draw",
        }
    )
    stale = nxt.reply()
    assert stale["type"] == "error"
    assert stale["error"]["code"] == "stale_version"
    assert stale["view"] == gets[(seat + 1) % 4]
    hands = [{t["id"] for t in g["hand"]} for g in gets]
    assert_only_own_and_table_tiles(stale, hands, (seat + 1) % 4, table_tile_ids(gets[0]))
    # A malformed move: bad_request, to the sender only.
    nxt.send({"action": "move", "tableId": table.table_id, "version": "x", "type": "draw"})
    assert nxt.reply()["error"]["code"] == "bad_request"
    for client in table.clients:
        client.hears_nothing(0.3, past=version + 1)  # no rejected move pushed anything
    assert table.players[0].table(table.table_id)["version"] == version + 1


def connections_of(stack: RunningStack, table_id: str) -> list[dict[str, Any]]:
    """The connections table's items for one table (read straight from moto's DynamoDB)."""
    dynamodb = boto3.client(
        "dynamodb",
        endpoint_url=stack.dynamodb_endpoint,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    items = dynamodb.scan(TableName=stack.env["CONNECTIONS_TABLE"])["Items"]
    return [
        {k: next(iter(v.values())) for k, v in item.items()}
        for item in items
        if item.get("tableId", {}).get("S") == table_id  # (a player's own socket has none)
    ]


def test_a_killed_client_socket_is_cleaned_up_and_the_others_see_the_seat_disconnected(
    started: LiveTable, local_stack_info: RunningStack
) -> None:
    table = started
    version = table.view["version"]
    live = connections_of(local_stack_info, table.table_id)
    assert sorted(c["playerId"] for c in live) == sorted(p.id for p in table.players)
    victim = table.clients[3]

    victim.ws.socket.shutdown(socket.SHUT_RDWR)  # gone without a close frame
    victim.ws.socket.close()
    victim.close()  # frees the client's thread; nothing can reach the server any more
    killed_at = time.monotonic()

    for client in table.clients[:3]:
        view = client.view_at(version + 1, timeout=5)
        assert view["version"] == version + 1
        assert view["seats"][3]["connected"] is False
        assert all(view["seats"][n]["connected"] for n in range(3))
    assert time.monotonic() - killed_at < 5
    left = connections_of(local_stack_info, table.table_id)
    assert table.players[3].id not in {c["playerId"] for c in left}
    assert len(left) == 3
    assert table.players[0].table(table.table_id)["seats"][3]["connected"] is False
    assert table.players[3].table(table.table_id)["seats"][3]["playerId"] == table.players[3].id

    # The seat is held: the player comes back and the others see them connected again.
    table.clients[3] = Live(local_stack_info, table.players[3], table.table_id)
    for client in table.clients[:3]:
        view = client.view_at(version + 2, timeout=5)
        assert view["version"] == version + 2
        assert all(seat["connected"] for seat in view["seats"])
    assert len(connections_of(local_stack_info, table.table_id)) == 4


@pytest.fixture(scope="module")
def fast_sweeper(stack_factory: Callable[..., RunningStack]) -> Iterator[RunningStack]:
    """A stack whose scheduled sweeper runs every half second (the local default is 10 s)."""
    stack = stack_factory("fast-sweeper", sweep_seconds=0.5)
    yield stack
    stack.stop()


def _timed(
    live_tables: Callable[..., LiveTable], stack: RunningStack
) -> tuple[LiveTable, dict[str, Any]]:
    """A Kastet table on ``stack`` with TIMER_SECONDS turns, everyone seated and connected,
    started: the table and its started view."""
    table = live_tables("kastet", turn_seconds=TIMER_SECONDS, stack=stack)
    table.sit_all()
    table.connect_all()
    return table, table.players[0].start(table.table_id)


def test_when_the_turn_timer_runs_out_the_server_draws_for_the_idle_player_and_pushes_it(
    live_tables: Callable[..., LiveTable], fast_sweeper: RunningStack
) -> None:
    table, started = _timed(live_tables, fast_sweeper)
    start_clock = time.time()
    deadline = started["turn"]["deadline"]
    assert started["turn"]["seat"] == 0
    assert deadline == pytest.approx(start_clock + TIMER_SECONDS, abs=2)
    for client in table.clients:
        assert client.view_at(started["version"])["version"] == started["version"]

    # Nobody calls: only the sweeper can move the game on.
    for n, client in enumerate(table.clients):
        view = client.view_at(started["version"] + 1, timeout=TIMER_SECONDS + 4 if n == 0 else 2)
        if n == 0:
            arrived = time.time()
        assert view["version"] == started["version"] + 1
        assert view["seats"][0]["tiles"] == 15
        assert view["pile"] == started["pile"] - 1
        assert view["turn"]["seat"] == 1
        assert view["turn"]["deadline"] > deadline
        assert len(view["hand"]) == (15 if n == 0 else 14)
    assert deadline <= arrived < deadline + 3, arrived - start_clock  # sweeps every 0.5 s
    # The drawn tile went to the idle player alone, and is in no other push.
    pushes = [client.view for client in table.clients]
    hands = [{t["id"] for t in view["hand"]} for view in pushes]
    for n, client in enumerate(table.clients):
        assert_only_own_and_table_tiles(client.received[-1], hands, n, set())
    assert pushes == [p.table(table.table_id) for p in table.players]


# --- the stream, timers and paced computer players -------------------------------------------

FAULT = Path(__file__).parent / "fault_handlers"


@pytest.fixture(scope="module")
def timers_only(stack_factory: Callable[..., RunningStack]) -> Iterator[RunningStack]:
    """A stack with no scheduled sweeper: only the stream's timers can move a game on, and
    whose REST function dies right after storing a move with a "die-" moveId."""
    stack = stack_factory("timers-only", sweeper=None, rest_handler=FAULT / "rest.py")
    yield stack
    stack.stop()


def test_every_push_arrives_within_two_seconds_of_the_answer(started: LiveTable) -> None:
    table = started
    delays = []
    gets = [p.table(table.table_id) for p in table.players]
    for _ in range(6):
        seat = gets[0]["turn"]["seat"]
        move = next_move(gets[seat])
        response = table.players[seat].move(table.table_id, gets[seat]["version"], move)
        answered = time.monotonic()
        assert response.status_code == 200, response.text
        for client in table.clients:
            view = client.view_at(response.json()["version"], timeout=5)
            delays.append(time.monotonic() - answered)
            assert view["version"] == response.json()["version"]
        gets = [p.table(table.table_id) for p in table.players]
    assert max(delays) < 2, delays
    median = sorted(delays)[len(delays) // 2]
    print(f"push after the answer: median {median:.3f} s, max {max(delays):.3f} s")


def test_a_turn_timer_fires_within_two_seconds_of_its_deadline_with_no_client_calling(
    live_tables: Callable[..., LiveTable], timers_only: RunningStack
) -> None:
    table, started = _timed(live_tables, timers_only)
    for client in table.clients:
        assert client.view_at(started["version"])["version"] == started["version"]
    deadline = started["turn"]["deadline"]
    first = table.clients[0].next_view(timeout=TIMER_SECONDS + 5)
    late = time.time() - deadline
    assert first["version"] == started["version"] + 1 and first["turn"]["seat"] == 1
    assert len(first["hand"]) == 15  # the server drew for the idle player
    assert 0 <= late < 2, late
    print(f"turn timer fired {late:.3f} s after its deadline")
    for client in table.clients[1:]:
        assert client.view_at(first["version"], timeout=2)["version"] == first["version"]


def test_a_writer_killed_between_the_write_and_its_push_still_reaches_every_client(
    live_tables: Callable[..., LiveTable], timers_only: RunningStack
) -> None:
    table = live_tables("kastet", stack=timers_only)
    table.sit_all()
    started = table.players[0].start(table.table_id)
    table.connect_all()
    seat = started["turn"]["seat"]
    mover = table.players[seat]
    response = mover.move(
        table.table_id, started["version"], {"type": "draw"}, move_id=f"die-{new_move_id()}"
    )
    killed = time.monotonic()
    assert response.status_code == 502  # the function died: API Gateway's own answer
    for client in table.clients:
        view = client.view_at(started["version"] + 1, timeout=5)
        assert view["version"] == started["version"] + 1
    assert time.monotonic() - killed < 2
    assert mover.table(table.table_id)["seats"][seat]["tiles"] == 15
    # The retry of the same move is answered from what was stored, and pushes nothing more.
    again = mover.move(table.table_id, started["version"], {"type": "draw"}, move_id="x")
    assert again.status_code == 409


def test_computer_players_move_one_push_at_a_time_paced_apart(
    local_stack_info: RunningStack,
) -> None:
    person = Player(local_stack_info.base_url, "Ayşe")
    try:
        view = person.create_table("kastet", seats=4, seed=77)
        for seat in (1, 2, 3):
            assert person.sit(view["tableId"], seat, bot=True).status_code == 200
        live = Live(local_stack_info, person, view["tableId"])
        started = person.start(view["tableId"])
        arrivals: list[tuple[float, View]] = [(time.monotonic(), started)]
        version = started["version"]
        while len(arrivals) < 7:
            pushed = arrivals[-1][1]
            if pushed["turn"] and pushed["turn"]["seat"] == 0:  # my turn: I play
                moved = person.move(view["tableId"], version, next_move(pushed))
                assert moved.status_code == 200
                after = moved.json()["turn"]["seat"]
                assert after in (0, 1)  # the request never waits for computer players
            pushed = live.next_view(timeout=5)
            while pushed["version"] <= version:
                pushed = live.next_view(timeout=5)
            assert pushed["version"] == version + 1  # each computer move its own push
            mover = arrivals[-1][1]["turn"]["seat"]
            assert pushed["last"]["seat"] == mover  # `last` names who made this change
            version = pushed["version"]
            arrivals.append((time.monotonic(), pushed))
        # A computer player moves botSeconds (1 s) after the change that gave it the turn.
        bot_gaps = [
            later - earlier
            for (earlier, before), (later, _) in itertools.pairwise(arrivals)
            if before["turn"]["seat"] != 0
        ]
        assert bot_gaps and all(0.8 < gap < 3 for gap in bot_gaps), bot_gaps
        live.close()
    finally:
        person.close()
