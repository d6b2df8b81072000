"""The account, session and phrase routes through the real REST handler (API.md v3
"Identity", phrases of "People"): statuses, codes, Retry-After, and that refusals change
nothing and nothing secret leaves."""

from __future__ import annotations

import json
from typing import Any

import pytest
from authenticator import SoftPasskey, b64url
from testkit import routed

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")
ORIGIN = "http://localhost:3000"


@pytest.fixture
def accounts_env(app: Any) -> Any:
    """The application's passkeys on ORIGIN (PASSKEY_RP_ID, PASSKEY_ORIGINS)."""
    import dataclasses

    passkeys = {"PASSKEY_RP_ID": "localhost", "PASSKEY_ORIGINS": ORIGIN}
    app.settings = dataclasses.replace(app.settings, environ={**app.settings.environ, **passkeys})


@pytest.fixture
def call(api: Any, accounts_env: Any) -> Any:
    def request(
        method: str, path: str, body: Any = None, token: str | None = None, ip: str = "203.0.113.7"
    ) -> Any:
        event = routed(
            api.event("rest/get-player", token="t", playerId="p"), method, path, body, token
        )
        event["requestContext"]["identity"]["sourceIp"] = ip
        return api.invoke(event)

    return request


def register(call: Any, token: str) -> SoftPasskey:
    passkey = SoftPasskey(ORIGIN)
    options = call("POST", "/players/me/passkeys/options", token=token)
    assert options.status == 200, options.body
    body = {
        "challengeId": options.body["challengeId"],
        "credential": passkey.register(options.body),
    }
    reply = call("POST", "/players/me/passkeys", body, token=token)
    assert reply.status == 201 and reply.body["id"] == b64url(passkey.credential_id), reply.body
    return passkey


def sign_in(call: Any, passkey: SoftPasskey, **kwargs: Any) -> Any:
    options = call("POST", "/sessions/passkey/options")
    assert options.status == 200
    body = {
        "challengeId": options.body["challengeId"],
        "credential": passkey.assert_(options.body, **kwargs),
    }
    return call("POST", "/sessions/passkey", body)


def test_passkey_registration_and_sign_in_answer_the_documented_shapes(api, call):
    guest = api.player("Ayşe")
    passkey = register(call, guest.token)
    reply = sign_in(call, passkey)
    assert reply.status == 200
    assert {"playerId", "name", "token", "refreshToken", "rating"} <= set(reply.body)
    assert reply.body["playerId"] == guest.id and reply.body["name"] == "Ayşe"
    # the new device's access token works on the table routes, as a guest's does
    table = api.table(_player(guest, reply.body))
    assert table["seats"][0]["playerId"] == guest.id
    listed = call("GET", "/players/me/passkeys", token=reply.body["token"])
    assert [p["id"] for p in listed.body["passkeys"]] == [b64url(passkey.credential_id)]


def _player(like: Any, body: dict[str, Any]) -> Any:
    """A signed-in player as the api fixture's Player (of the same class as ``like``: the
    module named "conftest" is whichever folder's was imported last)."""
    return type(like)(body["token"], body["playerId"], body["name"])


def test_refusals_are_401_unauthorized_and_change_nothing(api, call):
    guest = api.player("Ayşe")
    passkey = register(call, guest.token)
    before = call("GET", "/players/me/export", token=guest.token).body
    options = call("POST", "/sessions/passkey/options").body
    good = passkey.assert_(options)
    assert (
        call(
            "POST", "/sessions/passkey", {"challengeId": options["challengeId"], "credential": good}
        ).status
        == 200
    )
    replay = call(
        "POST", "/sessions/passkey", {"challengeId": options["challengeId"], "credential": good}
    )
    assert replay.status == 401 and replay.body["error"]["code"] == "unauthorized"
    assert sign_in(call, passkey, origin="https://evil.example").status == 401
    assert sign_in(call, passkey, rp_id="evil.example").status == 401
    assert sign_in(call, passkey, count=1).status == 401  # the counter went back (it is 1)
    assert call("POST", "/sessions/transfer", {"code": "ABCDEFGH"}).status == 401
    assert call("POST", "/sessions/refresh", {"refreshToken": "v1.a.b.0.c"}).status == 401
    assert call("POST", "/players/me/passkeys/options").status == 401  # no token
    after = call("GET", "/players/me/export", token=guest.token).body
    assert [p["lastUsedAt"] for p in after["passkeys"]] != [None]  # the one good sign-in
    assert len(after["sessions"]) == len(before["sessions"]) + 1


def test_bad_bodies_are_400_bad_request(api, call):
    guest = api.player("Ayşe")
    for path, body in (
        ("/players/me/passkeys", {"credential": {}}),
        ("/players/me/passkeys", {"challengeId": "x", "credential": {}, "extra": 1}),
        ("/sessions/transfer", {"code": 12345678}),
        ("/sessions/refresh", {}),
    ):
        reply = call("POST", path, body, token=guest.token)
        assert reply.status == 400 and reply.body["error"]["code"] == "bad_request", (
            path,
            reply.body,
        )


def test_transfer_code_refresh_sign_out_and_the_guess_limit_with_retry_after(api, call):
    guest = api.player("Ayşe")
    made = call("POST", "/players/me/transfer-codes", token=guest.token)
    assert made.status == 201 and set(made.body) == {"code", "expiresAt"}
    signed = call("POST", "/sessions/transfer", {"code": made.body["code"]}, ip="198.51.100.1")
    assert signed.status == 200 and signed.body["playerId"] == guest.id
    again = call("POST", "/sessions/transfer", {"code": made.body["code"]}, ip="198.51.100.1")
    assert again.status == 401
    rotated = call("POST", "/sessions/refresh", {"refreshToken": signed.body["refreshToken"]})
    assert rotated.status == 200 and rotated.body["refreshToken"] != signed.body["refreshToken"]
    out = call("DELETE", "/sessions/current", token=rotated.body["token"])
    assert out.status == 204 and out.body is None
    ended = call("POST", "/sessions/refresh", {"refreshToken": rotated.body["refreshToken"]})
    assert ended.status == 401
    for _ in range(8):
        assert (
            call("POST", "/sessions/transfer", {"code": "XXXXXXXX"}, ip="198.51.100.1").status
            == 401
        )
    limited = call("POST", "/sessions/transfer", {"code": "XXXXXXXX"}, ip="198.51.100.1")
    assert limited.status == 429 and limited.body["error"]["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) > 0


def test_removing_a_passkey_is_204_then_404(api, call):
    guest = api.player("Ayşe")
    passkey = register(call, guest.token)
    path = f"/players/me/passkeys/{b64url(passkey.credential_id)}"
    assert call("DELETE", path, token=guest.token).status == 204
    assert call("DELETE", path, token=guest.token).status == 404
    assert sign_in(call, passkey).status == 401


def test_export_then_delete_leaves_nothing_readable(api, call):
    game = api.game(seats=2)
    ayse = game.players[1]
    register(call, ayse.token)
    exported = call("GET", "/players/me/export", token=ayse.token)
    assert exported.status == 200 and exported.body["tables"] == [game.table_id]
    assert exported.body["player"]["name"] == "Oyuncu1"
    assert call("DELETE", "/players/me", token=ayse.token).status == 204
    assert api("get-player", token=game.players[0].token, playerId=ayse.id).status == 404
    assert call("GET", "/players/me/export", token=ayse.token).status == 401
    view = api.view(game.players[0], game.table_id)
    log = api("get-log", token=game.players[0].token, tableId=game.table_id, after=0).body
    text = json.dumps([view, log], ensure_ascii=False)
    assert ayse.id not in text and "Oyuncu1" not in text
    assert view["status"] == "paused"  # she left the running game (RULES §4)


def test_phrases_reach_the_table_from_seated_players_within_the_limits(
    api, call, app, clock, outbox
):
    game = api.game(seats=2)
    watcher = api.player("İzleyici")
    assert call("GET", "/phrases").body["phrases"][0] == {
        "id": "selam",
        "tr": "Selam",
        "en": "Hello",
    }
    path = f"/tables/{game.table_id}/phrases"
    app.sockets.connect(app.tokens.verify(watcher.token), game.table_id, "conn-watch")
    sent = call("POST", path, {"phrase": "iyi-oyunlar"}, token=game.players[1].token)
    assert sent.status == 200 and sent.body == {"seat": 1, "phrase": "iyi-oyunlar"}
    pushed = [m for c, m in outbox.sent if c == "conn-watch" and m.get("type") == "phrase"]
    assert pushed == [{"type": "phrase", "seat": 1, "phrase": "iyi-oyunlar"}]
    too_soon = call("POST", path, {"phrase": "selam"}, token=game.players[1].token)
    assert too_soon.status == 429 and int(too_soon.headers["Retry-After"]) >= 1
    assert call("POST", path, {"phrase": "free text"}, token=game.players[0].token).status == 400
    spectator = call("POST", path, {"phrase": "selam"}, token=watcher.token)
    assert spectator.status == 403 and spectator.body["error"]["code"] == "not_seated"
    for _ in range(19):
        clock.now += 3
        assert call("POST", path, {"phrase": "selam"}, token=game.players[1].token).status == 200
    clock.now += 3
    assert call("POST", path, {"phrase": "selam"}, token=game.players[1].token).status == 429


def test_friends_blocks_and_invitations_through_the_handler(api, call, app, outbox):
    game = api.game(seats=2)
    host, guest = game.players
    friend = api.player("Dost")
    code = call("GET", "/players/me/friends", token=friend.token).body["code"]
    asked = call("POST", "/players/me/friends", {"code": code}, token=host.token)
    assert asked.status == 200 and asked.body["outgoing"] == [
        {"playerId": friend.id, "name": "Dost"}
    ]
    accepted = call("POST", f"/players/me/friends/{host.id}", token=friend.token)
    assert accepted.status == 200 and [f["playerId"] for f in accepted.body["friends"]] == [host.id]
    app.sockets.connect(app.tokens.verify(friend.token), game.table_id, "conn-friend")
    invited = call(
        "POST", f"/tables/{game.table_id}/invitations", {"playerId": friend.id}, token=host.token
    )
    assert invited.status == 202
    assert {"type": "invitation", "tableId": game.table_id, "from": host.id} in outbox.to(
        "conn-friend"
    )
    stranger = call(
        "POST", f"/tables/{game.table_id}/invitations", {"playerId": guest.id}, token=host.token
    )
    assert stranger.status == 404
    # the friend blocks the guest: the guest's phrases no longer reach the friend's socket
    assert call("POST", f"/players/me/blocks/{guest.id}", token=friend.token).status == 204
    path = f"/tables/{game.table_id}/phrases"
    assert call("POST", path, {"phrase": "hadi-ama"}, token=guest.token).status == 200
    phrases = [m for m in outbox.to("conn-friend") if m.get("type") == "phrase"]
    assert phrases == []
    assert call("DELETE", f"/players/me/blocks/{guest.id}", token=friend.token).status == 204
    assert call("DELETE", f"/players/me/blocks/{guest.id}", token=friend.token).status == 404
    removed = call("DELETE", f"/players/me/friends/{host.id}", token=friend.token)
    assert removed.status == 204


def test_a_deleted_players_old_token_is_refused_everywhere_and_stores_nothing(
    api, call, ws, dynamodb, table_names
):
    """The probe's finding: the 30-day guest token made a push subscription, filed reports and
    opened sockets after the delete. API.md v4: every token answers 401 at once."""
    game = api.game(seats=2)
    ali, ayse = game.players
    view = api.view(ayse, game.table_id)
    assert call("DELETE", "/players/me", token=ayse.token).status == 204
    sub = {
        "endpoint": "https://push.example.com/s/1",
        "keys": {"p256dh": "B" * 87, "auth": "A" * 22},
    }
    refused = [
        call("POST", "/players/me/push-subscriptions", sub, token=ayse.token),
        call(
            "POST",
            f"/tables/{game.table_id}/reports",
            {"seat": 0, "kind": "insult"},
            token=ayse.token,
        ),
        call("GET", "/players/me/tables", token=ayse.token),
        call("GET", "/players/me/friends", token=ayse.token),
        call("POST", "/tables", {"game": "kastet", "seats": 2}, token=ayse.token),
        call("GET", f"/tables/{game.table_id}", token=ayse.token),
        call("POST", f"/tables/{game.table_id}/ticket", token=ayse.token),
        api.move("move-draw", ayse, game, view, move_id="after"),
        api.move("move-dry-run-draw", ayse, game, view),
    ]
    assert [r.status for r in refused] == [401] * len(refused), [r.body for r in refused]
    assert {r.body["error"]["code"] for r in refused} == {"unauthorized"}
    assert (
        ws("connect", token=ayse.token, tableId=game.table_id, connectionId="late")["statusCode"]
        == 401
    )
    own = api.event("ws/connect", token=ayse.token, tableId="t", connectionId="late-own")
    del own["queryStringParameters"]["tableId"]
    del own["multiValueQueryStringParameters"]["tableId"]
    assert ws.invoke(own)["statusCode"] == 401  # her own socket (presence) too
    for name in table_names.values():  # nothing new names her
        items = dynamodb.scan(TableName=name)["Items"]
        assert ayse.id not in json.dumps(items, default=str), name
    assert call("GET", "/players/me/friends", token=ali.token).status == 200
