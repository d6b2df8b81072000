"""Profiles, leaderboards, reports and the operator routes on the local stack
(harftet.profiles, harftet.moderation): the board index is created from template.yaml, the
routes come from it, test mode lets the operator routes through locally."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from e2e_client import Player
from websockets.sync.client import connect

pytestmark = pytest.mark.e2e


def test_profile_board_report_and_ban_on_the_local_stack(local_stack: str) -> None:
    with httpx.Client(base_url=local_stack, timeout=10) as client:
        made = [client.post("/players", json={"name": n}).json() for n in ("Ayşe", "Mehmet")]
        auth = [{"Authorization": f"Bearer {m['token']}"} for m in made]
        table = client.post(
            "/tables", json={"game": "kastet", "seats": 2, "hands": 1}, headers=auth[0]
        ).json()
        assert client.post(f"/tables/{table['tableId']}/seats/1", json={}, headers=auth[1])
        profile = client.get(f"/players/{made[1]['playerId']}/profile", headers=auth[0])
        assert profile.status_code == 200 and profile.json()["name"] == "Mehmet"
        board = client.get("/leaderboards/harftet?period=week", headers=auth[0])
        assert board.status_code == 200 and set(board.json()) == {"entries", "me", "cursor"}
        report = client.post(
            f"/tables/{table['tableId']}/reports",
            json={"seat": 1, "kind": "insult"},
            headers=auth[0],
        )
        assert report.status_code == 202, report.text
        listed = client.get("/operator/reports")  # the local stack runs in test mode
        assert listed.status_code == 200, listed.text
        assert made[1]["playerId"] in {r["reported"] for r in listed.json()["reports"]}
        assert client.post(f"/operator/players/{made[1]['playerId']}/ban").status_code == 200
        other = client.post(
            "/tables",
            json={"game": "kastet", "seats": 2, "hands": 1},
            headers={**auth[1], "Accept-Language": "tr"},
        )
        assert other.status_code == 403 and other.json()["error"]["code"] == "banned"
        assert "engellendi" in other.json()["error"]["message"]


def _presence(socket: Any, seconds: float = 1.0) -> list[dict[str, Any]]:
    """The presence pushes that arrive until the socket is quiet for ``seconds``."""
    found = []
    while True:
        try:
            message = json.loads(socket.recv(timeout=seconds))
        except TimeoutError:
            return found
        if message.get("type") == "presence":
            found.append(message)


def _until(socket: Any, wanted: dict[str, Any], seconds: float = 20.0) -> list[dict[str, Any]]:
    """Presence pushes up to and including one that holds ``wanted`` (or all in ``seconds``)."""
    found: list[dict[str, Any]] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            message = json.loads(socket.recv(timeout=max(0.1, end - time.monotonic())))
        except TimeoutError:
            break
        if message.get("type") == "presence":
            found.append(message)
            if wanted.items() <= message.items():
                break
    return found


def test_friends_see_each_others_presence_live_and_nobody_else_does(local_stack: str) -> None:
    """Two friends on the stack's /ws: one comes online, sits at a table, stands up and goes;
    the other sees each change. A stranger and a blocked player, both connected, see none."""
    ws = local_stack.replace("http", "ws", 1) + "/ws"
    ayse, ali, yabanci, trol = (Player(local_stack, n) for n in ("Ayşe", "Ali", "Yabancı", "Trol"))
    code = ali.http.get("/players/me/friends").json()["code"]
    assert ayse.http.post("/players/me/friends", json={"code": code}).status_code == 200
    assert ali.http.post(f"/players/me/friends/{ayse.id}").status_code == 200
    trol_code = trol.http.get("/players/me/friends").json()["code"]
    assert ali.http.post("/players/me/friends", json={"code": trol_code}).status_code == 200
    assert trol.http.post(f"/players/me/friends/{ali.id}").status_code == 200
    assert trol.http.post(f"/players/me/blocks/{ali.id}").status_code == 204  # ends it too
    with (
        connect(f"{ws}?token={ayse.token}") as watching,
        connect(f"{ws}?token={yabanci.token}") as stranger,
        connect(f"{ws}?token={trol.token}") as blocked,
    ):
        with connect(f"{ws}?token={ali.token}"):
            assert _until(watching, {"playerId": ali.id, "status": "online"})
            table = ali.create_table(game="kastet", seats=2, hands=1)
            table_id = table["tableId"]
            with connect(f"{ws}?token={ali.token}&tableId={table_id}"):
                at_table = _until(watching, {"status": "table"})
                assert at_table[-1] == {
                    "type": "presence",
                    "playerId": ali.id,
                    "status": "table",
                    "game": "kastet",
                }
                assert ali.http.delete(f"/tables/{table_id}/seats/0").status_code == 200
                assert _until(watching, {"status": "online"})  # stood up, still watching
        gone = _until(watching, {"status": "away"})
        assert gone[-1] == {"type": "presence", "playerId": ali.id, "status": "away"}
        sent = json.dumps(gone)
        assert table_id not in sent
        assert _presence(stranger, 0.5) == [] and _presence(blocked, 0.5) == []
    for p in (ayse, ali, yabanci, trol):
        p.close()
