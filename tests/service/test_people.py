"""Friends, blocks and invitations (API.md v3 "People", RULES §7): requests both ways,
accept/refuse/remove, a block hides everything from the blocked player, invitations reach
the friend's sockets only, and nothing tells a blocked player they are blocked."""

from __future__ import annotations

from typing import Any

import pytest
from service_helpers import full_table, player

from harftet.errors import NotFoundError
from harftet.friends import Friends


@pytest.fixture
def people(app: Any) -> Friends:
    app.forgetting.wait = 0  # no stream consumer here: the log is not waited for
    return app.friends


def names(listed: list[dict[str, Any]]) -> list[str]:
    return [p["name"] for p in listed]


def test_a_request_by_code_is_accepted_then_removed(app, people):
    ayse, ali = player(app, "Ayşe"), player(app, "Ali")
    code = people.friends(ali)["code"]
    assert people.friends(ali)["code"] == code and len(code) == 8  # one code per player
    sent = people.request(ayse, code.lower())
    assert names(sent["outgoing"]) == ["Ali"] and sent["friends"] == []
    assert names(people.friends(ali)["incoming"]) == ["Ayşe"]
    accepted = people.accept(ali, ayse.player_id)
    assert names(accepted["friends"]) == ["Ayşe"] and accepted["incoming"] == []
    assert names(people.friends(ayse)["friends"]) == ["Ali"]
    assert people.friends(ayse)["outgoing"] == []
    people.remove(ayse, ali.player_id)
    assert people.friends(ali)["friends"] == [] and people.friends(ayse)["friends"] == []
    with pytest.raises(NotFoundError):
        people.remove(ayse, ali.player_id)


def test_two_requests_meet_and_a_refusal_leaves_nothing(app, people):
    ayse, ali, veli = player(app, "Ayşe"), player(app, "Ali"), player(app, "Veli")
    people.request(ayse, people.friends(ali)["code"])
    both = people.request(ali, people.friends(ayse)["code"])  # Ali asks back: friends
    assert names(both["friends"]) == ["Ayşe"] and both["outgoing"] == both["incoming"] == []
    people.request(veli, people.friends(ayse)["code"])
    people.remove(ayse, veli.player_id)  # refused
    assert people.friends(veli)["outgoing"] == [] and people.friends(ayse)["incoming"] == []
    with pytest.raises(NotFoundError):
        people.request(ayse, "ZZZZZZZZ")
    with pytest.raises(NotFoundError):
        people.request(ayse, people.friends(ayse)["code"])  # oneself
    with pytest.raises(NotFoundError):
        people.accept(ayse, veli.player_id)  # no request


def test_a_blocked_player_can_send_nothing_and_learns_nothing(app, people, outbox):
    ayse, troll = player(app, "Ayşe"), player(app, "Trol")
    people.request(troll, people.friends(ayse)["code"])
    people.block(ayse, troll.player_id)
    assert people.friends(ayse)["incoming"] == []  # the request went with the block
    with pytest.raises(NotFoundError, match="no player has this friend code"):
        people.request(troll, people.friends(ayse)["code"])  # as if the code were unknown
    export = app.data.export(troll)
    assert ayse.player_id not in str(export)  # blockedBy is not shown to the blocked
    assert people.blocked_by(troll.player_id) == {ayse.player_id}
    people.unblock(ayse, troll.player_id)
    assert people.blocked_by(troll.player_id) == set()
    with pytest.raises(NotFoundError):
        people.unblock(ayse, troll.player_id)


def test_an_invitation_reaches_every_socket_of_the_friend_only(app, people, outbox):
    table_id, (host, _guest) = full_table(app, seats=2)
    friend, stranger = player(app, "Dost"), player(app, "Yabancı")
    people.request(host, people.friends(friend)["code"])
    people.accept(friend, host.player_id)
    other_id, _ = full_table(app, seats=2)
    app.stores.connections.add("f1", other_id, friend.player_id, app.clock())
    app.stores.connections.add("f2", table_id, friend.player_id, app.clock())
    app.stores.connections.add("s1", other_id, stranger.player_id, app.clock())
    answer = people.invite(host, table_id, friend.player_id)
    assert answer == {"tableId": table_id, "playerId": friend.player_id}
    pushed = {"type": "invitation", "tableId": table_id, "from": host.player_id}
    assert outbox.to("f1") == [pushed] and outbox.to("f2") == [pushed]
    assert outbox.to("s1") == []
    with pytest.raises(NotFoundError):
        people.invite(host, table_id, stranger.player_id)  # friends only
    with pytest.raises(NotFoundError):
        people.invite(host, "no-such-table", friend.player_id)
    people.block(friend, host.player_id)  # the block ends the friendship too
    with pytest.raises(NotFoundError):
        people.invite(host, table_id, friend.player_id)


def test_a_friend_request_reaches_the_asked_players_sockets_at_once_and_nobody_else(
    app, people, outbox
):
    """A request shows without a reload: pushed to every open socket of the asked player
    (their lobby's own one, a table's), never to the asker nor to a third player; a request
    that meets one already made is told as presence (they are friends), not as a request."""
    ayse, ali, veli = player(app, "Ayşe"), player(app, "Ali"), player(app, "Veli")
    app.stores.connections.add("ali-lobby", "", ali.player_id, app.clock())
    app.stores.connections.add("ayse-lobby", "", ayse.player_id, app.clock())
    app.stores.connections.add("veli-lobby", "", veli.player_id, app.clock())
    people.request(ayse, people.friends(ali)["code"])
    asked = {"type": "friendRequest", "from": ayse.player_id, "name": "Ayşe"}
    assert outbox.to("ali-lobby") == [asked]
    assert outbox.to("ayse-lobby") == outbox.to("veli-lobby") == []
    people.request(ali, people.friends(ayse)["code"])  # Ali asks back: friends at once
    assert [m["type"] for m in outbox.to("ayse-lobby")] == ["presence"]
    people.block(veli, ayse.player_id)
    with pytest.raises(NotFoundError):
        people.request(ayse, people.friends(veli)["code"])
    assert outbox.to("veli-lobby") == []  # a block holds every request back


def test_a_deleted_player_leaves_every_list(app, people):
    ayse, ali, veli = player(app, "Ayşe"), player(app, "Ali"), player(app, "Veli")
    people.request(ali, people.friends(ayse)["code"])
    people.accept(ayse, ali.player_id)
    people.request(veli, people.friends(ayse)["code"])
    people.block(ali, veli.player_id)
    code = people.friends(ayse)["code"]
    app.data.delete(ayse)
    assert people.friends(ali)["friends"] == [] and people.friends(veli)["outgoing"] == []
    with pytest.raises(NotFoundError):
        people.request(ali, code)
    app.data.delete(veli)
    assert app.data.export(ali)["player"]["blocks"] == {}


def test_presence_is_shown_to_friends_only_and_never_a_table_id(app, people):
    table_id, (ali, veli) = full_table(app, seats=2)
    ayse, stranger = player(app, "Ayşe"), player(app, "Yabancı")
    people.request(ayse, people.friends(ali)["code"])
    people.accept(ali, ayse.player_id)
    assert people.friends(ayse)["friends"][0]["presence"] == {"status": "away"}
    app.sockets.connect(ali, table_id, "ali-sock")
    listed = people.friends(ayse)["friends"]
    assert listed[0]["presence"] == {"status": "table", "game": "kastet"}
    assert table_id not in str(people.friends(ayse))
    app.sockets.connect(veli, table_id, "veli-sock")  # Veli is nobody's friend here
    assert people.friends(stranger)["friends"] == []
    assert "presence" not in str(app.guests.player(veli.player_id))  # the public profile
    app.sockets.disconnect("ali-sock")
    assert people.friends(ayse)["friends"][0]["presence"] == {"status": "away"}


def test_the_friends_list_names_whom_the_caller_blocked_and_nothing_to_the_blocked(app, people):
    ayse, troll = player(app, "Ayşe"), player(app, "Trol")
    people.block(ayse, troll.player_id)
    assert people.friends(ayse)["blocked"] == [{"playerId": troll.player_id, "name": "Trol"}]
    assert people.friends(troll)["blocked"] == []
    assert ayse.player_id not in str(people.friends(troll))  # blockedBy stays unseen
    people.unblock(ayse, troll.player_id)
    assert people.friends(ayse)["blocked"] == []
