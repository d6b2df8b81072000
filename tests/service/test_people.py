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


def _limited_app(clock: Any, outbox: Any, **more: Any) -> Any:
    from fakes import fake_app

    return fake_app(clock, outbox, log=False, environ={"LIMITS": "on"}, **more)


def test_friend_requests_by_code_stop_at_20_an_hour_known_codes_or_not(clock, outbox):
    """API.md v4 "Limits": 20 a player an hour, 429 with Retry-After; every try counts (a
    guesser's unknown codes as much as a real one), and another player's budget is theirs."""
    from harftet.errors import RateLimitedError

    app = _limited_app(clock, outbox)
    guesser, other = player(app, "Tahminci"), player(app, "Başka")
    real = app.friends.friends(player(app, "Gerçek"))["code"]
    for i in range(19):
        with pytest.raises(NotFoundError):
            app.friends.request(guesser, f"ZZZZZ{i:03d}")
    assert [p["name"] for p in app.friends.request(guesser, real)["outgoing"]] == ["Gerçek"]
    for code in (real, "ZZZZZZZZ"):  # the 21st: refused, known code or not
        with pytest.raises(RateLimitedError) as refused:
            app.friends.request(guesser, code)
        assert 0 < refused.value.retry_after <= 3600
    app.friends.request(other, real)  # her own budget
    clock.now += 3600
    with pytest.raises(NotFoundError):  # the next hour: a new budget
        app.friends.request(guesser, "ZZZZZZZZ")


def test_an_unknown_code_and_one_that_cannot_be_asked_answer_alike(app, people):
    ayse, ali, gone = player(app, "Ayşe"), player(app, "Ali"), player(app, "Giden")
    people.block(ali, ayse.player_id)
    gone_code = people.friends(gone)["code"]
    app.data.delete(gone)
    answers = []
    for code in ("ZZZZZZZZ", people.friends(ali)["code"], people.friends(ayse)["code"], gone_code):
        with pytest.raises(NotFoundError) as refused:
            people.request(ayse, code)
        answers.append((type(refused.value), str(refused.value)))
    assert len(set(answers)) == 1, answers  # unknown, blocked by them, her own, deleted


def test_invitations_stop_at_30_an_hour(clock, outbox):
    from harftet.errors import RateLimitedError

    app = _limited_app(clock, outbox)
    app.forgetting.wait = 0
    host, friend = player(app, "Ev"), player(app, "Dost")
    app.friends.request(host, app.friends.friends(friend)["code"])
    app.friends.accept(friend, host.player_id)
    table_id, _ = full_table(app, seats=2)
    for _ in range(30):
        app.friends.invite(host, table_id, friend.player_id)
    with pytest.raises(RateLimitedError) as refused:
        app.friends.invite(host, table_id, friend.player_id)
    assert refused.value.retry_after > 0
    with pytest.raises(RateLimitedError):  # a refused try is refused too, not a 404 oracle
        app.friends.invite(host, "no-such-table", friend.player_id)


def test_an_offline_friend_gets_one_notification_per_invitation(clock, outbox):
    """The probe: an offline friend got one notification per table version (10 for 10)."""
    from fakes import NOTIFY_QUEUE, FakeSns

    from harftet.engine.options import TableOptions
    from harftet.notify import Notification
    from harftet.notify.deliver import MobilePush

    app = _limited_app(clock, outbox, mail=True, queues=True)
    sns = FakeSns()
    fcm = sns.create_platform_application(Name="fcm", Platform="GCM", Attributes={})
    app.mobile = MobilePush(sns, {"fcm": fcm["PlatformApplicationArn"]})
    host, friend, other = player(app, "Ev"), player(app, "Dost"), player(app, "Öteki")
    for inviter in (host, other):
        app.friends.request(inviter, app.friends.friends(friend)["code"])
        app.friends.accept(friend, inviter.player_id)
    app.subscriptions.add_device(friend, {"platform": "fcm", "token": "friend-device-0123456789"})
    options = TableOptions(game="kastet", seats=4, hands=1, partners=False, turn_seconds=45)
    table_id = app.tables.create_table(host, options, seed=1)["tableId"]
    for i in range(10):  # ten versions, an invitation at each
        if i % 2 == 0:
            app.tables.sit(host, table_id, 1, bot=True)
        else:
            app.tables.leave(host, table_id, 1)
        app.friends.invite(host, table_id, friend.player_id)
    app.friends.invite(other, table_id, friend.player_id)  # another friend's invitation
    bodies = app.aws.sqs.drain(NOTIFY_QUEUE)
    assert len(bodies) == 11
    for body in bodies:
        app.notifier.deliver(Notification.parse(body))
    (endpoint,) = sns.endpoints.values()
    assert len(endpoint.messages) == 2  # one per invitation: the host's and the other's
