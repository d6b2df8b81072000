"""Hostile input over the handlers: spoofing names and parser-breaking bodies are 400
``bad_request`` on REST and an error on the socket, never a 500, and change nothing."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

SPOOFING_NAMES = [
    "Ayşe\u202eesyA",  # right-to-left override
    "\u2066Yönetici\u2069",
    "Ay\u200bşe",
    "Mehmet\U000e0041",
    "\u3164",
    "Z" + "\u0336" * 50,
    "x" * 25,
]


@pytest.mark.parametrize("name", SPOOFING_NAMES)
def test_a_name_that_hides_or_spoofs_is_400(api, name):
    reply = api("create-player", body={"name": name})
    assert reply.status == 400 and reply.body["error"]["code"] == "bad_request", reply.body


def test_a_name_is_stored_trimmed_and_composed(api):
    reply = api("create-player", body={"name": "  Ays\u0327e   Nur "})
    assert reply.status == 201 and reply.body["name"] == "Ayşe Nur"


HOSTILE_BODIES = {
    "huge-integer": '{"version": ' + "9" * 5000 + ', "moveId": "m", "type": "draw"}',
    "deep-nesting": '{"version": 1, "moveId": "m", "type": "lay", "series": '
    + "[" * 5000
    + "]" * 5000
    + "}",
    "long-list": json.dumps(
        {"version": 1, "moveId": "m", "type": "lay", "series": [[{"id": 1}]] * 2000}
    ),
    "long-string": json.dumps({"version": 1, "moveId": "m" * 5000, "type": "draw"}),
    "nan": '{"version": NaN, "moveId": "m", "type": "draw"}',
}


@pytest.mark.parametrize("case", sorted(HOSTILE_BODIES))
def test_a_hostile_move_body_is_400_and_changes_nothing(api, case):
    game = api.game()
    player, _view = api.turn(game)
    event = api.event(
        "rest/move-draw", token=player.token, tableId=game.table_id, version=1, moveId="m"
    )
    event["body"] = HOSTILE_BODIES[case]
    with api.unchanged(player, game.table_id):
        reply = api.invoke(event)
    assert reply.status == 400 and reply.body["error"]["code"] == "bad_request", reply.body


@pytest.mark.parametrize("case", ["huge-integer", "deep-nesting", "nan"])
def test_a_hostile_body_creating_a_player_is_400(api, case):
    body = HOSTILE_BODIES[case].replace('"moveId": "m"', '"name": "Ayşe"')
    reply = api("create-player", body=body)
    assert reply.status == 400 and reply.body["error"]["code"] == "bad_request"


@pytest.mark.parametrize("case", ["huge-integer", "deep-nesting", "nan"])
def test_a_hostile_socket_message_is_answered_with_bad_request(api, ws, outbox, case):
    game = api.game()
    mover, _view = api.turn(game)
    ws("connect", token=mover.token, tableId=game.table_id, connectionId="c1")
    head = json.dumps({"action": "move", "tableId": game.table_id})
    text = head[:-1] + ", " + HOSTILE_BODIES[case][1:]  # the hostile fields, spliced in as text
    with api.unchanged(mover, game.table_id):
        reply = ws("move", body=text, connectionId="c1", tableId=game.table_id, version=1)
    error = outbox.to("c1")[-1]
    assert reply["statusCode"] == 200 and json.loads(reply["body"]) == error
    assert error["type"] == "error" and error["error"]["code"] == "bad_request"
