"""Matchmaking over the local stack (API.md v4): tickets over HTTP, the matcher run by the
match table's stream and by its schedule through the same handler as in AWS, the
``matched`` push on a player's own socket, the table started and rated."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from e2e_client import Player
from websockets.sync.client import connect

pytestmark = pytest.mark.e2e


def _matched(player: Player, ticket: str, within: float = 15.0) -> dict[str, Any]:
    ends = time.monotonic() + within
    while True:
        body: dict[str, Any] = player.http.get(f"/matchmaking/{ticket}").json()
        if body["status"] != "waiting" or time.monotonic() > ends:
            return body
        time.sleep(0.2)


def test_four_players_are_matched_pushed_and_seated_at_a_started_rated_table(local_stack):
    players = [Player(local_stack, f"Eş{i}") for i in range(4)]
    ws = local_stack.replace("http", "ws") + f"/ws?token={players[0].token}"
    with connect(ws, open_timeout=10) as socket:
        tickets = []
        for who in players:
            reply = who.http.post("/matchmaking", json={"game": "kastet", "seats": 4})
            assert reply.status_code == 202, reply.text
            assert reply.json()["status"] == "waiting"
            tickets.append(reply.json()["ticketId"])
        pushed = json.loads(socket.recv(timeout=15))
    assert pushed == {"type": "matched", "ticketId": tickets[0], "tableId": pushed["tableId"]}
    for who, ticket in zip(players, tickets, strict=True):
        assert _matched(who, ticket) == {
            "ticketId": ticket,
            "status": "matched",
            "tableId": pushed["tableId"],
        }
    view = players[1].table(pushed["tableId"])
    assert view["status"] == "playing" and view["rated"] is True
    assert sorted(s["playerId"] for s in view["seats"]) == sorted(p.id for p in players)
    for who in players:
        who.close()


def test_a_lone_player_gets_computer_players_once_the_wait_ends(local_stack):
    alone = Player(local_stack, "Yalnız")
    reply = alone.http.post("/matchmaking", json={"game": "harftet", "seats": 2, "waitSeconds": 1})
    ticket = reply.json()["ticketId"]
    body = _matched(alone, ticket)  # the schedule's passes: nobody else arrives
    assert body["status"] == "matched"
    table_id = body["tableId"]
    view = alone.table(table_id)
    assert [bool(s.get("bot")) for s in view["seats"]].count(True) == 1
    assert view["status"] == "playing" and view["game"] == "harftet"
    mine = next(i for i, s in enumerate(view["seats"]) if s["playerId"] == alone.id)
    if view["turn"]["seat"] == mine:  # the person draws; then the computer plays its turn
        assert alone.move(table_id, view["version"], {"type": "draw"}).status_code == 200
    ends = time.monotonic() + 20
    while alone.table(table_id)["turn"]["seat"] != mine and time.monotonic() < ends:
        time.sleep(0.3)
    assert alone.table(table_id)["turn"]["seat"] == mine  # the computer player moved
    alone.close()


def test_one_search_at_a_time_a_cancel_and_bad_requests(local_stack):
    who = Player(local_stack, "İptal")
    first = who.http.post("/matchmaking", json={"game": "kastet", "seats": 4, "waitSeconds": 120})
    ticket = first.json()["ticketId"]
    again = who.http.post("/matchmaking", json={"game": "kastet", "seats": 2})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_waiting"
    assert who.http.delete(f"/matchmaking/{ticket}").status_code == 204
    assert who.http.get(f"/matchmaking/{ticket}").json()["status"] == "cancelled"
    for body in (
        {"game": "kastet", "seats": 3},
        {"game": "tavla", "seats": 2},
        {"game": "kastet", "seats": 2, "waitSeconds": 121},
        {"game": "kastet", "seats": 2, "extra": 1},
    ):
        refused = who.http.post("/matchmaking", json=body)
        assert refused.status_code == 400, (body, refused.text)
        assert refused.json()["error"]["code"] == "bad_request"
    assert who.http.get("/matchmaking/nope").status_code == 404
    anonymous = who.http.get(f"/matchmaking/{ticket}", headers={"Authorization": ""})
    assert anonymous.status_code == 401
    who.close()
