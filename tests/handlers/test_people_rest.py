"""The REST handler's profile, leaderboard, report and operator routes (harftet.people)."""

from __future__ import annotations

import base64
import json

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def request(api, method: str, path: str, token: str | None, body=None, query=None, arn=None):
    """get-player's event turned into ``method path`` (API Gateway's proxy shape)."""
    event = api.event("rest/get-player", token=token or "x", playerId="x")
    event["httpMethod"] = event["requestContext"]["httpMethod"] = method
    event["path"] = event["resource"] = event["requestContext"]["resourcePath"] = path
    event["pathParameters"] = None
    if token is None:
        event["headers"].pop("Authorization")
        event["multiValueHeaders"].pop("Authorization")
    event["queryStringParameters"] = query
    event["multiValueQueryStringParameters"] = {k: [v] for k, v in query.items()} if query else None
    if body is not None:
        event["body"] = base64.b64encode(json.dumps(body).encode()).decode()
        event["isBase64Encoded"] = True
    event["requestContext"]["identity"]["userArn"] = arn
    return api.invoke(event)


def code(reply, status: int) -> str:
    assert reply.status == status, reply.body
    return reply.body["error"]["code"]


def test_profile_board_and_report_routes_answer_and_refuse(api, app):
    game = api.game(seats=2)
    me, other = game.players
    profile = request(api, "GET", f"/players/{other.id}/profile", me.token)
    assert profile.status == 200 and profile.body["name"] == other.name
    assert profile.body["games"]["kastet"]["played"] == 0
    assert code(request(api, "GET", "/players/nobody/profile", me.token), 404) == "not_found"
    assert code(request(api, "GET", f"/players/{me.id}/profile", None), 401) == "unauthorized"
    board = request(api, "GET", "/leaderboards/kastet", me.token, query={"period": "week"})
    assert board.status == 200 and board.body == {"entries": [], "me": None, "cursor": None}
    assert code(request(api, "GET", "/leaderboards/okey", me.token), 404) == "not_found"
    bad = request(api, "GET", "/leaderboards/kastet", me.token, query={"limit": "x"})
    assert code(bad, 400) == "bad_request"
    path = f"/tables/{game.table_id}/reports"
    with api.unchanged(me, game.table_id):
        kept = request(api, "POST", path, me.token, body={"seat": 1, "kind": "insult"})
    assert kept.status == 202 and kept.body["tableId"] == game.table_id
    for body in ({"seat": 1, "kind": "rude"}, {"seat": "1", "kind": "other"}, {"seat": 1}):
        assert code(request(api, "POST", path, me.token, body=body), 400) == "bad_request"
    missing = request(
        api, "POST", "/tables/nope/reports", me.token, body={"seat": 1, "kind": "other"}
    )
    assert code(missing, 404) == "not_found"
    assert code(request(api, "POST", path, None, body={"seat": 1, "kind": "other"}), 401)


def test_operator_routes_need_iam_and_ban_with_a_turkish_403(api, app):
    game = api.game(seats=2)
    me, other = game.players
    request(api, "POST", f"/tables/{game.table_id}/reports", me.token, {"seat": 1, "kind": "other"})
    assert app.settings.test_mode  # test mode lets nobody through unsigned (API.md v4)
    refused = request(api, "GET", "/operator/reports", None)
    assert code(refused, 403) == "forbidden"
    ban = request(api, "POST", f"/operator/players/{other.id}/ban", me.token)  # a player's token
    assert code(ban, 403) == "forbidden"
    arn = "arn:aws:iam::123456789012:user/operator"
    listed = request(api, "GET", "/operator/reports", None, arn=arn)
    assert listed.status == 200 and listed.body["reports"][0]["reported"] == other.id
    banned = request(api, "POST", f"/operator/players/{other.id}/ban", None, arn=arn)
    assert banned.status == 200 and banned.body["banned"] is True
    table = api.table(me)
    event = api.event("rest/sit", token=other.token, tableId=table["tableId"], seat=1)
    event["headers"]["Accept-Language"] = "tr-TR"
    sit = api.invoke(event)
    assert code(sit, 403) == "banned" and "engellendi" in sit.body["error"]["message"]
    unban = request(api, "DELETE", f"/operator/players/{other.id}/ban", None, arn=arn)
    assert unban.status == 200 and unban.body["banned"] is False
    assert api("sit", token=other.token, tableId=table["tableId"], seat=1).status == 200
    closed = request(api, "POST", f"/operator/tables/{game.table_id}/close", None, arn=arn)
    assert closed.status == 200 and closed.body["status"] == "finished"
    nobody = request(api, "POST", "/operator/players/nobody/ban", None, arn=arn)
    assert code(nobody, 404) == "not_found"
