"""Accounts (API.md v3 "Identity"): passkeys, transfer codes, sessions and refresh tokens,
export and deletion — every path and refusal, over the in-memory stores."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from authenticator import SoftPasskey, b64url, unb64url
from service_helpers import full_table, play_out, player

from harftet.accounts.service import Accounts
from harftet.engine.options import TableOptions
from harftet.errors import NotFoundError, RateLimitedError, UnauthorizedError
from harftet.store.writes import Commit
from harftet.tables.forget import DELETED_NAME

ORIGIN = "http://localhost:3000"


PASSKEYS = {"PASSKEY_RP_ID": "localhost", "PASSKEY_ORIGINS": ORIGIN}


@pytest.fixture
def app(clock: Any, outbox: Any) -> Any:
    """The application with passkeys for ORIGIN and a log."""
    from fakes import fake_app

    built = fake_app(clock, outbox, log=True, environ=PASSKEYS)
    built.forgetting.wait = 0  # no stream consumer here: the log never catches up
    return built


@pytest.fixture
def accounts(app: Any) -> Accounts:
    return app.accounts


def registered(accounts: Accounts, caller: Any) -> SoftPasskey:
    passkey = SoftPasskey(ORIGIN)
    options = accounts.registration_options(caller)
    accounts.register(caller, options["challengeId"], passkey.register(options))
    return passkey


def sign_in(accounts: Accounts, passkey: SoftPasskey, **kwargs: Any) -> dict[str, Any]:
    options = accounts.sign_in_options()
    return accounts.passkey_sign_in(options["challengeId"], passkey.assert_(options, **kwargs))


def stored(accounts: Accounts, player_id: str) -> dict[str, Any]:
    return accounts.store.account(player_id)


def test_a_guest_registers_passkeys_and_signs_in_with_them_on_another_device(app, accounts):
    guest = player(app, "Ayşe")
    before = app.guests.player(guest.player_id)
    first, second = registered(accounts, guest), registered(accounts, guest)
    listed = accounts.list_passkeys(guest)["passkeys"]
    assert sorted(p["id"] for p in listed) == sorted(
        [b64url(first.credential_id), b64url(second.credential_id)]
    )
    options = accounts.registration_options(guest)  # both are excluded from a third
    assert {c["id"] for c in options["publicKey"]["excludeCredentials"]} == {
        p["id"] for p in listed
    }
    assert options["publicKey"]["rp"]["id"] == "localhost"
    for passkey in (first, second):
        answer = sign_in(accounts, passkey)
        assert answer["playerId"] == guest.player_id
        assert answer["name"] == "Ayşe" and answer["rating"] == before["rating"]
        caller = app.tokens.verify(answer["token"])
        assert caller.player_id == guest.player_id and caller.session is not None
        assert answer["refreshToken"].startswith("v1.")


def test_a_replayed_or_tampered_assertion_or_a_wrong_origin_or_rp_is_refused(app, accounts):
    guest = player(app, "Ayşe")
    passkey = registered(accounts, guest)
    options = accounts.sign_in_options()
    good = passkey.assert_(options)
    accounts.passkey_sign_in(options["challengeId"], good)
    account = stored(accounts, guest.player_id)
    with pytest.raises(UnauthorizedError):  # the same assertion again: the challenge is used
        accounts.passkey_sign_in(options["challengeId"], good)
    options = accounts.sign_in_options()
    tampered = passkey.assert_(options)
    data = bytearray(unb64url(tampered["response"]["authenticatorData"]))
    data[-1] ^= 0x01  # the counter, under the signature
    tampered["response"]["authenticatorData"] = b64url(bytes(data))
    with pytest.raises(UnauthorizedError):
        accounts.passkey_sign_in(options["challengeId"], tampered)
    for wrong in ({"origin": "https://evil.example"}, {"rp_id": "evil.example"}):
        options = accounts.sign_in_options()
        with pytest.raises(UnauthorizedError):
            accounts.passkey_sign_in(options["challengeId"], passkey.assert_(options, **wrong))
    options = accounts.sign_in_options()
    other = copy.deepcopy(passkey.assert_(options))
    other["response"]["signature"] = SoftPasskey(ORIGIN).assert_(options)["response"]["signature"]
    with pytest.raises(UnauthorizedError):  # another key's signature
        accounts.passkey_sign_in(options["challengeId"], other)
    assert stored(accounts, guest.player_id) == account  # nothing changed


def test_a_sign_counter_that_goes_back_is_refused_and_changes_nothing(app, accounts):
    guest = player(app, "Ayşe")
    passkey = registered(accounts, guest)
    sign_in(accounts, passkey, count=5)
    account = stored(accounts, guest.player_id)
    for count in (5, 4):
        with pytest.raises(UnauthorizedError, match="refused"):
            sign_in(accounts, passkey, count=count)
    assert stored(accounts, guest.player_id) == account
    assert sign_in(accounts, passkey, count=6)["playerId"] == guest.player_id


def test_registration_refuses_wrong_origin_another_players_challenge_and_expired_ones(
    app, accounts, clock
):
    guest, other = player(app, "Ayşe"), player(app, "Ali")
    options = accounts.registration_options(guest)
    with pytest.raises(UnauthorizedError):
        accounts.register(
            guest,
            options["challengeId"],
            SoftPasskey(ORIGIN).register(options, origin="https://x.example"),
        )
    options = accounts.registration_options(guest)
    with pytest.raises(UnauthorizedError):  # a challenge is its player's
        accounts.register(other, options["challengeId"], SoftPasskey(ORIGIN).register(options))
    options = accounts.registration_options(guest)
    clock.now += 301
    with pytest.raises(UnauthorizedError):
        accounts.register(guest, options["challengeId"], SoftPasskey(ORIGIN).register(options))
    assert accounts.list_passkeys(guest) == {"passkeys": []}


def test_an_assertion_of_an_unknown_passkey_is_refused(app, accounts):
    options = accounts.sign_in_options()
    stranger = SoftPasskey(ORIGIN)
    stranger.user_handle = b"0" * 32
    with pytest.raises(UnauthorizedError):
        accounts.passkey_sign_in(options["challengeId"], stranger.assert_(options))


def test_refresh_rotates_and_reuse_of_an_old_token_ends_the_session(app, accounts, clock):
    guest = player(app, "Ayşe")
    passkey = registered(accounts, guest)
    first = sign_in(accounts, passkey)
    second = accounts.refresh(first["refreshToken"])
    assert second["refreshToken"] != first["refreshToken"]
    assert app.tokens.verify(second["token"]).player_id == guest.player_id
    clock.now += 5  # a retry of a lost answer: the same refresh token again
    assert accounts.refresh(first["refreshToken"])["refreshToken"] == second["refreshToken"]
    third = accounts.refresh(second["refreshToken"])
    clock.now += 60
    with pytest.raises(UnauthorizedError, match="already used"):
        accounts.refresh(first["refreshToken"])  # reuse: somebody holds a copy
    with pytest.raises(UnauthorizedError, match="ended"):
        accounts.refresh(third["refreshToken"])  # the whole session ended
    assert stored(accounts, guest.player_id).get("sessions") == {}


def test_a_forged_refresh_token_is_refused_and_changes_nothing(app, accounts):
    guest = player(app, "Ayşe")
    answer = sign_in(accounts, registered(accounts, guest))
    account = stored(accounts, guest.player_id)
    head, mac = answer["refreshToken"].rsplit(".", 1)
    bad_mac = head + "." + ("A" if mac[0] != "A" else "B") + mac[1:]
    parts = answer["refreshToken"].split(".")
    later = ".".join([*parts[:3], "1", parts[4]])
    for forged in (bad_mac, later, "v1.x", "nonsense", "v1.a#b.c.0.d"):
        with pytest.raises(UnauthorizedError):
            accounts.refresh(forged)
    assert stored(accounts, guest.player_id) == account


def test_sign_out_ends_only_that_session(app, accounts):
    guest = player(app, "Ayşe")
    passkey = registered(accounts, guest)
    a, b = sign_in(accounts, passkey), sign_in(accounts, passkey)
    accounts.sign_out(app.tokens.verify(a["token"]))
    with pytest.raises(UnauthorizedError):
        accounts.refresh(a["refreshToken"])
    assert accounts.refresh(b["refreshToken"])["playerId"] == guest.player_id
    accounts.sign_out(guest)  # a guest's token has no session: nothing to end


def test_removing_a_passkey_ends_its_sessions_and_it_no_longer_signs_in(app, accounts):
    guest = player(app, "Ayşe")
    first, second = registered(accounts, guest), registered(accounts, guest)
    by_first, by_second = sign_in(accounts, first), sign_in(accounts, second)
    accounts.remove_passkey(guest, b64url(first.credential_id))
    with pytest.raises(UnauthorizedError):
        accounts.refresh(by_first["refreshToken"])
    assert accounts.refresh(by_second["refreshToken"])["playerId"] == guest.player_id
    with pytest.raises(UnauthorizedError):
        sign_in(accounts, first)
    with pytest.raises(NotFoundError):
        accounts.remove_passkey(guest, b64url(first.credential_id))


def test_a_transfer_code_signs_in_once_within_ten_minutes(app, accounts, clock):
    guest = player(app, "Ayşe")
    made = accounts.transfer_code(guest)
    code = made["code"]
    assert len(code) == 8 and set(code) <= set("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    assert made["expiresAt"] == int(clock.now) + 600
    answer = accounts.transfer_sign_in(code.lower()[:4] + "-" + code.lower()[4:], "10.0.0.1")
    assert answer["playerId"] == guest.player_id and answer["name"] == "Ayşe"
    with pytest.raises(UnauthorizedError):  # single use
        accounts.transfer_sign_in(code, "10.0.0.1")
    late = accounts.transfer_code(guest)["code"]
    clock.now += 601
    with pytest.raises(UnauthorizedError):
        accounts.transfer_sign_in(late, "10.0.0.2")


def test_a_new_transfer_code_replaces_the_old_one(app, accounts):
    guest = player(app, "Ayşe")
    old = accounts.transfer_code(guest)["code"]
    new = accounts.transfer_code(guest)["code"]
    with pytest.raises(UnauthorizedError):
        accounts.transfer_sign_in(old, "10.0.0.1")
    assert accounts.transfer_sign_in(new, "10.0.0.1")["playerId"] == guest.player_id


def test_guessing_codes_is_limited_per_source_address_and_asking_per_player(app, accounts, clock):
    guest = player(app, "Ayşe")
    code = accounts.transfer_code(guest)["code"]
    for _ in range(10):
        with pytest.raises(UnauthorizedError):
            accounts.transfer_sign_in("22222222", "10.9.9.9")
    with pytest.raises(RateLimitedError) as refused:
        accounts.transfer_sign_in(code, "10.9.9.9")  # even the right code, past the limit
    assert refused.value.retry_after > 0
    assert accounts.transfer_sign_in(code, "10.0.0.7")["playerId"] == guest.player_id
    for _ in range(4):
        accounts.transfer_code(guest)
    with pytest.raises(RateLimitedError):
        accounts.transfer_code(guest)
    for _ in range(30):
        accounts.sign_in_options("10.5.5.5")
    with pytest.raises(RateLimitedError):  # each asks for a write: limited per address
        accounts.sign_in_options("10.5.5.5")


def test_export_holds_everything_stored_about_the_caller_and_no_key_material(app, accounts):
    guest = player(app, "Ayşe")
    passkey = registered(accounts, guest)
    answer = sign_in(accounts, passkey)
    table_id, _ = full_table(app, seats=2)
    accounts.remember_table(guest.player_id, table_id)
    exported = app.data.export(app.tokens.verify(answer["token"]))
    assert exported["player"]["name"] == "Ayşe" and exported["player"]["rating"] == 1000
    assert [p["id"] for p in exported["passkeys"]] == [b64url(passkey.credential_id)]
    assert len(exported["sessions"]) == 1 and exported["tables"] == [table_id]
    text = json.dumps(exported)
    assert "nonce" not in text and answer["refreshToken"].split(".")[-1] not in text


def test_deleting_a_player_removes_everything_and_anonymises_their_seats(app, accounts):
    finished_id, (ali, ayse) = full_table(app, seats=2)
    play_out(app, finished_id, [ali, ayse])
    accounts.remember_table(ayse.player_id, finished_id)
    veli = player(app, "Veli")
    running = app.tables.create_table(
        veli, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45), seed=3
    )["tableId"]
    app.tables.sit(ayse, running, 1)
    accounts.remember_table(ayse.player_id, running)
    app.tables.start(veli, running)
    passkey = registered(accounts, ayse)
    session = sign_in(accounts, passkey)
    code = accounts.transfer_code(ayse)["code"]

    app.data.delete(ayse)

    with pytest.raises(NotFoundError):
        app.guests.player(ayse.player_id)
    with pytest.raises(UnauthorizedError):
        accounts.refresh(session["refreshToken"])
    with pytest.raises(UnauthorizedError):
        accounts.transfer_sign_in(code, "10.0.0.1")
    with pytest.raises(UnauthorizedError):
        sign_in(accounts, passkey)
    for table_id in (finished_id, running):
        view = app.tables.view(veli if table_id == running else ali, table_id)
        text = json.dumps(view, ensure_ascii=False) + json.dumps(
            app.records.events(None, table_id), ensure_ascii=False
        )
        if table_id == finished_id:
            text += json.dumps(app.records.replay(ali, table_id), ensure_ascii=False)
        assert ayse.player_id not in text and "Oyuncu1" not in text
    stored = json.dumps(app.stores.log.items, ensure_ascii=False)  # every log item, as kept
    assert ayse.player_id not in stored and "Oyuncu1" not in stored
    for period in ("all", "week"):  # profiles and leaderboards keep nothing of her either
        board = app.profiles.leaderboard(ali.player_id, "kastet", period, 100, None)
        assert [e["name"] for e in board["entries"]] == ["Oyuncu0"]
    assert app.stores.profiles.profile(ayse.player_id) is None
    running_view = app.tables.view(veli, running)
    assert running_view["status"] == "paused" and running_view["seats"][1]["playerId"] is None
    finished = app.tables.view(ali, finished_id)
    assert finished["status"] == "finished"
    assert [s["name"] for s in finished["seats"]] == ["Oyuncu0", DELETED_NAME]
    assert finished["seats"][1]["playerId"].startswith("deleted-")
    assert app.records.replay(ali, finished_id)["hands"]  # the replay still plays


def test_a_deleted_player_is_left_in_no_stored_log_item_of_either_shape(app, stream):
    from fakes import FakeLog
    from testkit import publisher_over

    from harftet.fanout import changes_from_stream

    table_id, (ali, ayse) = full_table(app, seats=2)
    log: FakeLog = app.stores.log
    publisher = publisher_over(app, log=log)

    def publish() -> None:
        stream.deliver(lambda event: publisher.publish(changes_from_stream(event)))

    publish()
    play_out(app, table_id, [ali, ayse])
    publish()
    logged = log.after(table_id, 0, limit=10_000)
    [sat] = [e for e in logged if e["type"] == "sit" and e.get("playerId") == ayse.player_id]
    # changes whose events name her beside events that do not, in either order
    n, v = logged[-1]["seq"], logged[-1]["version"]
    other = {"type": "note", "seat": 0, "at": sat["at"]}
    log.append(table_id, [
        {**sat, "seq": n + 1, "version": v + 1}, {**other, "seq": n + 2, "version": v + 1},
        {**other, "seq": n + 3, "version": v + 2}, {**sat, "seq": n + 4, "version": v + 2},
    ])  # fmt: skip
    every = log.after(table_id, 0, limit=10_000)
    assert any("earlier" in item for item in log.items[table_id].values())
    log.append(table_id, every[: len(every) // 2], alone=True)  # the former shape: an item each
    assert ayse.player_id in json.dumps(log.items)
    app.data.delete(ayse)
    stored = json.dumps(log.items, ensure_ascii=False)  # every item, as kept
    assert ayse.player_id not in stored and "Oyuncu1" not in stored
    after = log.after(table_id, 0, limit=10_000)
    assert [e["seq"] for e in after] == [e["seq"] for e in every]  # each event once, in order


def test_a_deleted_dropped_player_is_charged_nothing_and_leaves_no_player_behind(
    app, accounts, clock
):
    table_id, (_ali, ayse) = full_table(app, seats=2)
    accounts.remember_table(ayse.player_id, table_id)
    app.sockets.connect(ayse, table_id, "sock")
    app.sockets.disconnect("sock")
    clock.now += 121
    app.deadlines.sweep()  # her seat is vacant now: she dropped (a loss would be hers)
    assert app.stores.tables.get(table_id).table.seats[1].original_fate == "dropped"
    app.data.delete(ayse)
    seat = app.stores.tables.get(table_id).table.seats[1]
    assert seat.original.name == DELETED_NAME and seat.original_fate == "left"  # charged nobody
    # what a rating update to a deleted id would leave (a count, no name) is no player
    from harftet.engine.effects import RatingChange
    from harftet.store.writes import RatingWrite

    stored = app.stores.tables.get(table_id)
    lost = RatingWrite(RatingChange(seat.original.player_id, -10, "game"))
    app.stores.tables.save(stored, stored.table, Commit(writes=[lost], now=clock.now))
    with pytest.raises(NotFoundError):
        app.guests.player(seat.original.player_id)


def test_every_token_of_a_deleted_player_is_refused_on_the_next_request(app, accounts):
    """API.md v4 "Deleted players": the 30-day guest token, a session's access token and a
    socket ticket answer 401 at once; at a table, every answer they could get is a 401."""
    from harftet.engine.moves import Draw
    from harftet.tickets import issue_ticket, verify_ticket

    table_id, (ali, ayse) = full_table(app, seats=2)
    guest_token = app.tokens.issue(ayse.player_id, ayse.name)
    session = sign_in(accounts, registered(accounts, ayse))
    ticket = issue_ticket(app.tokens, ayse, table_id)["ticket"]
    for token in (guest_token, session["token"]):
        assert app.callers.check(token).player_id == ayse.player_id
    version = app.stores.tables.get(table_id).version

    app.data.delete(ayse)

    for token in (guest_token, session["token"]):
        assert app.callers.signed(token).player_id == ayse.player_id  # the signature is fine
        with pytest.raises(UnauthorizedError):
            app.callers.check(token)
    with pytest.raises(UnauthorizedError):
        app.callers.present(verify_ticket(app.tokens, ticket, table_id))
    after = app.stores.tables.get(table_id).version
    with pytest.raises(UnauthorizedError):  # not "not your turn": she is nobody now
        app.tables.move(ayse, table_id, after, "late", Draw())
    with pytest.raises(UnauthorizedError):  # a stale version, too
        app.tables.move(ayse, table_id, version, "late2", Draw())
    with pytest.raises(UnauthorizedError):
        app.hints.dry_run(ayse, table_id, after, Draw())
    assert app.callers.check(app.tokens.issue(ali.player_id, ali.name)).player_id == ali.player_id


def test_a_deleted_players_open_sockets_are_closed_and_hear_nothing_more(clock, outbox):
    """API.md v4 "Deleted players": her open sockets (a table's, the lobby's) are closed at
    once (DeleteConnection), their items gone first; what the table says next reaches only
    the others."""
    from fakes import fake_app

    closed: list[str] = []
    app = fake_app(clock, outbox, log=True, hangup=closed.append)
    app.forgetting.wait = 0
    table_id, (ali, ayse) = full_table(app, seats=2)
    app.sockets.connect(ayse, table_id, "ayse-table")
    app.presence.open(ayse, "ayse-lobby")
    app.sockets.connect(ali, table_id, "ali-table")
    app.phrases.send(ali, table_id, "iyi-oyunlar")
    assert outbox.to("ayse-table") and outbox.to("ali-table")  # both heard it before

    app.data.delete(ayse)
    assert sorted(closed) == ["ayse-lobby", "ayse-table"]
    assert app.stores.connections.get("ayse-table") is None
    heard = len(outbox.to("ayse-table"))
    clock.advance(10)  # past the phrases' spacing
    app.phrases.send(ali, table_id, "tebrikler")
    assert len(outbox.to("ayse-table")) == heard  # nothing more for her socket
    assert outbox.to("ali-table")[-1]["phrase"] == "tebrikler"


def test_a_deletion_takes_the_mail_partition_devices_sockets_and_counters_with_it(clock, outbox):
    """API.md v4 "Deleted players": subscriptions, devices (and their SNS endpoints),
    preferences, inbox and sent marks go; her sockets go, and one closing later makes no
    presence again; a "sent" mark arriving late makes nothing; her rate counters go."""
    from fakes import FakeSns, fake_app

    from harftet.notify.deliver import MobilePush
    from harftet.store.mail import Prefs

    app = fake_app(clock, outbox, log=True, mail=True, environ={"LIMITS": "on"})
    app.forgetting.wait = 0
    sns = FakeSns()
    fcm = sns.create_platform_application(Name="fcm", Platform="GCM", Attributes={})
    app.mobile = MobilePush(sns, {"fcm": fcm["PlatformApplicationArn"]})
    table_id, (ali, ayse) = full_table(app, seats=2)
    stored = app.stores.tables.get(table_id)
    app.inbox.record(stored.table, stored.version, clock.now)
    app.subscriptions.resolve = lambda host: ["1.2.3.4"]
    sub = {
        "endpoint": "https://push.example.com/s/1",
        "keys": {"p256dh": "BN" + "A" * 85, "auth": "A" * 22},
    }
    app.subscriptions.subscribe(ayse, sub, "tr")
    app.subscriptions.add_device(ayse, {"platform": "fcm", "token": "device-token-0123456789"})
    app.stores.mail.set_prefs(ayse.player_id, Prefs("en", None))
    app.stores.mail.claim(ayse.player_id, "turn#1", clock.now)
    app.limits.check("table", ayse.player_id, clock.now)
    app.sockets.connect(ayse, table_id, "table-socket")
    app.presence.open(ayse, "lobby-socket")
    assert len(app.stores.inbox.everything_of(ayse.player_id)) == 5 and sns.endpoints

    app.data.delete(ayse)
    app.stores.mail.sent(ayse.player_id, "turn#1")
    app.sockets.disconnect("lobby-socket")
    app.sockets.disconnect("table-socket")

    assert app.stores.inbox.everything_of(ayse.player_id) == []
    assert sns.endpoints == {}
    assert app.stores.connections.for_player(ayse.player_id) == []
    assert ayse.player_id not in app.stores.connections.presence
    assert [k for k in app.stores.counters.items if ayse.player_id in k] == []
    assert app.stores.inbox.everything_of(ali.player_id)  # others keep theirs


@pytest.mark.parametrize("where", ["table", "lobby"])
def test_a_connect_checked_before_a_deletion_but_stored_after_its_sweep_is_refused(
    clock, outbox, where
):
    """The race of a $connect with DELETE /players/me: her token is checked while she still
    exists, her deletion (and its sweep of her connections) runs, and only then is the
    connection's item written. The connect is refused (401, as the handler answers it), its
    item removed, her seat not marked back and nobody told she is online: nothing is left
    open that no push would reach."""
    from fakes import fake_app

    closed: list[str] = []
    app = fake_app(clock, outbox, log=True, hangup=closed.append)
    app.forgetting.wait = 0
    table_id, (ali, ayse) = full_table(app, seats=2)
    app.sockets.connect(ali, table_id, "ali-table")
    token = app.tokens.issue(ayse.player_id, ayse.name)
    checked = app.callers.check(token)  # the $connect's check: she still exists

    app.data.delete(ayse)  # ... her deletion and its sweep run here ...
    version = app.stores.tables.get(table_id).version
    heard = len(outbox.to("ali-table"))
    with pytest.raises(UnauthorizedError):  # ... then her connection's item is written
        if where == "table":
            app.sockets.connect(checked, table_id, "late")
        else:
            app.presence.open(checked, "late")

    assert app.stores.connections.get("late") is None
    assert app.stores.connections.for_player(ayse.player_id) == []
    assert app.stores.tables.get(table_id).version == version  # no reconnect written
    assert len(outbox.to("ali-table")) == heard and outbox.to("late") == []
    assert closed == []  # her sweep found nothing: this connect cleaned up after itself
    app.sockets.connect(ali, table_id, "ali-again")  # others still connect as before
    assert app.stores.connections.get("ali-again") is not None
