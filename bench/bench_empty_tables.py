"""What a table nobody is left at costs after its last person leaves: before (computer players
play the game to its end) and after (docs/RULES.en.md "A table nobody is left at": the game
ends where a computer player would take the last vacant seat).

Every person of a started game leaves at the first hand (one after another, a second apart);
then every timed event is applied as the timer function applies them (``timing.due_event``
with the computer players' moves, one stored change each) until nothing is due. Counted per
table: the stored changes after the last leave (each is a table-item write, a stream record,
a fan-out run that pushes to every open socket, a log item and, while it moves the deadline, a
timer), the log events, the table item's bytes written (write units: 1 KB each, rounded up
per write), and the game time the table stays alive. The "before" rows run the same code with
the deserted-table check switched off (the engine as it was). Load-independent counts: the
engine is run in process, no store, no clock but the simulated one.

Run: ``.venv/bin/python -m bench.bench_empty_tables [--games kastet,harftet] [--seeds 3]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from unittest import mock

from harftet.engine import table as life
from harftet.engine import timing
from harftet.engine.codec import encode
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant, Table

NOW = 1_800_000_000.0
HANDS = 11
SEATS = 4
# The reference game's price per stored change on main (bench/RESULTS.md, issue 40: $8.40 per
# million changes, with four people's sockets): an upper bound for a table nobody watches.
USD_PER_CHANGE = 8.40e-6


@dataclass
class After:
    """What happened after the last person left."""

    changes: int = 0
    events: int = 0
    write_units: int = 0
    seconds: float = 0.0
    closed: str | None = None
    hands: int = 0


@contextmanager
def rule(on: bool) -> Iterator[None]:
    """The deserted-table check as it is (``on``), or switched off: the engine before it."""
    if on:
        yield
        return
    never = mock.Mock(return_value=False)
    with (
        mock.patch("harftet.engine.sweep.deserted", never),
        mock.patch("harftet.engine.table.deserted", never),
    ):
        yield


def _started(game: str, pace: str, seed: int) -> Table:
    turn = 86400 if pace == "correspondence" else 45
    options = TableOptions(game, seats=SEATS, hands=HANDS, turn_seconds=turn, pace=pace)
    people = [Occupant(f"p{i}", f"Oyuncu {i}") for i in range(SEATS)]
    table = life.new_table("bench-empty", people[0], options, seed=seed, now=NOW)
    for i in range(1, SEATS):
        table = life.sit(table, i, people[i], NOW).table
    return life.start(table, "p0", NOW).table


def run(game: str, pace: str, seed: int, *, on: bool) -> After:
    """One table: everybody leaves, then its timed events until nothing is due."""
    after = After()
    with rule(on):
        table = _started(game, pace, seed)
        now = NOW
        for i in range(SEATS):
            now += 1
            table = life.leave(table, f"p{i}", now).table
        left_at = now
        for _ in range(1_000_000):
            due = timing.next_due(table)
            if due is None:
                break
            now = max(now, due)
            out = timing.due_event(table, now, bots=True)
            if out is None or out.table is table:
                break
            table = out.table
            after.changes += 1
            after.events += len(out.events)
            after.write_units += math.ceil(len(encode(table)) / 1024)
        after.seconds = (table.recent[-1]["at"] if table.recent else now) - left_at
        after.closed = (table.result or {}).get("closed") if table.status == "finished" else None
        after.hands = table.hand_number
        assert table.status == "finished", f"{game} {pace} seed {seed}: still {table.status}"
    return after


def _fmt(rows: list[After]) -> str:
    mean = statistics.mean
    return (
        f"{mean(r.changes for r in rows):,.0f} changes, {mean(r.events for r in rows):,.0f} log "
        f"events, {mean(r.write_units for r in rows):,.0f} WRU of the table item, alive "
        f"{_duration(mean(r.seconds for r in rows))} more, {mean(r.hands for r in rows):.1f} hands "
        f"dealt"
    )


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="kastet,harftet")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    print("| table (4 seats, 11 hands, everyone leaves in hand 1) | before | after | saved |")
    print("|---|---|---|---|")
    for game in args.games.split(","):
        for pace in ("correspondence", "live"):
            seeds = range(1, args.seeds + 1)
            before = [run(game, pace, s, on=False) for s in seeds]
            now = [run(game, pace, s, on=True) for s in seeds]
            saved = statistics.mean(b.changes - a.changes for b, a in zip(before, now, strict=True))
            usd = saved * USD_PER_CHANGE
            print(
                f"| {game} {pace} (seeds 1–{args.seeds}) | {_fmt(before)} | {_fmt(now)} "
                f"(ends: {now[0].closed}) | {saved:,.0f} changes a table (≤ ${usd:.4f}) |"
            )


if __name__ == "__main__":
    main()
