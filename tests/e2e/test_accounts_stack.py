"""Accounts and phrases on the local stack over real HTTP and WebSocket: a transfer code moves
a player to a second client, whose session access token opens a WebSocket; its refresh token
rotates; a phrase sent at the table reaches the other seat's socket; deletion leaves an
anonymous seat that nobody can trace back."""

from __future__ import annotations

import json

import httpx
import pytest
from e2e_client import Player, seated_table
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
