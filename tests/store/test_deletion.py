"""``DELETE /players/me`` leaves nothing of the player (KVKK; API.md v4 "Deleted players"):
a player plays, reports, befriends, subscribes a browser, registers a phone (an SNS platform
endpoint in moto), sets preferences, is notified and holds sockets; then she is deleted and
a scan of every table of DynamoDB finds no item holding her id, her name, her push endpoint
or her device's token or endpoint — outside the anonymous seats of finished games — and
SNS holds no endpoint of hers. What lands after the delete (the stream's late records, a
socket's late $disconnect, a notification's late "sent" mark) brings nothing back."""

from __future__ import annotations

import json
from typing import Any

from service_helpers import player
from testkit import scan_all

from harftet.engine.effects import changed
from harftet.engine.options import TableOptions
from harftet.engine.scoring import settle
from harftet.notify.deliver import MobilePush
from harftet.store.mail import Prefs

P256, AUTH = "BN" + "A" * 85, "A" * 22  # a PushSubscription's keys (shape only)
NAME = "Zeynep Kvkk"
ENDPOINT = "https://push.example.com/s/zeynep-endpoint-1"
DEVICE_TOKEN = "zeynep-device-token-0123456789abcdef"


def _finish(table: Any, now: float) -> Any:
    new = table.clone()
    new.recent = []
    for seat, penalty in zip(new.seats, [10, 40], strict=True):
        seat.penalty = penalty
    new.status = "finished"
    return changed(new, settle(new))


def _stream(app: Any, table_ids: list[str], now: float) -> None:
    """What the fan-out writes of each table's newest version (the inbox of its members)."""
    for table_id in table_ids:
        stored = app.stores.tables.get(table_id)
        app.inbox.record(stored.table, stored.version, now)


def test_after_a_delete_no_item_anywhere_names_the_player(dynamodb, clock, outbox):
    from testkit import TABLE_NAMES, app_over, aws_session, with_mail

    names = with_mail(dynamodb, TABLE_NAMES)
    app = app_over(dynamodb, names, clock, send=outbox, mail=True)
    sns = aws_session().client("sns")
    application = sns.create_platform_application(
        Name="harftet-fcm", Platform="GCM", Attributes={"PlatformCredential": "key"}
    )["PlatformApplicationArn"]
    app.mobile = MobilePush(sns, {"fcm": application})
    app.forgetting.wait = 0  # no stream consumer: the log is written by hand here
    zeynep, ali, veli = player(app, NAME), player(app, "Ali"), player(app, "Veli")
    options = TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    finished = app.tables.create_table(ali, options, seed=1)["tableId"]
    app.tables.sit(zeynep, finished, 1)
    app.tables.start(ali, finished)
    app.writer.write(finished, _finish)
    running = app.tables.create_table(veli, options, seed=2)["tableId"]
    app.tables.sit(zeynep, running, 1)
    app.tables.start(veli, running)
    waiting = app.tables.create_table(zeynep, options, seed=3)["tableId"]
    _stream(app, [finished, running, waiting], clock.now)
    app.moderation.report(zeynep.player_id, finished, 0, "insult")
    app.friends.request(zeynep, app.friends.friends(veli)["code"])
    app.friends.accept(veli, zeynep.player_id)
    app.friends.block(zeynep, ali.player_id)
    app.subscriptions.resolve = lambda host: ["1.2.3.4"]
    sub = {"endpoint": ENDPOINT, "keys": {"p256dh": P256, "auth": AUTH}}
    app.subscriptions.subscribe(zeynep, sub, "tr")
    app.subscriptions.add_device(zeynep, {"platform": "fcm", "token": DEVICE_TOKEN})
    app.stores.mail.set_prefs(zeynep.player_id, Prefs("tr", ("22:00", "08:00")))
    assert app.stores.mail.claim(zeynep.player_id, "turn#t1", clock.now)
    app.sockets.connect(zeynep, running, "zeynep-table-socket")
    app.presence.open(zeynep, "zeynep-lobby-socket")
    app.accounts.transfer_code(zeynep)
    (endpoint,) = sns.list_endpoints_by_platform_application(PlatformApplicationArn=application)[
        "Endpoints"
    ]
    everything = json.dumps(
        [scan_all(dynamodb, name) for name in names.values()], default=repr, ensure_ascii=False
    )
    marks = (zeynep.player_id, NAME, ENDPOINT, DEVICE_TOKEN, endpoint["EndpointArn"])
    assert [m for m in marks if m not in everything] == [DEVICE_TOKEN]  # SNS holds the token
    assert endpoint["Attributes"]["Token"] == DEVICE_TOKEN

    app.data.delete(zeynep)
    # what lands later: the stream's records of the tables' new versions, a notification's
    # "sent" mark, the sockets' $disconnect
    clock.now += 1
    _stream(app, [finished, running, waiting], clock.now)
    app.stores.mail.sent(zeynep.player_id, "turn#t1")
    app.sockets.disconnect("zeynep-table-socket")
    app.sockets.disconnect("zeynep-lobby-socket")

    found = []
    for logical, name in names.items():
        for item in scan_all(dynamodb, name):
            text = json.dumps(item, default=repr, ensure_ascii=False)
            found += [(logical, text[:300], m) for m in marks if m in text]
    assert found == []
    endpoints = sns.list_endpoints_by_platform_application(PlatformApplicationArn=application)
    assert endpoints["Endpoints"] == []
    # the finished game keeps its anonymous seat; the others' inboxes show it, not her name
    seats = app.tables.view(ali, finished)["seats"]
    assert seats[1]["playerId"].startswith("deleted-") and seats[1]["name"] != NAME
    (entry,) = [i for i in app.stores.inbox.page(ali.player_id, 20)[0] if i.table_id == finished]
    assert NAME not in json.dumps(entry.entry, ensure_ascii=False)
    assert app.stores.inbox.page(veli.player_id, 20)[0][0].entry["players"][1] is None


def test_the_inbox_reads_its_own_writes_on_dynamodb(dynamodb, clock, outbox):
    """API.md v4 "Inbox" over moto's DynamoDB (no stream consumer): created, sat at and
    invited-to tables are read back at once through the rank index, read consistently."""
    from testkit import TABLE_NAMES, app_over, with_mail

    app = app_over(dynamodb, with_mail(dynamodb, TABLE_NAMES), clock, send=outbox, mail=True)
    host, guest, friend = player(app, "Ev"), player(app, "Konuk"), player(app, "Dost")
    options = TableOptions(game="kastet", seats=3, hands=1, partners=False, turn_seconds=45)
    table_id = app.tables.create_table(host, options, seed=1)["tableId"]
    app.tables.sit(guest, table_id, 1)
    app.friends.request(host, app.friends.friends(friend)["code"])
    app.friends.accept(friend, host.player_id)
    app.friends.invite(host, table_id, friend.player_id)
    for caller in (host, guest, friend):  # (the host's entry follows the guest via the stream)
        (entry,) = app.inbox.tables(caller)["tables"]
        assert entry["tableId"] == table_id and entry["players"][0] == "Ev"
    assert app.inbox.tables(friend)["tables"][0]["players"][:2] == ["Ev", "Konuk"]
