"""The mail table's fakes (tests/fakes/mail.py) against ``harftet.store.inbox`` and
``harftet.store.mail`` over moto: inbox items never overwritten by an older version, their
order and pages, the reminders' index and claims; subscriptions, devices, preferences, the
at-most-once marks; a player's whole partition (tests/store/conftest.py runs each body on
both)."""

from __future__ import annotations

from typing import Any

from fakes.values import plain
from store_kit import NOW

from harftet.store.inbox import DueReminder, InboxItem
from harftet.store.mail import DEVICE, PUSH, Device, Prefs, Subscription

MS = int(NOW * 1000)


def _item(table_id: str, version: int, rank: str = "5", player: str = "p0", **more: Any):
    entry = {"tableId": table_id, "players": ["Ayşe", "Ali"], "version": version}
    return InboxItem(player, table_id, version, rank, "correspondence", "playing", entry, **more)


def test_an_inbox_item_is_never_overwritten_by_an_older_version(stores):
    inbox = stores.inbox
    assert inbox.get("p0", "t1") is None
    assert inbox.put(_item("t1", 3, remind_shard=1, remind_at=MS))
    assert not inbox.put(_item("t1", 3, rank="1"))  # the same version: refused
    assert not inbox.put(_item("t1", 2, rank="1"))
    assert inbox.get("p0", "t1") == _item("t1", 3, remind_shard=1, remind_at=MS)
    assert inbox.put(_item("t1", 4, expires_at=int(NOW)))  # a newer one replaces it whole
    assert inbox.get("p0", "t1") == _item("t1", 4, expires_at=int(NOW))
    inbox.delete_older("p0", "t1", 4)  # not older: kept
    assert inbox.get("p0", "t1") is not None
    inbox.delete_older("p0", "t1", 5)
    inbox.delete_older("p0", "t9", 5)  # none: fine
    assert inbox.get("p0", "t1") is None


def test_the_inbox_pages_by_rank_each_player_their_own(stores):
    inbox = stores.inbox
    for table_id, rank in [("a", "3"), ("b", "1"), ("c", "2"), ("d", "2"), ("e", "9")]:
        inbox.put(_item(table_id, 1, rank))
    inbox.put(_item("z", 1, "0", player="p1"))
    stores.mail.put_subscription("p0", Subscription("s", "https://x/1", "k", "a"), NOW)
    pages, after = [], None
    while True:
        items, after = inbox.page("p0", 2, after)
        pages.append([i.table_id for i in items])
        if after is None:
            break
        assert set(after) == {"playerId", "sk", "rank"}
    assert pages == [["b", "c"], ["d", "a"], ["e"]]
    assert [i.table_id for i in inbox.page("p1", 9)[0]] == ["z"] and inbox.page("p2", 9) == (
        [],
        None,
    )


def test_a_due_reminder_is_claimed_once_and_not_after_it_moved(stores):
    inbox = stores.inbox
    inbox.put(_item("t1", 1, remind_shard=0, remind_at=MS + 2000))
    inbox.put(_item("t2", 1, remind_shard=3, remind_at=MS + 1000))
    inbox.put(_item("t3", 1, remind_shard=0, remind_at=MS + 1000))
    inbox.put(_item("t4", 1, remind_shard=0, remind_at=MS + 9000))
    inbox.put(_item("t5", 1))  # no reminder
    due = inbox.due_reminders(NOW + 2)
    assert due == [  # each shard's, earliest first
        DueReminder("p0", "t3", MS + 1000),
        DueReminder("p0", "t1", MS + 2000),
        DueReminder("p0", "t2", MS + 1000),
    ]
    assert inbox.due_reminders(NOW + 2, limit=1)[0].table_id == "t3"
    taken = inbox.claim_reminder(due[0])
    assert taken is not None and taken.remind_at is None and taken.version == 1
    assert inbox.claim_reminder(due[0]) is None  # once
    inbox.put(_item("t1", 2, remind_shard=0, remind_at=MS + 5000))  # the deadline moved
    assert inbox.claim_reminder(due[1]) is None
    assert inbox.claim_reminder(DueReminder("p0", "gone", MS)) is None
    assert [d.table_id for d in inbox.due_reminders(NOW + 2)] == ["t2"]


def test_subscriptions_and_devices_are_counted_listed_and_removed(stores):
    mail = stores.mail
    assert mail.count("p0", PUSH) == 0 and mail.subscriptions("p0") == []
    for n in (2, 1):
        mail.put_subscription("p0", Subscription(f"s{n}", f"https://x/{n}", "k", "a"), NOW)
    mail.put_subscription("p0", Subscription("s1", "https://x/new", "k2", "a2"), NOW)  # again
    assert mail.subscriptions("p0") == [
        Subscription("s1", "https://x/new", "k2", "a2"),
        Subscription("s2", "https://x/2", "k", "a"),
    ]
    assert mail.count("p0", PUSH) == 2 and mail.has("p0", PUSH, "s1")
    assert not mail.has("p0", PUSH, "s3") and not mail.has("p1", PUSH, "s1")
    assert mail.remove_subscription("p0", "s1") and not mail.remove_subscription("p0", "s1")
    mail.put_device("p0", Device("d1", "fcm", "arn:1"), NOW)
    assert mail.devices("p0") == [Device("d1", "fcm", "arn:1")] and mail.count("p0", DEVICE) == 1
    assert mail.count("p0", PUSH) == 1  # a device is no subscription
    mail.remove_device("p0", "d1")
    mail.remove_device("p0", "d1")
    assert mail.devices("p0") == []


def test_preferences_read_back_as_set(stores):
    mail = stores.mail
    assert mail.prefs("p0") is None
    mail.set_prefs("p0", Prefs("tr", ("23:00", "08:00")))
    assert mail.prefs("p0") == Prefs("tr", ("23:00", "08:00"))
    mail.set_prefs("p0", Prefs("en", None))
    assert mail.prefs("p0") == Prefs("en", None)
    mail.set_prefs("p0", Prefs("tr", ("22:00", "07:00")))
    assert mail.prefs("p0") == Prefs("tr", ("22:00", "07:00"))


def test_a_notification_is_claimed_once_sent_never_again_released_to_retry(stores):
    mail = stores.mail
    assert mail.claim("p0", "T#1#turn#push#s", NOW)
    assert not mail.claim("p0", "T#1#turn#push#s", NOW + 60)  # another delivery holds it
    assert mail.claim("p0", "T#1#turn#push#s", NOW + 121)  # a claim gone stale
    mail.sent("p0", "T#1#turn#push#s")
    assert not mail.claim("p0", "T#1#turn#push#s", NOW + 10_000)  # sent: never again
    assert mail.claim("p1", "T#1#turn#push#s", NOW)  # another player's
    mail.release("p1", "T#1#turn#push#s")
    assert mail.claim("p1", "T#1#turn#push#s", NOW + 1)  # given back: claimed again


def test_a_players_partition_reads_back_whole_in_key_order(stores):
    inbox, mail = stores.inbox, stores.mail
    inbox.put(_item("t1", 2, remind_shard=2, remind_at=MS, expires_at=int(NOW)))
    mail.put_subscription("p0", Subscription("s1", "https://x/1", "k", "a"), NOW)
    mail.put_device("p0", Device("d1", "apns", "arn:d"), NOW + 1)
    mail.set_prefs("p0", Prefs("en", None))
    mail.claim("p0", "k1", NOW)
    mail.sent("p0", "k1")
    mail.sent("p0", "k0")  # a mark never claimed (or gone): makes nothing, as it never expires
    mail.put_subscription("p1", Subscription("s9", "https://x/9", "k", "a"), NOW)
    found = [plain(i) for i in inbox.everything_of("p0")]
    assert [i["sk"] for i in found] == [
        "device#d1", "prefs", "push#s1", "sent#k1", "table#t1",
    ]  # fmt: skip
    assert found[0] == {"playerId": "p0", "sk": "device#d1", "platform": "apns",
                        "endpointArn": "arn:d", "createdAt": int(NOW) + 1}  # fmt: skip
    assert found[1] == {"playerId": "p0", "sk": "prefs", "lang": "en", "quietOff": True}
    assert found[3]["state"] == "sent" and found[3]["at"] == int(NOW)
    assert found[3]["expiresAt"] > NOW
    table = found[4]
    assert table["version"] == 2 and table["remind"] == "remind#2" and table["remindAt"] == MS
    assert table["entry"].startswith('{"tableId":"t1"') and table["expiresAt"] == int(NOW)
    assert inbox.everything_of("p9") == []


def test_forgetting_a_partition_deletes_all_of_it_and_nothing_else(stores):
    inbox, mail = stores.inbox, stores.mail
    inbox.put(_item("t1", 2))
    mail.put_subscription("p0", Subscription("s1", "https://x/1", "k", "a"), NOW)
    mail.put_device("p0", Device("d1", "apns", "arn:d"), NOW)
    mail.claim("p0", "k1", NOW)
    mail.put_subscription("p1", Subscription("s9", "https://x/9", "k", "a"), NOW)
    gone = inbox.forget("p0")
    assert sorted(str(i["sk"]) for i in gone) == ["device#d1", "push#s1", "sent#k1", "table#t1"]
    assert inbox.everything_of("p0") == [] and inbox.forget("p0") == []
    assert [s.id for s in mail.subscriptions("p1")] == ["s9"]


def test_a_moves_answer_is_kept_24_hours_in_the_players_partition(stores):
    answers, inbox = stores.answers, stores.inbox
    body = '{"tableId":"t1","hand":[{"id":3,"letter":"Ş"}]}'
    answers.put("p0", "t1", "m1", body, NOW)
    assert answers.get("p0", "t1", "m1", NOW + 10) == body
    assert answers.get("p1", "t1", "m1", NOW) is None and answers.get("p0", "t2", "m1", NOW) is None
    assert answers.get("p0", "t1", "m1", NOW + 24 * 3600) is None  # expired: not given
    (item,) = [plain(i) for i in inbox.everything_of("p0")]
    assert item["sk"] == "answer#t1#m1" and item["expiresAt"] == int(NOW) + 24 * 3600
    assert [i["sk"] for i in inbox.forget("p0")] == ["answer#t1#m1"]  # a deletion takes it
