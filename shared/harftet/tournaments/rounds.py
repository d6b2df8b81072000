"""A tournament's rounds (RULES §8): round 1 at its start, each later round once the last
table of the one before has ended and its scheduled time (``schedule.py``) has come, the
podium after the last.

Every step is idempotent and safe under any number of concurrent callers (the tables'
stream, the schedule, a retry): a table's end is counted once (`TournamentStore.count`: its
result marked counted and the round's counter raised in ONE transaction); whoever then finds
the counter at the round's table count claims the next round with a conditional update on
(round, phase) — one caller wins, the rest stop. The claim leaves the tournament ``seating``;
the seating puts the round's plan once (the first plan is everyone's), creates the tables
under their deterministic ids (conditional puts, a transaction of many at a time: each
made once), tells their people, then marks the round ``playing``. A starter that died
half-way leaves the round ``seating``: the schedule finds it there and does it again
(nothing is made twice). No scan anywhere.

A round of 1,024 people is seated in a few dozen calls, a bounded pool sending the
independent ones side by side: the tables ``table_batch`` to a call, the people's open
sockets ``push_batch`` to a read, their notifications ``notify_batch`` to a queue call. The
plan names each table's people, so no per-person note is written: a deleted player's
tournament tables are found from the plans (``Tournaments.tables_of``)."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import KW_ONLY, dataclass
from typing import Any

from harftet.engine import proof
from harftet.engine import table as life
from harftet.engine.options import TableOptions
from harftet.engine.seats import bot_occupant
from harftet.engine.state import Occupant, Table
from harftet.store.ports import TableStorePort, TournamentStorePort

from .ids import next_id, parse_table, table_id
from .schedule import is_due
from .standings import BOT, Result, Row, podium, retired, standings
from .swiss import first_round, groups_of, rng_for, swiss_round

logger = logging.getLogger(__name__)
Told = list[tuple[str, dict[str, Any]]]  # (player id, message), many players at once
REPEATS = {"daily": 86400, "weekly": 7 * 86400}


def result_from(item: dict[str, Any]) -> Result:
    return Result(
        int(item["round"]), int(item["index"]), tuple(str(p) for p in item["players"]),
        tuple(int(p) for p in item["penalties"]), int(item["endedMs"]),
        frozenset(str(p) for p in item.get("left") or ()),
    )  # fmt: skip


@dataclass(eq=False)
class Rounds:
    """``push([(player_id, message), ...])``: each message to its player's open sockets
    (their sockets read at once); ``notify([(player_id, data), ...])``: notifications (one
    queue batch)."""

    store: TournamentStorePort
    tables: TableStorePort
    clock: Callable[[], float]
    _: KW_ONLY
    cell: str = ""
    push: Callable[[Told], object] | None = None
    notify: Callable[[Told], object] | None = None
    test_mode: bool = False
    workers: int = 8  # calls in flight at once while seating (each one of the batches below)
    table_batch: int = 25  # tables made per call (one transaction of conditional puts)
    push_batch: int = 100  # people whose sockets are read per call (one BatchGetItem)
    notify_batch: int = 10  # notifications per queue call (SQS's most)
    stale_seconds: float = 60.0  # a round seating this long: its starter died, do it again
    stream_tables: int = 64  # the stream seats a round this big at once; a bigger one: the
    # schedule's function (its time budget is the seating's, not a stream batch's)

    # -- what drives it ------------------------------------------------------------------
    def tick(self) -> dict[str, int]:
        """The schedule's run: start every tournament due, drive every running one."""
        now = self.clock()
        started = sum(self.start(t) for t in self.store.due("registering", now))
        driven = 0
        for t in self.store.due("running", now):
            driven += self.drive(t)
        return {"started": started, "driven": driven}

    def table_ended(self, table: Table) -> bool:
        """A table's newest version from the stream: a finished tournament table is
        counted, and may start the next round. Whether it started one."""
        found = parse_table(table.table_id)
        if found is None or table.status != "finished":
            return False
        tid, round_number, index = found
        self.store.count(tid, round_number, index)
        return self.advance(tid, round_number, seat_here=False)

    def drive(self, t: dict[str, Any]) -> bool:
        """A running tournament: a round stuck seating is seated again; a playing round's
        results not yet counted are counted (a stream record lost), then it may advance."""
        tid, round_number = str(t["tournamentId"]), int(t["round"])
        if t.get("phase") == "seating":
            at = t.get("seatingAt", 0)
            if self.clock() - float(at) < self.stale_seconds:
                return False
            expect = {"round": round_number, "phase": "seating", "seatingAt": at}
            if not self.store.step(tid, expect, {"seatingAt": _n(self.clock())}):
                return False  # another run took it up first
            self.seat(t, round_number)
            return True
        if t.get("phase") != "playing":
            return False
        for item in self.store.results(tid, round_number, int(t["tables"])):
            if not item.get("counted"):
                self.store.count(tid, round_number, int(item["index"]))
        return self.advance(tid, round_number)

    # -- the steps -------------------------------------------------------------------------
    def start(self, t: dict[str, Any]) -> bool:
        """Round 1 of a tournament whose start has come (claimed once); its next one made
        when it repeats."""
        now = self.clock()
        if t.get("status") != "registering" or now < float(t["startsAt"]):
            return False
        tid = str(t["tournamentId"])
        claim = {"status": "running", "round": 1, "phase": "seating", "seatingAt": _n(now)}
        if not self.store.step(tid, {"status": "registering"}, claim):
            return False
        self.seat({**t, **claim}, 1)
        self.repeat(t)
        return True

    def advance(self, tid: str, round_number: int, seat_here: bool = True) -> bool:
        """The next round (or the podium) once every table of ``round_number`` has ended and
        the next round's scheduled time has come: claimed by one caller only. The stream
        (not ``seat_here``) seats a round of up to ``stream_tables`` tables itself and hands
        a bigger one to the schedule's next run (claimed as a starter that died: seated
        again at once)."""
        t = self.store.get(tid)
        if t is None or int(t["round"]) != round_number or t.get("phase") != "playing":
            return False
        tables = int(t["tables"])
        if self.store.ended(tid, round_number) < tables:
            return False
        if round_number >= int(t["rounds"]):
            return self.finish(t)
        if not is_due(t, round_number + 1, self.clock()):
            return False  # its time has not come: the schedule's run at that time starts it
        here = seat_here or tables <= self.stream_tables
        now = self.clock() - (0 if here else self.stale_seconds + 1)  # stale at once
        claim = {"round": round_number + 1, "phase": "seating", "seatingAt": _n(now)}
        if not self.store.step(tid, {"round": round_number, "phase": "playing"}, claim):
            return False
        if here:
            self.seat({**t, **claim}, round_number + 1)
        return True

    def seat(self, t: dict[str, Any], round_number: int) -> list[str]:
        """The round's tables made (once) and their people told; the round then plays.
        Returns the tables' ids."""
        tid = str(t["tournamentId"])
        entrants = self.store.entrants(tid)
        plan = self.store.plan(tid, round_number)
        if plan is None:
            plan = self.store.put_plan(tid, round_number, self.plan(t, round_number, entrants))
        ids = [table_id(self.cell, tid, round_number, i) for i in range(len(plan))]
        if plan:
            with ThreadPoolExecutor(self.workers) as pool:
                proofs = self._make(pool, t, ids, plan, entrants)
                self.store.put_proofs(tid, round_number, proofs)
                self._tell(pool, t, round_number, ids, plan)
        done = {"phase": "playing", "tables": len(plan)}
        self.store.step(tid, {"round": round_number, "phase": "seating"}, done)
        if not plan:
            self.advance(tid, round_number)  # nobody to seat: straight to the end
        return ids

    def plan(
        self, t: dict[str, Any], round_number: int, entrants: dict[str, Any]
    ) -> list[list[str]]:
        """Each table's people: a random draw first, then Swiss by standings."""
        tid, seats = str(t["tournamentId"]), int(t["seats"])
        out = retired(entrants)
        if round_number == 1:
            rng = rng_for(str(t["draw"]), tid, round_number)
            return first_round(sorted(p for p in entrants if p not in out), seats, rng)
        results = self.results(t, round_number - 1)
        rows = standings(entrants, results, out)
        met = [g for r in results for g in groups_of([[p for p in r.players if p != BOT]])]
        return swiss_round([row.player_id for row in rows], seats, set(met))

    def results(
        self, t: dict[str, Any], last_round: int, plans: dict[int, Any] | None = None
    ) -> list[Result]:
        """The results of rounds 1..``last_round`` (their plans name every table)."""
        tid = str(t["tournamentId"])
        plans = self.store.plans(tid, last_round) if plans is None else plans
        found: list[Result] = []
        for r, plan in sorted(plans.items()):
            found += [result_from(i) for i in self.store.results(tid, r, len(plan["tables"]))]
        return found

    def final(self, t: dict[str, Any]) -> list[Row]:
        entrants = self.store.entrants(str(t["tournamentId"]))
        return standings(entrants, self.results(t, int(t["round"])), retired(entrants))

    def finish(self, t: dict[str, Any]) -> bool:
        """The podium's badges written (idempotent), then the tournament finished (once)."""
        tid, name = str(t["tournamentId"]), str(t["name"])
        for pid, place in podium(self.final(t)):
            self.store.award(pid, tid, name, place)
        expect = {"round": int(t["round"]), "phase": "playing"}
        done = {"status": "finished", "phase": "done", "finishedAt": _n(self.clock())}
        return self.store.step(tid, expect, done)

    def repeat(self, t: dict[str, Any]) -> None:
        """A repeating tournament's next one, a period later (made once: its id is fixed)."""
        every = REPEATS.get(str(t.get("repeat") or ""))
        if every is None:
            return
        keep = {k: v for k, v in t.items() if k not in _RUN_FIELDS}
        tid = next_id(str(t["tournamentId"]))
        starts, opens = int(t["startsAt"]) + every, int(t.get("opensAt", t["startsAt"])) + every
        self.store.create({
            **keep, "tournamentId": tid, "status": "registering", "round": 0, "entries": 0,
            "startsAt": starts, "opensAt": opens, "draw": secrets.token_hex(16),
            "createdAt": _n(self.clock()),
        })  # fmt: skip

    # -- the tables and their people ----------------------------------------------------
    def _make(
        self,
        pool: Executor,
        t: dict[str, Any],
        ids: list[str],
        plan: list[list[str]],
        entrants: dict[str, Any],
    ) -> list[str]:
        """The round's tables made (once: an id that exists holds the table a starter that
        died made before, read back); each one's commitment to its first deal (RULES §5a)."""
        built = [self.build(t, ids[i], people, entrants) for i, people in enumerate(plan)]
        made: set[str] = set().union(
            *pool.map(self.tables.create_all, _chunks(built, self.table_batch))
        )
        before = [table.table_id for table in built if table.table_id not in made]
        found = dict(zip(before, pool.map(self._stored, before), strict=True))
        tables = [found.get(table.table_id, table) for table in built]
        return [proof.deal_proof(table.salt, table.seed, 1) for table in tables]

    def _stored(self, table_id: str) -> Table:
        return self.tables.get(table_id).table

    def build(self, t: dict[str, Any], tid: str, people: list[str], entrants: dict) -> Table:
        """A live, rated table with hints off, every seat taken (``hard`` computer players
        in the empty ones), started."""
        now = self.clock()
        options = TableOptions(
            game=t["game"], seats=int(t["seats"]), hands=int(t["hands"]),
            turn_seconds=int(t["turnSeconds"]), hints=False, rated=True,
        )  # fmt: skip
        who = [_occupant(pid, entrants.get(pid) or {}) for pid in people]
        table = life.new_table(
            tid, who[0], options, seed=secrets.randbits(63), now=now,
            salt=secrets.token_hex(proof.SALT_BYTES), test_mode=self.test_mode,
        )  # fmt: skip
        events = list(table.recent)
        for seat in range(1, int(t["seats"])):
            sitter = who[seat] if seat < len(who) else bot_occupant(seat, "hard")
            outcome = life.sit(table, seat, sitter, now)
            table, events = outcome.table, events + outcome.events
        outcome = life.start(table, str(table.manager), now, matched=True)
        table = outcome.table
        table.recent = events + outcome.events
        return table

    def _tell(
        self,
        pool: Executor,
        t: dict[str, Any],
        round_number: int,
        ids: list[str],
        plan: list[list[str]],
    ) -> None:
        """Every seated person pushed her table and notified, in batches side by side; a
        batch that fails is logged and never undoes a seat."""
        tid = str(t["tournamentId"])
        about = {"game": t["game"], "name": t["name"], "round": round_number}
        told = [
            (pid, {"type": "tournament", "tournamentId": tid, "round": round_number,
                   "tableId": ids[i]})
            for i, people in enumerate(plan) for pid in people
        ]  # fmt: skip
        jobs: list[tuple[Callable[[Told], object], Told]] = []
        if self.push is not None:
            jobs += [(self.push, part) for part in _chunks(told, self.push_batch)]
        if self.notify is not None:
            noted = [(pid, {**message, **about}) for pid, message in told]
            jobs += [(self.notify, part) for part in _chunks(noted, self.notify_batch)]
        for _ in pool.map(lambda job: _quietly(*job), jobs):
            pass


def _quietly(tell: Callable[[Told], object], told: Told) -> None:
    try:
        tell(told)
    except Exception:
        logger.warning("could not tell %d seated people", len(told), exc_info=True)


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


_RUN_FIELDS = ("playerId", "board", "score", "phase", "tables", "seatingAt", "finishedAt")


def _occupant(pid: str, entry: dict[str, Any]) -> Occupant:
    return Occupant(pid, str(entry.get("name") or "?"), rating=int(entry.get("rating", 1000)))


def _n(value: float) -> Any:
    from decimal import Decimal

    return Decimal(str(round(value, 3)))
