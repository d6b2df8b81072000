"""Short-lived WebSocket connect tickets: POST /tables/{tableId}/ticket, then
$connect?ticket=T&tableId=ID, so the 30-day token stays out of query strings."""

from __future__ import annotations

import json
import time

import jwt

OK = {"statusCode": 200}


def ticket_event(api, ticket, table_id, connection_id):
    event = api.event("ws/connect", token="unused", tableId=table_id, connectionId=connection_id)
    for key in ("queryStringParameters", "multiValueQueryStringParameters"):
        event[key].pop("token")
    event["queryStringParameters"]["ticket"] = ticket
    event["multiValueQueryStringParameters"]["ticket"] = [ticket]
    return event


def test_a_ticket_opens_a_connection_to_its_table_for_a_minute(api, ws, outbox):
    game = api.game()
    player = game.players[0]
    reply = api.invoke(
        {**api.event("rest/get-hint", token=player.token, tableId=game.table_id),
         "httpMethod": "POST", "resource": "/tables/{tableId}/ticket",
         "path": f"/tables/{game.table_id}/ticket"}
    )  # fmt: skip
    assert reply.status == 201, reply.body
    assert set(reply.body) == {"ticket", "expiresAt"}
    assert 0 < reply.body["expiresAt"] - time.time() <= 61
    ticket = reply.body["ticket"]
    assert ws.invoke(ticket_event(api, ticket, game.table_id, "t1")) == OK
    view = api.view(player, game.table_id)
    move = {"action": "move", "tableId": game.table_id, "version": view["version"],
            "type": "pass", "moveId": "x"}  # fmt: skip
    ws("move", body=json.dumps(move), connectionId="t1")  # the connection is the player's
    assert outbox.to("t1")[-1]["type"] == "error"
    assert outbox.to("t1")[-1]["error"]["code"] in ("illegal_move", "not_your_turn")


def test_a_ticket_is_refused_for_another_table_as_a_token_and_when_expired(api, ws, app):
    game, other = api.game(), api.game()
    player = game.players[0]
    event = api.event("rest/get-hint", token=player.token, tableId=game.table_id)
    event.update(httpMethod="POST", resource="/tables/{tableId}/ticket",
                 path=f"/tables/{game.table_id}/ticket")  # fmt: skip
    ticket = api.invoke(event).body["ticket"]
    assert ws.invoke(ticket_event(api, ticket, other.table_id, "t2"))["statusCode"] == 401
    as_token = api("get-table", token=ticket, tableId=game.table_id)
    assert as_token.status == 401  # a ticket is never a bearer token
    assert (
        ws("connect", token=ticket, tableId=game.table_id, connectionId="t3")["statusCode"] == 401
    )
    claims = jwt.decode(ticket, options={"verify_signature": False})
    forged = jwt.encode({**claims, "exp": int(time.time()) - 5}, "x" * 32, algorithm="HS256")
    assert ws.invoke(ticket_event(api, forged, game.table_id, "t4"))["statusCode"] == 401
    from harftet import tickets

    key = tickets._key(app.tokens)
    expired = jwt.encode({**claims, "exp": int(time.time()) - 5}, key, algorithm="HS256")
    assert ws.invoke(ticket_event(api, expired, game.table_id, "t5"))["statusCode"] == 401
    assert ws("connect", token=player.token, tableId=game.table_id, connectionId="t6") == OK


def test_a_ticket_needs_a_token(api):
    game = api.game()
    event = api.event("rest/get-hint", token=None, tableId=game.table_id)
    event.update(httpMethod="POST", resource="/tables/{tableId}/ticket",
                 path=f"/tables/{game.table_id}/ticket")  # fmt: skip
    assert api.invoke(event).status == 401
