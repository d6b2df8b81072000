"""Correspondence tables (RULES §6): turns of hours or days, no disconnects, three timeouts
hand the seat to a computer player until its owner moves again; the inbox; notifications
produced from the stream. Over the in-memory stores and their stream, with an injected clock."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from service_helpers import corr_options, player

from harftet.engine import timing
from harftet.engine.errors import NotYourTurnError
from harftet.engine.moves import Draw, Pass
from harftet.engine.options import TableOptions
from harftet.errors import STATUS, TooManyTablesError

DAY = 86400.0
TURN = 43200  # 12 hours


class FakeQueue:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    def send(self, notifications: list[Any], delay: int = 0) -> None:
        self.sent += notifications


@pytest.fixture
def app(clock, outbox):
    """The application with the mail table (the inbox) and the log."""
    from fakes import fake_app

    return fake_app(clock, outbox, log=True, mail=True)


@pytest.fixture
def corr(app, stream, clock):
    from testkit import publisher_over

    from harftet.fanout import changes_from_stream
    from harftet.notify.outbox import Outbox

    queue = FakeQueue()
    outbox = Outbox(
        app.inbox.record_versions, queue, lambda table_id: set(), clock, app.stores.inbox
    )
    publisher = publisher_over(app, log=app.stores.log, outbox=outbox)

    def pump() -> None:
        stream.deliver(lambda event: publisher.publish(changes_from_stream(event)))

    return SimpleNamespace(queue=queue, outbox=outbox, pump=pump)


def _table(app, corr, a, b, **options):
    view = app.tables.create_table(
        a,
        corr_options(turn_seconds=TURN),
        seed=options.get("seed", 11),
    )
    table_id = view["tableId"]
    app.tables.sit(b, table_id, 1)
    app.tables.start(a, table_id)
    corr.pump()
    return table_id


def _stored(app, table_id):
    return app.stores.tables.get(table_id)


def _play(app, caller, table_id) -> dict[str, Any]:
    """``caller`` draws, or passes when they may not draw (22 tiles or an empty pile)."""
    view = app.tables.view(caller, table_id)
    table = _stored(app, table_id).table
    [seat] = [
        i for i, s in enumerate(table.seats)
        if caller.player_id in {p.player_id for p in (s.occupant, s.original) if p}
    ]  # fmt: skip
    held = len(table.seats[seat].hand)  # (a dropped owner's view shows no hand)
    move = Pass() if held >= 22 or view["pile"] == 0 else Draw()
    return app.tables.move(caller, table_id, view["version"], f"m{view['version']}", move)


def _run_until(app, clock, corr, table_id, until: float) -> None:
    """Let time pass: every timed event (timeouts, computer players' moves) due before
    ``until`` happens at its time, through the sweeper's deadline index."""
    while True:
        due = timing.next_due(_stored(app, table_id).table)
        if due is None or due > until:
            clock.now = max(clock.now, until)
            return
        clock.now = max(clock.now, due)
        app.deadlines.sweep()
        corr.pump()


def _seat_player(app, table_id, seat):
    occupant = _stored(app, table_id).table.seats[seat].occupant
    return occupant


def test_a_whole_correspondence_game_over_three_days(app, clock, corr):
    a, b = player(app, "Ayşe"), player(app, "Barış")
    start = clock.now
    table_id = _table(app, corr, a, b)
    callers = {a.player_id: a, b.player_id: b}
    view = app.tables.view(a, table_id)
    assert view["pace"] == "correspondence" and view["turnSeconds"] == TURN
    assert view["turn"]["deadline"] == pytest.approx(clock.now + TURN)

    def in_turn():
        table = _stored(app, table_id).table
        return table.turn_seat, table.seats[table.turn_seat].occupant

    # Day 1: both play, each two hours into their turn; closing the page changes nothing.
    app.sockets.connect(b, table_id, "conn-b")
    app.sockets.disconnect("conn-b")
    assert app.tables.view(a, table_id)["seats"][1]["connected"] is True
    for _ in range(4):
        clock.advance(2 * 3600)
        _play(app, callers[in_turn()[1].player_id], table_id)
        corr.pump()
    # Then Barış stops playing: each of his turns times out (a draw), three in a row.
    timeouts = 0
    while _seat_player(app, table_id, 1).player_id == b.player_id:
        seat, occupant = in_turn()
        if seat == 0:
            clock.advance(2 * 3600)
            _play(app, a, table_id)
            corr.pump()
        else:
            deadline = _stored(app, table_id).table.deadline
            _run_until(app, clock, corr, table_id, deadline)
            timeouts += 1
        assert _stored(app, table_id).table.status == "playing"  # never a pause
    assert timeouts == 3
    table = _stored(app, table_id).table
    assert table.seats[1].occupant.bot and table.seats[1].original_fate == "dropped"
    events = [e["type"] for e in table.recent]
    assert events[0] == "timeout" and events[-2:] == ["stand", "bot"]
    assert table.recent[-2]["reason"] == "timeouts"
    # His inbox still shows the table, not his turn any more.
    [entry] = app.inbox.tables(b)["tables"]
    assert entry["tableId"] == table_id and entry["yourTurn"] is False
    # The computer player plays his seat; Ayşe keeps playing.
    for _ in range(2):
        _run_until(app, clock, corr, table_id, clock.now + 5)
        if in_turn()[0] == 0:
            clock.advance(3 * 3600)
            _play(app, a, table_id)
            corr.pump()
    # Day 2 or 3: Barış comes back. Opening the table does not give his seat back...
    app.sockets.connect(b, table_id, "conn-b2")
    assert _seat_player(app, table_id, 1).bot
    # ...his move does (taken the moment his seat is in turn, before the computer moves).
    while in_turn()[0] != 1:
        _run_until(app, clock, corr, table_id, clock.now + 5)
        if in_turn()[0] == 0:
            clock.advance(3600)
            _play(app, a, table_id)
            corr.pump()
    version = app.tables.view(b, table_id)["version"]
    view = _play(app, b, table_id)
    corr.pump()
    assert view["version"] > version
    assert _seat_player(app, table_id, 1).player_id == b.player_id
    types = [e["type"] for e in _stored(app, table_id).table.recent]
    assert types[:2] == ["stand", "reconnect"]
    assert _stored(app, table_id).table.seats[1].original_fate is None
    # Both play to the end of the game.
    while _stored(app, table_id).table.status != "finished":
        seat, occupant = in_turn()
        clock.advance(3600)
        _play(app, callers[occupant.player_id], table_id)
        corr.pump()
    assert clock.now - start >= 2 * DAY  # the game took days, as correspondence games do
    # The log replays it: timeouts, the computer player's turns and the take-back included.
    from harftet.engine import replay

    rebuilt = replay.play(app.records.replay(a, table_id))
    assert rebuilt.result == _stored(app, table_id).table.result
    result = _stored(app, table_id).table.result
    penalties, points = result["penalties"], result["points"]
    assert sorted(points) == [-1, 1]
    assert points[penalties.index(min(penalties))] == 1
    # Barış came back, so the seat's result is his (and Ayşe's hers), once each.
    ratings = {p["playerId"]: p["rating"] for p in (app.guests.player(c) for c in callers)}
    assert ratings[a.player_id] == 1000 + points[0]
    assert ratings[b.player_id] == 1000 + points[1]
    # Notifications: "your turn" for each human turn, the game's end to both.
    kinds = [(n.player_id, n.kind) for n in corr.queue.sent]
    assert kinds.count((a.player_id, "gameEnd")) == 1
    assert kinds.count((b.player_id, "gameEnd")) == 1
    turns = [n for n in corr.queue.sent if n.kind == "turn"]
    assert {n.player_id for n in turns} == {a.player_id, b.player_id}
    assert len({(n.player_id, n.version) for n in turns}) == len(turns)  # never twice
    assert all(n.data["deadline"] is not None for n in turns)


def test_a_dropper_who_never_comes_back_is_charged_the_seats_loss(app, clock, corr, monkeypatch):
    from harftet.engine import hand

    # A computer player that only draws (or passes): a short game, the same seat rules.
    monkeypatch.setattr(timing, "bot_player", lambda table, seat: hand.forced_move(table))
    a, b = player(app, "Ayşe"), player(app, "Barış")
    table_id = _table(app, corr, a, b, seed=5)
    while _stored(app, table_id).table.status != "finished":
        table = _stored(app, table_id).table
        if table.turn_seat == 0:
            clock.advance(600)
            _play(app, a, table_id)
            corr.pump()
        elif table.seats[1].occupant.bot:
            _run_until(app, clock, corr, table_id, clock.now + 5)
        else:
            _run_until(app, clock, corr, table_id, table.deadline)
    table = _stored(app, table_id).table
    assert table.seats[1].occupant.bot and table.seats[1].original_fate == "dropped"
    points = table.result["points"]
    b_now = app.guests.player(b.player_id)
    assert b_now["rating"] == 1000 + min(0, points[1])  # a loss is his, a gain nobody's
    assert app.guests.player(a.player_id)["rating"] == 1000 + points[0]


def test_a_refused_move_of_a_dropped_owner_does_not_give_the_seat_back(app, clock, corr):
    a, b = player(app, "Ayşe"), player(app, "Barış")
    table_id = _table(app, corr, a, b)
    while not _stored(app, table_id).table.seats[1].occupant.bot:
        table = _stored(app, table_id).table
        if table.turn_seat == 0:
            _play(app, a, table_id)
            corr.pump()
        else:
            _run_until(app, clock, corr, table_id, table.deadline)
    table = _stored(app, table_id).table
    assert table.turn_seat == 0  # the third timeout passed the turn to Ayşe
    stored = _stored(app, table_id)
    with pytest.raises(NotYourTurnError):
        app.tables.move(b, table_id, stored.version, "early", Draw())
    assert _stored(app, table_id).version == stored.version
    assert _seat_player(app, table_id, 1).bot
    # Sitting down at the seat takes it back too (as at live tables).
    app.tables.sit(b, table_id, 1)
    assert _seat_player(app, table_id, 1).player_id == b.player_id


def test_leaving_a_correspondence_game_costs_2n_and_a_computer_player_sits_at_once(
    app, clock, corr
):
    a, b = player(app, "Ayşe"), player(app, "Barış")
    table_id = _table(app, corr, a, b)
    view = app.tables.leave(b, table_id, 1)
    assert view["status"] == "playing"  # no pause, no substitute wanted
    assert view["seats"][1]["bot"] is True
    assert app.guests.player(b.player_id)["rating"] == 1000 - 2
    assert app.tables.lobby("open", pace="correspondence")["tables"] == []


def test_a_table_i_left_reads_as_left_in_my_inbox_and_only_in_mine(app, clock, corr):
    """The leaver's inbox entry says so (``left``), never their turn, while the game goes on
    with a computer player in their seat; the one who stays sees an ordinary running table."""
    a, b = player(app, "Ayşe"), player(app, "Barış")
    table_id = _table(app, corr, a, b)
    (mine,) = app.inbox.tables(b)["tables"]
    assert mine["left"] is False
    app.tables.leave(b, table_id, 1)
    corr.pump()
    (mine,) = app.inbox.tables(b)["tables"]
    assert mine["tableId"] == table_id and mine["status"] == "playing"
    assert mine["left"] is True and mine["yourTurn"] is False
    (theirs,) = app.inbox.tables(a)["tables"]
    assert theirs["left"] is False and theirs["yourTurn"] is True
    _run_until(app, clock, corr, table_id, clock.now + 3 * TURN)  # Ayşe times out, the bot plays on
    (mine,) = app.inbox.tables(b)["tables"]
    assert mine["left"] is True and mine["yourTurn"] is False


def test_a_live_table_i_left_is_marked_left_and_a_seat_taken_again_is_not():
    from harftet.engine.seating import has_left
    from harftet.engine.state import Occupant, Seat, Table

    ayse, baris = Occupant("p1", "Ayşe"), Occupant("p2", "Barış")
    gone = Seat(occupant=None, original=baris, original_fate="left")
    table = Table("t1", "harftet", 1, "p1", status="paused", seats=[Seat(ayse, ayse), gone])
    assert has_left(table, "p2") and not has_left(table, "p1")
    table.seats[1].occupant = baris  # back in the seat (as a substitute)
    assert not has_left(table, "p2")
    table.seats[1].occupant, table.seats[1].original_fate = None, "dropped"  # may come back
    assert not has_left(table, "p2")


def test_turn_times_of_a_correspondence_table_are_one_two_or_three_days_or_hours():
    from harftet.api.models import CreateTable

    ok = CreateTable.model_validate({"game": "kastet", "pace": "correspondence"})
    assert ok.turn_seconds() == 86400
    for seconds in (3600, 43200, 86400, 259200):
        CreateTable.model_validate(
            {"game": "kastet", "pace": "correspondence", "turnSeconds": seconds}
        )
    for body in (
        {"game": "kastet", "pace": "correspondence", "turnSeconds": 7200},
        {"game": "kastet", "pace": "live", "turnSeconds": 3600},
        {"game": "kastet", "pace": "slow"},
    ):
        with pytest.raises(ValueError):
            CreateTable.model_validate(body)


def test_the_lobby_lists_correspondence_tables_apart(app, corr):
    a, b = player(app, "Ayşe"), player(app, "Barış")
    live = app.tables.create_table(
        a, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    )["tableId"]
    slow = app.tables.create_table(
        b,
        corr_options(turn_seconds=86400),
    )["tableId"]
    assert [t["tableId"] for t in app.tables.lobby("waiting")["tables"]] == [live]
    listed = app.tables.lobby("waiting", pace="correspondence")["tables"]
    assert [(t["tableId"], t["pace"]) for t in listed] == [(slow, "correspondence")]


def test_a_player_holds_at_most_20_running_correspondence_tables(app, corr):
    me = player(app, "Ayşe")
    for i in range(20):
        host = player(app, f"Ev{i}")
        table_id = app.tables.create_table(
            host,
            corr_options(),
        )["tableId"]
        app.tables.sit(me, table_id, 1)
        corr.pump()
    host = player(app, "Son")
    last = app.tables.create_table(
        host,
        corr_options(),
    )["tableId"]
    corr.pump()
    before = _stored(app, last).version
    with pytest.raises(TooManyTablesError) as refused:
        app.tables.sit(me, last, 1)
    assert refused.value.code == "too_many_tables" and STATUS[refused.value.code] == 409
    assert _stored(app, last).version == before  # nothing changed
    with pytest.raises(TooManyTablesError):
        app.tables.create_table(
            me,
            corr_options(),
        )
    # Live tables are not counted.
    app.tables.create_table(
        me, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    )


def test_the_inbox_puts_your_turn_first_then_the_nearest_deadline_and_pages(
    app, clock, corr, monkeypatch
):
    from harftet.identity import Tokens
    from harftet.inbox import Inbox
    from harftet.inbox import service as inbox

    a, b, c = player(app, "Ayşe"), player(app, "Barış"), player(app, "Cem")
    slow = _table(app, corr, a, b)  # Ayşe's turn, 12 h
    clock.advance(60)
    view = app.tables.create_table(
        c,
        corr_options(),
    )
    fast = view["tableId"]
    app.tables.sit(a, fast, 1)
    app.tables.start(c, fast)  # Cem's turn, 1 h
    clock.advance(60)
    live = app.tables.create_table(
        b, TableOptions(game="harftet", seats=2, hands=1, partners=False, turn_seconds=45)
    )["tableId"]
    app.tables.sit(a, live, 1)  # waiting
    corr.pump()
    mail = app.inbox
    page = mail.tables(a)
    assert [t["tableId"] for t in page["tables"]] == [slow, fast, live]
    first = page["tables"][0]
    assert first["yourTurn"] is True and first["deadline"] == pytest.approx(clock.now - 120 + TURN)
    assert first["players"] == ["Ayşe", "Barış"] and first["pace"] == "correspondence"
    assert first["last"]["type"] == "start" and "tile" not in first["last"]
    assert page["tables"][1]["yourTurn"] is False and page["tables"][1]["deadline"] is None
    assert page["yourTurn"] == 1 and page["cursor"] is None
    # Cem plays: now Ayşe's 1-hour turn there comes before her 12-hour one.
    view = app.tables.view(c, fast)
    app.tables.move(c, fast, view["version"], "c1", Draw())
    corr.pump()
    assert [t["tableId"] for t in mail.tables(a)["tables"]] == [fast, slow, live]
    # Pages of two, with a cursor that only its player may use.
    monkeypatch.setattr(inbox, "PAGE", 2)
    one = mail.tables(a)
    assert len(one["tables"]) == 2 and one["cursor"]
    two = mail.tables(a, one["cursor"])
    assert [t["tableId"] for t in two["tables"]] == [live]
    from harftet.errors import BadRequestError

    with pytest.raises(BadRequestError):
        mail.tables(b, one["cursor"])
    with pytest.raises(BadRequestError):
        other = Tokens("another-secret-0123456789-abcdefghijklmnop")
        Inbox(app.stores.inbox, other.mac, clock).tables(a, one["cursor"])
    # A player who stood up before the start no longer sees the table.
    app.tables.leave(a, live, 1)
    corr.pump()
    assert live not in [t["tableId"] for t in mail.tables(a)["tables"]]


def test_the_reminder_comes_once_an_hour_before_the_deadline(app, clock, corr):
    a, b = player(app, "Ayşe"), player(app, "Barış")
    table_id = _table(app, corr, a, b)
    deadline = _stored(app, table_id).table.deadline
    clock.now = deadline - 3600 - 5
    assert corr.outbox.remind(clock.now) == 0
    clock.now = deadline - 3600 + 1
    assert corr.outbox.remind(clock.now) == 1
    assert corr.outbox.remind(clock.now) == 0  # taken off the index: once
    [note] = [n for n in corr.queue.sent if n.kind == "reminder"]
    assert note.player_id == a.player_id and note.table_id == table_id
    assert note.data["deadline"] == pytest.approx(deadline)


def test_correspondence_timers_wait_in_the_deadline_index_not_in_a_queue(app, clock, corr):
    from harftet.queues import TimerQueue
    from harftet.timers import Timer

    class Sqs:
        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []

        def send_message(self, **kwargs: Any) -> None:
            self.sent.append(kwargs)

    sqs = Sqs()
    queue = TimerQueue(sqs, "url")
    queue.schedule(Timer("t", 3, clock.now + TURN), clock.now)
    assert sqs.sent == []
    queue.schedule(Timer("t", 3, clock.now + 45), clock.now)
    assert [m["DelaySeconds"] for m in sqs.sent] == [45]
    a, b = player(app, "Ayşe"), player(app, "Barış")
    table_id = _table(app, corr, a, b)
    deadline = _stored(app, table_id).table.deadline
    # Each sweeper run arms an exact timer for the deadlines now 15 minutes away, once.
    from harftet.timers import arm

    sqs.sent.clear()
    assert arm(app.stores.tables, queue, clock.now) == 0
    clock.now = deadline - 900 + 30
    assert arm(app.stores.tables, queue, clock.now) == 1
    [message] = sqs.sent
    assert message["DelaySeconds"] == 870 and str(deadline) in message["MessageBody"]
    clock.now += 60
    assert arm(app.stores.tables, queue, clock.now) == 0  # the next run does not send it again
    clock.now = deadline + 1
    assert table_id in app.stores.tables.due(clock.now)  # and the sweeper is the safety net
    assert app.deadlines.sweep() == 1


def test_a_table_left_waiting_leaves_the_inbox_and_the_count_after_a_day(app, clock, corr):
    a = player(app, "Ayşe")
    app.tables.create_table(
        a,
        corr_options(),
    )
    corr.pump()
    assert len(app.inbox.tables(a)["tables"]) == 1
    assert app.stores.tables.held_count(a.player_id, clock.now) == 1
    clock.advance(DAY + 1)  # the table item's TTL has it removed (no stream record is kept)
    assert app.inbox.tables(a)["tables"] == []
    # At the limit (here 1) a held table that expired waiting is dropped from the count.
    assert app.stores.tables.held_count(a.player_id, clock.now, limit=1) == 0


def test_only_real_players_are_members_after_a_leave_never_the_leavers_tag():
    """A leaver is remembered by a keyed tag (seats.tag), which is nobody's id: the inbox and
    the notifications follow the table's members, so a tag among them wrote inbox items and
    queued notifications for made-up players such as ``TLj_jQ``."""
    from harftet.engine.seating import members
    from harftet.engine.seats import _remember, tag
    from harftet.engine.state import Occupant, Seat, Table

    ayse, baris = Occupant("p1", "Ayşe"), Occupant("p2", "Barış")
    gone = Seat(occupant=None, original=baris, original_fate="left")
    table = Table("t1", "harftet", 1, "p1", status="paused", seats=[Seat(ayse, ayse), gone])
    _remember(table, "p2", 1)
    assert tag(table, "p2") in table.former
    assert members(table) == ["p1", "p2"]
    table.former["0123456789abcdef0123456789abcdef"] = 0  # an item stored before the tags
    assert members(table) == ["p1", "p2", "0123456789abcdef0123456789abcdef"]
