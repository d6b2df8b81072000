"""A table nobody is left at (docs/RULES.en.md "A table nobody is left at"), through the
application: the write path, the timers, the stream (pushes, the inbox), tournaments and a
deletion. Computer players never play a game for nobody; a dropped player keeps it going."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fakes import FakeStream, fake_app
from service_helpers import corr_options, full_table, player
from test_correspondence import FakeQueue
from test_tournaments import _create, _end_round, _entered, _started, _viewer
from testkit import publisher_over

from harftet.engine import table as life
from harftet.engine import timing
from harftet.fanout import changes_from_stream
from harftet.notify.outbox import Outbox

WAIT = 120
GRACE = 120


@pytest.fixture
def mail_app(clock, outbox):
    """The application with the inbox (the mail table) and the log."""
    return fake_app(clock, outbox, log=True, mail=True)


def _stored(app: Any, table_id: str) -> Any:
    return app.stores.tables.get(table_id).table


def test_a_live_table_everybody_left_ends_at_the_wait_s_end_by_its_timer(app, clock, outbox, live):
    table_id, (a, b) = full_table(app, seats=2, hands=3, turn_seconds=600)
    watcher = player(app, "Seyirci")
    app.sockets.connect(watcher, table_id, "watch")
    live.pump()
    app.tables.leave(a, table_id, 0)
    clock.advance(10)
    app.tables.leave(b, table_id, 1)
    live.pump()
    assert [t["tableId"] for t in app.tables.lobby("open")["tables"]] == [table_id]
    assert app.guests.player(a.player_id)["rating"] == 1000 - 6  # 2·N, once, at the leave
    # the first seat's wait ends: a computer player sits there, the game stays paused
    clock.advance(WAIT - 10)
    due = [t for t in live.timers.scheduled if t.table_id == table_id and t.due <= clock()]
    assert due and live.firing.fire(due[-1]) == "committed"
    live.pump()
    assert _stored(app, table_id).status == "paused"
    clock.advance(10)  # the last seat's wait ends: nobody is left, the game ends
    due = [t for t in live.timers.scheduled if t.table_id == table_id and t.due <= clock()]
    assert live.firing.fire(due[-1]) == "committed"
    outbox.sent.clear()
    live.pump()
    table = _stored(app, table_id)
    assert table.status == "finished" and table.seats[1].occupant is None
    assert timing.next_due(table) is None  # no timer, no computer move any more
    [pushed] = outbox.to("watch")  # the spectator is told (a delta of the view)
    assert '"abandoned"' in json.dumps(pushed) and '"finished"' in json.dumps(pushed)
    assert app.tables.lobby("open")["tables"] == []  # off the substitutes' list
    for who in (a, b):
        player_item = app.guests.player(who.player_id)
        assert player_item["rating"] == 1000 - 6  # nothing more than the leave
    replay = app.records.replay(None, table_id)
    assert replay["result"] == {"penalties": [0, 0], "ratings": {}, "closed": "abandoned"}


def test_a_dropped_player_keeps_the_game_going_and_can_come_back(app, clock):
    table_id, (a, b) = full_table(app, seats=2, turn_seconds=600)
    app.tables.leave(a, table_id, 0)
    app.writer.write(table_id, lambda t, now: life.disconnect(t, b.player_id, now))  # her socket
    clock.advance(GRACE)
    app.tables.view(None, table_id)  # her grace ends (lazy enforcement): her seat is offered
    clock.advance(WAIT)
    view = app.tables.view(None, table_id)  # nobody sat: computer players play her seat
    assert view["status"] == "playing" and view["closed"] is None
    assert all(s["bot"] for s in view["seats"])
    back = app.tables.sit(b, table_id, 1)  # a dropped player can always come back
    assert back["seats"][1]["playerId"] == b.player_id and back["status"] == "playing"


def test_a_substitute_who_sits_during_the_wait_keeps_it_going(app, clock):
    table_id, (a, b) = full_table(app, seats=2, turn_seconds=600)
    app.tables.leave(a, table_id, 0)
    app.tables.leave(b, table_id, 1)
    clock.advance(WAIT - 1)
    sub = player(app, "Yedek")
    app.tables.sit(sub, table_id, 0)
    clock.advance(2)
    view = app.tables.view(sub, table_id)
    assert view["status"] == "paused" and view["seats"][1]["bot"]  # waits for her Continue
    assert app.tables.continue_game(sub, table_id)["status"] == "playing"


def test_a_correspondence_table_ends_at_the_last_leave_and_the_inbox_says_why(mail_app, clock):
    app = mail_app
    notes = Outbox(app.inbox.record_versions, FakeQueue(), lambda _: set(), clock, app.stores.inbox)
    publisher = publisher_over(app, log=app.stores.log, outbox=notes)
    stream = FakeStream(app.stores.tables)
    a, b = player(app, "Ayşe"), player(app, "Barış")
    table_id = app.tables.create_table(a, corr_options(turn_seconds=43200), seed=11)["tableId"]
    app.tables.sit(b, table_id, 1)
    app.tables.start(a, table_id)
    first = app.tables.leave(a, table_id, 0)
    assert first["status"] == "playing" and first["seats"][0]["bot"]  # Barış plays on
    clock.advance(3600)
    last = app.tables.leave(b, table_id, 1)
    assert last["status"] == "finished" and last["closed"] == "abandoned"
    assert last["last"]["type"] == "gameEnd" and last["last"]["closed"] == "abandoned"
    stream.deliver(lambda event: publisher.publish(changes_from_stream(event)))
    for who in (a, b):
        (entry,) = app.inbox.tables(who)["tables"]
        assert entry["status"] == "finished" and entry["closed"] == "abandoned"
        assert app.guests.player(who.player_id)["rating"] == 1000 - 2
    assert timing.next_due(_stored(app, table_id)) is None


def test_a_tournament_table_everybody_left_counts_for_its_round(app, clock):
    t = _create(app, rounds=2, seats=2)
    tid = t["tournamentId"]
    callers = _entered(app, t, 4)
    view = _started(app, t)
    first, second = (e["tableId"] for e in view["tables"] if e["round"] == 1)
    by_id = {c.player_id: c for c in callers}
    for seat, chair in enumerate(_stored(app, first).seats):
        app.tables.leave(by_id[chair.occupant.player_id], first, seat)
    clock.advance(WAIT + 1)
    ended = app.tables.view(None, first)
    assert ended["closed"] == "abandoned"
    app.rounds.table_ended(_stored(app, first))
    assert app.stores.tournaments.ended(tid, 1) == 1  # its result was written and counted
    _end_round(app, {"tables": [{"round": 1, "tableId": second}]}, 1)
    view = app.tournaments.view(_viewer(app), tid)
    assert view["round"] == 2  # the round did not wait for ever
    assert len(view["standings"]) == 2  # the leavers are out


def test_deleting_the_only_player_who_may_come_back_ends_the_game(app, clock):
    table_id, (a, b) = full_table(app, seats=2, turn_seconds=600)
    app.tables.leave(a, table_id, 0)
    app.writer.write(table_id, lambda t, now: life.disconnect(t, b.player_id, now))
    clock.advance(GRACE)
    app.tables.view(None, table_id)
    clock.advance(WAIT)
    assert app.tables.view(None, table_id)["status"] == "playing"  # computers keep her seat
    app.data.delete(b)
    view = app.tables.view(None, table_id)
    assert view["status"] == "finished" and view["closed"] == "abandoned"


def test_an_operator_s_close_says_its_reason(app):
    table_id, _ = full_table(app, seats=2)
    app.tables.close(table_id)
    view = app.tables.view(None, table_id)
    assert view["status"] == "finished" and view["closed"] == "operator"
    assert view["result"]["ratings"] == {}
