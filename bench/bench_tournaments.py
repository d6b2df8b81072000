"""Tournaments (RULES §8, issue 39) on a counted local stack (bench/cost_calls.py counts
every AWS call and invocation of its processes, as bench/bench_cost.py does):

1. A 64-player, 3-round tournament of 4-seat Harftet tables (16 tables of four people a
   round, as the target names it) played to the end: the people are scripted clients over
   HTTP (the turn player draws, or passes with 22 tiles or an empty pile), each with a
   WebSocket open. Odd counts and computer players in the empty seats are the service
   tests' (tests/service/test_tournaments.py: 6 people at 4 seats, 5 at 2 seats).
   Checked: every entrant seated exactly once in every round (0 unseated or seated twice),
   every (player, round) pushed ``tournament`` once (0 rounds started twice), the standings
   equal to a recomputation from the tables' final views.
   Priced at list prices (bench/prices.json): what the whole tournament cost per player.
2. A 1,024-player round: 1,024 players (over HTTP), their entries written straight into
   the stack's DynamoDB (registration is not what is measured), then round 1 seated by the
   schedule: the wall time of the seating (the handler's run), the calls it made per table
   and its write units per player (every function's, in the seating's window), with the
   machine's load average.

``python -m bench.bench_tournaments`` runs both and rewrites its RESULTS.md section;
``python -m bench.bench_tournaments --seat-only`` the 1,024-player round alone (its own
section); ``python -m bench`` runs both too (``--no-tournaments`` skips it)."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any
from unittest import mock

import httpx

from bench import ROOT, Result, put_section, report
from bench.cost_tally import load_prices, records

HOOKS = ROOT / "bench" / "cost_hooks"
SECTION = "## Tournaments (bench/bench_tournaments.py)"
SEAT_SECTION = "## Tournaments: a round seated alone (bench/bench_tournaments.py --seat-only)"
SMALL, ROUNDS, BIG = 64, 3, 1024
GAME = "harftet"
SEATING_GOAL = 30.0  # seconds to seat a 1,024-player round
HAND_CAP = 22
GATE = 16  # concurrent HTTP calls


async def _call(http: Any, gate: Any, method: str, path: str, token: str | None = None,
                body: Any = None, headers: dict[str, str] | None = None) -> Any:  # fmt: skip
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    for attempt in range(6):  # a busy machine's 502/503 or a dropped connection: again
        try:
            async with gate:
                reply = await http.request(method, path, json=body, headers=sent)
        except httpx.TransportError:
            if attempt == 5:
                raise
            await asyncio.sleep(1.0)
            continue
        if reply.status_code < 500 or attempt == 5:
            break
        await asyncio.sleep(1.0)
    if reply.status_code >= 300:
        raise RuntimeError(f"{method} {path}: {reply.status_code} {reply.text[:300]}")
    return reply.json() if reply.content else None


async def _players(http: Any, gate: Any, n: int, prefix: str) -> list[dict[str, Any]]:
    made = [_call(http, gate, "POST", "/players", body={"name": f"{prefix}{i}"}) for i in range(n)]
    return list(await asyncio.gather(*made))


async def _create(http: Any, gate: Any, key: str, **given: Any) -> str:
    body = {"name": "Bench Kupası", "game": GAME, "seats": 4, "hands": 1, **given}
    made = await _call(http, gate, "POST", "/operator/tournaments", body=body,
                       headers={"X-Operator-Key": key})  # fmt: skip
    return str(made["tournamentId"])


async def _listen(ws_url: str, token: str, pushed: list[dict[str, Any]]) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"{ws_url}?token={token}", open_timeout=60) as socket:
        async for raw in socket:
            message = json.loads(raw)
            if message.get("type") == "tournament":
                pushed.append(message)


def _move(view: dict[str, Any]) -> dict[str, Any]:
    seat = view["turn"]["seat"]
    tiles = view["seats"][seat]["tiles"]
    return {"type": "draw"} if tiles < HAND_CAP and view["pile"] > 0 else {"type": "pass"}


async def _play_table(http: Any, gate: Any, table_id: str, tokens: dict[str, str]) -> None:
    """The scripted people of one table move until it ends (the computer players by
    themselves)."""
    viewer = next(iter(tokens.values()))
    while True:
        try:  # a loaded machine's REST timeout: ask again
            view = await _call(http, gate, "GET", f"/tables/{table_id}", viewer)
        except RuntimeError:
            continue
        if view["status"] == "finished":
            return
        turn = view.get("turn") or {}
        seat = turn.get("seat")
        who = view["seats"][seat]["playerId"] if seat is not None else None
        if view["status"] != "playing" or who not in tokens or view.get("break"):
            await asyncio.sleep(0.3)
            continue
        body = {**_move(view), "version": view["version"], "moveId": os.urandom(8).hex()}
        try:  # a refusal (stale, illegal) or a busy machine's 5xx: read the table again
            await _call(http, gate, "POST", f"/tables/{table_id}/moves", tokens[who], body)
        except RuntimeError:
            await asyncio.sleep(0.5)


async def _small(stack: Any, limit: float = 1500.0) -> dict[str, Any]:
    """The 64-player tournament played to the end; what the checks need."""
    gate = asyncio.Semaphore(GATE)
    async with httpx.AsyncClient(base_url=stack.base_url, timeout=120) as http:
        people = await _players(http, gate, SMALL, "Bench")
        tokens = {str(p["playerId"]): str(p["token"]) for p in people}
        began = time.time()
        tid = await _create(http, gate, stack.operator_key, rounds=ROUNDS, capacity=SMALL,
                            turnSeconds=30, startsAt=int(time.time()) + 90)  # fmt: skip
        pushed: dict[str, list[dict[str, Any]]] = {pid: [] for pid in tokens}
        listeners = [asyncio.create_task(_listen(stack.ws_url, tokens[p], pushed[p]))
                     for p in tokens]  # fmt: skip
        await asyncio.gather(*(_call(http, gate, "POST", f"/tournaments/{tid}/entries", t)
                               for t in tokens.values()))  # fmt: skip
        viewer = people[0]["token"]
        started: set[str] = set()
        playing: list[asyncio.Task[None]] = []
        ends = time.monotonic() + limit
        while time.monotonic() < ends:
            try:  # a loaded machine's REST timeout: ask again
                body = await _call(http, gate, "GET", f"/tournaments/{tid}", viewer)
            except RuntimeError:
                continue
            for entry in body["tables"]:
                if entry["tableId"] not in started:
                    started.add(entry["tableId"])
                    play = _play_table(http, gate, entry["tableId"], tokens)
                    playing.append(asyncio.create_task(play))
            if body["status"] == "finished":
                break
            await asyncio.sleep(1.0)
        await asyncio.gather(*playing)
        finished = time.time()
        await asyncio.sleep(2.0)  # the last pushes
        views = {e["tableId"]: await _call(http, gate, "GET", f"/tables/{e['tableId']}", viewer)
                 for e in body["tables"]}  # fmt: skip
        for task in listeners:
            task.cancel()
    return {"tid": tid, "body": body, "views": views, "pushed": pushed, "began": began,
            "finished": finished, "players": sorted(tokens)}  # fmt: skip


async def _made(http: Any, gate: Any, table_id: str, viewer: str) -> dict[str, Any]:
    """The table once the seating made it (the plan names it first)."""
    ends = time.monotonic() + 300
    while True:
        try:
            found: dict[str, Any] = await _call(http, gate, "GET", f"/tables/{table_id}", viewer)
            return found
        except RuntimeError:
            if time.monotonic() > ends:
                raise
            await asyncio.sleep(0.5)


def _register_directly(stack: Any, tid: str, people: list[dict[str, Any]]) -> None:
    """Entries written with the store's own conditional transaction, straight into the
    stack's DynamoDB (16 at a time)."""
    from concurrent.futures import ThreadPoolExecutor

    import boto3

    from harftet.store.tournaments import TournamentStore

    client = boto3.client(
        "dynamodb", endpoint_url=stack.dynamodb_endpoint, region_name="us-east-1",
        aws_access_key_id="testing", aws_secret_access_key="testing",
    )  # fmt: skip
    store = TournamentStore(client, stack.env["PLAYERS_TABLE"])

    def one(p: dict[str, Any]) -> bool:
        entry = {"name": p["name"], "rating": 1000, "at": int(time.time())}
        return store.register(tid, str(p["playerId"]), entry, time.time())

    with ThreadPoolExecutor(16) as pool:
        assert all(pool.map(one, people))


async def _big(stack: Any) -> dict[str, Any]:
    """A 1,024-player round seated by the schedule; when it began and what it made."""
    gate = asyncio.Semaphore(GATE)
    async with httpx.AsyncClient(base_url=stack.base_url, timeout=120) as http:
        people = await _players(http, gate, BIG, "Dev")
        starts = int(time.time()) + 60
        tid = await _create(http, gate, stack.operator_key, rounds=1, capacity=BIG,
                            turnSeconds=600, startsAt=starts)  # fmt: skip
        await asyncio.to_thread(_register_directly, stack, tid, people)
        assert time.time() < starts, "registration took longer than the minute allowed"
        viewer = people[0]["token"]
        while True:
            body = await _call(http, gate, "GET", f"/tournaments/{tid}", viewer)
            if len(body["tables"]) == BIG // 4 or time.time() > starts + 300:
                break
            await asyncio.sleep(0.5)
        views = await asyncio.gather(*(_made(http, gate, e["tableId"], viewer)
                                       for e in body["tables"]))  # fmt: skip
        seen_at = time.time()
        load = os.getloadavg()
    seated = Counter(s["playerId"] for v in views if v["status"] == "playing" for s in v["seats"])
    return {"tid": tid, "starts": starts, "seen_at": seen_at, "tables": len(views),
            "seated": seated, "players": [str(p["playerId"]) for p in people],
            "load": load}  # fmt: skip


def _seating_checks(small: dict[str, Any]) -> tuple[int, int, int]:
    """(unseated or seated twice, over every round; rounds started twice: a player pushed
    more than once for a round; pushes missing)."""
    wrong = 0
    for r in range(1, ROUNDS + 1):
        seats = Counter(
            s["playerId"]
            for e in small["body"]["tables"] if e["round"] == r
            for s in small["views"][e["tableId"]]["seats"] if not s.get("bot")
        )  # fmt: skip
        wrong += sum(1 for p in small["players"] if seats[p] != 1)
        wrong += sum(1 for p in seats if p not in small["players"])
    per_round = Counter((pid, m["round"]) for pid, ms in small["pushed"].items() for m in ms)
    twice = sum(1 for n in per_round.values() if n > 1)
    missing = len(small["players"]) * ROUNDS - len(per_round)
    return wrong, twice, missing


def _standings_differ(small: dict[str, Any]) -> int:
    """Players whose points, penalty or tables differ from a recomputation from the tables'
    final views (places 3/2/1/0, ties sharing), plus order breaks."""
    from harftet.tournaments.standings import place_halves

    mine: dict[str, list[float]] = {p: [0.0, 0, 0] for p in small["players"]}
    for view in small["views"].values():
        penalties = view["result"]["penalties"]
        for i, (seat, half) in enumerate(zip(view["seats"], place_halves(penalties), strict=True)):
            if not seat.get("bot"):
                row = mine[seat["playerId"]]
                row[0] += half / 2
                row[1] += penalties[i]
                row[2] += 1
    shown = small["body"]["standings"]
    differ = sum(1 for s in shown if mine[s["playerId"]] != [s["points"], s["penalty"],
                                                             s["tables"]])  # fmt: skip
    differ += len(set(mine) - {s["playerId"] for s in shown})
    keys = [(-s["points"], s["penalty"]) for s in shown]
    return differ + sum(1 for a, b in pairwise(keys) if a > b)


def _priced(found: list[dict[str, Any]], start: float, end: float) -> dict[str, float]:
    """USD by kind of what the records between ``start`` and ``end`` cost at list prices."""
    from harftet.localstack.template import read_template

    prices = load_prices()
    memory = read_template(ROOT / "template.yaml").memory
    usd: defaultdict[str, float] = defaultdict(float)
    for r in found:
        if not start <= r["t"] <= end:
            continue
        fn = str(r.get("fn", "stack")).removeprefix("harftet-")
        if r["k"] == "invoke":
            gb_s = r["ms"] / 1000 * memory.get(fn, 512) / 1024
            usd["lambda"] += prices["lambda_request"] + gb_s * prices["lambda_gb_second_arm64"]
            if fn == "rest":
                usd["rest"] += prices["apigw_rest_request"]
        elif r["k"] == "call" and r["svc"] == "dynamodb":
            usd["dynamodb"] += r.get("rru", 0) * prices["dynamodb_read_request_unit"]
            usd["dynamodb"] += r.get("wru", 0) * prices["dynamodb_write_request_unit"]
        elif r["k"] == "call" and r["svc"] == "sqs" and fn != "stack":
            usd["sqs"] += prices["sqs_request"]
        elif r["k"] == "call" and r["op"] == "PostToConnection":
            usd["websocket"] += prices["apigw_ws_message"]
    return dict(usd)


def _units(found: list[dict[str, Any]], start: float, end: float, fn: str | None = None) -> float:
    return sum(
        r.get("wru", 0) for r in found
        if r["k"] == "call" and start <= r["t"] <= end and (fn is None or r.get("fn") == fn)
    )  # fmt: skip


def _units_by_function(
    found: list[dict[str, Any]], start: float, end: float
) -> list[tuple[str, float]]:
    """Write units per player of each function (most first) between ``start`` and ``end``."""
    units: Counter[str] = Counter()
    for r in found:
        if r["k"] == "call" and start <= r["t"] <= end and r.get("wru"):
            units[str(r.get("fn", "stack")).removeprefix("harftet-")] += float(r["wru"]) / BIG
    return units.most_common()


def _seating_run(found: list[dict[str, Any]], starts: float) -> dict[str, Any] | None:
    """The tournaments handler's run that seated the round: the longest one whose time holds
    the function's first TransactWriteItems after the start (the round's first tables; an
    invocation's record is written as it ends, with how long it ran). None: not ended yet."""
    made = min(
        (r["t"] for r in found
         if r["k"] == "call" and r.get("fn") == "harftet-tournaments"
         and r["op"] == "TransactWriteItems" and r["t"] >= starts),
        default=None,
    )  # fmt: skip
    if made is None:
        return None
    runs = [
        r for r in found
        if r["k"] == "invoke" and r.get("fn") == "harftet-tournaments"
        and r["t"] - float(r["ms"]) / 1000 <= made <= r["t"]
    ]  # fmt: skip
    return max(runs, key=lambda r: float(r["ms"]), default=None)


def _seating_seconds(found: list[dict[str, Any]], starts: float) -> float:
    run = _seating_run(found, starts)
    return float(run["ms"]) / 1000 if run is not None else float("nan")


def _seating_calls(found: list[dict[str, Any]], starts: float) -> Counter[str]:
    """The tournaments function's AWS calls during the seating's run, by operation."""
    run = _seating_run(found, starts)
    if run is None:
        return Counter()
    began, ended = run["t"] - float(run["ms"]) / 1000, run["t"]
    return Counter(
        str(r["op"]) for r in found
        if r["k"] == "call" and r.get("fn") == "harftet-tournaments" and began <= r["t"] <= ended
    )  # fmt: skip


def measure(done: Any = None, parts: tuple[str, ...] = ("big", "small")) -> dict[str, Any]:
    """Launch a counted local stack, run the 1,024-player round, then the whole tournament
    (``parts``: which); ``done(measured)`` after each part (its rows are written at once)."""
    from harftet.localstack.launcher import launch

    measured: dict[str, Any] = {"small": None, "big": None, "records": []}
    with tempfile.TemporaryDirectory(prefix="harftet-tournaments-") as workdir:
        calls = Path(workdir) / "calls"
        calls.mkdir()
        path = os.pathsep.join(filter(None, [str(HOOKS), str(ROOT), os.environ.get("PYTHONPATH")]))
        with mock.patch.dict(os.environ, {"PYTHONPATH": path, "HARFTET_COUNT_CALLS": str(calls)}):
            stack = launch(Path(workdir) / "stack", env={"LOG_LEVEL": "WARNING"}, timeout=180)
        try:
            for part, run_part in (("big", _big), ("small", _small)):
                if part not in parts:
                    continue
                measured[part] = asyncio.run(run_part(stack))
                ends = time.monotonic() + 300  # the seating's run ends after its last table
                while True:
                    time.sleep(2.0)
                    measured["records"] = records(calls)
                    starts = measured["big"]["starts"]
                    seated = _seating_run(measured["records"], starts) is not None
                    if part != "big" or seated or time.monotonic() > ends:
                        break
                if done is not None:
                    done(measured)
        finally:
            stack.stop()
    return measured


def _zero(name: str, value: int, detail: str) -> Result:
    return Result(name, value, "", detail, "allowed", 1, goal=0.0)


def rows(measured: dict[str, Any]) -> tuple[list[Result], list[str]]:
    """RESULTS.md rows and notes of the parts measured."""
    found: list[Result] = []
    notes: list[str] = []
    if measured["small"] is not None:
        found, notes = _small_rows(measured["small"], measured["records"])
    if measured["big"] is not None:
        found += _big_rows(measured["big"], measured["records"])
        notes += SEATING_NOTES
    return found, notes


def _big_rows(big: dict[str, Any], found: list[dict[str, Any]]) -> list[Result]:
    seconds = _seating_seconds(found, big["starts"])
    window = (big["starts"] - 1, big["seen_at"] + 3)
    units = _units(found, *window) / BIG
    seated_ok = sum(1 for p in big["players"] if big["seated"][p] == 1)
    calls = _seating_calls(found, big["starts"])
    tables = max(int(big["tables"]), 1)
    load = "/".join(f"{x:.1f}" for x in big["load"])
    return [
        Result(f"{BIG}-player round seated (wall time of the handler's run)", seconds, "s",
               f"{big['tables']} tables, {seated_ok} of {BIG} seated once; load average "
               f"{load} on {os.cpu_count()} cores", "goal", SEATING_GOAL, goal=1.0),
        Result("AWS calls of the seating's run (the tournaments function)",
               sum(calls.values()), "calls", f"{sum(calls.values()) / tables:.2f} a table: "
               + ", ".join(f"{op} {n}" for op, n in calls.most_common())),
        Result("write units per player, seating a round", units, "WRU",
               f"{units:.2f} per player, every function's in the seating's window: "
               + ", ".join(f"{fn} {u:.2f}" for fn, u in _units_by_function(found, *window))),
    ]  # fmt: skip


def _small_rows(
    small: dict[str, Any], found: list[dict[str, Any]]
) -> tuple[list[Result], list[str]]:
    wrong, twice, missing = _seating_checks(small)
    usd = _priced(found, small["began"], small["finished"] + 2)
    per_player = sum(usd.values()) / SMALL
    minutes = (small["finished"] - small["began"]) / 60
    return [
        _zero(f"{SMALL} players, {ROUNDS} rounds: unseated or seated twice", wrong,
              f"{len(small['views'])} tables, every round"),
        _zero("rounds started twice (a player pushed twice for a round)", twice,
              f"{missing} pushes missing"),
        _zero("standings ≠ a recomputation from the tables' results",
              _standings_differ(small), f"{len(small['body']['standings'])} rows"),
        Result(f"a whole {ROUNDS}-round tournament per player, list prices", per_player * 1e6,
               "µ$", ", ".join(f"{k} {v / SMALL * 1e6:.0f} µ$" for k, v in sorted(usd.items()))),
    ], [
        f"The {SMALL}-player tournament took {minutes:.1f} min on this machine (scripted "
        "people draw or pass at once; 64 people fill every seat of 4: no computer players).",
        "Cost counts every function's DynamoDB units, Lambda requests and GB-s (template "
        "memory), REST requests, WebSocket posts and the functions' SQS calls in the "
        "tournament's window — the scripted people's moves included; not counted: WebSocket "
        "connection-minutes (they depend on how long people think), the local pollers' calls. "
        "Lambda GB-s come from the handlers' measured times on this machine (inflated by its "
        "load).",
    ]  # fmt: skip


SEATING_NOTES = [
    "The seating makes the round's tables 25 to a TransactWriteItems of conditional puts, "
    "reads the seated people's sockets 100 to a BatchGetItem and sends their notifications "
    "10 to an SQS SendMessageBatch, the independent calls side by side in a pool of 8; no "
    "note per person is written (the round's plan names each table's people). Before "
    "(2026-12-06 14:18 UTC): about 10 calls a table (2,568 in all: each table's put, per "
    "person an account note, a socket query and a push, a notification batch per table), "
    "112 s under a load average of 14–19, 3 WRU per player (1.3 the function's own).",
    "The seating's time is one handler run against one moto server that serialises every "
    "call (DynamoDB and SQS), so it measures this machine's load as much as the seating; the "
    "calls and write units do not depend on the load. The bench's 1,024 people have no "
    "socket open: no WebSocket posts are counted (each open socket is one post).",
]


def write_section(
    found: list[Result], notes: list[str], results: Path, *, seat_only: bool = False
) -> None:
    from datetime import UTC, datetime

    heading = SEAT_SECTION if seat_only else SECTION
    intro = (
        f"Run on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on a counted local stack "
        "(bench/cost_calls.py), the real handlers and schedules: `python -m "
        f"bench.bench_tournaments{' --seat-only' if seat_only else ''}`."
    )
    put_section(results, heading, report.section(heading, intro, found, notes))


def run() -> tuple[list[Result], list[str]]:
    """Measure, then the rows and notes (``python -m bench`` calls this)."""
    return rows(measure())


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    alone = "the 1,024-player round alone (its own RESULTS.md section)"
    parser.add_argument("--seat-only", action="store_true", help=alone)
    seat_only = parser.parse_args().seat_only

    def done(measured: dict[str, Any]) -> None:  # each part's rows kept at once
        found, notes = rows(measured)
        print("\n".join(report.row(r) for r in found), flush=True)
        write_section(found, notes, ROOT / "bench" / "RESULTS.md", seat_only=seat_only)

    measure(done, ("big",) if seat_only else ("big", "small"))


if __name__ == "__main__":
    main()
