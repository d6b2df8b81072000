"""The accounts', word reports' and counters' fakes (tests/fakes/accounts.py, connections.py)
against ``harftet.store.accounts``, ``word_reports`` and ``limits`` over moto: single-use
secrets that expire, the player's item changed on its counter, reports counted once per
reporter, rate-limit windows (tests/store/conftest.py runs each body on both)."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from store_kit import NOW

from harftet.errors import BusyError
from harftet.store.accounts import CHALLENGE, FRIEND_CODE, TRANSFER
from harftet.store.errors import NoAccountError


def test_a_secret_is_put_once_and_taken_once(stores):
    accounts = stores.accounts
    key = TRANSFER + "ABCD1234"
    assert accounts.put_once(key, {"owner": "p0"}, int(NOW) + 600)
    assert not accounts.put_once(key, {"owner": "p9"}, int(NOW) + 600)  # taken: pick another
    taken = accounts.take(key, NOW + 1)
    assert taken is not None and taken["owner"] == "p0" and taken["expiresAt"] == int(NOW) + 600
    assert accounts.take(key, NOW + 2) is None  # used
    assert accounts.put_once(key, {"owner": "p1"}, int(NOW) + 600)  # free again


def test_an_expired_secret_is_taken_as_none_and_still_blocks_its_key_until_taken(stores):
    accounts = stores.accounts
    key = CHALLENGE + "c1"
    assert accounts.put_once(key, {"nonce": b"\x00\x01", "n": 3}, int(NOW) + 60)
    assert not accounts.put_once(key, {}, int(NOW) + 60)  # expired or not, it lingers
    assert accounts.take(key, NOW + 60) is None  # expired at its second
    assert accounts.take(key, NOW) is None  # and taken with it
    assert accounts.take(CHALLENGE + "never", NOW) is None


def test_a_lookup_secret_stays_until_dropped(stores):
    accounts = stores.accounts
    key = FRIEND_CODE + "K3Y"
    assert accounts.get_secret(key) is None
    accounts.put_once(key, {"owner": "p0", "tags": {"a", "b"}}, 2**40)
    for _ in range(2):
        found = accounts.get_secret(key)
        assert found is not None and found["owner"] == "p0" and found["tags"] == ["a", "b"]
    accounts.drop(key)
    accounts.drop(key)  # dropping what is gone is fine
    assert accounts.get_secret(key) is None


def test_an_account_is_the_players_item_in_plain_values(stores):
    accounts = stores.accounts
    for nobody in ("p0", "", CHALLENGE + "x", "x" * 65):
        with pytest.raises(NoAccountError):
            accounts.account(nobody)
    stores.players.create("p0", "Ayşe", NOW)
    accounts.remember_table("p0", "t2")
    accounts.remember_table("p0", "t1")
    accounts.remember_table("p0", "t1")
    accounts.remember_table("nobody", "t1")  # no item made for nobody
    found = accounts.account("p0")
    assert found["name"] == "Ayşe" and found["tables"] == ["t1", "t2"]
    assert type(found["rating"]) is int and found["rating"] == 1000
    with pytest.raises(NoAccountError):
        accounts.account("nobody")
    accounts.delete("p0")
    with pytest.raises(NoAccountError):
        accounts.account("p0")


def test_a_save_lands_only_on_the_account_as_read(stores):
    accounts = stores.accounts
    stores.players.create("p0", "Ayşe", NOW)
    first = accounts.account("p0")
    keys = {"k1": {"publicKey": b"\x01\x02", "count": 1}}
    assert accounts.save(first, passkeys=keys)
    assert not accounts.save(first, sessions={"s": {"gen": 1}})  # changed since read
    now = accounts.account("p0")
    assert now["passkeys"] == keys and "sessions" not in now and now["acct"] == 1
    assert accounts.save(now, sessions={"s": {"gen": 1}})
    assert accounts.account("p0")["acct"] == 2
    accounts.delete("p0")
    assert not accounts.save(now, sessions={})  # gone


def test_what_dynamodb_cannot_keep_is_refused_before_anything_is_written(stores):
    accounts = stores.accounts
    stores.players.create("p0", "Ayşe", NOW)
    read = accounts.account("p0")
    with pytest.raises(TypeError):
        accounts.save(read, sessions={"s": {"at": 1.5}})
    with pytest.raises(TypeError):
        accounts.put_once(TRANSFER + "F", {"at": 0.5}, int(NOW) + 9)
    with pytest.raises(ClientError):
        accounts.save(read, tables=set())
    assert accounts.account("p0") == read and accounts.get_secret(TRANSFER + "F") is None


def test_a_change_is_redone_from_a_fresh_read_then_busy(stores):
    accounts = stores.accounts
    stores.players.create("p0", "Ayşe", NOW)
    seen: list[Any] = []

    def racing(account: dict[str, Any]) -> dict[str, Any]:
        seen.append(account.get("acct"))
        if len(seen) == 1:  # another request saves in between
            assert accounts.save(accounts.account("p0"), friends={"p9": {"name": "X"}})
        return {"friends": {**account.get("friends", {}), "p1": {"name": "Ali"}}}

    read = accounts.change("p0", racing)
    assert seen == [None, 1] and read["acct"] == 1
    assert set(accounts.account("p0")["friends"]) == {"p1", "p9"}
    assert accounts.change("p0", lambda account: {})["acct"] == 2  # nothing to write
    assert accounts.account("p0")["acct"] == 2

    def always_lost(account: dict[str, Any]) -> dict[str, Any]:
        accounts.save(accounts.account("p0"), x="y")
        return {"blocked": {"p5": 1}}

    with pytest.raises(BusyError):
        accounts.change("p0", always_lost, tries=3)
    assert "blocked" not in accounts.account("p0")
    with pytest.raises(NoAccountError):
        accounts.change("nobody", lambda account: {"x": 1})


def test_a_word_report_counts_once_per_reporter_word_and_kind(stores):
    reports = stores.word_reports
    assert reports.counts("KİTAP") == {"wrong": 0, "missing": 0, "reports": 0}
    assert reports.add("KİTAP", "wrong", "h1", NOW)
    assert not reports.add("KİTAP", "wrong", "h1", NOW + 5)  # again: not counted
    assert reports.add("KİTAP", "missing", "h1", NOW)
    assert reports.add("KİTAP", "wrong", "h2", NOW)
    assert reports.counts("KİTAP") == {"wrong": 2, "missing": 1, "reports": 3}
    assert reports.counts("KALEM") == {"wrong": 0, "missing": 0, "reports": 0}


def test_a_window_counts_up_to_its_limit_and_others_are_apart(stores):
    counters = stores.counters
    assert [counters.hit("move#p0#0", 3, int(NOW) + 60) for _ in range(5)] == [
        True, True, True, False, False,
    ]  # fmt: skip
    assert counters.hit("move#p0#10", 3, int(NOW) + 70)  # the next window
    assert counters.hit("move#p1#0", 3, int(NOW) + 60)  # another player


def test_spaced_uses_are_refused_too_soon_and_past_the_most(stores):
    counters = stores.counters
    key = "phrase#t#p0#1"
    assert counters.hit_spaced(key, 3, 5.0, NOW, 600) is None
    assert counters.hit_spaced(key, 3, 5.0, NOW + 4.5, 600) == (1, NOW)  # too soon
    assert counters.hit_spaced(key, 3, 5.0, NOW + 5, 600) is None
    assert counters.hit_spaced(key, 3, 5.0, NOW + 10.25, 600) is None
    assert counters.hit_spaced(key, 3, 5.0, NOW + 99, 600) == (3, NOW + 10.25)  # the most
    assert counters.hit_spaced("phrase#t#p1#1", 3, 5.0, NOW + 1, 600) is None
