"""Whole seeded games through every transition a table knows — moves, the sweep's timers
and computer players, people dropping, coming back, leaving and substituting — for the log,
replay and leak tests. Imported by name (``from life_games import ...``)."""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, field
from typing import Any

from engine_helpers import NOW, WORDS, rules_of

from harftet.engine import table as life
from harftet.engine.bot import choose_move
from harftet.engine.effects import Outcome
from harftet.engine.errors import EngineError
from harftet.engine.hand import apply_move
from harftet.engine.moves import Move, Ready
from harftet.engine.options import TableOptions
from harftet.engine.state import Event, Occupant, Table


def person(pid: str) -> Occupant:
    return Occupant(pid, f"Oyuncu {pid}", rating=900 + len(pid))


def mover(table: Table, seat: int) -> Move:
    return choose_move(table, seat, WORDS)


@dataclass
class Game:
    """One game's tables after each change, and the log (every change's events)."""

    tables: list[Table]
    events: list[Event] = field(default_factory=list)
    outcomes: list[tuple[Table, Outcome]] = field(default_factory=list)

    @property
    def table(self) -> Table:
        return self.tables[-1]

    def take(self, out: Outcome) -> None:
        before = self.table
        if out.table is before:
            assert out.events == []
            return
        # a change reports events — but for a seat saying ready between hands (no event)
        assert out.events or out.table.ready != before.ready
        assert out.events == out.table.recent
        self.outcomes.append((before, out))
        self.events.extend(out.events)
        self.tables.append(out.table)


def run_game(
    game: str,
    seed: int,
    *,
    players: int = 4,
    hands: int = 2,
    practice: bool = False,
    churn: float = 0.08,
    bot_seconds: int = 1,
    limit: int = 6000,
) -> Game:
    """A seeded game from the creation to its end (AssertionError if it does not end)."""
    rng = random.Random(seed)
    rules = rules_of(game)
    now = NOW
    table = life.new_table(
        "t1",
        person("p0"),
        TableOptions(
            game,
            seats=players,
            hands=hands,
            turn_seconds=20,
            grace_seconds=50,
            wait_seconds=30,
            bot_seconds=bot_seconds,
        ),
        seed=seed * 7919 + 1,
        now=now,
        salt=f"{seed:032x}",
        test_mode=True,
    )
    g = Game([table], list(table.recent))
    for i in range(1, players):
        if practice and i == players - 1:
            g.take(life.seat_bot(g.table, i, "p0", now, rng.choice(["easy", "medium", "hard"])))
        else:
            g.take(life.sit(g.table, i, person(f"p{i}"), now))
    g.take(life.start(g.table, "p0", now))
    silent: set[str] = set()
    pool = [f"p{i}" for i in range(players)] + [f"sub{i}" for i in range(6)]
    for _ in range(limit):
        table = g.table
        if table.status == "finished":
            return g
        now += rng.choice([0.25, 0.5, 1.0, 2.0])
        due = life.next_due(table)
        if due is not None and due <= now:
            out = life.sweep(table, now, mover, rules=rules)
            assert out is not None
            g.take(out)
            continue
        if rng.random() < churn:
            with contextlib.suppress(EngineError):  # a refused request changes nothing
                g.take(_churn(table, rng, now, silent, pool))
            continue
        if table.break_until is not None and table.status == "playing":
            waited = [  # the people the break waits for (RULES §2a): most say ready at once
                i
                for i, s in enumerate(table.seats)
                if s.occupant and not s.occupant.bot and s.connected and i not in table.ready
            ]
            if waited and rng.random() < 0.8:
                g.take(apply_move(table, waited[0], Ready(), now, rules=rules))
                continue
        seat = table.turn_seat
        occupant = table.seats[seat].occupant if seat is not None else None
        if (
            table.status == "playing"
            and seat is not None
            and occupant is not None
            and not occupant.bot
            and occupant.player_id not in silent
        ):
            g.take(apply_move(table, seat, mover(table, seat), now, rules=rules))
            continue
        if table.status == "paused" and table.manager and table.manager not in silent:
            try:
                g.take(life.continue_game(table, table.manager, now))
                continue
            except EngineError:
                pass
        if due is not None:
            now = max(now, due)
    raise AssertionError("the game does not end")


def _churn(table: Table, rng: random.Random, now: float, silent: set[str], pool: list[str]) -> Any:
    """One random coming or going."""
    seated = [s.occupant.player_id for s in table.seats if s.occupant and not s.occupant.bot]
    vacant = [i for i, s in enumerate(table.seats) if s.occupant is None]
    what = rng.choice(["drop", "back", "back", "leave", "sit", "sit", "bot"])
    if what == "drop" and seated:
        who = rng.choice(seated)
        silent.add(who)
        return life.disconnect(table, who, now)
    if what == "back" and silent:
        who = rng.choice(sorted(silent))
        silent.discard(who)
        return life.reconnect(table, who, now)
    if what == "leave" and seated:
        return life.leave(table, rng.choice(seated), now)
    if what == "sit" and vacant:
        who = rng.choice(pool)
        silent.discard(who)
        return life.sit(table, rng.choice(vacant), person(who), now)
    if what == "bot" and vacant and table.manager:
        return life.seat_bot(table, rng.choice(vacant), table.manager, now)
    return life.sweep(table, now) or life.disconnect(table, "nobody", now)
