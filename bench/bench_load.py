"""Load on the local stack, bounded in time: many tables at once, and many writers on one.

Over real HTTP to the local stack (``harftet.localstack``: the real handlers in the emulator's
execution environments, moto's server as DynamoDB, the stream fan-out appending the log):

- **many tables**: ``--tables`` (50) started 4-seat Kastet tables, each driven for
  ``--seconds`` (60) by its own client loop that plays, with the token of whoever is on turn,
  a draw (or a pass with 22 tiles or an empty pile) at the version of the last answer;
- **one table**: ``--writers`` (16) clients sending the turn player's move at the version they
  last saw, for ``--contended-seconds``: one wins each version, the others get 409
  ``stale_version`` with the view to go on from.

Reported: committed moves per second, p50/p99 of every request, and — checked against each
table's log once the fan-out has caught up — moves lost (a 200 whose move is not in the log
exactly once, or a version committed twice) and 5xx answers; both must be 0. The baseline,
measured in the same run on the same moto server with the same concurrency: the store's own
loop (a consistent get_item and the conditional update_item on the version, of an item of the
same size), without the API: one item per writer, and 16 writers on one item.

Run: ``.venv/bin/python -m bench.bench_load [--seconds 60] [--tables 50] [--writers 16]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import Result, percentile

SECONDS = 60.0
TABLES = 50
SEATS = 4
WRITERS = 16
CONTENDED_SECONDS = 20.0
STORE_SECONDS = 10.0
HAND_CAP = 22
SETUP_CONCURRENCY = 16
MOVES = ("draw", "pass", "lay")


@dataclass
class Tally:
    """What one phase saw: latencies (s) of every request, statuses, and the 200 moves by
    table (their moveIds and the versions they made)."""

    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    committed: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    seconds: float = 0.0
    dropped: int = 0  # connections the server closed under a request (resent, same moveId)

    @property
    def moves(self) -> int:
        return sum(len(v) for v in self.committed.values())

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


@dataclass
class Table:
    table_id: str
    tokens: list[str]  # by seat
    view: dict[str, Any]


def _next_move(view: dict[str, Any]) -> dict[str, Any]:
    """The turn player's draw, or a pass when they hold 22 tiles or the pile is empty."""
    seat = view["turn"]["seat"]
    tiles = view["seats"][seat]["tiles"]
    return {"type": "draw"} if tiles < HAND_CAP and view["pile"] > 0 else {"type": "pass"}


# -- over HTTP --------------------------------------------------------------------------------
async def _setup(http: Any, tables: int, seats: int) -> list[Table]:
    """``tables`` started Kastet tables of ``seats`` fresh players each (seeded)."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def call(method: str, path: str, token: str | None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with gate:
            reply = await http.request(method, path, json=body, headers=headers)
        if reply.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {reply.status_code} {reply.text}")
        return reply.json()

    async def one(n: int) -> Table:
        names = [f"Yük{n}x{s}" for s in range(seats)]
        tokens = [(await call("POST", "/players", None, {"name": m}))["token"] for m in names]
        body = {"game": "kastet", "seats": seats, "hands": 21, "turnSeconds": 600, "seed": n}
        table_id = (await call("POST", "/tables", tokens[0], body))["tableId"]
        for seat in range(1, seats):
            await call("POST", f"/tables/{table_id}/seats/{seat}", tokens[seat], {})
        view = await call("POST", f"/tables/{table_id}/start", tokens[0])
        return Table(table_id, tokens, view)

    return list(await asyncio.gather(*(one(n) for n in range(tables))))


async def _move(
    http: Any, table: Table, view: dict[str, Any], move_id: str, tally: Tally
) -> tuple[int, dict[str, Any]]:
    if view.get("break"):  # between hands (RULES §2a): each player says ready in turn
        seat = min(set(range(len(table.tokens))) - set(view["break"]["ready"]))
        body = {"type": "ready", "version": view["version"], "moveId": move_id}
    else:
        seat = view["turn"]["seat"]
        body = {**_next_move(view), "version": view["version"], "moveId": move_id}
    headers = {"Authorization": f"Bearer {table.tokens[seat]}"}
    import httpx

    start = time.perf_counter()
    for attempt in range(4):  # as a client does: a lost connection is resent, same moveId
        try:
            reply = await http.post(f"/tables/{table.table_id}/moves", json=body, headers=headers)
            break
        except httpx.TransportError:
            tally.dropped += 1
            if attempt == 3:
                raise
    tally.latencies.append(time.perf_counter() - start)
    tally.statuses[reply.status_code] += 1
    answer: dict[str, Any] = reply.json() if reply.content else {}
    if reply.status_code == 200 and body["type"] != "ready":  # a ready may log no event
        tally.committed.setdefault(table.table_id, []).append((move_id, answer["version"]))
    return reply.status_code, answer


async def _moving(
    http: Any,
    table: Table,
    tally: Tally,
    end: float,
    prefix: str,
    otherwise: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]],
) -> dict[str, Any]:
    """The turn player's moves (ids ``prefix-n``) on ``table`` back to back until ``end`` or
    the game's end, each at the version last seen: a 200, or a 409 with the view, goes on
    from the view it answers; anything else from the view ``otherwise`` makes of the one
    held. The last view."""
    view, n = table.view, 0
    while time.perf_counter() < end and view.get("status") == "playing":
        n += 1
        status, answer = await _move(http, table, view, f"{prefix}-{n}", tally)
        if status == 200:
            view = answer
        elif status == 409 and "view" in answer:
            view = answer["view"]
        else:
            view = await otherwise(view)
    return view


async def _many_tables(http: Any, tables: list[Table], seconds: float) -> Tally:
    """One loop per table, each playing its table's turns back to back until time is up."""
    tally = Tally()
    end = time.perf_counter() + seconds

    async def play(table: Table) -> None:
        async def look_again(view: dict[str, Any]) -> dict[str, Any]:
            seat = (view.get("turn") or {}).get("seat", 0)
            headers = {"Authorization": f"Bearer {table.tokens[seat]}"}
            answer: dict[str, Any] = (
                await http.get(f"/tables/{table.table_id}", headers=headers)
            ).json()
            return answer

        table.view = await _moving(http, table, tally, end, table.table_id, look_again)

    started = time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    tally.seconds = time.perf_counter() - started
    return tally


async def _one_table(http: Any, table: Table, writers: int, seconds: float) -> Tally:
    """``writers`` loops on one table, each sending the turn player's move at the version it
    last saw: the conditional write on the version lets one through per version."""
    tally = Tally()
    end = time.perf_counter() + seconds

    async def pause(view: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0.01)
        return view

    async def write(w: int) -> None:
        await _moving(http, table, tally, end, f"w{w}", pause)

    started = time.perf_counter()
    await asyncio.gather(*(write(w) for w in range(writers)))
    tally.seconds = time.perf_counter() - started
    return tally


async def _lost(http: Any, tables: list[Table], tally: Tally, wait: float = 60.0) -> int:
    """Moves answered 200 that the table's log does not hold exactly once, plus versions
    committed twice; waits (up to ``wait`` s) for the fan-out to append the log."""

    async def events(table: Table) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        headers = {"Authorization": f"Bearer {table.tokens[0]}"}
        while True:
            after = found[-1]["seq"] if found else 0
            reply = await http.get(f"/tables/{table.table_id}/log?after={after}", headers=headers)
            page = reply.json()["events"]
            if not page:
                return found
            found += page

    lost = 0
    deadline = time.perf_counter() + wait
    for table in tables:
        committed = tally.committed.get(table.table_id, [])
        versions = [v for _, v in committed]
        lost += len(versions) - len(set(versions))
        while True:
            logged = [e for e in await events(table) if e["type"] in MOVES]
            if len(logged) >= len(committed) or time.perf_counter() > deadline:
                break
            await asyncio.sleep(0.5)
        lost += abs(len(logged) - len(committed))
    return lost


async def _api(
    base_url: str, tables: int, seconds: float, writers: int, contended: float
) -> dict[str, Any]:
    import httpx

    limits = httpx.Limits(max_connections=tables + writers + 8)
    async with httpx.AsyncClient(base_url=base_url, timeout=120, limits=limits) as http:
        started = time.perf_counter()
        many = await _setup(http, tables, SEATS)
        single = (await _setup(http, 1, SEATS))[0]
        setup_seconds = time.perf_counter() - started
        spread = await _many_tables(http, many, seconds)
        contention = await _one_table(http, single, writers, contended)
        lost_spread = await _lost(http, many, spread)
        lost_contention = await _lost(http, [single], contention)
    return {
        "setup_seconds": setup_seconds,
        "spread": spread,
        "contention": contention,
        "lost_spread": lost_spread,
        "lost_contention": lost_contention,
        "table_ids": [t.table_id for t in many],
    }


# -- the store's own loop (no API) ------------------------------------------------------------
def _store_loop(
    endpoint: str, table_name: str, template_id: str, writers: int, items: int, seconds: float
) -> tuple[float, int]:
    """``writers`` threads, each looping a consistent get_item and the conditional
    update_item on the version (re-read on a lost race), over ``items`` copies of the table
    item ``template_id``; (committed writes per second, lost races)."""
    import boto3
    from botocore.config import Config
    from botocore.exceptions import ClientError

    from harftet.bootstrap import DYNAMODB_CONFIG
    from harftet.store.table_items import MOVES as MOVE_IDS  # the item's kept move ids

    config = DYNAMODB_CONFIG.merge(Config(max_pool_connections=writers + 4))
    client = boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
        config=config,
    )
    item = client.get_item(
        TableName=table_name, Key={"tableId": {"S": template_id}}, ConsistentRead=True
    )["Item"]
    copy = {k: v for k, v in item.items() if k not in ("lobby", "watch", "due", "deadline")}
    ids = [f"store-bench-{writers}-{i}" for i in range(items)]
    for table_id in ids:
        client.put_item(TableName=table_name, Item={**copy, "tableId": {"S": table_id}})
    committed = [0] * writers
    races = [0] * writers
    end = time.perf_counter() + seconds

    def loop(w: int) -> None:
        key = {"tableId": {"S": ids[w % items]}}
        while time.perf_counter() < end:
            got = client.get_item(TableName=table_name, Key=key, ConsistentRead=True)["Item"]
            version = int(got["version"]["N"])
            try:
                client.update_item(
                    TableName=table_name,
                    Key=key,
                    UpdateExpression="SET #v = :new, #s = :state, #m = :moves",
                    ConditionExpression="#v = :expected",
                    ExpressionAttributeNames={"#v": "version", "#s": "state", "#m": MOVE_IDS},
                    ExpressionAttributeValues={
                        ":expected": {"N": str(version)},
                        ":new": {"N": str(version + 1)},
                        ":state": got["state"],
                        ":moves": got[MOVE_IDS],
                    },
                    ReturnValuesOnConditionCheckFailure="ALL_OLD",
                )
                committed[w] += 1
            except ClientError as error:
                if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                    raise
                races[w] += 1

    started = time.perf_counter()
    with ThreadPoolExecutor(writers) as pool:
        list(pool.map(loop, range(writers)))
    return sum(committed) / (time.perf_counter() - started), sum(races)


# -- the run ----------------------------------------------------------------------------------
def measure(
    seconds: float = SECONDS,
    tables: int = TABLES,
    writers: int = WRITERS,
    contended: float = CONTENDED_SECONDS,
    store_seconds: float = STORE_SECONDS,
) -> dict[str, Any]:
    """Start a local stack, load it, measure the store loop on its DynamoDB; a summary."""
    from harftet.localstack.launcher import launch

    logging.getLogger("httpx").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="bench-load-") as workdir:
        stack = launch(Path(workdir), env={"LOG_LEVEL": "WARNING"}, timeout=120)
        try:
            api = asyncio.run(_api(stack.base_url, tables, seconds, writers, contended))
            name = stack.env["TABLES_TABLE"]
            template = api["table_ids"][0]
            endpoint = stack.dynamodb_endpoint
            spread_store, _ = _store_loop(endpoint, name, template, tables, tables, store_seconds)
            one_store, races = _store_loop(endpoint, name, template, writers, 1, store_seconds)
        finally:
            stack.stop()
    spread, contention = api["spread"], api["contention"]

    def figures(t: Tally) -> dict[str, Any]:
        ms = [x * 1000 for x in t.latencies] or [0.0]
        return {
            "moves_per_second": t.moves / t.seconds if t.seconds else 0.0,
            "moves": t.moves,
            "requests": len(t.latencies),
            "p50_ms": percentile(ms, 0.5),
            "p99_ms": percentile(ms, 0.99),
            "statuses": dict(sorted(t.statuses.items())),
            "server_errors": t.server_errors,
            "dropped": t.dropped,
            "seconds": t.seconds,
        }

    return {
        "seconds": seconds,
        "tables": tables,
        "writers": writers,
        "setup_seconds": api["setup_seconds"],
        "spread": {**figures(spread), "lost": api["lost_spread"]},
        "contention": {**figures(contention), "lost": api["lost_contention"]},
        "store_spread_per_second": spread_store,
        "store_one_item_per_second": one_store,
        "store_one_item_races": races,
    }


def to_results(summary: dict[str, Any]) -> list[Result]:
    """RESULTS.md rows: the two loads against the store loop, and the correctness row."""
    spread, contention = summary["spread"], summary["contention"]

    def detail(f: dict[str, Any]) -> str:
        return (
            f"p50 {f['p50_ms']:.0f} ms, p99 {f['p99_ms']:.0f} ms; {f['moves']} moves in "
            f"{f['seconds']:.0f} s; answers {f['statuses']}; lost {f['lost']}, "
            f"5xx {f['server_errors']}; connections dropped and resent {f['dropped']}"
        )

    bad = spread["lost"] + contention["lost"] + spread["server_errors"]
    bad += contention["server_errors"]
    return [
        Result(
            name=f"load: {summary['tables']} tables × {SEATS} players, local stack",
            value=spread["moves_per_second"],
            unit="moves/s",
            detail=detail(spread),
            baseline_name=f"store get + conditional update, {summary['tables']} writers",
            baseline=summary["store_spread_per_second"],
            baseline_detail="no API, same moto server",
        ),
        Result(
            name=f"load: {summary['writers']} writers on one table, local stack",
            value=contention["moves_per_second"],
            unit="moves/s",
            detail=detail(contention),
            baseline_name=f"store loop, {summary['writers']} writers on one item",
            baseline=summary["store_one_item_per_second"],
            baseline_detail=f"{summary['store_one_item_races']} lost races",
        ),
        Result(
            name="load: moves lost + 5xx answers",
            value=bad,
            unit="",
            baseline_name="one",
            baseline=1,
            goal=0.0,
        ),
    ]


def run(seconds: float | None = None) -> list[Result]:
    """``make bench``: BENCH_LOAD_SECONDS (default 60) of the spread load."""
    chosen = (
        seconds if seconds is not None else float(os.environ.get("BENCH_LOAD_SECONDS", SECONDS))
    )
    return to_results(measure(seconds=chosen))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--writers", type=int, default=WRITERS)
    parser.add_argument("--contended-seconds", type=float, default=CONTENDED_SECONDS)
    parser.add_argument("--store-seconds", type=float, default=STORE_SECONDS)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()
    summary = measure(
        args.seconds, args.tables, args.writers, args.contended_seconds, args.store_seconds
    )
    if args.json:
        print(json.dumps(summary))
        return
    for result in to_results(summary):
        ratio = f" = {result.ratio:.2f}× the store loop" if result.goal is None else ""
        print(f"{result.name}: {result.value:.1f} {result.unit} ({result.detail}){ratio}")
        if result.baseline is not None and result.goal is None:
            print(f"  baseline {result.baseline_name}: {result.baseline:.1f} {result.unit}")
    print(f"setup {summary['setup_seconds']:.0f} s")


if __name__ == "__main__":
    main()
