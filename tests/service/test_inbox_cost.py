"""What the inbox costs at a live table: its members' items are written when what the inbox
lists or orders by changes (status, players, whose turn), else at most once every
LIVE_REFRESH_SECONDS; a correspondence table's items follow every version."""

from __future__ import annotations

from typing import Any

from harftet.engine import table as life
from harftet.engine.hand import apply_move
from harftet.engine.moves import Draw
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant, Table
from harftet.identity import Caller
from harftet.inbox import Inbox
from harftet.inbox.service import LIVE_REFRESH_SECONDS


class Counting:
    """The inbox's store, counting the items it is asked to write (each one PutItem of the
    adapter, written or refused as older)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.puts = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def put(self, item: Any) -> bool:
        self.puts += 1
        return bool(self.store.put(item))


def _started(pace: str) -> Table:
    seconds = 30 if pace == "live" else 3600
    table = life.new_table(
        "t-inbox",
        Occupant("p0", "Ayşe"),
        TableOptions("kastet", seats=2, turn_seconds=seconds, pace=pace),
        seed=5,
        now=1000.0,
    )
    table = life.sit(table, 1, Occupant("p1", "Barış"), 1001).table
    return life.start(table, "p0", 1002).table


def _store() -> tuple[Inbox, Counting]:
    """The inbox over a store counting its writes."""
    from fakes import FakeInbox, FakeMailTable

    store = Counting(FakeInbox(FakeMailTable()))
    return Inbox(store, lambda data: b"mac" * 6, lambda: 0.0), store


def _entry(inbox: Inbox, player: str, now: float) -> dict[str, Any]:
    inbox.clock = lambda: now
    [found] = [e for e in inbox.tables(Caller(player, ""))["tables"] if e["tableId"] == "t-inbox"]
    return found


def test_a_live_tables_inbox_follows_the_turn_but_not_every_version():
    store, client = _store()
    table, version, now = _started("live"), 3, 1002.0
    store.record(table, version, now)
    assert client.puts == 2  # both members
    assert _entry(store, "p0", now)["yourTurn"] is (table.turn_seat == 0)
    # a version that changes neither the turn nor the players within the refresh: no write
    store.record(table, version + 1, now + 1)
    assert client.puts == 2
    # the turn passes: both members' items follow at once
    seat = table.turn_seat
    assert seat is not None
    moved = apply_move(table, seat, Draw(), now + 2).table
    store.record(moved, version + 2, now + 2)
    assert client.puts == 4
    for player, mine in (("p0", moved.turn_seat == 0), ("p1", moved.turn_seat == 1)):
        assert _entry(store, player, now + 2)["yourTurn"] is mine
    # what did not change is written again once the refresh is over (deadline, last move)
    store.record(moved, version + 3, now + 2 + LIVE_REFRESH_SECONDS)
    assert client.puts == 6


def test_a_correspondence_tables_inbox_follows_every_version():
    store, client = _store()
    table = _started("correspondence")
    store.record(table, 3, 1002.0)
    store.record(table, 4, 1003.0)
    assert client.puts == 4


def test_the_turn_passing_writes_nothing_for_players_watching_the_table():
    store, client = _store()
    table, version, now = _started("live"), 3, 1002.0
    store.record(table, version, now, watching=["p0", "p1"])
    assert client.puts == 2  # the first version is written for everyone
    seat = table.turn_seat
    assert seat is not None
    moved = apply_move(table, seat, Draw(), now + 1).table
    assert moved.turn_seat != seat
    # both watch the table: its pushes show them the turn, their inbox items wait
    store.record(moved, version + 1, now + 1, watching=["p0", "p1"])
    assert client.puts == 2
    # p1 closes the socket: the next version brings p1's item to the turn, not p0's
    store.record(moved, version + 2, now + 2, watching=["p0"])
    assert client.puts == 3
    mine = moved.turn_seat == 1
    assert _entry(store, "p1", now + 2)["yourTurn"] is mine
    assert _entry(store, "p0", now + 2)["yourTurn"] is (table.turn_seat == 0)  # as it was
    # the refresh brings a watcher's item to the turn all the same
    store.record(moved, version + 3, now + 1 + LIVE_REFRESH_SECONDS, watching=["p0"])
    assert client.puts == 4
    assert _entry(store, "p0", now + 2)["yourTurn"] is (moved.turn_seat == 0)
