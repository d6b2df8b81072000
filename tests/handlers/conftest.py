"""The real Lambda handlers (functions/*/app.py) over in-process moto, fed the events/ files.

The functions share the process's one application (``harftet.bootstrap.app``); each test
installs its own — fresh tables, the test clock and the recording sender.
"""

from __future__ import annotations

import copy
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from leaks import tile_ids
from moto import mock_aws  # imported before any client exists, so every client is mocked
from testkit import (
    ROOT,
    SEED,
    LambdaContext,
    Reply,
    Rest,
    aws_session,
    load_event,
)

WS_ENDPOINT = "https://f6g7h8i9j0.execute-api.us-east-1.amazonaws.com/prod"
# One session for the whole run: a client per test from it is cheap (tooling.md §2).
SESSION = aws_session()


def _root_table_names() -> dict[str, str]:
    """TABLE_NAMES of tests/conftest.py (loaded by path: every conftest is named conftest)."""
    spec = importlib.util.spec_from_file_location(
        "harftet_tests_root_conftest", ROOT / "tests" / "conftest.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.TABLE_NAMES)


TABLE_NAMES = _root_table_names()


def _load(function: str) -> Any:
    path = ROOT / "functions" / function / "app.py"
    name = f"harftet_handler_{function}_app"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


HANDLER_ENV = {
    "TABLES_TABLE": TABLE_NAMES["TablesTable"],
    "PLAYERS_TABLE": TABLE_NAMES["PlayersTable"],
    "CONNECTIONS_TABLE": TABLE_NAMES["ConnectionsTable"],
    "LOG_TABLE": TABLE_NAMES["LogTable"],
    "TEST_MODE": "true",
}


@pytest.fixture(scope="session")
def apps() -> SimpleNamespace:
    """functions/rest, ws, sweeper, fanout and timer app.py, imported once as Lambda would
    (cold start: each reads the settings of HANDLER_ENV)."""
    from harftet import bootstrap

    with mock.patch.dict(os.environ, HANDLER_ENV):
        os.environ.pop("WS_ENDPOINT", None)  # no real WebSocket API: tests inject the sender
        bootstrap.reset()
        loaded = SimpleNamespace(
            **{
                name: _load(name)
                for name in ("rest", "ws", "sweeper", "fanout", "timer", "leagues", "tournaments")
            }
        )
        settings = bootstrap.settings()
    loaded.settings = settings
    return loaded


@pytest.fixture(scope="session")
def table_names() -> dict[str, str]:
    """Logical id → table name, as tests/conftest.py names them."""
    return dict(TABLE_NAMES)


@pytest.fixture(scope="session")
def table_kwargs() -> list[dict[str, Any]]:
    """create_table arguments for the template's tables, read from template.yaml once."""
    from harftet.store.schema import create_table_kwargs, table_definitions

    definitions = table_definitions()
    return [create_table_kwargs(definitions[key], name) for key, name in TABLE_NAMES.items()]


@pytest.fixture
def dynamodb(table_kwargs: list[dict[str, Any]]) -> Iterator[Any]:
    """The template's tables in a fresh in-process moto (the root fixture, made faster)."""
    with mock_aws():
        client = SESSION.client("dynamodb")
        for kwargs in table_kwargs:
            client.create_table(**kwargs)
        yield client


@pytest.fixture
def app(apps: SimpleNamespace, dynamodb: Any, clock: Any, outbox: Any) -> Iterator[Any]:
    """The handlers' application on this test's tables, with the test clock and the
    recording WebSocket sender."""
    from harftet import bootstrap
    from harftet.identity import Tokens

    built = bootstrap.App(
        apps.settings,
        bootstrap.DynamoStores(dynamodb, apps.settings),
        clock=clock,
        send=outbox,
        signer=Tokens(os.environ["TOKEN_SECRET"]),
    )
    bootstrap.install(built)
    yield built
    bootstrap.install(None)


@pytest.fixture
def management_api(dynamodb: Any) -> Any:
    """A real boto3 ``apigatewaymanagementapi`` client, for a Stubber to answer."""
    return SESSION.client("apigatewaymanagementapi", endpoint_url=WS_ENDPOINT)


class Ws:
    """Invokes the WebSocket handler with events/ws/*.json."""

    def __init__(self, module: Any, after: Callable[[], Any] | None = None) -> None:
        self.module = module
        self.after = after

    def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        context = LambdaContext(function_name="harftet-WsFunction-1A2B3C4D")
        try:
            answer: dict[str, Any] = self.module.handler(copy.deepcopy(event), context)
        finally:
            if self.after is not None:
                self.after()
        return answer

    def __call__(self, name: str, /, body: Any = ..., **values: Any) -> dict[str, Any]:
        return self.invoke(load_event(f"ws/{name}", body, **values))


@pytest.fixture
def stream(apps: SimpleNamespace, app: Any, dynamodb: Any) -> Any:
    """The tables table's stream feeding functions/fanout/app.py, as Lambda's event source
    mapping does; ``stream.deliver()`` hands on what was stored since the last call."""
    from streams import TableStream

    tables = TableStream(dynamodb, TABLE_NAMES["TablesTable"])
    context = LambdaContext(function_name="harftet-FanoutFunction-1A2B3C4D")

    def handle(event: dict[str, Any]) -> None:
        assert apps.fanout.handler(event, context) == {"batchItemFailures": []}

    return SimpleNamespace(deliver=lambda: tables.deliver(handle), events=tables.events)


@pytest.fixture
def ws(apps: SimpleNamespace, app: Any, stream: Any) -> Ws:
    return Ws(apps.ws, after=stream.deliver)


@pytest.fixture
def sockets(api: Api, ws: Ws) -> Callable[[str, str], tuple[Game, Player, Player, dict[str, Any]]]:
    """Starts a game whose mover and other player each open a socket (named by the two
    arguments); answers the game, the mover, the other and the mover's view."""

    def opened(mine: str, theirs: str) -> tuple[Game, Player, Player, dict[str, Any]]:
        game = api.game()
        mover, view = api.turn(game)
        other = next(p for p in game.players if p != mover)
        for player, connection_id in ((mover, mine), (other, theirs)):
            answer = ws(
                "connect", token=player.token, tableId=game.table_id, connectionId=connection_id
            )
            assert answer == {"statusCode": 200}, answer
        return game, mover, other, view

    return opened


@pytest.fixture
def sweeper(apps: SimpleNamespace, app: Any, stream: Any) -> Any:
    """Runs the sweeper handler once on events/sweeper/scheduled.json; returns its answer."""

    def run() -> dict[str, Any]:
        context = LambdaContext(function_name="harftet-SweeperFunction-1A2B3C4D")
        answer: dict[str, Any] = apps.sweeper.handler(load_event("sweeper/scheduled"), context)
        stream.deliver()
        return answer

    return run


def kastet_meld(hand: list[dict[str, Any]]) -> list[int] | None:
    """Ids of three tiles of ``hand`` that form a Kastet run or set (jokers left out)."""
    faces = {(t["color"], t["number"]): t["id"] for t in hand if not t.get("joker")}
    for (color, number), tile in sorted(faces.items(), key=lambda f: f[0][1]):
        if (color, number + 1) in faces and (color, number + 2) in faces:
            return [tile, faces[(color, number + 1)], faces[(color, number + 2)]]
    for number in range(1, 14):
        same = [
            faces[(c, number)] for c in ("red", "yellow", "blue", "black") if (c, number) in faces
        ]
        if len(same) >= 3:
            return same[:3]
    return None


@dataclass(frozen=True)
class Player:
    token: str
    id: str
    name: str


@dataclass(frozen=True)
class Game:
    table_id: str
    players: list[Player]


class Api(Rest):
    """The REST handler plus the few builders and helpers every test needs (test modules
    reach them through this fixture: each conftest.py is imported as "conftest")."""

    SEED = SEED
    event = staticmethod(load_event)
    meld = staticmethod(kastet_meld)
    tile_ids = staticmethod(tile_ids)

    def player(self, name: str = "Oyuncu") -> Player:
        reply = self("create-player", name=name)
        assert reply.status == 201, reply.body
        return Player(reply.body["token"], reply.body["playerId"], name)

    def table(self, owner: Player, **options: Any) -> dict[str, Any]:
        """A new waiting table (2-seat, 1-hand Kastet unless told otherwise); its view."""
        body = {"game": "kastet", "seats": 2, "hands": 1, **options}
        reply = self("create-table", body=body, token=owner.token)
        assert reply.status == 201, reply.body
        return reply.body

    def game(self, seats: int = 2, seed: int | None = SEED, **options: Any) -> Game:
        """A started table with ``seats`` human players (seat order = player order)."""
        players = [self.player(f"Oyuncu{i}") for i in range(seats)]
        table_id = self.table(players[0], seats=seats, seed=seed, **options)["tableId"]
        for i, p in enumerate(players[1:], start=1):
            assert self("sit", token=p.token, tableId=table_id, seat=i).status == 200
        assert self("start", token=players[0].token, tableId=table_id).status == 200
        return Game(table_id, players)

    def view(self, player: Player, table_id: str) -> dict[str, Any]:
        reply = self("get-table", token=player.token, tableId=table_id)
        assert reply.status == 200, reply.body
        return reply.body

    def turn(self, game: Game) -> tuple[Player, dict[str, Any]]:
        """Whose turn it is, and the table as they see it."""
        seat = self.view(game.players[0], game.table_id)["turn"]["seat"]
        player = game.players[seat]
        return player, self.view(player, game.table_id)

    def move(self, *move: Any, **values: Any) -> Reply:
        """The answer to a move (as `move_event` takes it)."""
        return self.invoke(self.move_event(*move, **values))

    def move_event(
        self,
        name: str,
        player: Player,
        game: Game,
        view: dict[str, Any],
        move_id: str = "m1",
        **values: Any,
    ) -> dict[str, Any]:
        """``player``'s move (events/rest/``name``.json) on the version of ``view``."""
        return load_event(
            f"rest/{name}",
            token=player.token,
            tableId=game.table_id,
            version=view["version"],
            moveId=move_id,
            **values,
        )

    @contextmanager
    def unchanged(self, player: Player, table_id: str) -> Iterator[dict[str, Any]]:
        """Asserts the table (as ``player`` sees it, version included) is the same after."""
        before = self.view(player, table_id)
        yield before
        assert self.view(player, table_id) == before


@pytest.fixture
def api(apps: SimpleNamespace, app: Any, stream: Any) -> Api:
    return Api(apps.rest, after=stream.deliver)
