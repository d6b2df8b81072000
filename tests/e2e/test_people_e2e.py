"""Profiles, leaderboards, reports and the operator routes on the local stack
(harftet.profiles, harftet.moderation): the board index is created from template.yaml, the
routes come from it, the operator routes take the stack's operator key and nothing else."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from e2e_client import Player
from websockets.sync.client import connect

from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e


def test_profile_board_report_and_ban_on_the_local_stack(local_stack_info: RunningStack) -> None:
    local_stack = local_stack_info.base_url
    operator = {"X-Operator-Key": local_stack_info.operator_key}
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
        listed = client.get("/operator/reports", headers=operator)
        assert listed.status_code == 200, listed.text
        assert made[1]["playerId"] in {r["reported"] for r in listed.json()["reports"]}
        ban = f"/operator/players/{made[1]['playerId']}/ban"
        assert client.post(ban, headers=operator).status_code == 200
        other = client.post(
            "/tables",
            json={"game": "kastet", "seats": 2, "hands": 1},
            headers={**auth[1], "Accept-Language": "tr"},
        )
        assert other.status_code == 403 and other.json()["error"]["code"] == "banned"
        assert "engellendi" in other.json()["error"]["message"]


def test_operator_routes_refuse_a_request_without_the_operator_key(
    local_stack_info: RunningStack,
) -> None:
    """A web page's cross-site POST (no key, a wrong one, a player's token) bans nobody and
    closes nothing: 403 forbidden, in the player's language, and the player still plays."""
    base = local_stack_info.base_url
    victim = Player(base, "Kurban")
    table = victim.create_table("kastet", seats=2)
    tid = table["tableId"]
    page = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
    tries = [
        {},
        {"X-Operator-Key": ""},
        {"X-Operator-Key": "guess"},
        {"X-Operator-Key": local_stack_info.operator_key + "x"},
        {"Authorization": f"Bearer {victim.token}"},
    ]
    for headers in tries:
        for path in (f"/operator/players/{victim.id}/ban", f"/operator/tables/{tid}/close"):
            refused = httpx.post(base + path, headers={**page, **headers, "Accept-Language": "tr"})
            assert refused.status_code == 403, refused.text
            error = refused.json()["error"]
            assert error["code"] == "forbidden" and error["message"] == "Bunu yapmaya yetkin yok"
        assert httpx.get(f"{base}/operator/reports", headers=headers).status_code == 403
    assert victim.table(table["tableId"])["status"] == "waiting"  # not closed
    again = victim.create_table("kastet", seats=2)  # not banned
    assert again["status"] == "waiting"


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
