"""A lay that ends the turn (API.md: ``"pass": true`` on a lay; issue 40) over REST and the
WebSocket: one stored change — one version, one push to each other socket, a log whose lay
and pass carry that version — and a bad combination is 400 ``bad_request``, nothing changed."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

OK = {"statusCode": 200}


def lay_body(api, view, move_id="lp", **extra):
    meld = api.meld(view["hand"])
    assert meld is not None, "the seeded deal gives the first player a meld"
    return {
        "version": view["version"],
        "moveId": move_id,
        "type": "lay",
        "series": [[{"id": t} for t in meld]],
        "pairs": [],
        **extra,
    }


def test_a_lay_that_ends_the_turn_is_one_version_and_the_turn_moves_on(api):
    game = api.game()
    player, view = api.turn(game)
    body = lay_body(api, view, **{"pass": True})
    reply = api("move-lay", body=body, token=player.token, tableId=game.table_id)
    assert reply.status == 200, reply.body
    after = reply.body
    assert after["version"] == view["version"] + 1
    assert after["turn"]["seat"] != view["turn"]["seat"]  # the pass went with the lay
    assert len(after["hand"]) == len(view["hand"]) - 3 and len(after["series"]) == 1
    log = api("get-log", token=player.token, tableId=game.table_id, after=0).body
    last = [e for e in log["events"] if e.get("version") == after["version"]]
    assert [e["type"] for e in last] == ["lay", "pass"]
    again = api("move-lay", body=body, token=player.token, tableId=game.table_id)
    assert again.status == 200 and again.body == after  # the same moveId: the same answer


BAD = {
    "pass-on-a-draw": {"type": "draw", "pass": True},
    "pass-on-a-pass": {"type": "pass", "pass": True},
    "pass-not-a-boolean": {"pass": "yes"},
    "pass-as-a-number": {"pass": 1},
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_pass_on_anything_but_a_lay_or_not_a_boolean_is_400_and_nothing_changes(api, case):
    game = api.game()
    player, view = api.turn(game)
    body = {**lay_body(api, view), **BAD[case]}
    if body["type"] != "lay":
        body = {k: v for k, v in body.items() if k not in ("series", "pairs")}
    with api.unchanged(player, game.table_id):
        reply = api("move-lay", body=body, token=player.token, tableId=game.table_id)
        assert reply.status == 400, reply.body
        assert reply.body["error"]["code"] == "bad_request"


def test_an_illegal_lay_that_would_end_the_turn_is_refused_and_the_turn_stays(api):
    game = api.game()
    player, view = api.turn(game)
    body = lay_body(api, view, **{"pass": True})
    body["series"] = [body["series"][0][:2]]  # two tiles: no meld
    with api.unchanged(player, game.table_id):
        reply = api("move-lay", body=body, token=player.token, tableId=game.table_id)
        assert reply.status == 422 and reply.body["error"]["code"] == "illegal_move", reply.body


def test_over_the_socket_a_lay_that_ends_the_turn_is_one_push_to_each_other_socket(
    api, ws, outbox, sockets
):
    game, _mover, other, view = sockets("mover", "other")
    spectator = api.player("Seyirci")
    assert ws("connect", token=spectator.token, tableId=game.table_id, connectionId="w") == OK
    outbox.sent.clear()
    body = {"action": "move", "tableId": game.table_id, **lay_body(api, view, **{"pass": True})}
    assert ws("move", body=json.dumps(body), connectionId="mover")["statusCode"] == 200
    after = api.view(other, game.table_id)
    assert after["version"] == view["version"] + 1
    assert after["turn"]["seat"] == game.players.index(other)
    [answer] = outbox.to("mover")
    assert answer["moveId"] == "lp" and answer["version"] == after["version"]
    assert [p["type"] for p in outbox.to("other")] == ["table"]
    assert [p["view"]["version"] for p in outbox.to("w")] == [after["version"]]
