"""Accounts and phrases on the local stack over real HTTP and WebSocket: a transfer code moves
a player to a second client, whose session access token opens a WebSocket; its refresh token
rotates; a phrase sent at the table reaches the other seat's socket; deletion leaves an
anonymous seat that nobody can trace back."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from e2e_client import Player, seated_table
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

pytestmark = pytest.mark.e2e


def test_a_transferred_session_plays_live_and_hears_phrases_then_deletion_anonymises(
    local_stack, local_stack_info
):
    (ayse, ali), view = seated_table(local_stack, "kastet", ["Ayşe", "Ali"], seed=5)
    table_id = view["tableId"]
    assert ayse.start(table_id)["status"] == "playing"

    code = ali.http.post("/players/me/transfer-codes")
    assert code.status_code == 201, code.text
    with httpx.Client(base_url=local_stack, timeout=30) as device:
        signed = device.post("/sessions/transfer", json={"code": code.json()["code"]})
        assert signed.status_code == 200, signed.text
        session = signed.json()
        assert session["playerId"] == ali.id and session["rating"] == ali.rating
        used = device.post("/sessions/transfer", json={"code": code.json()["code"]})
        assert used.status_code == 401 and used.json()["error"]["code"] == "unauthorized"
        rotated = device.post("/sessions/refresh", json={"refreshToken": session["refreshToken"]})
        assert rotated.status_code == 200, rotated.text
        token = rotated.json()["token"]

        url = f"{local_stack_info.ws_url}?token={token}&tableId={table_id}"
        with connect(url, open_timeout=10) as socket:
            sent = ayse.http.post(f"/tables/{table_id}/phrases", json={"phrase": "iyi-oyunlar"})
            assert sent.status_code == 200, sent.text
            while True:
                message = json.loads(socket.recv(timeout=10))
                if message["type"] == "phrase":
                    break
            assert message == {"type": "phrase", "seat": 0, "phrase": "iyi-oyunlar"}

        headers = {"Authorization": f"Bearer {token}"}
        assert device.delete("/players/me", headers=headers).status_code == 204
        gone = device.post(
            "/sessions/refresh", json={"refreshToken": rotated.json()["refreshToken"]}
        )
        assert gone.status_code == 401

    seen = ayse.table(table_id)
    log = ayse.http.get(f"/tables/{table_id}/log").json()
    text = json.dumps([seen, log], ensure_ascii=False)
    assert ali.id not in text and "Ali" not in text.replace("Ayşe", "")
    assert seen["seats"][1] is None or seen["seats"][1]["playerId"] != ali.id
    assert ayse.http.get(f"/players/{ali.id}").status_code == 404
    for player in (ayse, ali):
        player.close()
    assert isinstance(Player, type)


def _pushes_until_closed(socket: Any, limit: float = 15) -> tuple[list[dict[str, Any]], bool]:
    """What ``socket`` receives until the server closes it (True) or ``limit`` passes."""
    heard: list[dict[str, Any]] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            heard.append(json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic()))))
        except TimeoutError:
            break
        except ConnectionClosed:
            return heard, True
    return heard, False


def test_a_deleted_players_open_sockets_close_and_her_old_token_opens_none(
    local_stack, local_stack_info
):
    """API.md v4 "Deleted players": her table socket and her own (lobby) socket close as the
    deletion answers (DeleteConnection); the table goes on talking and she hears none of it;
    a socket opened with her old token is refused."""
    (ayse, ali), view = seated_table(local_stack, "kastet", ["Ayşe", "Ali"], seed=11)
    table_id = view["tableId"]
    assert ayse.start(table_id)["status"] == "playing"
    ws = local_stack_info.ws_url
    with (
        connect(f"{ws}?token={ali.token}&tableId={table_id}", open_timeout=10) as table_socket,
        connect(f"{ws}?token={ali.token}", open_timeout=10) as own_socket,
        connect(f"{ws}?token={ayse.token}&tableId={table_id}", open_timeout=10) as other,
    ):
        said = ayse.http.post(f"/tables/{table_id}/phrases", json={"phrase": "iyi-oyunlar"})
        assert said.status_code == 200, said.text
        while json.loads(table_socket.recv(timeout=10))["type"] != "phrase":
            pass  # she hears the table while she exists

        assert ali.http.delete("/players/me").status_code == 204
        time.sleep(3.5)  # past the phrases' spacing: the table says something more
        again = ayse.http.post(f"/tables/{table_id}/phrases", json={"phrase": "tebrikler"})
        assert again.status_code == 200, again.text
        heard, closed = _pushes_until_closed(table_socket)
        assert closed, "her table socket is still open after the deletion"
        assert all(m.get("phrase") != "tebrikler" for m in heard), heard
        assert _pushes_until_closed(own_socket)[1], "her own socket is still open"
        while (m := json.loads(other.recv(timeout=10)))["type"] != "phrase" or (
            m["phrase"] != "tebrikler"
        ):
            pass  # the table did talk on: the other seat heard it

    for url in (f"{ws}?token={ali.token}&tableId={table_id}", f"{ws}?token={ali.token}"):
        with pytest.raises(InvalidStatus) as refused:
            connect(url, open_timeout=10).close()
        assert refused.value.response.status_code in (401, 403)
    for player in (ayse, ali):
        player.close()
