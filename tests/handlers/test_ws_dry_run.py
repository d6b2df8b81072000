"""A dry run over the WebSocket ``move`` action: answered on that socket only, nothing
stored, nobody else pushed (API.md "Dry run")."""

from __future__ import annotations

import json

OK = {"statusCode": 200}


def connect(ws, player, table_id, connection_id):
    assert ws("connect", token=player.token, tableId=table_id, connectionId=connection_id) == OK


def test_a_dry_run_over_the_socket_answers_that_socket_only_and_changes_nothing(
    api, ws, outbox, sockets
):
    game, mover, _other, view = sockets("mine", "theirs")
    before = len(outbox.sent)
    body = json.dumps(
        {"action": "move", "tableId": game.table_id, "version": view["version"],
         "type": "draw", "dryRun": True}
    )  # fmt: skip
    with api.unchanged(mover, game.table_id):
        assert ws("move", body=body, connectionId="mine")["statusCode"] == 200
    sent = outbox.sent[before:]
    assert [c for c, _ in sent] == ["mine"]
    answer = sent[0][1]
    assert answer["type"] == "dryRun" and answer["legal"] is True
    assert answer["view"]["version"] == view["version"]
    assert answer["view"]["hand"] == view["hand"]  # no drawn tile


def test_an_illegal_dry_run_over_the_socket_is_the_same_error_as_the_move(api, ws, outbox):
    game = api.game()
    mover, view = api.turn(game)
    connect(ws, mover, game.table_id, "mine")
    move = {"action": "move", "tableId": game.table_id, "version": view["version"], "type": "pass"}
    with api.unchanged(mover, game.table_id):
        ws("move", body=json.dumps({**move, "dryRun": True}), connectionId="mine")
        ws("move", body=json.dumps({**move, "moveId": "p"}), connectionId="mine")
    fake, real = outbox.to("mine")[-2:]
    assert fake["type"] == real["type"] == "error"
    assert fake["error"] == real["error"] and fake["error"]["code"] == "illegal_move"
