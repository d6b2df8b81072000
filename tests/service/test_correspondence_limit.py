"""RULES §6: a player holds at most 20 running correspondence tables — every way a table
stops counting, and tables that expire without a write (harftet.store.holdings), over the
in-memory stores.

A burst of joins and creates and a lost answer's retry are races only DynamoDB settles: they
run against moto's server in tests/store/test_races.py."""

from __future__ import annotations

import pytest
from service_helpers import (
    corr_table,
    held_by,
    hold_tables,
    player,
)

from harftet.api.errors import error_response
from harftet.engine import hand
from harftet.engine.options import TableOptions
from harftet.errors import TooManyHeldError, TooManyTablesError
from harftet.store.holdings import MAX_HELD
from harftet.store.table_items import WAITING_SECONDS

DAY = 86400.0


# -- the life of a table: who holds it, and when it stops counting -------------------------
def test_a_table_is_held_while_it_runs_and_stops_counting_every_way_it_can(app, clock, monkeypatch):
    from harftet.engine import timing

    a, b, c = player(app, "Ayşe"), player(app, "Barış"), player(app, "Cem")
    # Created: the manager holds it; joining, standing up and joining again before the start.
    t1 = corr_table(app, a)
    assert held_by(app, a) == {t1} and held_by(app, b) == set()
    app.tables.sit(b, t1, 1)
    assert held_by(app, b) == {t1}
    app.tables.leave(b, t1, 1)
    assert held_by(app, b) == set()
    app.tables.sit(b, t1, 1)
    app.tables.start(a, t1)
    assert held_by(app, a) == held_by(app, b) == {t1}
    # Live tables never count.
    app.tables.create_table(
        a, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    )
    assert held_by(app, a) == {t1}
    # Leaving a running game: a computer player takes the seat, the leaver holds it no more
    # (charged 2·N once: the rating and the set change in one write).
    app.tables.leave(b, t1, 1)
    assert held_by(app, b) == set() and held_by(app, a) == {t1}
    assert app.guests.player(b.player_id)["rating"] == 1000 - 2
    # An operator closes it.
    app.moderation.close_table(t1)
    assert held_by(app, a) == set()

    # Three timeouts hand Barış's seat to a computer player: still his (he may take it back),
    # still counted; the game's end frees it for both.
    monkeypatch.setattr(timing, "bot_player", lambda table, seat: hand.forced_move(table))
    t2 = corr_table(app, a)
    app.tables.sit(b, t2, 1)
    app.tables.start(a, t2)
    dropped = False
    while app.stores.tables.get(t2).table.status != "finished":
        table = app.stores.tables.get(t2).table
        if table.turn_seat == 0:
            view = app.tables.view(a, t2)
            move = hand.forced_move(table)
            app.tables.move(a, t2, view["version"], f"m{view['version']}", move)
        else:
            clock.now = max(clock.now, timing.next_due(table) or clock.now)
            app.deadlines.sweep()
        seat = app.stores.tables.get(t2).table.seats[1]
        if seat.occupant is not None and seat.occupant.bot and not dropped:
            dropped = True
            assert seat.original_fate == "dropped"
            assert held_by(app, b) == {t2}
    assert dropped
    assert held_by(app, a) == held_by(app, b) == set()
    assert app.guests.player(a.player_id)["gamesPlayed"] == 1  # the end's ratings, once

    # Deleting an account leaves its running tables: the others keep theirs.
    t3 = corr_table(app, a)
    app.tables.sit(c, t3, 1)
    app.tables.start(a, t3)
    app.forgetting.wait = 0  # no stream consumer here: the log is not waited for
    app.forgetting.forget_at_table(c.player_id, t3)
    assert held_by(app, c) == set() and held_by(app, a) == {t3}


def test_the_21st_table_is_refused_with_a_clear_409_and_nothing_changes(app, clock):
    me = player(app, "Ayşe")
    mine = hold_tables(app, me, MAX_HELD)
    assert held_by(app, me) == set(mine)
    host = player(app, "Son")
    last = corr_table(app, host)
    before = app.stores.tables.get(last)
    with pytest.raises(TooManyHeldError) as refused:
        app.tables.sit(me, last, 1)
    status, body = error_response(refused.value, "tr")
    assert status == 409 and body["error"]["code"] == "too_many_tables"
    assert body["error"]["reason"] == "too_many_correspondence" and body["error"]["max"] == 20
    assert body["error"]["message"].startswith("Aynı anda en çok 20 yazışmalı masada")
    assert (
        "you already play 20 correspondence tables"
        in error_response(refused.value)[1]["error"]["message"]
    )
    assert app.stores.tables.get(last) == before  # the table is as it was
    with pytest.raises(TooManyTablesError):
        corr_table(app, me)
    assert held_by(app, me) == set(mine)
    # Standing up from one makes room for one.
    app.tables.leave(me, mine[0], 1)
    assert len(held_by(app, me)) == MAX_HELD - 1
    app.tables.sit(me, last, 1)
    assert held_by(app, me) == {*mine[1:], last}


def test_tables_that_expire_waiting_stop_counting_at_the_limit(app, clock):
    me = player(app, "Ayşe")
    own = corr_table(app, me)  # waits for a partner who never comes
    clock.advance(60)
    others = hold_tables(app, me, MAX_HELD - 1)
    host = player(app, "Son")
    late = corr_table(app, host)
    with pytest.raises(TooManyHeldError):
        app.tables.sit(me, late, 1)
    # A day after it was made the waiting table has left the lobby (TTL removes it, without a
    # write): at the limit its id is checked and dropped. The others still wait too, younger.
    clock.now = app.stores.tables.get(own).table.created_at + WAITING_SECONDS + 1
    assert clock.now < app.stores.tables.get(others[0]).table.created_at + WAITING_SECONDS
    app.tables.sit(me, late, 1)
    assert held_by(app, me) == {*others, late}


def test_the_in_memory_stores_count_as_dynamodb_does(clock):
    from fakes import fake_app

    app = fake_app(clock)
    me = player(app, "Ayşe")
    mine = hold_tables(app, me, MAX_HELD - 1)
    own = corr_table(app, me)
    assert held_by(app, me) == {*mine, own}
    with pytest.raises(TooManyHeldError):
        app.tables.sit(me, corr_table(app, player(app, "Son")), 1)
    with pytest.raises(TooManyHeldError):
        corr_table(app, me)
    app.tables.leave(me, mine[0], 1)
    assert held_by(app, me) == {*mine[1:], own}
