"""A whole small tournament over the local stack (API.md v4 "Tournaments"): an operator
creates it (the X-Operator-Key header), four players enter over HTTP, the schedule (the
same handler as in AWS) seats round 1 at its start and pushes ``tournament`` on each
player's socket, the tables play out (absent players by timeouts, then computer players),
round 2 starts when the last table has ended and its time (``roundMinutes``: a minute
after the start) has come, never before, and the finished tournament
shows its standings, its podium and the champion's badge on her profile."""

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


def _create(stack: RunningStack, **given: Any) -> httpx.Response:
    body = {
        "name": "Gece Kupası", "game": "kastet", "seats": 4, "hands": 1, "rounds": 2,
        "capacity": 8, "turnSeconds": 1, "startsAt": int(time.time()) + 4, **given,
    }  # fmt: skip
    headers = {"X-Operator-Key": stack.operator_key}
    return httpx.post(f"{stack.base_url}/operator/tournaments", json=body, headers=headers)


def _until(player: Player, tid: str, done: Any, within: float) -> dict[str, Any]:
    ends = time.monotonic() + within
    while True:
        body: dict[str, Any] = player.http.get(f"/tournaments/{tid}").json()
        if done(body) or time.monotonic() > ends:
            return body
        time.sleep(0.5)


def test_a_two_round_tournament_from_registration_to_the_podium(local_stack_info):
    stack = local_stack_info
    made = _create(stack, roundMinutes=1)  # round 2 not before a minute after the start
    assert made.status_code == 201, made.text
    tid, starts = made.json()["tournamentId"], made.json()["startsAt"]
    players = [Player(stack.base_url, f"Turnuvacı{i}") for i in range(4)]
    for who in players:
        entered = who.http.post(f"/tournaments/{tid}/entries")
        assert entered.status_code == 201, entered.text
    listed = players[0].http.get("/tournaments", params={"status": "registering"}).json()
    assert tid in [t["tournamentId"] for t in listed["tournaments"]]
    with connect(f"{stack.ws_url}?token={players[0].token}", open_timeout=10) as socket:
        pushed = json.loads(socket.recv(timeout=30))
    assert pushed == {"type": "tournament", "tournamentId": tid, "round": 1,
                      "tableId": pushed["tableId"]}  # fmt: skip
    view = players[0].table(pushed["tableId"])
    assert view["status"] == "playing" and view["rated"] is True
    assert sorted(s["playerId"] for s in view["seats"]) == sorted(p.id for p in players)
    asked = time.time()
    body = players[1].http.get(f"/tournaments/{tid}").json()
    if asked < starts + 59:  # round 1 plays; round 2 is scheduled a minute after the start
        assert (body["round"], body["nextRoundAt"]) == (1, starts + 60), body
    body = _until(players[1], tid, lambda b: b["round"] == 2, 240)
    seen = time.time()
    assert body["round"] == 2 and seen >= starts + 60, (seen - starts, body)  # never early
    print(f"round 2 seen {seen - starts:.1f} s after the start")
    body = _until(players[1], tid, lambda b: b["status"] == "finished", 240)
    assert body["status"] == "finished", body
    assert [t["round"] for t in body["tables"]] == [1, 2]
    assert all(t["status"] == "finished" for t in body["tables"])
    assert sorted(s["playerId"] for s in body["standings"]) == sorted(p.id for p in players)
    assert [s["tables"] for s in body["standings"]] == [2, 2, 2, 2]
    champion = body["standings"][0]["playerId"]
    profile = players[1].http.get(f"/players/{champion}/profile").json()
    assert {"tournamentId": tid, "name": "Gece Kupası", "place": 1} in profile["badges"]
    for who in players:
        who.close()


def test_entries_full_closed_and_refusals(local_stack_info):
    stack = local_stack_info
    assert _create(stack, capacity=3).status_code == 400  # capacity 4–1024
    for bad in ({"roundMinutes": 0}, {"roundMinutes": 30, "rounds": 1}):
        refused = _create(stack, **bad)
        assert refused.status_code == 400 and refused.json()["error"]["field"] == "roundMinutes"
    refused = httpx.post(f"{stack.base_url}/operator/tournaments", json={})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    tid = _create(stack, capacity=4, startsAt=int(time.time()) + 3600).json()["tournamentId"]
    players = [Player(stack.base_url, f"Kayıt{i}") for i in range(5)]
    for who in players[:4]:
        assert who.http.post(f"/tournaments/{tid}/entries").status_code == 201
    full = players[4].http.post(f"/tournaments/{tid}/entries")
    assert full.status_code == 409 and full.json()["error"]["code"] == "tournament_full"
    assert players[3].http.delete(f"/tournaments/{tid}/entries/me").status_code == 204
    assert players[4].http.post(f"/tournaments/{tid}/entries").status_code == 201
    missing = players[0].http.get("/tournaments/000000000000")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    bad = players[0].http.get("/tournaments", params={"status": "soon"})
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "status"
    for who in players:
        who.close()
