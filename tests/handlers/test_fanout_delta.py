"""Pushes that carry what changed (API.md v3): after its first push (the whole view) a
connection gets ``{"type": "delta", "from", "version", "ops"}`` from the fan-out, which
rebuilds exactly the view it would have fetched; seated players are posted before
spectators; ``{"action": "sync"}`` answers the whole view."""

from __future__ import annotations

import copy

import pytest
from testkit import LambdaContext

from harftet.api.delta import size

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")
FANOUT = LambdaContext(function_name="harftet-FanoutFunction-1A2B3C4D")


def connect(ws, player, table_id, connection_id):
    reply = ws("connect", token=player.token, tableId=table_id, connectionId=connection_id)
    assert reply == {"statusCode": 200}, reply


def draw(api, game, move_id, clock):
    clock.advance(1)  # moves are some time apart
    mover, view = api.turn(game)
    reply = api.move("move-draw", mover, game, view, move_id)  # fmt: skip
    assert reply.status == 200, reply.body


def test_every_connection_rebuilds_the_view_it_would_fetch_from_its_pushes(api, ws, outbox, clock):
    game = api.game()
    watcher = api.player("İzleyici")
    people = {"c0": game.players[0], "c1": game.players[1], "cw": watcher}
    for connection_id, player in people.items():
        connect(ws, player, game.table_id, connection_id)
    for connection_id, player in people.items():  # each client starts from a whole view
        ws("sync", connectionId=connection_id)
        assert outbox.to(connection_id)[-1] == {
            "type": "table",
            "view": api.view(player, game.table_id),
        }
    draw(api, game, "first", clock)  # the first push since the socket opened: whole views
    assert all(outbox.to(c)[-1]["type"] == "table" for c in people)
    for n in range(6):
        draw(api, game, f"d{n}", clock)
        for connection_id, player in people.items():
            pushed = outbox.to(connection_id)[-1]
            assert pushed["type"] == "delta" and pushed["version"] == pushed["from"] + 1
            assert size(pushed) < 600, pushed  # a whole view is several KB
            assert outbox.view(connection_id) == api.view(player, game.table_id)
    assert "hand" not in outbox.view("cw")


def test_seated_players_are_posted_before_any_spectator(api, ws, outbox, clock):
    game = api.game()
    for n in range(3):  # spectators who came first
        connect(ws, api.player(f"İzleyici{n}"), game.table_id, f"w{n}")
    connect(ws, game.players[0], game.table_id, "c0")
    connect(ws, game.players[1], game.table_id, "c1")
    draw(api, game, "first", clock)
    outbox.sent.clear()
    draw(api, game, "d", clock)
    assert {pushed["type"] for _, pushed in outbox.sent} == {"delta"}
    order = [connection_id for connection_id, _ in outbox.sent]
    assert sorted(order[:2]) == ["c0", "c1"] and sorted(order[2:]) == ["w0", "w1", "w2"]
    spectators = [pushed for connection_id, pushed in outbox.sent if connection_id[0] == "w"]
    assert all(p == spectators[0] for p in spectators)  # one spectator view, made once


def test_a_player_who_leaves_their_seat_is_pushed_the_change_to_a_spectators_view(
    api, ws, outbox, clock
):
    owner, guest = api.player("Ev"), api.player("Misafir")
    table_id = api.table(owner, seats=3)["tableId"]
    assert api("sit", token=guest.token, tableId=table_id, seat=1).status == 200
    connect(ws, guest, table_id, "g")
    ws("sync", connectionId="g")
    assert outbox.view("g")["seats"][1]["playerId"] == guest.id
    clock.advance(1)
    assert api("sit", token=api.player("Üçüncü").token, tableId=table_id, seat=2).status == 200
    clock.advance(1)
    assert api("leave", token=guest.token, tableId=table_id, seat=1).status == 200
    assert outbox.to("g")[-1]["type"] == "delta"
    assert outbox.view("g") == api.view(guest, table_id)
    clock.advance(1)
    assert api("sit", token=guest.token, tableId=table_id, seat=1).status == 200
    assert outbox.to("g")[-1]["type"] == "delta"
    assert outbox.view("g") == api.view(guest, table_id)


def test_a_batch_of_versions_is_one_delta_from_the_version_before_it(
    api, ws, apps, outbox, stream, clock, monkeypatch
):
    game = api.game()
    connect(ws, game.players[0], game.table_id, "c0")
    draw(api, game, "first", clock)
    before = outbox.view("c0")
    monkeypatch.setattr(api, "after", None)  # hold the stream back: one batch of three
    for n in range(3):
        draw(api, game, f"d{n}", clock)
    [event] = stream.events()
    apps.fanout.handler(copy.deepcopy(event), FANOUT)
    pushed = outbox.to("c0")[-1]
    assert (pushed["type"], pushed["from"], pushed["version"]) == (
        "delta",
        before["version"],
        before["version"] + 3,
    )
    assert outbox.view("c0") == api.view(game.players[0], game.table_id)


def test_a_record_without_the_version_it_replaced_is_pushed_as_the_whole_view(
    api, ws, apps, outbox, stream, clock, monkeypatch
):
    game = api.game()
    connect(ws, game.players[0], game.table_id, "c0")
    draw(api, game, "first", clock)
    monkeypatch.setattr(api, "after", None)
    draw(api, game, "d", clock)
    [event] = stream.events()
    for record in event["Records"]:
        record["dynamodb"].pop("OldImage")  # e.g. a stream still written as NEW_IMAGE
    apps.fanout.handler(event, FANOUT)
    assert outbox.to("c0")[-1] == {
        "type": "table",
        "view": api.view(game.players[0], game.table_id),
    }


def test_a_socket_opened_since_the_version_before_is_pushed_the_whole_view(api, ws, outbox, clock):
    game = api.game()
    connect(ws, game.players[0], game.table_id, "c0")
    draw(api, game, "first", clock)
    clock.advance(1)
    connect(ws, game.players[1], game.table_id, "c1")  # it may hold no view yet
    outbox.sent.clear()
    draw(api, game, "d", clock)
    assert outbox.to("c0")[-1]["type"] == "delta"
    assert outbox.to("c1")[-1] == {
        "type": "table",
        "view": api.view(game.players[1], game.table_id),
    }


def test_sync_answers_the_whole_view_and_an_unregistered_socket_an_error(api, ws, outbox):
    game = api.game()
    watcher = api.player("İzleyici")
    connect(ws, watcher, game.table_id, "cw")
    assert ws("sync", connectionId="cw")["statusCode"] == 200
    assert outbox.to("cw")[-1] == {"type": "table", "view": api.view(watcher, game.table_id)}
    ws("sync", connectionId="nobody")
    [answer] = outbox.to("nobody")
    assert answer["type"] == "error" and answer["error"]["code"] == "unauthorized"


def test_the_seats_posted_last_time_are_posted_before_the_tables_connections_are_read(
    api, ws, outbox, clock, app, monkeypatch
):
    game = api.game()
    for n in range(3):
        connect(ws, api.player(f"İzleyici{n}"), game.table_id, f"w{n}")
    connect(ws, game.players[0], game.table_id, "c0")
    connect(ws, game.players[1], game.table_id, "c1")
    draw(api, game, "first", clock)  # this push finds the seats' connections
    read = app.stores.connections.for_table

    def reading(table_id):
        outbox.sent.append(("(read)", {}))
        return read(table_id)

    monkeypatch.setattr(app.stores.connections, "for_table", reading)
    held = {c: outbox.view(c) for c in ("c0", "c1")}
    outbox.sent.clear()
    draw(api, game, "d", clock)
    order = [connection_id for connection_id, _ in outbox.sent]
    assert sorted(order[:2]) == ["c0", "c1"] and order[2] == "(read)"
    assert sorted(order[3:]) == ["w0", "w1", "w2"]  # each connection once
    for connection_id, player in (("c0", game.players[0]), ("c1", game.players[1])):
        rebuilt = outbox.view(connection_id, held[connection_id])
        assert rebuilt == api.view(player, game.table_id)
    outbox.gone.add("c1")  # a seat's socket closed: its post fails, the others go on
    outbox.sent.clear()
    draw(api, game, "e", clock)
    assert sorted(c for c, _ in outbox.sent if c != "(read)") == ["c0", "w0", "w1", "w2"]
