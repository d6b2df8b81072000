"""The inbox reads its own writes (API.md v4 "Inbox"): a table the caller created, sat at or
was invited to is in ``GET /players/me/tables`` in the very next request — here with no
stream consumer at all, so nothing but the request itself can have listed it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from service_helpers import full_table, play_out, player

from harftet.engine.options import TableOptions
from harftet.errors import NotFoundError

OPTIONS = TableOptions(game="kastet", seats=3, hands=1, partners=False, turn_seconds=45)


@pytest.fixture
def app(clock: Any, outbox: Any) -> Any:
    from fakes import fake_app

    return fake_app(clock, outbox, log=False, mail=True)


def listed(app: Any, caller: Any) -> list[str]:
    return [e["tableId"] for e in app.inbox.tables(caller)["tables"]]


def test_created_sat_at_and_invited_tables_are_listed_at_once(app, clock):
    host, guest, friend, stranger = (player(app, n) for n in ("Ev", "Konuk", "Dost", "Yabancı"))
    table_id = app.tables.create_table(host, OPTIONS, seed=1)["tableId"]
    assert listed(app, host) == [table_id]
    app.tables.sit(guest, table_id, 1)
    assert listed(app, guest) == [table_id]
    app.friends.request(host, app.friends.friends(friend)["code"])
    app.friends.accept(friend, host.player_id)
    app.friends.invite(host, table_id, friend.player_id)
    (entry,) = app.inbox.tables(friend)["tables"]
    assert entry["tableId"] == table_id and entry["players"][:2] == ["Ev", "Konuk"]
    assert listed(app, stranger) == []
    app.tables.sit(friend, table_id, 2)  # the invitation taken: now a member's entry
    assert listed(app, friend) == [table_id]


def test_an_invitation_from_a_blocked_player_lists_nothing(app):
    host, friend = player(app, "Ev"), player(app, "Dost")
    app.friends.request(host, app.friends.friends(friend)["code"])
    app.friends.accept(friend, host.player_id)
    app.friends.block(friend, host.player_id)
    table_id = app.tables.create_table(host, OPTIONS, seed=1)["tableId"]
    with pytest.raises(NotFoundError):  # no longer friends: refused as for any stranger
        app.friends.invite(host, table_id, friend.player_id)
    assert listed(app, friend) == []


def test_an_invitation_entry_goes_after_a_day(app, clock):
    host, friend = player(app, "Ev"), player(app, "Dost")
    app.friends.request(host, app.friends.friends(friend)["code"])
    app.friends.accept(friend, host.player_id)
    table_id = app.tables.create_table(host, OPTIONS, seed=1)["tableId"]
    app.friends.invite(host, table_id, friend.player_id)
    item = app.stores.inbox.get(friend.player_id, table_id)
    assert item is not None and item.expires_at is not None
    assert item.expires_at <= clock.now + 24 * 3600


def test_a_deleted_players_seat_is_marked_so_clients_name_it_in_their_language(app):
    """API.md "Deleted players": their seat keeps the server's Turkish name; ``deleted`` marks it
    (as leaderboards and leagues do), and an entry stored before the mark gets it from the name."""
    from harftet.engine.seating import DELETED_NAME

    table_id, (ali, ayse) = full_table(app, seats=2)
    play_out(app, table_id, [ali, ayse])

    def streamed() -> None:  # what the stream consumer writes of the table's newest version
        stored = app.stores.tables.get(table_id)
        app.inbox.record(stored.table, stored.version, app.clock())

    streamed()
    (entry,) = app.inbox.tables(ali)["tables"]
    assert entry["players"] == ["Oyuncu0", "Oyuncu1"] and entry["deleted"] == []
    app.accounts.remember_table(ayse.player_id, table_id)
    app.data.delete(ayse)
    streamed()
    (entry,) = app.inbox.tables(ali)["tables"]
    assert entry["status"] == "finished"
    assert entry["players"] == ["Oyuncu0", DELETED_NAME] and entry["deleted"] == [1]
    item = app.stores.inbox.get(ali.player_id, table_id)
    assert item is not None and item.entry["deleted"] == [1]  # stored so, from the anonymous id
    older = {k: v for k, v in item.entry.items() if k != "deleted"}  # written before the mark
    app.stores.inbox.put(dataclasses.replace(item, version=item.version + 1, entry=older))
    assert app.inbox.tables(ali)["tables"][0]["deleted"] == [1]
