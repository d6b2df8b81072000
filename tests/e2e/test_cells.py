"""Two cells side by side (two local stacks on free ports, each with its CELL_ID) behind the
router (harftet.router): a player's requests reach their home cell, a table's requests and
WebSocket reach the cell its id names, and nothing of one cell is visible in the other."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from harftet.localstack.launcher import launch
from harftet.router import Cell, Router, player_key

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


class RouterTransport(httpx.BaseTransport):
    """The router's host answers from Router.redirect; the cells' hosts are real."""

    def __init__(self, router: Router) -> None:
        self.router = router
        self.real = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host != "router.test":
            return self.real.handle_request(request)
        status, headers, body = self.router.redirect(
            request.method,
            request.url.path,
            request.url.query.decode(),
            player_key(request.headers.get("authorization")) or request.headers.get("x-client", ""),
        )
        return httpx.Response(status, headers=headers, content=body.encode())


def test_requests_reach_the_home_cell_and_the_tables_cell(cells: dict[str, Any]) -> None:
    router = Router(Cell(cell_id, stack.base_url, stack.ws_url) for cell_id, stack in cells.items())
    # two client keys whose homes differ, one in each cell
    keys = {router.home(f"client-{n}").cell_id: f"client-{n}" for n in range(64)}
    assert set(keys) == {"ka", "kb"}
    with httpx.Client(
        base_url="http://router.test", transport=RouterTransport(router), follow_redirects=True
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
        unknown = http.get("/tables/zz.AAAAAAAAAAAA")
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
