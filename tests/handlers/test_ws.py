"""The WebSocket handler (functions/ws/app.py) replaying events/ws/*.json over in-process moto:
connect and disconnect, ping, moves, rejections answered on the socket, and fan-out."""

from __future__ import annotations

import json
import os

import pytest
from botocore.exceptions import ClientError
from testkit import rebuilt

from harftet.api.delta import apply_delta
from harftet.identity import Tokens
from harftet.push import ManagementApiSender

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

OK = {"statusCode": 200}


def connect(ws, player, table_id, connection_id):
    return ws("connect", token=player.token, tableId=table_id, connectionId=connection_id)


def send_move(ws, connection_id, table_id, version, move_id="m1", body=...):
    return ws(
        "move",
        body=body,
        connectionId=connection_id,
        tableId=table_id,
        version=version,
        moveId=move_id,
    )


def stored_connection(dynamodb, table_names, connection_id):
    """The connections table item for ``connection_id`` (None when there is none)."""
    item = dynamodb.get_item(
        TableName=table_names["ConnectionsTable"],
        Key={"connectionId": {"S": connection_id}},
        ConsistentRead=True,
    ).get("Item")
    return None if item is None else {k: next(iter(v.values())) for k, v in item.items()}


def connections_of(dynamodb, table_names, table_id):
    """Connection ids on a table, read through the table index as the app reads them."""
    page = dynamodb.query(
        TableName=table_names["ConnectionsTable"],
        IndexName="table-index",
        KeyConditionExpression="tableId = :t",
        ExpressionAttributeValues={":t": {"S": table_id}},
    )
    return sorted(i["connectionId"]["S"] for i in page["Items"])


def tokens_of(kind, player_id):
    secret = os.environ["TOKEN_SECRET"]
    return {
        "missing": None,
        "forged": Tokens("an-attacker's-own-secret-0123456789abcdef").issue(player_id, "X"),
        "expired": Tokens(secret, lifetime=-10).issue(player_id, "X"),
        "garbage": "not-a-jwt",
    }[kind]


# -- $connect ----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["missing", "forged", "expired", "garbage"])
def test_a_socket_with_a_bad_token_is_refused_with_401_and_not_remembered(
    api, ws, dynamodb, table_names, kind
):
    game = api.game()
    player = game.players[1]
    with api.unchanged(game.players[0], game.table_id):
        answer = ws(
            "connect", token=tokens_of(kind, player.id), tableId=game.table_id, connectionId="c1"
        )
        assert answer["statusCode"] == 401
    assert stored_connection(dynamodb, table_names, "c1") is None


def test_a_socket_for_an_unknown_table_is_refused_with_404(api, ws, dynamodb, table_names):
    player = api.player()
    assert connect(ws, player, "no-such-table", "c1")["statusCode"] == 404
    assert stored_connection(dynamodb, table_names, "c1") is None


def test_a_socket_that_meets_throttling_past_the_retries_is_busy_not_a_server_error(
    api, ws, app, monkeypatch, dynamodb, table_names
):
    from botocore.exceptions import ClientError

    game = api.game()
    player = game.players[1]

    def throttled(*_: object, **__: object) -> None:
        error = {"Code": "ProvisionedThroughputExceededException", "Message": "slow down"}
        raise ClientError({"Error": error}, "PutItem")

    monkeypatch.setattr(app.sockets, "connect", throttled)
    answer = connect(ws, player, game.table_id, "c1")
    assert answer["statusCode"] == 503 and "busy" in answer["body"]
    assert stored_connection(dynamodb, table_names, "c1") is None


def test_a_socket_without_a_table_is_the_players_own_and_watches_nothing(
    api, ws, dynamodb, table_names, outbox
):
    player = api.player()
    event = api.event("ws/connect", token=player.token, tableId="t", connectionId="c1")
    del event["queryStringParameters"]["tableId"]
    del event["multiValueQueryStringParameters"]["tableId"]
    assert ws.invoke(event) == OK  # invitations and friends' presence reach it
    item = stored_connection(dynamodb, table_names, "c1")
    assert item is not None and item["playerId"] == player.id and "tableId" not in item
    ws("sync", connectionId="c1")
    (answer,) = outbox.to("c1")
    assert answer["type"] == "error" and "no table" in answer["error"]["message"]
    ws("disconnect", connectionId="c1")
    assert stored_connection(dynamodb, table_names, "c1") is None


def test_a_good_token_connects_and_the_connection_is_remembered_for_its_table(
    api, ws, dynamodb, table_names, clock
):
    game = api.game()
    player = game.players[1]
    assert connect(ws, player, game.table_id, "c1") == OK
    item = stored_connection(dynamodb, table_names, "c1")
    assert item is not None
    assert item["tableId"] == game.table_id and item["playerId"] == player.id
    assert int(item["expiresAt"]) > clock.now  # the TTL that cleans up a lost socket
    assert connections_of(dynamodb, table_names, game.table_id) == ["c1"]


def test_a_spectator_may_watch_a_table_over_a_socket(api, ws, outbox):
    game = api.game()
    spectator = api.player("Seyirci")
    assert connect(ws, spectator, game.table_id, "watch") == OK
    _, view = api.turn(game)
    assert send_move(ws, "watch", game.table_id, view["version"])["statusCode"] == 200
    error = outbox.to("watch")[-1]
    assert error["type"] == "error" and error["error"]["code"] == "not_seated"


# -- $disconnect -------------------------------------------------------------------------
def test_closing_the_socket_forgets_it_and_shows_the_player_disconnected(
    api, ws, outbox, dynamodb, table_names
):
    game = api.game()
    owner, guest = game.players
    connect(ws, owner, game.table_id, "c0")
    connect(ws, guest, game.table_id, "c1")
    before = api.view(owner, game.table_id)
    assert before["seats"][1]["connected"] is True
    assert ws("disconnect", connectionId="c1") == OK
    assert stored_connection(dynamodb, table_names, "c1") is None
    after = api.view(owner, game.table_id)
    assert after["seats"][1]["connected"] is False and after["version"] == before["version"] + 1
    assert after["status"] == "playing"  # the seat is held during the grace period
    pushed = outbox.to("c0")[-1]
    assert pushed["type"] == "table" and pushed["view"]["seats"][1]["connected"] is False


def test_a_player_with_two_sockets_stays_connected_until_the_last_one_closes(api, ws):
    game = api.game()
    guest = game.players[1]
    connect(ws, guest, game.table_id, "phone")
    connect(ws, guest, game.table_id, "laptop")
    ws("disconnect", connectionId="phone")
    assert api.view(guest, game.table_id)["seats"][1]["connected"] is True
    ws("disconnect", connectionId="laptop")
    assert api.view(guest, game.table_id)["seats"][1]["connected"] is False


def _left(api, ws, connection_id):
    """A started game whose guest (seat 1) opened ``connection_id`` and closed it again."""
    game = api.game()
    guest = game.players[1]
    connect(ws, guest, game.table_id, connection_id)
    ws("disconnect", connectionId=connection_id)
    return game, guest


def test_a_player_who_connects_again_is_shown_connected_again(api, ws):
    game, guest = _left(api, ws, "first")
    assert connect(ws, guest, game.table_id, "second") == OK
    assert api.view(guest, game.table_id)["seats"][1]["connected"] is True


def test_a_second_disconnect_of_the_same_socket_changes_nothing(api, ws):
    game, guest = _left(api, ws, "c1")
    with api.unchanged(guest, game.table_id):
        assert ws("disconnect", connectionId="c1") == OK


# -- the message routes (move, sync, ping; $default for other actions) --------------------
def test_ping_is_answered_with_pong_on_the_same_socket_only(api, ws, outbox):
    game = api.game()
    connect(ws, game.players[0], game.table_id, "c0")
    connect(ws, game.players[1], game.table_id, "c1")
    assert ws("ping", connectionId="c1")["statusCode"] == 200
    assert outbox.sent == [("c1", {"type": "pong"})]


def test_an_action_without_a_route_of_its_own_reaches_default_and_is_answered_an_error(
    api, ws, outbox
):
    game = api.game()
    connect(ws, game.players[0], game.table_id, "c0")
    event = api.event("ws/ping", connectionId="c0")
    event["requestContext"]["routeKey"] = "$default"
    event["body"] = json.dumps({"action": "dance"})
    assert ws.invoke(event)["statusCode"] == 200
    [(to, answer)] = outbox.sent
    assert to == "c0" and answer["type"] == "error" and answer["status"] == 400
    assert (
        answer["error"]["code"] == "bad_request" and "unknown action" in answer["error"]["message"]
    )


def test_a_messages_reply_carries_what_the_socket_was_sent_even_where_no_post_arrives(
    api, ws, outbox
):
    """The reply of a message is what a two-way route would answer: the answer or refusal
    posted to the socket. The template's routes are one-way (API Gateway drops it), but the
    WebSocket pre-traffic hook invokes a new version with a connection no post reaches and
    reads the answers there: a sync's view, a move's delta, a refusal."""
    game = api.game()
    mover, view = api.turn(game)
    connect(ws, mover, game.table_id, "c-gone")
    outbox.gone.add("c-gone")  # every post to it is lost, as to a connection made up
    synced = json.loads(ws("sync", connectionId="c-gone")["body"])
    assert synced == {"type": "table", "view": api.view(mover, game.table_id)}
    moved = json.loads(send_move(ws, "c-gone", game.table_id, view["version"])["body"])
    assert moved["type"] == "delta" and moved["moveId"] == "m1"
    assert moved["version"] == view["version"] + 1 == api.view(mover, game.table_id)["version"]
    stale = json.loads(send_move(ws, "c-gone", game.table_id, view["version"], "m2")["body"])
    assert stale["type"] == "error" and stale["status"] == 409 and stale["moveId"] == "m2"
    outbox.gone.clear()
    assert json.loads(ws("ping", connectionId="c-gone")["body"]) == outbox.to("c-gone")[-1]


def test_a_move_over_the_socket_changes_the_table_and_each_socket_gets_its_own_view(
    api, ws, outbox
):
    game = api.game(seats=3)
    spectator = api.player("Seyirci")
    for i, player in enumerate(game.players):
        connect(ws, player, game.table_id, f"c{i}")
    connect(ws, spectator, game.table_id, "watch")
    mover, view = api.turn(game)
    mover_socket = f"c{game.players.index(mover)}"
    assert send_move(ws, mover_socket, game.table_id, view["version"])["statusCode"] == 200
    for i, player in enumerate(game.players):
        pushed = outbox.to(f"c{i}")
        mine = api.view(player, game.table_id)
        assert mine["version"] == view["version"] + 1 and mine["seat"] == i
        if f"c{i}" == mover_socket:
            # the mover's socket is answered at once with what changed since the version it
            # sent, naming the move; the fan-out's push of the version leaves it out
            [answer] = pushed
            assert answer["type"] == "delta" and answer["moveId"] == "m1"
            assert answer["from"] == view["version"]
            assert apply_delta(view, answer) == mine
        else:
            assert [p["type"] for p in pushed] == ["table"]
            assert pushed[0]["view"] == mine
    watched = outbox.to("watch")
    assert len(watched) == 1 and "hand" not in watched[0]["view"]
    assert len(api.view(mover, game.table_id)["hand"]) == 15
    for _, payload in outbox.sent:
        assert str(api.SEED) not in json.dumps(payload) and "seed" not in json.dumps(payload)


def _body(**fields):
    return json.dumps(fields)


# error code → (the socket that sends, tableId, version, body); ``...`` keeps the body of
# events/ws/move.json (a draw) with that tableId and version filled in.
REJECTIONS = {
    "not_your_turn": lambda g, v: ("other", g.table_id, v["version"], ...),
    "stale_version": lambda g, v: ("mover", g.table_id, v["version"] - 1, ...),
    "not_found": lambda g, v: ("mover", "no-such-table", v["version"], ...),
    "unauthorized": lambda g, v: ("stranger", g.table_id, v["version"], ...),
    "illegal_move": lambda g, v: (
        "mover",
        g.table_id,
        v["version"],
        _body(action="move", tableId=g.table_id, version=v["version"], moveId="p", type="pass"),
    ),
    "bad_request": lambda g, v: (
        "mover",
        g.table_id,
        v["version"],
        _body(
            action="move", tableId=g.table_id, version=str(v["version"]), moveId="m", type="draw"
        ),
    ),
    "wrong_status:ready": lambda g, v: (  # ready is said between hands only (RULES §2a)
        "other",
        g.table_id,
        v["version"],
        _body(action="move", tableId=g.table_id, version=v["version"], moveId="r", type="ready"),
    ),
    "bad_request:action": lambda g, v: ("mover", g.table_id, 0, _body(action="dance")),
    "bad_request:json": lambda g, v: ("mover", g.table_id, 0, '{"action": "move",'),
    "bad_request:size": lambda g, v: ("mover", g.table_id, 0, _body(action="x", pad="x" * 70000)),
}


@pytest.mark.parametrize("case", sorted(REJECTIONS))
def test_a_rejected_move_is_answered_on_that_socket_only_and_nothing_changes(
    api, ws, outbox, case, sockets
):
    game, mover, _other, view = sockets("mover", "other")
    who, table_id, version, body = REJECTIONS[case](game, view)
    with api.unchanged(mover, game.table_id):
        assert send_move(ws, who, table_id, version, body=body)["statusCode"] == 200
    [(to, payload)] = outbox.sent
    assert to == who and payload["type"] == "error"
    assert payload["error"]["code"] == case.split(":")[0] and payload["error"]["message"]
    # the refusal names the move it refuses, so a client knows which of its moves failed
    try:
        named = "m1" if body is ... else json.loads(body).get("moveId")
    except ValueError:
        named = None  # not JSON: no move to name
    assert payload.get("moveId") == named
    if case == "stale_version":
        assert payload["view"] == view  # the mover's own view to resync from


# -- fan-out -----------------------------------------------------------------------------
def _recording(client):
    """Every PostToConnection the client is asked to make: (connection id, decoded payload)."""
    posts = []

    def record(params, **_):
        posts.append((params["ConnectionId"], json.loads(params["Data"])))

    client.meta.events.register(
        "provide-client-params.apigatewaymanagementapi.PostToConnection", record
    )
    return posts


def test_a_gone_socket_is_dropped_and_the_others_still_get_the_push(
    api, ws, app, monkeypatch, clock, dynamodb, table_names, sockets
):
    game, mover, other, view = sockets("alive", "gone")
    spectator = api.player("Seyirci")
    connect(ws, spectator, game.table_id, "watch")
    clock.advance(10)  # registered long enough ago to be open: a 410 now means gone
    held = {"alive": api.view(mover, game.table_id), "watch": api.view(spectator, game.table_id)}
    client = FakeManagementApi(gone={"gone"})
    monkeypatch.setattr(
        app, "send", ManagementApiSender("https://example.invalid/prod", client=client)
    )
    reply = api.move("move-draw", mover, game, view, "d1")
    assert reply.status == 200 and reply.body["version"] == view["version"] + 1
    received = {  # the views the clients rebuild from the deltas pushed
        c: rebuilt([p for to, p in client.posted if to == c], held[c]) for c in ("alive", "watch")
    }
    for views in received.values():
        assert [v["version"] for v in views] == [view["version"] + 1, view["version"] + 2]
        assert views[-1]["seats"][other_seat(game, other)]["connected"] is False
    assert received["alive"][0]["seat"] == game.players.index(mover)
    assert "hand" not in received["watch"][0]
    assert stored_connection(dynamodb, table_names, "gone") is None
    assert connections_of(dynamodb, table_names, game.table_id) == ["alive", "watch"]
    seat = api.view(mover, game.table_id)["seats"][other_seat(game, other)]
    assert seat["connected"] is False and seat["playerId"] == other.id


def other_seat(game, player):
    return game.players.index(player)


class FakeManagementApi:
    """A management API client answering as API Gateway does: GoneException (410) for
    ``gone`` connections, a throttling error for ``failing`` ones; records the rest."""

    def __init__(self, gone=(), failing=()):
        self.gone = set(gone)
        self.failing = set(failing)
        self.posted = []

    def post_to_connection(self, ConnectionId, Data):  # boto3's names
        if ConnectionId in self.gone:
            error = {
                "Error": {"Code": "GoneException"},
                "ResponseMetadata": {"HTTPStatusCode": 410},
            }
            raise ClientError(error, "PostToConnection")
        if ConnectionId in self.failing:
            raise ClientError({"Error": {"Code": "LimitExceededException"}}, "PostToConnection")
        self.posted.append((ConnectionId, json.loads(Data)))


def test_a_socket_that_fails_otherwise_is_kept_and_the_others_still_get_the_push(
    api, ws, app, monkeypatch, dynamodb, table_names, sockets
):
    game, mover, other, view = sockets("alive", "flaky")
    client = FakeManagementApi(failing={"flaky"})
    monkeypatch.setattr(
        app, "send", ManagementApiSender("https://example.invalid/prod", client=client)
    )
    reply = api.move("move-draw", mover, game, view, "d")
    assert reply.status == 200
    assert [(c, p["view"]["version"]) for c, p in client.posted] == [("alive", view["version"] + 1)]
    assert stored_connection(dynamodb, table_names, "flaky") is not None
    assert api.view(mover, game.table_id)["seats"][other_seat(game, other)]["connected"] is True


def test_a_repeated_move_over_the_socket_answers_again_and_changes_nothing(
    api, ws, outbox, sockets
):
    game, mover, _other, view = sockets("mover", "other")
    send_move(ws, "mover", game.table_id, view["version"], "draw-1")
    [first] = outbox.to("mover")
    assert first["type"] == "delta" and first["moveId"] == "draw-1"
    after = api.view(mover, game.table_id)
    outbox.sent.clear()
    with api.unchanged(mover, game.table_id):
        assert send_move(ws, "mover", game.table_id, view["version"], "draw-1")["statusCode"] == 200
    # API.md: a moveId already applied returns the same answer again; over the socket that is
    # the caller's whole view (the resending client may hold any version), naming the move.
    assert outbox.sent == [("mover", {"type": "table", "view": after, "moveId": "draw-1"})]


def test_every_sample_websocket_event_names_its_route_and_connection(api):
    for name, route, kind in [
        ("connect", "$connect", "CONNECT"),
        ("disconnect", "$disconnect", "DISCONNECT"),
        ("ping", "ping", "MESSAGE"),  # a route per action (template.yaml, issue 40)
        ("move", "move", "MESSAGE"),
        ("sync", "sync", "MESSAGE"),
    ]:
        event = api.event(
            f"ws/{name}", token="T", tableId="t", connectionId="c", version=1, moveId="m"
        )
        context = event["requestContext"]
        assert (context["routeKey"], context["eventType"]) == (route, kind)
        assert context["connectionId"] == "c" and event["isBase64Encoded"] is False
        if kind == "MESSAGE":
            assert json.loads(event["body"])["action"] == name
        if kind == "CONNECT":
            assert event["queryStringParameters"] == {"token": "T", "tableId": "t"}


def test_a_fifth_socket_of_one_player_on_a_table_is_refused_and_not_remembered(
    api, ws, dynamodb, table_names
):
    game = api.game()
    guest = game.players[1]
    for n in range(4):
        assert connect(ws, guest, game.table_id, f"tab{n}") == OK
    answer = connect(ws, guest, game.table_id, "tab4")
    assert answer["statusCode"] == 429
    assert stored_connection(dynamodb, table_names, "tab4") is None
    assert connect(ws, game.players[0], game.table_id, "owner") == OK  # others still may
    assert len(connections_of(dynamodb, table_names, game.table_id)) == 5
