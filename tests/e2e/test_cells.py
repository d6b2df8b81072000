"""Two cells side by side (two local stacks on free ports, each with its CELL_ID) behind the
router (harftet.router): a player's requests reach their home cell, a table's requests and
WebSocket reach the cell its id names, and nothing of one cell is visible in the other.

The router reads its cells from a cells table (here in the first stack's DynamoDB) which each
cell's deploy writes (register_cell, as the CellRegistration custom resource does): the two
live cells and 30 more, draining, from other accounts — a list past the 4 KB one Lambda
environment variable held."""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from harftet.localstack.dynamo import MotoDynamo
from harftet.localstack.launcher import launch
from harftet.router import Cell, CellDirectory, player_key, register_cell, scan_cells

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def cells(tmp_path_factory: pytest.TempPathFactory) -> Any:
    stacks = {}
    secret = secrets.token_urlsafe(32)  # one signing secret for all cells (docs/SCALE.md)
    try:
        for cell_id in ("ka", "kb"):
            workdir: Path = tmp_path_factory.mktemp(f"cell-{cell_id}")
            stacks[cell_id] = launch(
                workdir,
                sweeper=None,
                env={
                    "CELL_ID": cell_id,
                    "TOKEN_SECRET": secret,
                    "TEST_MODE": "true",
                    "LOG_LEVEL": "WARNING",
                },
                timeout=120,
            )
        yield stacks
    finally:
        for stack in stacks.values():
            stack.stop()


CELLS_TABLE = "harftet-router-cells"


def cells_table(stack: Any) -> Any:
    """The router's cells table, in the stack's DynamoDB (moto): a boto3 Table."""
    dynamo = MotoDynamo()
    dynamo.port = int(stack.dynamodb_endpoint.rsplit(":", 1)[1])
    client = dynamo.client()
    client.create_table(
        TableName=CELLS_TABLE,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": "account", "AttributeType": "S"},
            {"AttributeName": "cellId", "AttributeType": "S"},
        ],
        KeySchema=[
            {"AttributeName": "account", "KeyType": "HASH"},
            {"AttributeName": "cellId", "KeyType": "RANGE"},
        ],
    )
    import boto3

    resource = boto3.resource(
        "dynamodb", endpoint_url=dynamo.endpoint_url, region_name="us-east-1",
        aws_access_key_id="local", aws_secret_access_key="local",
    )  # fmt: skip
    return resource.Table(CELLS_TABLE)


class RouterTransport(httpx.BaseTransport):
    """The router's host answers from Router.redirect (the cells its directory read); the
    cells' hosts are real."""

    def __init__(self, directory: CellDirectory) -> None:
        self.directory = directory
        self.real = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host != "router.test":
            return self.real.handle_request(request)
        status, headers, body = self.directory.router().redirect(
            request.method,
            request.url.path,
            request.url.query.decode(),
            player_key(request.headers.get("authorization")) or request.headers.get("x-client", ""),
        )
        return httpx.Response(status, headers=headers, content=body.encode())


def test_requests_reach_the_home_cell_and_the_tables_cell(cells: dict[str, Any]) -> None:
    client = cells_table(cells["ka"])
    for n, (cell_id, stack) in enumerate(cells.items()):  # each live cell's deploy
        cell = Cell(cell_id, stack.base_url, stack.ws_url)
        register_cell(client, cell, f"11111111110{n}", "local", time.time())
    for n in range(30):  # thirty more, draining (their URLs lead nowhere: no new players)
        host = f"d{n:02d}x0a1b2c.execute-api.eu-central-1.invalid/prod"
        drained = Cell(f"d{n:02d}", f"https://{host}", f"wss://{host}", open=False)
        register_cell(client, drained, f"2222222222{n:02d}", "local", time.time())
    directory = CellDirectory(lambda: scan_cells(client), ttl=30)
    router = directory.router()
    assert len(router.cells) == 32
    listed = [{"cellId": c.cell_id, "restUrl": c.rest_url, "webSocketUrl": c.ws_url,
               "capacity": c.capacity, "open": c.open} for c in router.cells.values()]  # fmt: skip
    assert len(json.dumps(listed)) > 4096  # past one environment variable
    # two client keys whose homes differ, one in each cell
    keys = {router.home(f"client-{n}").cell_id: f"client-{n}" for n in range(64)}
    assert set(keys) == {"ka", "kb"}
    with httpx.Client(
        base_url="http://router.test", transport=RouterTransport(directory), follow_redirects=True
    ) as http:
        made = {}
        for cell_id, key in keys.items():
            reply = http.post(
                "/players", json={"name": f"Oyuncu {cell_id}"}, headers={"x-client": key}
            )
            assert reply.status_code == 201, reply.text
            token, player_id = reply.json()["token"], reply.json()["playerId"]
            assert player_id.startswith(f"{cell_id}.")  # made in its home, named after it
            # the token names the player, the player id its home: a signed-in client asks for
            # it once and calls its cell itself (a redirect to another origin drops the token)
            auth = {"Authorization": f"Bearer {token}"}
            home = http.get("/cells/home", headers=auth).json()
            assert home["cellId"] == cell_id and home["restUrl"] == cells[cell_id].base_url
            reply = httpx.post(
                f"{home['restUrl']}/tables", json={"game": "kastet", "seats": 2}, headers=auth
            )
            assert reply.status_code == 201, reply.text
            table_id = reply.json()["tableId"]
            assert table_id.startswith(f"{cell_id}.")
            made[cell_id] = (token, table_id)
            linked = http.get(f"/tables/{table_id}")  # a link to the table: redirected there
            assert linked.history[0].status_code == 307
            assert str(linked.url) == f"{cells[cell_id].base_url}/tables/{table_id}"
            assert linked.status_code == 401  # the cell answers (without the dropped token)
            route = http.get("/cells/route", params={"tableId": table_id}).json()
            assert route == {
                "cellId": cell_id,
                "restUrl": cells[cell_id].base_url,
                "webSocketUrl": cells[cell_id].ws_url,
            }
            view = httpx.get(f"{route['restUrl']}/tables/{table_id}", headers=auth)
            assert view.status_code == 200 and view.json()["manager"] == player_id
            with connect(
                f"{route['webSocketUrl']}?token={token}&tableId={table_id}", open_timeout=30
            ) as ws:
                ws.send(json.dumps({"action": "ping"}))
                assert json.loads(ws.recv(timeout=30))["type"] in ("pong", "table")
        assert set(made) == {"ka", "kb"}
        for cell_id, (_, table_id) in made.items():  # a cell holds only its own tables
            other = next(c for c in cells if c != cell_id)
            # asked by that cell's own player (here each stack keeps its own players table; in
            # AWS the cells share one, docs/SCALE.md): the table is not found there
            auth = {"Authorization": f"Bearer {made[other][0]}"}
            direct = httpx.get(f"{cells[other].base_url}/tables/{table_id}", headers=auth)
            assert direct.status_code == 404 and direct.json()["error"]["code"] == "not_found"
        drained = http.get("/cells/route", params={"tableId": "d17.AAAAAAAAAAAA"}).json()
        assert drained["cellId"] == "d17"  # a draining cell's tables are still found
        unknown = http.get("/tables/zz.AAAAAAAAAAAA")
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
