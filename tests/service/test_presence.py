"""Friends' presence pushed live (RULES §7, API.md v3 "WebSocket pushes"): a friend's open
sockets are told when a player comes online, sits at or leaves a table, or goes away —
only friends, never a blocked player, never a table's id, and only when it changed."""

from __future__ import annotations

from typing import Any

import pytest
from service_helpers import player

from harftet.engine.options import TableOptions
from harftet.errors import TooManyConnectionsError
from harftet.friends import Friends
from harftet.presence.service import MAX_LOBBY_CONNECTIONS


@pytest.fixture
def people(app: Any) -> Friends:
    app.forgetting.wait = 0  # no stream consumer here: the log is not waited for
    return app.friends


@pytest.fixture
def live(app, stream):
    """The stream's publisher, pumped by hand (sit, leave and game ends reach it)."""
    from testkit import publisher_over

    from harftet.fanout import changes_from_stream

    publisher = publisher_over(app, on_seating=app.presence.seating_changed)
    return lambda: stream.deliver(lambda event: publisher.publish(changes_from_stream(event)))


def friends(people: Friends, one: Any, two: Any) -> None:
    people.request(one, people.friends(two)["code"])
    people.accept(two, one.player_id)


def presence_pushes(outbox: Any, connection_id: str) -> list[dict[str, Any]]:
    return [p for p in outbox.to(connection_id) if p["type"] == "presence"]


def waiting_table(app: Any, manager: Any, seats: int = 2) -> str:
    view = app.tables.create_table(
        manager, TableOptions(game="harftet", seats=seats, hands=1, partners=False, turn_seconds=45)
    )
    return str(view["tableId"])


def test_a_friend_sees_online_at_a_table_and_away_as_they_happen(app, people, outbox, live):
    ayse, ali = player(app, "Ayşe"), player(app, "Ali")
    friends(people, ayse, ali)
    app.presence.open(ayse, "ayse-lobby")
    outbox.sent.clear()
    app.presence.open(ali, "ali-lobby")  # Ali comes online
    assert presence_pushes(outbox, "ayse-lobby") == [
        {"type": "presence", "playerId": ali.player_id, "status": "online"}
    ]
    table_id = waiting_table(app, ali)
    app.sockets.connect(ali, table_id, "ali-table")  # at his own table (seated at creation)
    app.sockets.disconnect("ali-lobby")
    live()
    guest = player(app, "Misafir")
    app.tables.sit(guest, table_id, 1)
    app.tables.start(ali, table_id)
    live()
    app.tables.leave(ali, table_id, 0)  # stands up: still connected, so online
    live()
    app.sockets.disconnect("ali-table")  # gone
    seen = [{k: v for k, v in p.items() if k != "type"} for p in outbox.to("ayse-lobby")]
    mine = {"playerId": ali.player_id}
    assert seen == [
        {**mine, "status": "online"},
        {**mine, "status": "table", "game": "harftet"},
        {**mine, "status": "online"},
        {**mine, "status": "away"},
    ]
    assert table_id not in str(outbox.to("ayse-lobby"))  # which game, never which table
    assert presence_pushes(outbox, "ali-table") == []  # Ayşe's presence did not change


def test_sitting_down_at_a_table_one_watches_is_announced_by_the_publisher(
    app, people, outbox, live
):
    ayse, ali, host = player(app, "Ayşe"), player(app, "Ali"), player(app, "Ev")
    friends(people, ayse, ali)
    app.presence.open(ayse, "ayse-lobby")
    table_id = waiting_table(app, host)
    app.sockets.connect(ali, table_id, "ali-watch")  # watching: online, not at a table
    live()
    app.tables.sit(ali, table_id, 1)
    live()
    statuses = [p["status"] for p in presence_pushes(outbox, "ayse-lobby")]
    assert statuses == ["online", "table"]
    app.tables.leave(ali, table_id, 1)  # before the start: leaves freely
    live()
    assert [p["status"] for p in presence_pushes(outbox, "ayse-lobby")][-1] == "online"


def test_a_second_socket_changes_nothing_and_pushes_nothing(app, people, outbox):
    ayse, ali = player(app, "Ayşe"), player(app, "Ali")
    friends(people, ayse, ali)
    app.presence.open(ayse, "ayse-lobby")
    app.presence.open(ali, "ali-1")
    before = len(presence_pushes(outbox, "ayse-lobby"))
    app.presence.open(ali, "ali-2")
    app.sockets.disconnect("ali-1")  # one left: still online
    assert len(presence_pushes(outbox, "ayse-lobby")) == before
    app.sockets.disconnect("ali-2")
    assert presence_pushes(outbox, "ayse-lobby")[-1]["status"] == "away"


def test_strangers_and_blocked_players_are_never_told(app, people, outbox):
    ayse, troll, stranger = player(app, "Ayşe"), player(app, "Trol"), player(app, "X")
    friends(people, ayse, troll)
    people.block(ayse, troll.player_id)  # a block ends the friendship
    app.presence.open(troll, "troll-lobby")
    app.presence.open(stranger, "stranger-lobby")
    outbox.sent.clear()
    app.presence.open(ayse, "ayse-lobby")
    app.sockets.disconnect("ayse-lobby")
    app.presence.open(ayse, "ayse-lobby-2")
    assert presence_pushes(outbox, "troll-lobby") == []
    assert presence_pushes(outbox, "stranger-lobby") == []
    app.sockets.disconnect("troll-lobby")  # and the blocker hears nothing of the blocked
    app.presence.open(troll, "troll-lobby-2")
    assert presence_pushes(outbox, "ayse-lobby-2") == []
    assert all(p["type"] != "presence" for c, p in outbox.sent if c.startswith("stranger"))


def test_new_friends_are_told_each_others_presence_at_once(app, people, outbox):
    ayse, ali = player(app, "Ayşe"), player(app, "Ali")
    app.presence.open(ayse, "ayse-lobby")
    app.presence.open(ali, "ali-lobby")
    people.request(ayse, people.friends(ali)["code"])
    assert presence_pushes(outbox, "ali-lobby") == []  # a request is not a friendship
    people.accept(ali, ayse.player_id)
    assert presence_pushes(outbox, "ali-lobby") == [
        {"type": "presence", "playerId": ayse.player_id, "status": "online"}
    ]
    assert presence_pushes(outbox, "ayse-lobby") == [
        {"type": "presence", "playerId": ali.player_id, "status": "online"}
    ]
    listed = people.friends(ayse)["friends"]
    assert listed[0]["presence"] == {"status": "online"}


def test_a_lobby_socket_gets_invitations_and_is_bounded(app, people, outbox):
    ayse, ali = player(app, "Ayşe"), player(app, "Ali")
    friends(people, ayse, ali)
    for i in range(MAX_LOBBY_CONNECTIONS):
        app.presence.open(ali, f"ali-{i}")
    with pytest.raises(TooManyConnectionsError):
        app.presence.open(ali, "ali-extra")
    assert app.sockets.connection("ali-extra") is None
    table_id = waiting_table(app, ayse)
    people.invite(ayse, table_id, ali.player_id)
    invitation = {"type": "invitation", "tableId": table_id, "from": ayse.player_id}
    assert all(invitation in outbox.to(f"ali-{i}") for i in range(MAX_LOBBY_CONNECTIONS))
    assert app.stores.connections.for_table(table_id) == []  # a lobby socket watches no table


def test_a_deleted_player_leaves_no_presence_behind(app, people, outbox):
    ayse, ali = player(app, "Ayşe"), player(app, "Ali")
    friends(people, ayse, ali)
    app.presence.open(ali, "ali-lobby")
    assert app.stores.connections.sockets(ali.player_id) == {"ali-lobby": ""}
    app.data.delete(ali)
    assert ali.player_id not in app.stores.connections.presence  # no presence# item
    assert app.stores.connections.sockets(ali.player_id) == {}
    app.presence.open(ayse, "ayse-lobby")  # Ali was told nothing: he is nobody's now
    assert presence_pushes(outbox, "ali-lobby") == []
