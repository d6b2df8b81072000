"""Weekly leagues (issue 38, RULES §8): the Monday roll-over and a league page's read, on the
DynamoDB adapters over moto (in this process), with every call's capacity units counted by
AWS's sizing rules (an UpdateItem: the larger of the item before and after, 1 KB a unit; a
failed condition is billed too; a strongly consistent read: 4 KB a unit).

Run: ``.venv/bin/python -m bench.bench_leagues [--players N] [--divisions D]`` (default the
issue's 100,000 players in 3,400 divisions; part of ``make bench``).

Rows: one roll-over's time (goal: inside a Lambda's 15 minutes), its write units per player
(goal ≤ 2), a second run of the same week (goal: no write at all), and the read units of
``GET /leagues/{game}/me`` on a full division of 30 long names (goal ≤ 5).
"""

from __future__ import annotations

import argparse
import math
import threading
import time
from collections import Counter
from typing import Any

from bench import Result
from bench.cost_calls import item_size

PLAYERS = 100_000
DIVISIONS = 3_400
LAMBDA_SECONDS = 900
WEEK = "2027-W02"
GAME = "kastet"
TIERS = ("bronz", "gumus", "altin", "platin", "elmas")


class Metered:
    """A DynamoDB client that counts each call's read and write units (``rcu``, ``wcu``)
    and every write call (``writes``); reads it makes to size a write are not counted."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.rcu = 0.0
        self.wcu = 0
        self.calls: Counter[str] = Counter()
        self._lock = threading.Lock()

    def _count(self, op: str, rcu: float = 0.0, wcu: int = 0) -> None:
        with self._lock:
            self.calls[op] += 1
            self.rcu += rcu
            self.wcu += wcu

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def get_item(self, **kw: Any) -> Any:
        found = self._client.get_item(**kw)
        self._count("GetItem", _read(found.get("Item"), kw.get("ConsistentRead", False)))
        return found

    def batch_get_item(self, **kw: Any) -> Any:
        found = self._client.batch_get_item(**kw)
        units = 0.0
        for name, items in found.get("Responses", {}).items():
            consistent = kw["RequestItems"][name].get("ConsistentRead", False)
            units += sum(_read(i, consistent) for i in items)
        self._count("BatchGetItem", units)
        return found

    def update_item(self, **kw: Any) -> Any:
        key = {"TableName": kw["TableName"], "Key": kw["Key"], "ConsistentRead": True}
        before = self._client.get_item(**key).get("Item") or {}
        try:
            return self._client.update_item(**kw)
        finally:
            after = self._client.get_item(**key).get("Item") or {}
            self._count("UpdateItem", wcu=_units(max(item_size(before), item_size(after)), 1024))

    def put_item(self, **kw: Any) -> Any:
        self._count("PutItem", wcu=_units(item_size(kw["Item"]), 1024))
        return self._client.put_item(**kw)


def _units(size: int, unit: int) -> int:
    return max(1, math.ceil(size / unit))


def _read(item: dict[str, Any] | None, consistent: bool) -> float:
    units = _units(item_size(item or {}), 4096)
    return float(units) if consistent else units / 2


def _seed(client: Any, table: str, players: int, divisions: int, week: str = WEEK) -> list[str]:
    """``players`` places in ``divisions`` divisions spread over the five tiers, as a week's
    game ends leave them (names of 12 letters, points and games as played); the division ids."""
    from boto3.dynamodb.types import TypeSerializer

    ser = TypeSerializer()
    per_tier = [divisions // 5 + (1 if t < divisions % 5 else 0) for t in range(5)]
    sizes = [players // divisions + (1 if d < players % divisions else 0) for d in range(divisions)]
    items: list[dict[str, Any]] = []
    ids: list[str] = []
    d = 0
    for t, tier in enumerate(TIERS):
        for n in range(1, per_tier[t] + 1):
            division = f"{tier}-{n}"
            ids.append(division)
            members = {}
            for i in range(sizes[d]):
                pid = f"c1.{d:05d}{i:02d}aa"
                members[pid] = {"name": f"Oyuncu{d:04d}{i:02d}", "pts": (i * 37) % 61 - 30,
                                "g": 1 + i % 7, "at": 1_800_000_000_000 + i}  # fmt: skip
                items.append({"playerId": f"lgp#{GAME}#{pid}", "week": week, "tier": tier,
                              "division": division})  # fmt: skip
            items.append({"playerId": f"lgd#{GAME}#{week}#{division}", "tier": tier,
                          "m": members, "v": len(members), "expiresAt": 1_900_000_000})  # fmt: skip
            d += 1
        items.append({"playerId": f"lga#{GAME}#{week}#{tier}", "open": per_tier[t], "size": 29})
    for start in range(0, len(items), 25):
        batch = [{"PutRequest": {"Item": {k: ser.serialize(v) for k, v in item.items()}}}
                 for item in items[start : start + 25]]  # fmt: skip
        client.batch_write_item(RequestItems={table: batch})
    return ids


def measure(players: int = PLAYERS, divisions: int = DIVISIONS) -> tuple[list[Result], list[str]]:
    import boto3
    from moto import mock_aws

    from harftet.leagues.service import Leagues
    from harftet.leagues.weeks import end_of
    from harftet.store.leagues import LeagueStore
    from harftet.store.schema import create_tables

    with mock_aws():
        raw = boto3.client("dynamodb", region_name="us-east-1")
        create_tables(raw, {"PlayersTable": "harftet-players"})
        started = time.perf_counter()
        ids = _seed(raw, "harftet-players", players, divisions)
        seeded = time.perf_counter() - started
        clock = lambda: end_of(WEEK) + 3600  # noqa: E731
        leagues = Leagues(LeagueStore(raw, "harftet-players"), clock)
        started = time.perf_counter()
        first = leagues.roll_over(WEEK)  # timed as it runs: no metering in the way
        took = time.perf_counter() - started
        # The units, by AWS's sizing rules, on a week of the same shape (a tenth, ≥ 100
        # divisions: the units per player do not depend on how many there are).
        sample = "2027-W01"
        _seed(raw, "harftet-players", max(3_000, players // 10), max(100, divisions // 10), sample)
        client = Metered(raw)
        metered = Leagues(LeagueStore(client, "harftet-players"), clock)
        counted = metered.roll_over(sample)
        wcu, calls = client.wcu, dict(client.calls)
        client.wcu, client.rcu, client.calls = 0, 0.0, Counter()
        again = metered.roll_over(sample)
        second_writes = sum(n for op, n in client.calls.items() if op in ("UpdateItem", "PutItem"))
        again_reads = client.calls.get("GetItem", 0)
        again_full = leagues.roll_over(WEEK)
        page_rcu = _page_read(raw, metered, client)
    per_player = wcu / max(1, counted["players"])
    rows = [
        Result(
            name=f"leagues: roll-over of {players:,} players in {len(ids):,} divisions, one run",
            value=took,
            unit="s",
            detail=f"moto in this process, {leagues.roll_over.workers} threads; {first['status']}; "
            f"seeding took {seeded:.0f} s",
            baseline_name="a Lambda's timeout",
            baseline=float(LAMBDA_SECONDS),
            goal=1.0,
        ),
        Result(
            name="leagues: roll-over write units per player",
            value=per_player,
            unit="WCU",
            detail=f"{per_player:.2f} per player: {wcu:,} WCU for {counted['players']:,} players "
            f"(a tier for each who moves, each division marked, each week done; {calls})",
            baseline_name="target",
            baseline=2.0,
            goal=1.0,
        ),
        Result(
            name="leagues: the same week rolled again, writes",
            value=float(second_writes),
            unit="writes",
            detail=f"{again['status']}, {again['divisions']} divisions, {again_reads} reads; "
            f"the full week again: {again_full['divisions']} divisions",
            baseline_name="target",
            baseline=0.0,
            goal=None,
        ),
        Result(
            name="leagues: GET /leagues/{game}/me read units, full division of 30",
            value=page_rcu,
            unit="RCU",
            detail="the place and the division, two strongly consistent GetItems, names of 24",
            baseline_name="target",
            baseline=5.0,
            goal=1.0,
        ),
    ]
    notes = [
        f"roll-over: {first}; again: {again}",
        f"per player {took / max(1, first['players']) * 1000:.2f} ms on moto in this process"
        + (
            f"; at this rate {PLAYERS:,} players take {took / first['players'] * PLAYERS:.0f} s "
            "(a run stops a minute before its timeout and the next scheduled one goes on)"
            if first["players"] < PLAYERS
            else ""
        ),
    ]
    return rows, notes


def _page_read(raw: Any, leagues: Any, client: Metered) -> float:
    """The read units of one league page on a division of 30 members with 24-letter names."""
    from boto3.dynamodb.types import TypeSerializer

    from harftet.leagues.weeks import week_of

    ser = TypeSerializer()
    week = week_of(leagues.clock())
    members = {f"c1.{i:016x}": {"name": "Ç" * 12 + "x" * 12, "pts": 22 * i - 300, "g": 40,
                                 "at": 1_900_000_000_000 + i} for i in range(30)}  # fmt: skip
    items = [{"playerId": f"lgd#{GAME}#{week}#altin-1", "tier": "altin", "m": members, "v": 99}]
    items += [{"playerId": f"lgp#{GAME}#{pid}", "week": week, "tier": "altin",
               "division": "altin-1"} for pid in members]  # fmt: skip
    for item in items:
        raw.put_item(
            TableName="harftet-players", Item={k: ser.serialize(v) for k, v in item.items()}
        )
    client.rcu = 0.0
    page = leagues.mine(next(iter(members)), GAME)
    assert len(page["standings"]) == 30
    return client.rcu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--divisions", type=int, default=DIVISIONS)
    args = parser.parse_args()
    rows, notes = measure(args.players, args.divisions)
    from bench.report import row

    for r in rows:
        print(row(r))
    for note in notes:
        print("-", note)


if __name__ == "__main__":
    main()
