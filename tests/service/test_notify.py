"""Notifications: subscriptions refused unless public https, delivery at most once per
(player, table, version, kind) and target, quiet hours, Turkish first, 404/410 cleanup,
retries; Web Push through pywebpush into the local receiver (VAPID checked, payload
decrypted); SNS mobile push (an in-memory SNS, held against moto's by
tests/store/test_fakes_aws.py). Over the in-memory mail table."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from harftet.engine.options import TableOptions
from harftet.errors import BadRequestError, NotFoundError
from harftet.identity import Caller
from harftet.notify import Notification
from harftet.notify.deliver import MobilePush, Notifier, RetryLater, WebPush
from harftet.notify.subscriptions import Subscriptions
from harftet.notify.targets import TargetError, check_endpoint, in_quiet_hours
from harftet.notify.vapid import generate, public_key
from harftet.store.mail import Device, Prefs, Subscription

PUBLIC = {"push.example.com": ["142.250.74.78"], "fcm.googleapis.com": ["2a00:1450:4001::5f"]}
P256 = "BN" + "A" * 85  # 65 bytes, 0x04 first (shape only; delivery tests use real keys)
AUTH = "A" * 22


def resolve(host: str) -> list[str]:
    return {
        **PUBLIC,
        "evil.example.com": ["10.0.0.8"],
        "meta.example.com": ["169.254.169.254"],
        "mixed.example.com": ["142.250.74.78", "127.0.0.1"],
    }.get(host, [])


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        ("http://push.example.com/x", "https"),
        ("https://127.0.0.1/x", "not a public address"),
        ("https://[::1]/x", "not a public address"),
        ("https://10.1.2.3/x", "not a public address"),
        ("https://169.254.169.254/latest/meta-data", "not a public address"),
        ("https://evil.example.com/x", "10.0.0.8"),
        ("https://meta.example.com/x", "169.254.169.254"),
        ("https://mixed.example.com/x", "127.0.0.1"),
        ("https://nowhere.example.com/x", "does not resolve"),
        ("https://user:pw@push.example.com/x", "credentials"),
        ("https://push.example.com:8443/x", "443"),
        ("https://push.example.com/" + "a" * 1100, "longer than"),
        ("http://127.0.0.1:3000/push-receiver/ab", "https"),
    ],
)
def test_a_push_endpoint_must_be_public_https(endpoint: str, reason: str) -> None:
    with pytest.raises(TargetError, match=reason):
        check_endpoint(endpoint, resolve)


def test_public_endpoints_and_the_local_receiver_in_test_mode_are_accepted() -> None:
    assert check_endpoint("https://push.example.com/wpush/v2/abc", resolve)
    assert check_endpoint("https://fcm.googleapis.com/fcm/send/abc", resolve)
    local = "http://127.0.0.1:3000/push-receiver/"
    assert check_endpoint(local + "ab", resolve, local_prefix=local)


def test_quiet_hours_default_to_23_to_8_in_istanbul() -> None:
    def at(hour: int, minute: int = 0) -> float:
        when = datetime.datetime(2026, 12, 2, hour, minute, tzinfo=datetime.UTC)
        return when.timestamp()

    quiet = ("23:00", "08:00")
    assert in_quiet_hours(at(19, 59), quiet) == 0  # 22:59 in Istanbul (UTC+3)
    assert in_quiet_hours(at(20, 0), quiet) == 9 * 3600  # 23:00 → 9 hours to wait
    assert in_quiet_hours(at(4, 30), quiet) == 30 * 60  # 07:30 → half an hour
    assert in_quiet_hours(at(5, 0), quiet) == 0  # 08:00
    assert in_quiet_hours(at(20, 0), None) == 0


@pytest.fixture
def mail(clock):
    """(the subscriptions' use cases, the mail table's store, the inbox's store)."""
    from fakes import FakeInbox, FakeMail, FakeMailTable

    table = FakeMailTable()
    store = FakeMail(table)
    return Subscriptions(store, clock, resolve=resolve), store, FakeInbox(table)


P1 = Caller("p1", "")


def _sub(n: int = 0) -> dict[str, Any]:
    return {"endpoint": f"https://push.example.com/s/{n}", "keys": {"p256dh": P256, "auth": AUTH}}


def test_a_subscription_is_stored_once_per_endpoint_and_bad_keys_are_refused(mail) -> None:
    subs, store, _ = mail
    first = subs.subscribe(P1, _sub(), "tr")["id"]
    again = subs.subscribe(P1, _sub(), "en")["id"]
    assert first == again and len(store.subscriptions("p1")) == 1
    assert store.prefs("p1") == Prefs("en", ("23:00", "08:00"))
    for bad in (
        {**_sub(1), "keys": {"p256dh": "AAAA", "auth": AUTH}},
        {**_sub(1), "keys": {"p256dh": P256, "auth": "A" * 40}},
        {**_sub(1), "keys": {"p256dh": P256}},
        {**_sub(1), "extra": 1},
        {**_sub(1), "quietHours": {"start": "25:00", "end": "08:00"}},
        [],
    ):
        with pytest.raises(BadRequestError):
            subs.subscribe(P1, bad, "tr")
    assert len(store.subscriptions("p1")) == 1  # nothing changed
    subs.unsubscribe(P1, first)
    assert store.subscriptions("p1") == []
    with pytest.raises(NotFoundError):
        subs.unsubscribe(P1, first)


class FakeWeb:
    def __init__(self, answers: list[str] | None = None) -> None:
        self.answers = list(answers or [])
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, sub: Subscription, payload: dict[str, Any]) -> str:
        answer = self.answers.pop(0) if self.answers else "sent"
        if answer == "retry":
            raise RetryLater("503")
        self.sent.append((sub.endpoint, payload))
        return answer


def _notifier(mail, clock, web, held=None):
    _, store, inbox = mail
    return Notifier(
        store, inbox, web, None,
        (lambda n, delay: held.append((n, delay))) if held is not None else None,
        clock, lambda pid: "Ayşe",
    )  # fmt: skip


def _midday(clock) -> None:
    clock.now = datetime.datetime(2026, 12, 2, 10, 0, tzinfo=datetime.UTC).timestamp()


def test_each_notification_reaches_each_target_once_in_turkish(mail, clock) -> None:
    subs, _, _ = mail
    _midday(clock)
    subs.subscribe(P1, _sub(0), "tr")
    subs.subscribe(P1, _sub(1), "tr")
    web = FakeWeb(["sent", "retry"])
    notifier = _notifier(mail, clock, web)
    end = Notification("p1", "T1", 40, "gameEnd", {"game": "harftet", "players": ["Ayşe", "Cem"],
                                                   "points": 22})  # fmt: skip
    with pytest.raises(RetryLater):  # one push app is down: the queue will retry
        notifier.deliver(end)
    assert len(web.sent) == 1
    notifier.deliver(end)  # the retry: only the target that failed gets it
    notifier.deliver(end)  # a duplicated message: nobody gets it again
    assert len(web.sent) == 2
    assert {endpoint for endpoint, _ in web.sent} == {_sub(0)["endpoint"], _sub(1)["endpoint"]}
    payload = web.sent[0][1]
    assert payload["title"] == "Oyun bitti"
    assert payload["body"] == "Harftet: Cem ile oynadığın oyun bitti. Puanın: +22."
    assert payload["url"] == "/play/?table=T1" and payload["tableId"] == "T1"
    # Another version, or another kind, is another notification.
    notifier.deliver(Notification("p1", "T1", 41, "gameEnd", end.data))
    assert len(web.sent) == 4


def test_english_for_players_who_chose_it(mail, clock) -> None:
    subs, _, _ = mail
    _midday(clock)
    subs.subscribe(P1, _sub(), "en")
    web = FakeWeb()
    _notifier(mail, clock, web).deliver(
        Notification("p1", "T1", 3, "invitation", {"game": "kastet", "from": "Cem"})
    )
    [(_, payload)] = web.sent
    assert payload["title"] == "Table invitation"
    assert payload["body"] == "Cem invites you to a Kastet table."


def test_quiet_hours_hold_all_but_deadline_reminders(mail, clock) -> None:
    subs, _, _ = mail
    subs.subscribe(P1, _sub(), "tr")
    clock.now = datetime.datetime(2026, 12, 2, 21, 0, tzinfo=datetime.UTC).timestamp()  # 00:00
    web, held = FakeWeb(), []
    notifier = _notifier(mail, clock, web, held)
    notifier.inbox = None  # no inbox check here: only the hours
    out = notifier.deliver(Notification("p1", "T1", 5, "turn", {"game": "harftet"}))
    assert out.held and web.sent == [] and held[0][1] == 900  # re-queued, 15 min at most
    notifier.deliver(Notification("p1", "T1", 5, "reminder", {"game": "harftet"}))
    assert [p["kind"] for _, p in web.sent] == ["reminder"]
    assert web.sent[0][1]["title"] == "Süren doluyor"
    # Quiet hours are the player's: none at all.
    subs.subscribe(P1, {**_sub(), "quietHours": None}, "tr")
    notifier.deliver(Notification("p1", "T1", 5, "turn", {"game": "harftet"}))
    assert [p["kind"] for _, p in web.sent] == ["reminder", "turn"]


def test_a_subscription_the_push_service_answers_gone_is_removed(mail, clock) -> None:
    subs, store, _ = mail
    _midday(clock)
    subs.subscribe(P1, _sub(), "tr")
    notifier = _notifier(mail, clock, FakeWeb(["gone"]))
    out = notifier.deliver(Notification("p1", "T1", 5, "gameEnd", {"game": "harftet"}))
    assert out.gone == 1 and store.subscriptions("p1") == []


def test_web_push_goes_through_pywebpush_encrypted_and_signed(mail, clock, monkeypatch) -> None:
    """pywebpush against the local receiver (its HTTP call handed over in-process): the
    receiver verifies the VAPID signature and claims and decrypts the payload."""
    import requests

    from harftet.localstack.push_receiver import Receiver

    key = generate()
    base = "https://push.example.com"
    receiver = Receiver(base, public_key(key))
    sub = receiver.subscribe()
    sub["endpoint"] = sub["endpoint"].replace("http://", "https://")
    calls: list[dict[str, Any]] = []

    def post(self, method, url, data=None, headers=None, **kwargs):  # the push app
        calls.append(kwargs)
        sub_id = url.rsplit("/", 1)[1]
        status, _ = receiver.receive(sub_id, {k.lower(): v for k, v in headers.items()}, data)
        response = requests.Response()
        response.status_code = status
        response._content = b""
        return response

    monkeypatch.setattr(requests.Session, "request", post)
    web = WebPush(lambda: key, "mailto:ops@example.com", resolve=resolve)
    flat = Subscription("s", sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"])
    assert web(flat, {"title": "Sıra sende", "body": "Kastet: sıra sende."}) == "sent"
    [stored] = receiver.subs.values()
    [message] = stored["messages"]
    assert message["title"] == "Sıra sende" and message["ttl"] == str(24 * 3600)
    assert calls[0]["allow_redirects"] is False  # a redirect is never followed
    # Signed with another key: refused by the receiver, a permanent refusal here.
    other = WebPush(lambda: generate(), "mailto:ops@example.com", resolve=resolve)
    assert other(flat, {"title": "x", "body": "y"}) == "refused"
    assert stored["refused"] == 1
    stored["status"] = 410
    assert web(flat, {"title": "x", "body": "y"}) == "gone"
    stored["status"] = 503
    with pytest.raises(RetryLater):
        web(flat, {"title": "x", "body": "y"})
    # An endpoint that now resolves to a private address is never called.
    calls.clear()
    bad = WebPush(lambda: key, "mailto:ops@example.com", resolve=lambda host: ["10.0.0.1"])
    assert bad(flat, {"title": "x", "body": "y"}) == "gone" and calls == []


def _android(store: Any, clock: Any) -> tuple[Any, MobilePush, str, Subscriptions]:
    """SNS (the fake) with an FCM application, the notifier's mobile push over it, an Android
    phone's token, and the subscriptions feature that registers it."""
    from fakes import FakeSns

    sns = FakeSns()
    fcm = sns.create_platform_application(
        Name="harftet-fcm", Platform="GCM", Attributes={"PlatformCredential": "x"}
    )["PlatformApplicationArn"]
    mobile = MobilePush(sns, {"fcm": fcm, "apns": ""})
    return sns, mobile, "f" * 40 + ":APA91b" + "x" * 100, Subscriptions(store, clock, mobile=mobile)


def test_mobile_devices_get_sns_platform_endpoints(mail, clock) -> None:
    _, store, _ = mail
    _midday(clock)
    sns, mobile, token, subs = _android(store, clock)
    device = subs.add_device(P1, {"platform": "fcm", "token": token})
    assert subs.add_device(P1, {"platform": "fcm", "token": token}) == device
    with pytest.raises(BadRequestError, match="not set up"):
        subs.add_device(P1, {"platform": "apns", "token": "ab" * 32})
    with pytest.raises(BadRequestError, match="token"):
        subs.add_device(P1, {"platform": "fcm", "token": "short"})
    assert len(store.devices("p1")) == 1  # nothing more
    notifier = Notifier(store, None, None, mobile, None, clock, lambda pid: "Ayşe")
    note = Notification("p1", "T9", 7, "turn", {"game": "kastet", "players": ["Ayşe", "Cem"]})
    assert notifier.deliver(note).sent == 1
    assert notifier.deliver(note).sent == 0  # once
    [arn] = [d.endpoint_arn for d in store.devices("p1")]
    messages = sns.messages(arn)
    assert len(messages) == 1 and "Kastet: Cem ile oynadığın masada sıra sende." in messages[0]
    # A device the platform disabled is forgotten.
    sns.set_endpoint_attributes(EndpointArn=arn, Attributes={"Enabled": "false"})
    out = notifier.deliver(Notification("p1", "T9", 9, "turn", note.data))
    assert out.gone == 1 and store.devices("p1") == []


@pytest.mark.parametrize("platform", ["APNS_SANDBOX", "APNS"])
def test_an_iphone_gets_the_title_and_payload_under_its_applications_platform(
    platform: str, caplog: pytest.LogCaptureFixture
) -> None:
    """SNS gives an endpoint only its application's part of a message (else the bare default
    text): a development build's (APNS_SANDBOX) and an App Store build's (APNS) iPhone both
    get the title and the payload the app opens the table with, when ApnsPlatform matches."""
    import json

    from fakes import FakeSns

    sns = FakeSns()
    app = sns.create_platform_application(
        Name="harftet-apns", Platform=platform, Attributes={"PlatformCredential": "x"}
    )["PlatformApplicationArn"]
    mobile = MobilePush(sns, {"apns": app}, apns_platform=platform)
    assert "ApnsPlatform" not in caplog.text  # the parameter matches the application
    endpoint = mobile.create_endpoint("apns", "ab12" * 16)
    payload = {"title": "Sıra sende", "body": "Kastet: sıra sende.", "url": "/play/?table=T"}
    assert mobile(Device("d1", "apns", endpoint), payload) == "sent"
    [raw] = sns.messages(endpoint)
    part = json.loads(json.loads(raw)[platform])  # what SNS hands APNs for this endpoint
    assert part["aps"]["alert"] == {"title": "Sıra sende", "body": "Kastet: sıra sende."}
    assert json.loads(part["payload"])["url"] == "/play/?table=T"
    other = "APNS" if platform == "APNS_SANDBOX" else "APNS_SANDBOX"
    MobilePush(sns, {"apns": app}, apns_platform=other)  # deployed with the wrong one
    assert f"deploy with ApnsPlatform={platform}" in caplog.text
    with pytest.raises(ValueError):
        MobilePush(sns, {"apns": app}, apns_platform="APNS_VOIP")


def test_a_live_table_notifies_only_players_with_no_open_socket() -> None:
    from harftet.engine import table as life
    from harftet.engine.state import Occupant
    from harftet.notify import from_version

    def invited(pace: str, online: set[str]) -> list[str]:
        turn = 45 if pace == "live" else 86400
        table = life.new_table(
            "T",
            Occupant("p1", "Ayşe"),
            TableOptions("kastet", seats=2, turn_seconds=turn, pace=pace),
            seed=1,
            now=0.0,
        )
        table.recent = [{"seq": 2, "at": 1.0, "hand": 0, "seat": None, "type": "invitation",
                         "to": "p2", "fromName": "Ayşe"}]  # fmt: skip
        notes = from_version(table, 2, lambda table_id: online)
        assert all(n.kind == "invitation" and n.data["from"] == "Ayşe" for n in notes)
        return [n.player_id for n in notes]

    assert invited("live", set()) == ["p2"]
    assert invited("live", {"p2"}) == []  # at the table already: the socket tells them
    assert invited("correspondence", {"p2"}) == ["p2"]


def test_a_friends_invitation_to_an_offline_player_is_queued_once_per_version():
    from types import SimpleNamespace

    from harftet.engine import table as life
    from harftet.engine.state import Occupant
    from harftet.notify.outbox import Outbox

    sent: list[Any] = []
    queue = SimpleNamespace(send=sent.extend)
    outbox = Outbox(None, queue, lambda table_id: set(), lambda: 0.0)  # type: ignore[arg-type]
    table = life.new_table(
        "T", Occupant("p1", "Ayşe"), TableOptions("harftet", seats=2), seed=1, now=0.0
    )
    outbox.invitation("p2", SimpleNamespace(table=table, version=3), "Ayşe")  # type: ignore[arg-type]
    [note] = sent
    assert (note.player_id, note.table_id, note.version, note.kind) == ("p2", "T", 3, "invitation")
    assert note.data["from"] == "Ayşe" and note.data["game"] == "harftet"


def test_a_game_nobody_was_left_at_notifies_its_leavers_why_it_ended() -> None:
    from harftet.engine import table as life
    from harftet.engine.state import Occupant
    from harftet.notify import from_version
    from harftet.notify.texts import render

    options = TableOptions("kastet", seats=2, turn_seconds=86400, pace="correspondence")
    table = life.new_table("T", Occupant("p1", "Ayşe"), options, seed=1, now=0.0)
    table = life.sit(table, 1, Occupant("p2", "Barış"), 0.0).table
    table = life.start(table, "p1", 0.0).table
    table = life.leave(table, "p1", 1.0).table
    table = life.leave(table, "p2", 2.0).table
    assert table.status == "finished"
    notes = [n for n in from_version(table, 9) if n.player_id in ("p1", "p2")]
    assert sorted(n.player_id for n in notes) == ["p1", "p2"]
    assert all(n.kind == "gameEnd" and n.data["closed"] == "abandoned" for n in notes)
    shown = render("gameEnd", notes[0].data, "Ayşe", "tr")
    assert shown["title"] == "Masa kapandı" and "kimse kalmadı" in shown["body"]
    assert render("gameEnd", notes[0].data, "Ayşe", "en")["title"] == "Table closed"


def test_a_phone_only_player_chooses_her_notification_language_and_quiet_hours(mail, clock):
    """A player with an app and no browser set her settings nowhere: her phone's registration
    carries them (optional; left out, they stay as they are), and a wrong one changes nothing."""
    _, store, _ = mail
    sns, mobile, token, subs = _android(store, clock)
    with pytest.raises(BadRequestError, match="quietHours"):
        subs.add_device(P1, {"platform": "fcm", "token": token, "quietHours": {"start": "25:00"}})
    with pytest.raises(BadRequestError, match="lang"):
        subs.add_device(P1, {"platform": "fcm", "token": token, "lang": "de"})
    assert store.devices("p1") == [] and store.prefs("p1") is None  # nothing changed
    subs.add_device(P1, {"platform": "fcm", "token": token, "lang": "en", "quietHours": None})
    subs.add_device(P1, {"platform": "fcm", "token": token})  # again, with none: kept
    clock.now = 1_700_000_000 - 1_700_000_000 % 86400 + 21 * 3600  # 00:00 in Istanbul
    notifier = Notifier(store, None, None, mobile, None, clock, lambda pid: "Ayşe")
    note = Notification("p1", "T9", 7, "turn", {"game": "kastet", "players": ["Ayşe", "Cem"]})
    assert notifier.deliver(note).sent == 1  # at midnight: she has no quiet hours
    [arn] = [d.endpoint_arn for d in store.devices("p1")]
    assert "Kastet: it is your turn at your table with Cem." in sns.messages(arn)[0]
    subs.add_device(
        P1, {"platform": "fcm", "token": token, "quietHours": {"start": "23:00", "end": "08:00"}}
    )
    assert store.prefs("p1").lang == "en"  # the language she chose stays
