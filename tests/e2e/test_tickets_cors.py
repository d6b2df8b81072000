"""WebSocket connect tickets and CORS over the local stack (real HTTP and WebSocket).

A ticket from ``POST /tables/{tableId}/ticket`` opens ``/ws?ticket=T&tableId=ID`` so that the
30-day bearer token need not travel in a query string; a ticket for another table, an expired
or forged one, or a ticket passed as a token is refused at connect (401). ``?token=T`` still
connects, as API.md says. With ALLOWED_ORIGINS set (the template's AllowedOrigins), an allowed
origin gets the CORS headers on answers, errors and the preflight; any other origin none.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import jwt
import pytest
from e2e_client import PUSHES, Player, take_push
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from harftet import tickets
from harftet.identity import Tokens
from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e

ALLOWED = "https://oyun.example"
ORIGINS = f"https://harftet.example, {ALLOWED}"


@pytest.fixture(scope="module")
def stack(stack_factory: Any) -> RunningStack:
    """A stack whose REST function answers CORS for ORIGINS (no sweeper or timer function:
    nothing here is timed)."""
    started: RunningStack = stack_factory(
        "tickets-cors", env={"ALLOWED_ORIGINS": ORIGINS}, sweeper=None, timer=None
    )
    return started


@pytest.fixture(scope="module")
def table(stack: RunningStack) -> Iterator[tuple[Player, Player, str]]:
    """A waiting two-seat table: its manager, a second player (not seated yet), its id."""
    owner, guest = Player(stack.base_url, "Ayşe"), Player(stack.base_url, "Barış")
    table_id = owner.create_table("kastet", seats=2)["tableId"]
    yield owner, guest, table_id
    owner.close()
    guest.close()


def _ticket(player: Player, table_id: str) -> str:
    reply = player.http.post(f"/tables/{table_id}/ticket")
    assert reply.status_code == 201, reply.text
    body = reply.json()
    assert set(body) == {"ticket", "expiresAt"}
    assert 0 < body["expiresAt"] - time.time() <= 61
    ticket: str = body["ticket"]
    return ticket


def _refused(url: str) -> int:
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=10).close()
    status: int = refused.value.response.status_code
    return status


def _pong(socket: ClientConnection) -> dict[str, Any]:
    """Ping, and the answer to it (table pushes still in flight are skipped)."""
    socket.send(json.dumps({"action": "ping"}))
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=10))
        if message.get("type") not in PUSHES:
            return message


def _pushed_view(socket: ClientConnection, version: int) -> dict[str, Any]:
    """The view of ``version`` or later that the pushes bring (older ones may still be in
    flight; a delta the socket cannot apply yet asks for the whole view)."""
    deadline = time.monotonic() + 20
    view: dict[str, Any] | None = None
    while view is None or view["version"] < version:
        message = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message.get("type") in PUSHES:
            view, sync = take_push(view, message)
            if sync:
                socket.send(json.dumps({"action": "sync"}))
    return view


def _answers_ping(url: str) -> None:
    """A socket opened at ``url`` answers ping."""
    with connect(url, open_timeout=10) as ws:
        assert _pong(ws) == {"type": "pong"}


def test_a_ticket_opens_the_websocket_of_its_table_which_then_gets_the_pushes(
    stack: RunningStack, table: tuple[Player, Player, str]
) -> None:
    owner, guest, table_id = table
    ticket = _ticket(owner, table_id)
    assert owner.token not in ticket
    with connect(f"{stack.ws_url}?ticket={ticket}&tableId={table_id}", open_timeout=10) as ws:
        assert _pong(ws) == {"type": "pong"}
        version = owner.table(table_id)["version"]
        assert guest.sit(table_id, 1).status_code == 200
        pushed = _pushed_view(ws, version + 1)
        assert pushed["seats"][1]["playerId"] == guest.id
    # Within its minute a ticket is not single-use (harftet/tickets.py): it opens its one
    # table again, under the usual caps.
    _answers_ping(f"{stack.ws_url}?ticket={ticket}&tableId={table_id}")


def test_a_ticket_for_another_table_an_expired_or_forged_one_or_one_as_a_token_is_refused(
    stack: RunningStack, table: tuple[Player, Player, str]
) -> None:
    owner, _, table_id = table
    other = owner.create_table("kastet", seats=2)["tableId"]
    ticket = _ticket(owner, table_id)
    assert _refused(f"{stack.ws_url}?ticket={ticket}&tableId={other}") == 401
    assert _refused(f"{stack.ws_url}?token={ticket}&tableId={table_id}") == 401
    claims = jwt.decode(ticket, options={"verify_signature": False})
    key = tickets._key(Tokens(stack.env["TOKEN_SECRET"]))  # the stack's own ticket key
    expired = jwt.encode({**claims, "exp": int(time.time()) - 1}, key, algorithm="HS256")
    assert _refused(f"{stack.ws_url}?ticket={expired}&tableId={table_id}") == 401
    forged = jwt.encode({**claims, "tbl": other}, "not-the-key" * 4, algorithm="HS256")
    assert _refused(f"{stack.ws_url}?ticket={forged}&tableId={other}") == 401
    assert _refused(f"{stack.ws_url}?tableId={table_id}") == 401  # neither ticket nor token
    # and a ticket is never a bearer token on REST
    as_bearer = httpx.get(
        f"{stack.base_url}/tables/{table_id}", headers={"Authorization": f"Bearer {ticket}"}
    )
    assert as_bearer.status_code == 401
    assert as_bearer.json()["error"]["code"] == "unauthorized"


def test_a_ticket_for_a_table_that_does_not_exist_is_404_even_for_an_absurd_id(
    table: tuple[Player, Player, str],
) -> None:
    owner, _, table_id = table
    for missing in ("T" * 12, "x" * 5000, table_id + "0"):
        reply = owner.http.post(f"/tables/{missing}/ticket")
        assert reply.status_code == 404, reply.text
        assert reply.json()["error"]["code"] == "not_found"
        assert len(reply.content) < 300  # the id is not echoed back at length


def test_a_bearer_token_in_the_query_string_still_connects_as_api_md_says(
    stack: RunningStack, table: tuple[Player, Player, str]
) -> None:
    owner, _, table_id = table
    _answers_ping(f"{stack.ws_url}?token={owner.token}&tableId={table_id}")


def test_an_allowed_origin_gets_cors_on_answers_errors_and_preflights_another_none(
    stack: RunningStack, table: tuple[Player, Player, str]
) -> None:
    owner, _, table_id = table
    view = owner.http.get(f"/tables/{table_id}", headers={"Origin": ALLOWED})
    assert view.status_code == 200
    assert view.headers["access-control-allow-origin"] == ALLOWED
    stranger = owner.http.get(f"/tables/{table_id}", headers={"Origin": "https://evil.example"})
    assert stranger.status_code == 200
    assert "access-control-allow-origin" not in stranger.headers
    with httpx.Client(base_url=stack.base_url, timeout=30) as http:
        error = http.post("/tables", json={"game": "kastet"}, headers={"Origin": ALLOWED})
        assert error.status_code == 401
        assert error.headers["access-control-allow-origin"] == ALLOWED
        preflight = http.options(
            f"/tables/{table_id}/ticket",
            headers={
                "Origin": "https://harftet.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type",
            },
        )
        assert preflight.status_code == 204
        assert preflight.headers["access-control-allow-origin"] == "https://harftet.example"
        allowed = preflight.headers["access-control-allow-headers"].lower()
        assert "authorization" in allowed and "content-type" in allowed
        assert "POST" in preflight.headers["access-control-allow-methods"]
