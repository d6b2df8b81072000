"""Which versions ask for a timer message (harftet.store.table_items.timer_asked) and what a
batch of versions sends (timers_of): a deadline leans on a message still ahead and due before
it; whatever a batch asked for is sent, even when its newest version leans on it."""

from __future__ import annotations

from harftet.engine import table as life
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant, Table
from harftet.store.table_items import StoredTable, timer_asked, timers_of

NOW = 1000.0


def playing(deadline: float) -> Table:
    table = life.new_table(
        "t", Occupant("p0", "A"), TableOptions("kastet", seats=2), seed=5, now=NOW - 3
    )
    table = life.sit(table, 1, Occupant("p1", "B"), NOW - 2).table
    table = life.start(table, "p0", NOW - 1).table
    table.deadline = deadline
    return table


def stored(version: int, deadline: float, base: StoredTable | None, now: float) -> StoredTable:
    table = playing(deadline)
    due_version, asked = timer_asked(base, table, version, now)
    return StoredTable(table, version, due_version=due_version, timer_due=asked)


def test_a_later_deadline_leans_on_a_message_ahead_and_a_sooner_one_asks_for_its_own():
    first = stored(2, NOW + 45, None, NOW)
    assert (first.due_version, first.timer_due) == (2, 1045_000)
    person = stored(3, NOW + 47, first, NOW + 2)  # leans: asks nothing
    assert (person.due_version, person.timer_due) == (2, 1045_000)
    bot = stored(4, NOW + 4, person, NOW + 3)  # a computer player's second: its own
    assert (bot.due_version, bot.timer_due) == (4, 1045_000)  # the later message still asked
    near = stored(5, NOW + 88, bot, NOW + 43.5)  # 1.5 s before the message: too near to lean
    assert (near.due_version, near.timer_due) == (5, 1088_000)


def test_a_batch_sends_the_message_its_versions_asked_for_even_when_the_newest_leans_on_it():
    before = stored(1, NOW + 1, None, NOW - 40)
    asks = stored(2, NOW + 45, before, NOW)  # 1001 s is too near to lean on: asks for 1045 s
    bot = stored(3, NOW + 2, asks, NOW + 1)  # its own message, 1045 s still asked
    assert timers_of(bot, before) == [NOW + 2, NOW + 45]  # one batch: both are sent
    assert timers_of(bot, asks) == [NOW + 2]  # 1045 s was sent with the batch before
    leans = stored(4, NOW + 48, bot, NOW + 3)
    assert timers_of(leans, before) == [NOW + 45]  # the newest leans on 1045 s: it is sent
