"""Matchmaking (RULES §8, harftet.matchmaking) with 1,000 simulated players of spread skills
arriving over time, over the stores' in-memory twins (tests/fakes, held against the DynamoDB
adapters by tests/store/test_fakes*.py), or with ``--moto`` over in-process moto (the match
table and the tables table as template.yaml declares them, every claim a real conditional
transaction).

The clock is simulated: players arrive as a Poisson stream (``RATE`` a second, four seats,
the default 30 s wait); each arrival wakes a matcher on its pool (the stream), and a second
matcher passes over every pool every 2 s (the schedule) — both made from the same `Matcher`.
Some players blocked somebody near their own skill. ``KILL`` of the passes die at a random
store call (a Lambda killed mid-run: before or after a claim, a table write, a settle); the
next pass must finish their work. At the end every ticket must be matched, once.

Measured: the wait from arriving to being seated, the skill spread (in the tiers a profile
shows, ``harftet.rating.tier``: Bronz … Elmas, floors 8 ordinal apart) among the people of a
table, players seated twice, blocked pairs
seated together, tickets never matched. ``python -m bench.bench_matchmaking [--moto]`` runs
it alone and rewrites its RESULTS.md section.
"""

from __future__ import annotations

import os
import random
import statistics
from collections.abc import Callable
from typing import Any

from bench import ROOT, Result, put_section, report

PLAYERS = 1_000
RATE = 4.0  # arrivals a second
SEATS = 4
WAIT = 30
TICK = 2.0  # the schedule's pass, seconds
KILL = 0.05  # share of passes killed at a random store call
BLOCKERS = 60  # players who blocked somebody near their skill
SEED = 38


class Killed(BaseException):
    """The matcher's Lambda died here (nothing in it catches that)."""


class Chaos:
    """A store whose calls may kill the pass that makes them (armed per pass)."""

    def __init__(self, store: Any, rng: random.Random, calls: tuple[str, ...]) -> None:
        self._store, self._rng, self._calls = store, rng, calls
        self.armed = False
        self.kills = 0

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name not in self._calls:
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            before = self.armed and self._rng.random() < 0.15
            if before:
                return self._die()
            value = found(*args, **kwargs)
            if self.armed and self._rng.random() < 0.15:
                self._die()  # done, but the answer never came back
            return value

        return call

    def _die(self) -> None:
        self.armed = False
        self.kills += 1
        raise Killed


def _counted(recover: Callable[[], int], passes: dict[str, int]) -> Callable[[], int]:
    def counted() -> int:
        found = recover()
        passes["finished"] += found
        return found

    return counted


def _players(rng: random.Random) -> list[dict[str, Any]]:
    """Players of spread skills (ordinal 0–40: all five tiers), some of them blocking another."""
    players = []
    for n in range(PLAYERS):
        sigma = 25 / 3 if rng.random() < 0.1 else rng.uniform(1.0, 3.0)  # a tenth new
        at = 0.0 if sigma > 8 else rng.uniform(0, 40)
        players.append({"id": f"p{n}", "mu": at + 3 * sigma, "sigma": sigma, "avoid": set()})
    by_skill = sorted(players, key=lambda p: p["mu"] - 3 * p["sigma"])
    for i in rng.sample(range(PLAYERS - 3), BLOCKERS):
        a, b = by_skill[i], by_skill[i + rng.randint(1, 3)]  # someone of about their skill
        a["avoid"].add(b["id"])
        b["avoid"].add(a["id"])
    return players


def simulate(matches: Any, tables: Any, rng: random.Random) -> dict[str, Any]:
    """Run the arrivals and the matchers; what happened to every ticket."""
    from harftet.matchmaking import Matcher
    from harftet.store.matchmaking import Ticket, pool_of

    now = [1_800_000_000.0]
    start = now[0]
    players = _players(rng)
    avoid = {p["id"]: p["avoid"] for p in players}
    seated_at: dict[str, float] = {}
    settle = matches.settle

    def settled(ticket_id: str) -> bool:  # the moment the player is told: their table exists
        done = bool(settle(ticket_id))
        if done:
            seated_at.setdefault(ticket_id, now[0])
        return done

    matches.settle = settled
    chaos_matches = Chaos(matches, rng, ("claim", "settle", "release", "seating", "waiting"))
    chaos_tables = Chaos(tables, rng, ("create",))
    ids = iter(range(10**9))

    def matcher() -> Matcher:
        return Matcher(
            chaos_matches, chaos_tables, lambda: now[0], lambda: f"T{next(ids)}",
            lambda pid: set(avoid[pid]), test_mode=True,
        )  # fmt: skip

    stream, schedule = matcher(), matcher()
    passes = {"runs": 0, "killed": 0, "finished": 0}
    for m in (stream, schedule):  # count the tables a later pass finished for a killed one
        m.recover = _counted(m.recover, passes)  # type: ignore[method-assign]

    def run(pass_: Callable[[], int]) -> None:
        passes["runs"] += 1
        armed = rng.random() < KILL
        chaos_matches.armed = chaos_tables.armed = armed
        try:
            pass_()
        except Killed:
            passes["killed"] += 1
        chaos_matches.armed = chaos_tables.armed = False

    arrivals, t = [], start
    for p in players:
        t += rng.expovariate(RATE)
        arrivals.append((t, p))
    arrived: dict[str, float] = {}
    pool = pool_of("kastet", SEATS)
    next_tick = start + TICK
    for at, p in arrivals:
        while next_tick <= at:
            now[0] = next_tick
            run(schedule.run)
            next_tick += TICK
        now[0] = at
        ticket = Ticket(
            ticket_id=f"k{p['id']}", player_id=p["id"], name=p["id"], rating=1000,
            game="kastet", seats=SEATS, wait_seconds=WAIT, at=round(at, 3),
            mu=p["mu"], sigma=p["sigma"], avoid=frozenset(p["avoid"]),
        )  # fmt: skip
        assert matches.open(ticket) is None
        arrived[ticket.ticket_id] = at
        run(lambda: stream.run([pool]))
    for _ in range(40):  # the last arrivals: the schedule runs on until all are seated
        now[0] = next_tick
        run(schedule.run)
        next_tick += TICK
    return {
        "players": players, "arrived": arrived, "seated_at": seated_at, "passes": passes,
        "kills": chaos_matches.kills + chaos_tables.kills, "span": arrivals[-1][0] - start,
    }  # fmt: skip


def measure(matches: Any, tables: Any, sim: dict[str, Any]) -> dict[str, Any]:
    """The targets' numbers from the tickets and the tables they name."""
    from harftet.rating import TIERS, Rating, tier

    players = {p["id"]: p for p in sim["players"]}
    waits, spreads, points, lost = [], [], [], 0
    table_of: dict[str, str] = {}
    for ticket_id, at in sim["arrived"].items():
        found = matches.ticket(ticket_id)
        if found is None or found.status != "matched" or ticket_id not in sim["seated_at"]:
            lost += 1
            continue
        waits.append(sim["seated_at"][ticket_id] - at)
        table_of[found.player_id] = str(found.table_id)
    seated: dict[str, list[str]] = {}
    blocked = bots = 0
    for table_id in sorted(set(table_of.values())):
        table = tables.get(table_id).table
        people = [s.occupant.player_id for s in table.seats if s.occupant and not s.occupant.bot]
        bots += sum(1 for s in table.seats if s.occupant and s.occupant.bot)
        for pid in people:
            seated.setdefault(pid, []).append(table_id)
        if len(set(people)) != len(people):
            seated.setdefault("twice@" + table_id, []).extend(["", ""])
        tiers = [TIERS.index(tier(Rating(players[p]["mu"], players[p]["sigma"]))) for p in people]
        ordinals = [Rating(players[p]["mu"], players[p]["sigma"]).ordinal for p in people]
        if len(people) > 1:
            spreads.append(max(tiers) - min(tiers))
            points.append(max(ordinals) - min(ordinals))
        blocked += sum(
            1 for i, a in enumerate(people) for b in people[i + 1 :] if b in players[a]["avoid"]
        )
    twice = sum(1 for where in seated.values() if len(where) > 1)
    return {
        "waits": waits, "spreads": spreads, "points": points, "lost": lost, "twice": twice,
        "blocked": blocked, "tables": len(set(table_of.values())), "bots": bots,
    }  # fmt: skip


def run(backend: str = "moto") -> list[Result]:
    """The bench over in-process moto, or (``fakes``) over the stores' in-memory twins
    (tests/fakes, held against moto by tests/store/test_fakes*.py): minutes against seconds
    on a busy machine, the same matcher and the same rules."""
    if backend == "fakes":
        return _over_fakes()
    from moto import mock_aws

    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    import boto3

    from harftet.store.matchmaking import MatchStore
    from harftet.store.schema import create_tables
    from harftet.store.tables import TableStore

    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_tables(client, {"MatchTable": "m", "TablesTable": "t", "PlayersTable": "p"})
        matches, tables = MatchStore(client, "m"), TableStore(client, "t", "p")
        sim = simulate(matches, tables, random.Random(SEED))
        got = measure(matches, tables, sim)
    return rows(sim, got, "in-process moto")


def _over_fakes() -> list[Result]:
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from fakes.matchmaking import FakeMatches
    from fakes.players import FakePlayers
    from fakes.tables import FakeTables

    matches, tables = FakeMatches(), FakeTables(FakePlayers())
    sim = simulate(matches, tables, random.Random(SEED))
    return rows(sim, measure(matches, tables, sim), "in-memory twins of the stores")


def rows(sim: dict[str, Any], got: dict[str, Any], over: str = "moto") -> list[Result]:
    waits, spreads = got["waits"], got["spreads"]
    median_wait = statistics.median(waits) if waits else float("inf")
    p90 = statistics.quantiles(waits, n=10)[-1] if len(waits) > 1 else median_wait
    arrivals = f"{PLAYERS} players over {sim['span']:.0f} s ({RATE:g}/s), {SEATS} seats, {over}"
    passes = sim["passes"]
    killed = (
        f"{passes['killed']} of {passes['runs']} passes killed mid-run, "
        f"{passes['finished']} of their tables finished by a later pass"
    )
    return [
        Result("matchmaking: median wait to a seat", round(median_wait, 1), "s",
               f"{arrivals}; p90 {p90:.1f} s; wait {WAIT} s then computer players",
               "target", 10.0, "", 1.0),
        Result("matchmaking: median skill spread in a table (people)",
               statistics.median(spreads) if spreads else 0, "tiers",
               f"{len(spreads)} tables of 2+ people of {got['tables']}; {got['bots']} computer "
               f"seats; p90 {statistics.quantiles(spreads, n=10)[-1]:.0f}; in ordinal points "
               f"(a tier: 8) median {statistics.median(got['points']):.1f}, "
               f"p90 {statistics.quantiles(got['points'], n=10)[-1]:.1f}",
               "target", 1.0, "", 1.0),
        Result("matchmaking: players seated twice", got["twice"], "players", arrivals,
               "one", 1.0, "0 allowed", 0.0),
        Result("matchmaking: blocked pairs seated together", got["blocked"], "pairs",
               f"{BLOCKERS} blocked pairs of about one skill", "one", 1.0, "0 allowed", 0.0),
        Result("matchmaking: tickets lost with matchers killed", got["lost"], "tickets",
               f"{killed} ({sim['kills']} kills); two matchers (stream and schedule)",
               "one", 1.0, "0 allowed", 0.0),
    ]  # fmt: skip


SECTION = "## Matchmaking (bench/bench_matchmaking.py)"


def write_section(rows: list[Result], results: Any) -> None:
    from datetime import UTC, datetime

    intro = (
        f"Run on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with a simulated clock (see the "
        "module): the real matcher over the stores' in-memory twins (`make bench`; held against "
        "the DynamoDB adapters by tests/store/test_fakes_match.py) or over in-process moto "
        "(`--moto`: the adapters' real conditional writes, minutes on a busy machine), as each "
        "row says."
    )
    put_section(results, SECTION, report.section(SECTION, intro, rows))


def main() -> None:
    import sys

    rows_ = run("moto" if "--moto" in sys.argv else "fakes")
    print("\n".join(report.row(r) for r in rows_))
    write_section(rows_, ROOT / "bench" / "RESULTS.md")


if __name__ == "__main__":
    main()
