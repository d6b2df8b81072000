"""What a game costs, counted rather than guessed: whole games on the local stack with every AWS
call counted (bench/cost_calls.py: botocore's event hooks on every client of every process, the
Management API included), priced with bench/prices.json.

For each game kind: two people (they draw, or pass with 22 tiles or an empty pile, at once)
and two computer players (``easy``, ``botSeconds`` 0), two spectators, every one of the six on
a WebSocket; ``turnSeconds`` 10, so that every turn sends its timer and people's stale timers
fire too (the run waits for them). The window runs from the first ``POST /players`` until the
last timer of the game has fired. Counted:

- REST requests and their bytes, WebSocket messages both ways (32 KB units) and their bytes
  (the client's side: what API Gateway bills and sends out);
- every AWS call by function and service, DynamoDB read/write request units by AWS's sizing
  rules, the tables table's item size at every version (from the stream) and the index writes
  between consecutive versions (lobby-index: whole item while waiting; watch- and
  deadline-index: keys only, two writes when a key moves);
- Lambda invocations and handler time (this machine's: slower than Lambda's arm64, so the
  duration cost is on the high side);
- SQS: the functions' sends, and the event source mapping's receives that delivered messages
  and its deletes (idle long polls are a fixed cost, not a game's);
- not per game: the sweeper (once a minute in AWS: its calls per run are reported apart).

Also measured: timers' lateness (a person who never moves, turn after turn, with the sweeper
off, so only timers end the turns) — the time from each deadline to the push of the forced
move, as the spectator's socket receives it.

Run: ``.venv/bin/python -m bench.bench_cost`` (5–25 minutes, with the machine's load);
``--hands 1 --dry`` for a quick look that writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import ROOT, Result, percentile, put_section

PRICES = ROOT / "bench" / "prices.json"
COUNTS = ROOT / "bench" / "cost_counts.json"  # per stored change, read by bench/scale_model.py
HOOKS = ROOT / "bench" / "cost_hooks"
TARGET_PER_MILLION = 10.0  # USD per million stored changes
TARGET_PER_GAME = 0.0015  # USD per 11-hand Harftet game with two spectators
PUSH_P99_TARGET = 2048  # bytes, as bench/bench_push.py
ITEM_TYPICAL = 1024
ITEM_WORST = 2048
WS_UNIT = 32 * 1024
LOG_BYTES_PER_INVOCATION = 650  # START/END/REPORT lines and one EMF metrics line (estimate)
HUMAN_TURN_SECONDS = 15.0  # a person's turn, for connection-minutes of a real game
BOT_TURN_SECONDS = 1.0  # a computer player's default botSeconds
TURN_SECONDS = 10
HAND_CAP = 22
GAMES = (("harftet", 11), ("kastet", 11))
TIMEOUTS = 4


@dataclass
class Client:
    """What the clients sent and received (API Gateway's side of the bill)."""

    rest: int = 0
    rest_in: int = 0
    rest_out: int = 0
    ws_sent: int = 0
    ws_sent_bytes: int = 0
    pushes: int = 0
    push_bytes: int = 0
    push_units: int = 0
    connections: int = 0
    human_moves: int = 0
    deltas: int = 0
    push_sizes: list[int] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)


@dataclass
class Game:
    kind: str
    hands: int
    table_id: str = ""
    started: float = 0.0
    ended: float = 0.0
    finished: bool = False
    client: Client = field(default_factory=Client)


# -- playing -------------------------------------------------------------------------------
def _receive(view: dict[str, Any] | None, message: dict[str, Any]) -> tuple[Any, bool]:
    """A client's view after one push (clients/web/delta.js ``receive``): (view, must sync)."""
    from harftet.api.delta import DeltaError, apply_delta

    if message["type"] == "table":
        whole = message["view"]
        newer = view is None or whole["version"] >= view["version"]
        return (whole if newer else view), False
    if view is not None and message["version"] <= view["version"]:
        return view, False
    if view is None:
        return view, True
    try:
        return apply_delta(view, message), False
    except DeltaError:
        return view, True


async def _play(base_url: str, ws_url: str, game: Game, seed: int, limit: float) -> None:
    import httpx
    from websockets.asyncio.client import connect

    client = game.client
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:

        async def call(method: str, path: str, token: str | None = None, body: Any = None) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            request = http.build_request(method, path, json=body, headers=headers)
            reply = await http.send(request)
            client.rest += 1
            client.rest_in += len(request.content or b"")
            client.rest_out += reply.num_bytes_downloaded  # on the wire: gzipped when large
            client.statuses[reply.status_code] += 1
            return reply

        async def player(name: str) -> str:
            reply = await call("POST", "/players", body={"name": name})
            return str(reply.json()["token"])

        game.started = time.time()
        humans = [await player(f"Kişi{seed}x{i}") for i in range(2)]
        watchers = [await player(f"Seyirci{seed}x{i}") for i in range(2)]
        body = {
            "game": game.kind,
            "seats": 4,
            "hands": game.hands,
            "turnSeconds": TURN_SECONDS,
            "botSeconds": 0,
            "seed": seed,
        }
        reply = await call("POST", "/tables", humans[0], body)
        table_id = game.table_id = reply.json()["tableId"]
        await call("POST", f"/tables/{table_id}/seats/1", humans[1], {})
        for seat in (2, 3):
            await call(
                "POST",
                f"/tables/{table_id}/seats/{seat}",
                humans[0],
                {"bot": True, "level": "easy"},
            )
        sockets = []
        for token in humans + watchers:
            sockets.append(
                await connect(f"{ws_url}?token={token}&tableId={table_id}", open_timeout=30)
            )
            client.connections += 1
        start = await call("POST", f"/tables/{table_id}/start", humans[0])
        latest: dict[str, Any] = {"view": start.json()}
        own: dict[int, dict[str, Any]] = {}  # each person's own latest view (hand included)
        changed = asyncio.Event()

        def seen(view: dict[str, Any], seat: int | None) -> None:
            if seat is not None and view["version"] >= own.get(seat, {}).get("version", 0):
                own[seat] = view
            if view["version"] > latest["view"]["version"]:
                latest["view"] = view

        async def listen(socket: Any, seat: int | None) -> None:
            held: dict[str, Any] | None = None  # this socket's view, as a client holds it
            with contextlib.suppress(Exception):
                async for message in socket:
                    size = len(message.encode() if isinstance(message, str) else message)
                    client.pushes += 1
                    client.push_bytes += size
                    client.push_units += max(1, math.ceil(size / WS_UNIT))
                    client.push_sizes.append(size)
                    data = json.loads(message)
                    if data.get("type") in ("table", "delta") and data.get("moveId"):
                        client.human_moves += 1  # the answer to a person's move
                    if data.get("type") not in ("table", "delta"):
                        continue
                    if data["type"] == "delta":
                        client.deltas += 1
                    held, sync = _receive(held, data)
                    if sync:  # a missed push: ask for the whole view, as the clients do
                        client.ws_sent += 1
                        await socket.send(json.dumps({"action": "sync"}))
                    if held is not None:
                        seen(held, seat)
                        changed.set()

        seats: list[int | None] = [0, 1, None, None]
        listeners = [asyncio.create_task(listen(s, n)) for s, n in zip(sockets, seats, strict=True)]
        deadline = time.monotonic() + limit
        acted: set[int] = set()
        try:
            while time.monotonic() < deadline:
                view = latest["view"]
                if view["status"] == "finished":
                    game.finished = True
                    break
                version = view["version"]
                seat = (view.get("turn") or {}).get("seat")
                mine = own.get(seat, {}) if seat in (0, 1) else {}
                # a person moves when their own push (their hand) shows their turn
                if (
                    version not in acted
                    and view["status"] == "playing"
                    and mine.get("version") == version
                ):
                    acted.add(version)
                    tiles = len(mine.get("hand") or [])
                    kind = "draw" if tiles < HAND_CAP and mine.get("pile", 0) > 0 else "pass"
                    # on the person's own socket, as the web client sends it: answered there
                    move = {"type": kind, "version": version, "moveId": f"m{version}"}
                    sent = json.dumps({"action": "move", "tableId": table_id, **move})
                    client.ws_sent += 1
                    client.ws_sent_bytes += len(sent.encode())
                    changed.clear()
                    await sockets[seat].send(sent)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait(), 5.0)
                    continue
                elif version not in acted and view["status"] == "paused":
                    acted.add(version)
                    await call("POST", f"/tables/{table_id}/continue", humans[0])
                changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 2.0)
                if not changed.is_set():  # no push for a while: read the table as a client would
                    who = seat if seat in (0, 1) else None
                    token = humans[who] if who is not None else watchers[0]
                    got = await call("GET", f"/tables/{table_id}", token)
                    if got.status_code == 200:
                        seen(got.json(), who)
            # people's last timers (turnSeconds after their last turn) still fire: wait them out
            await asyncio.sleep(TURN_SECONDS + 4)
        finally:
            for socket in sockets:
                await socket.close()
            for task in listeners:
                task.cancel()
            await asyncio.sleep(1.0)  # $disconnect reaches the function
        game.ended = time.time()


async def _timeouts(base_url: str, ws_url: str, count: int) -> list[float]:
    """Seconds from each turn's deadline to the spectator's push of the forced move."""
    import httpx
    from websockets.asyncio.client import connect

    late: list[float] = []
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:

        async def token(name: str) -> str:
            return str((await http.post("/players", json={"name": name})).json()["token"])

        a, b, watcher = await token("Uyuyan1"), await token("Uyuyan2"), await token("Bakan")
        headers = {"Authorization": f"Bearer {a}"}
        body = {"game": "kastet", "seats": 2, "hands": 1, "turnSeconds": TURN_SECONDS, "seed": 7}
        table_id = (await http.post("/tables", json=body, headers=headers)).json()["tableId"]
        await http.post(
            f"/tables/{table_id}/seats/1", json={}, headers={"Authorization": f"Bearer {b}"}
        )
        view = (await http.post(f"/tables/{table_id}/start", headers=headers)).json()
        async with connect(
            f"{ws_url}?token={watcher}&tableId={table_id}", open_timeout=30
        ) as socket:
            held: dict[str, Any] | None = None  # the spectator's view, deltas applied
            for _ in range(count):
                due = view["turn"]["deadline"]
                while True:
                    message = json.loads(await asyncio.wait_for(socket.recv(), TURN_SECONDS * 4))
                    if message.get("type") not in ("table", "delta"):
                        continue
                    held, sync = _receive(held, message)
                    if sync:
                        await socket.send(json.dumps({"action": "sync"}))
                    if held is not None and held["version"] > view["version"]:
                        late.append(time.time() - due)
                        view = held
                        break
                if view["status"] != "playing":
                    break
    return late


# -- counting --------------------------------------------------------------------------------
def _records(directory: Path) -> list[dict[str, Any]]:
    records = []
    for path in directory.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            with contextlib.suppress(ValueError):
                records.append(json.loads(line))
    return records


def _index_writes(before: dict[str, Any] | None, after: dict[str, Any], size: int) -> int:
    """Index write units between two consecutive versions' index attributes."""
    units = 0
    b = before or {}
    # lobby-index (projection ALL): a waiting table's whole item, every version it is in there
    if "lobby" in after:  # every write of a waiting table rewrites its whole index item
        units += max(1, math.ceil(size / 1024))
    elif "lobby" in b:  # it left the lobby: the index item is deleted
        units += 1
    for keys in (("watch", "createdAt"), ("due", "deadline")):
        old = tuple(json.dumps(b.get(k)) for k in keys)
        new = tuple(json.dumps(after.get(k)) for k in keys)
        had, has = keys[0] in b, keys[0] in after
        if old == new:
            continue
        units += 2 if had and has else 1
    return units


@dataclass
class Tally:
    """One game's counted calls and what they cost."""

    changes: int
    calls: Counter[tuple[str, str]]  # (service, operation) -> calls, per game
    usd: dict[str, float]
    item_sizes: list[int]
    playing_sizes: list[int]
    index_units: int
    table_wru: float
    sweeper_calls_per_run: float
    invocations: Counter[str]
    deadlines_set: int = 0
    by_function: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    lambda_ms: float = 0.0
    other_write_units: float = 0.0
    read_units: float = 0.0


def tally(
    game: Game, records: list[dict[str, Any]], prices: dict[str, float], tables_table: str
) -> Tally:
    """Price one game's window of records."""
    window = [r for r in records if game.started <= r["t"] <= game.ended]
    images = sorted(
        {
            (r["v"], r["size"], json.dumps(r["keys"]), r["status"])
            for r in window
            if r["k"] == "image" and r["id"] == game.table_id
        }
    )
    changes = len({v for v, *_ in images})
    # versions that set a new deadline (dueV is their own version): the only ones that send a
    # timer message (harftet.timers.deadline_set)
    deadlines_set = len(
        {v for v, _, keys, _ in images if json.loads(keys).get("dueV") == {"N": str(v)}}
    )
    sizes = [s for _, s, _, _ in images]
    playing = [s for _, s, _, status in images if status == "playing"]
    # the tables table's writes: the larger of the item before and after, per version
    table_wru = 0.0
    index_units = 0
    previous: tuple[int, dict[str, Any]] | None = None
    for _, size, keys, _ in images:
        now = json.loads(keys)
        before = previous[0] if previous else 0
        table_wru += max(1, math.ceil(max(before, size) / 1024))
        index_units += _index_writes(previous[1] if previous else None, now, size)
        previous = (size, now)
    calls: Counter[tuple[str, str]] = Counter()
    by_function: Counter[tuple[str, str, str]] = Counter()  # (function, service, operation)
    invocations: Counter[str] = Counter()
    rru = wru = inbox_index = 0.0
    sqs = 0
    lambda_ms = 0.0
    sweeper_calls = 0
    for r in window:
        fn = r.get("fn", "")
        if "weeper" in fn:
            if r["k"] == "call":
                sweeper_calls += 1
            continue
        if r["k"] == "invoke":
            invocations[fn] += 1
            lambda_ms += r["ms"]
            continue
        if r["k"] != "call":
            continue
        svc, op = r["svc"], r["op"]
        if fn == "stack":  # Lambda's own pollers: stream reads are free, SQS's are billed
            delivered = op == "ReceiveMessage" and r.get("n")
            if svc == "sqs" and (delivered or op.startswith("DeleteMessage")):
                calls[(svc, op)] += 1
                by_function[("lambda poller", svc, op)] += 1
                sqs += 1
            continue
        calls[(svc, op)] += 1
        by_function[(_short(fn), svc, op)] += 1
        if svc == "dynamodb":
            rru += r.get("rru", 0)
            touches_tables = tables_table in str(r.get("table", "")).split(",")
            if touches_tables and op == "UpdateItem" and r.get("ok"):
                continue  # sized from the stream's images (table_wru)
            if touches_tables and op == "TransactWriteItems" and r.get("ok"):
                wru += r.get("wru", 0) / 2  # the transaction's second unit; the first is table_wru
                continue
            wru += r.get("wru", 0)
            if op == "PutItem" and "mail" in str(r.get("table", "")) and "fanout" in fn.lower():
                # an inbox item: its rank-index entry (a local index projecting ALL) is
                # written with it — one more unit at least (two when its rank moved)
                inbox_index += r.get("wru", 0)
        elif svc == "sqs":
            sqs += 1
    sweeper_runs = max(
        1, sum(1 for r in records if r["k"] == "invoke" and "weeper" in r.get("fn", ""))
    )
    sweeper_all = sum(1 for r in records if r["k"] == "call" and "weeper" in r.get("fn", ""))
    c = game.client
    minutes = (
        c.human_moves * HUMAN_TURN_SECONDS + max(0, changes - c.human_moves) * BOT_TURN_SECONDS
    ) / 60
    usd = {
        "API Gateway REST requests": c.rest * prices["apigw_rest_request"],
        "API Gateway WebSocket messages": (c.push_units + c.ws_sent) * prices["apigw_ws_message"],
        "API Gateway WebSocket connection-minutes": c.connections
        * minutes
        * prices["apigw_ws_connection_minute"],
        "data transfer out": (c.rest_out + c.push_bytes) / 1e9 * prices["data_transfer_out_gb"],
        "Lambda requests": sum(invocations.values()) * prices["lambda_request"],
        "Lambda duration (512 MB arm64)": lambda_ms / 1000 * 0.5 * prices["lambda_gb_second_arm64"],
        "DynamoDB writes (tables item)": table_wru * prices["dynamodb_write_request_unit"],
        "DynamoDB index writes (tables)": index_units * prices["dynamodb_write_request_unit"],
        "DynamoDB index writes (inbox rank-index, at least)": inbox_index
        * prices["dynamodb_write_request_unit"],
        "DynamoDB other writes": wru * prices["dynamodb_write_request_unit"],
        "DynamoDB reads": rru * prices["dynamodb_read_request_unit"],
        "SQS requests": sqs * prices["sqs_request"],
        "CloudWatch Logs (estimate)": sum(invocations.values())
        * LOG_BYTES_PER_INVOCATION
        / 1e9
        * prices["cloudwatch_logs_ingest_gb"],
    }
    return Tally(
        changes=changes,
        calls=calls,
        usd=usd,
        item_sizes=sizes,
        playing_sizes=playing,
        index_units=index_units,
        table_wru=table_wru,
        sweeper_calls_per_run=sweeper_all / sweeper_runs,
        invocations=invocations,
        deadlines_set=deadlines_set,
        by_function=by_function,
        lambda_ms=lambda_ms,
        other_write_units=wru,
        read_units=rru,
    )


def _short(fn: str) -> str:
    """A function's short name (``harftet-cell-FanoutFunction`` → ``FanoutFunction``)."""
    return fn.split("-")[-1] if "-" in fn else fn


def rates(game: Game, t: Tally) -> dict[str, float]:
    """What one stored change makes, on average, for the scale model (bench/scale_model.py)."""
    per = max(1, t.changes)
    c = game.client
    posts = sum(n for (svc, op), n in t.calls.items() if op == "PostToConnection")
    sqs = sum(n for (svc, _), n in t.calls.items() if svc == "sqs")
    invocations = {
        ("rest" if "Rest" in fn else "ws" if "Ws" in fn else fn.split("-")[-1].lower()): n / per
        for fn, n in t.invocations.items()
    }
    return {
        "changes": t.changes,
        "connections_per_table": c.connections,
        "rest_requests": c.rest / per,
        "ws_client_messages": c.ws_sent / per,
        "ws_posts": posts / per,
        "ws_message_units": (c.push_units + c.ws_sent) / per,
        "push_bytes": c.push_bytes / per,
        "table_write_units": t.table_wru / per,
        "other_write_units": t.other_write_units / per,
        "read_units": t.read_units / per,
        "index_write_units": t.index_units / per,
        "sqs_requests": sqs / per,
        "lambda_invocations": sum(t.invocations.values()) / per,
        "lambda_ms": t.lambda_ms / per,
        "usd": sum(t.usd.values()) / per,
        **{f"invocations_{k}": v for k, v in invocations.items()},
    }


def former_map_bytes(kept: int = 32, move_id: str = "m1234") -> int:
    """The size of the former moves map when full: ``kept`` whole ``{playerId}:{moveId}``
    keys (32 hex digits, a colon, the move id) with their versions (DynamoDB's sizing)."""
    from bench.cost_calls import value_size

    entries = {f"{n:032x}:{move_id}": {"N": "1234"} for n in range(kept)}
    return value_size({"M": entries})


def load_prices() -> dict[str, float]:
    data = json.loads(PRICES.read_text(encoding="utf-8"))
    return {name: float(entry["usd"]) for name, entry in data["prices"].items()}


# -- the run ---------------------------------------------------------------------------------
def _deployed_settings() -> dict[str, str]:
    """The settings a deployed cell runs with that the local stack leaves at their local
    defaults: the template's DeadlineStepSeconds (the deadline index's step)."""
    from harftet.store.schema import load_template

    parameters = load_template(ROOT / "template.yaml")["Parameters"]
    return {"DEADLINE_STEP_SECONDS": str(parameters["DeadlineStepSeconds"]["Default"])}


def measure(limit: float = 900.0, hands: int | None = None) -> dict[str, Any]:
    """Launch a counted local stack, play the games and the timeouts; the raw figures."""
    from harftet.localstack.stack import launch

    with tempfile.TemporaryDirectory(prefix="harftet-cost-") as workdir:
        calls = Path(workdir) / "calls"
        calls.mkdir()
        saved = {k: os.environ.get(k) for k in ("PYTHONPATH", "HARFTET_COUNT_CALLS")}
        os.environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(HOOKS), str(ROOT), saved["PYTHONPATH"]])
        )
        os.environ["HARFTET_COUNT_CALLS"] = str(calls)
        try:
            stack = launch(
                Path(workdir) / "stack",
                env={"LOG_LEVEL": "WARNING", **_deployed_settings()},
                sweep_seconds=60,
                timeout=180,
            )
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        try:
            games = [Game(kind, hands or n) for kind, n in GAMES]
            for n, game in enumerate(games):
                asyncio.run(_play(stack.base_url, stack.ws_url, game, 1000 + n, limit))
            try:
                late = asyncio.run(_timeouts(stack.base_url, stack.ws_url, TIMEOUTS))
            except Exception as error:  # the games' figures stand without it
                print(f"timer lateness not measured: {error!r}")
                late = []
            time.sleep(1.0)
            records = _records(calls)
            tables_table = stack.env["TABLES_TABLE"]
        finally:
            stack.stop()
    return {"games": games, "records": records, "late": late, "tables_table": tables_table}


def _fmt_usd(value: float) -> str:
    return f"${value:.6f}" if value < 0.01 else f"${value:.4f}"


def run(
    limit: float = 900.0, hands: int | None = None, docs: bool = True
) -> tuple[list[Result], list[str]]:
    """RESULTS.md rows and notes."""
    prices = load_prices()
    measured = measure(limit, hands)
    rows: list[Result] = []
    notes: list[str] = []
    price_date = json.loads(PRICES.read_text(encoding="utf-8"))["date"]
    notes.append(
        f"Prices: bench/prices.json (us-east-1 list prices of {price_date}, sources there). "
        "Pushes are deltas (`harftet.api.delta`), whole views to a socket that may lack the "
        "version before; each socket applies them as the web client does and asks for a sync "
        "when one does not fit."
    )
    counts: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "source": "bench/bench_cost.py"}
    for game in measured["games"]:
        t = tally(game, measured["records"], prices, measured["tables_table"])
        total = sum(t.usd.values())
        per_million = total / max(1, t.changes) * 1e6
        label = f"{game.kind}, {game.hands} hands, 2 people + 2 computer players, 2 spectators"
        state = "" if game.finished else " (NOT finished within the time limit: partial)"
        rows.append(
            Result(
                name=f"cost: {game.kind} game, USD per million stored changes",
                value=per_million,
                unit="USD",
                detail=f"${per_million:.2f}; {t.changes} changes{state}",
                baseline_name="target",
                baseline=TARGET_PER_MILLION,
                goal=1.0,
            )
        )
        if game.kind == "harftet":
            least = floor(game, t, prices)
            notes.append(
                f"**The per-game target's floor**: this game's {least['posts']:.0f} pushes at "
                f"${prices['apigw_ws_message'] * 1e6:.2f} per million WebSocket messages cost "
                f"${least['ws']:.4f} and its {least['moves']:.0f} people's moves, sent on their "
                f"sockets, ${least['rest']:.4f}: ${least['ws'] + least['rest']:.4f} for "
                "these two alone, "
                f"{(least['ws'] + least['rest']) / TARGET_PER_GAME:.1f}× the $0.0015 target "
                "(MISS by arithmetic: a push per socket per stored change is the product)."
            )
            rows.append(
                Result(
                    name="cost: 11-hand Harftet game with two spectators, USD (×10⁴)",
                    value=total * 1e4,
                    unit="",
                    detail=f"{_fmt_usd(total)}{state}",
                    baseline_name="target ×10⁴",
                    baseline=TARGET_PER_GAME * 1e4,
                    goal=1.0,
                )
            )
        pushed = game.client.push_sizes or [0]
        rows.append(
            Result(
                name=f"push size on the local stack: {game.kind}, p99",
                value=percentile(pushed, 0.99),
                unit="B",
                detail=f"median {statistics.median(pushed):.0f} B, largest {max(pushed)} B; "
                f"{len(game.client.push_sizes)} pushes, {game.client.deltas} of them deltas",
                baseline_name="target",
                baseline=PUSH_P99_TARGET,
                goal=1.0,
            )
        )
        typical = statistics.median(t.playing_sizes or t.item_sizes or [0])
        worst = max(t.item_sizes or [0])
        rows.append(
            Result(
                name=f"table item: {game.kind}, median size while playing",
                value=typical,
                unit="B",
                detail=f"p99 {percentile(t.item_sizes, 0.99) if t.item_sizes else 0} B",
                baseline_name="one write unit",
                baseline=ITEM_TYPICAL,
                goal=1.0,
            )
        )
        rows.append(
            Result(
                name=f"table item: {game.kind}, largest version",
                value=worst,
                unit="B",
                baseline_name="two write units",
                baseline=ITEM_WORST,
                goal=1.0,
            )
        )
        notes.append(
            f"**{label}**: {t.changes} stored changes, {game.client.human_moves} people's moves, "
            f"{game.ended - game.started:.0f} s on this machine; {_fmt_usd(total)} a game, "
            f"${per_million:.2f} per million stored changes{state}."
        )
        notes.append(
            "Dollars per million stored changes by item: "
            + "; ".join(
                f"{name} ${v / max(1, t.changes) * 1e6:.2f}"
                for name, v in sorted(t.usd.items(), key=lambda kv: -kv[1])
            )
        )
        by_service: Counter[str] = Counter()
        for (svc, _), n in t.calls.items():
            by_service[svc] += n
        client = game.client
        by_service["apigateway (REST requests)"] += client.rest
        by_service["apigateway (WebSocket messages)"] += client.push_units + client.ws_sent
        by_service["lambda (invocations)"] += sum(t.invocations.values())
        notes.append(
            "Calls per stored change by service: "
            + "; ".join(
                f"{svc} {n / max(1, t.changes):.2f}" for svc, n in sorted(by_service.items())
            )
        )
        ops = defaultdict(list)
        for (svc, op), n in sorted(t.calls.items()):
            ops[svc].append(f"{op} {n / max(1, t.changes):.2f}")
        notes.append(
            "Per stored change, by operation: "
            + "; ".join(f"{svc}: {', '.join(v)}" for svc, v in ops.items())
        )
        per = max(1, t.changes)
        functions_calls: dict[str, list[str]] = defaultdict(list)
        for (fn, svc, op), n in sorted(t.by_function.items()):
            functions_calls[fn].append(f"{svc} {op} {n / per:.2f}")
        notes.append(
            "Per stored change, by function: "
            + "; ".join(f"{fn}: {', '.join(v)}" for fn, v in functions_calls.items())
        )
        sent = sum(n for (fn, svc, op), n in t.by_function.items() if op == "SendMessage")
        notes.append(
            f"Timer messages: {sent} sent ({sent / per:.2f} per change) for {t.deadlines_set} "
            f"versions that set a new deadline out of {t.changes}; a version that keeps its "
            "deadline sends none (a re-queued early timer is a send too)."
        )
        functions = ", ".join(
            f"{fn.split('-')[-1] if '-' in fn else fn} {n}"
            for fn, n in sorted(t.invocations.items())
        )
        notes.append(
            f"Tables item: median {typical:.0f} B while playing, largest {worst} B; "
            f"{t.table_wru / per:.2f} write units and {t.index_units / per:.2f} index write units "
            f"per change; pushes: {client.pushes} "
            f"({client.push_bytes / max(1, client.pushes):.0f} B mean); REST: {client.rest} "
            f"requests, statuses {dict(client.statuses)}; Lambda invocations: {functions}. "
            f"The sweeper (apart: once a minute in AWS) makes {t.sweeper_calls_per_run:.1f} "
            "AWS calls a run."
        )
        counts[game.kind] = rates(game, t)
        if game.kind == "harftet" and docs:
            write_deploy(game, t, prices, price_date)
    if docs:
        COUNTS.write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    notes.append(
        "The former item kept the last 32 `{playerId}:{moveId}` keys: with these games' 32-hex "
        f"player ids that map alone was about {former_map_bytes()} B (item ≈ median + "
        f"{former_map_bytes() - 70} B, 2–3 write units a change); it is about 70 B now."
    )
    late = measured["late"]
    if late:
        rows.append(
            Result(
                name="timers: forced move after its deadline (sweeper off the path)",
                value=max(late) * 1000,
                unit="ms",
                detail=f"{len(late)} timeouts, median {statistics.median(late) * 1000:.0f} ms",
                baseline_name="2 s",
                baseline=2000.0,
                goal=1.0,
            )
        )
    return rows, notes


DEPLOY = ROOT / "docs" / "DEPLOY.md"
DEPLOY_BEGIN = "<!-- bench-cost:begin -->"
DEPLOY_END = "<!-- bench-cost:end -->"


def floor(game: Game, t: Tally, prices: dict[str, float]) -> dict[str, float]:
    """What a game costs at the least, whatever else is cut: a WebSocket message for every
    push the game's sockets get (a move's answer included) and one for every person's move
    sent on a socket (USD)."""
    posts = sum(n for (_, op), n in t.calls.items() if op == "PostToConnection")
    return {
        "posts": posts,
        "moves": game.client.human_moves,
        "ws": posts * prices["apigw_ws_message"],
        "rest": game.client.human_moves * prices["apigw_ws_message"],
    }


def write_deploy(game: Game, t: Tally, prices: dict[str, float], price_date: str) -> None:
    """docs/DEPLOY.md's cost table (between its bench-cost markers), from this run's
    Harftet game: the figures RESULTS.md records, never typed by hand."""
    if not DEPLOY.exists():
        return
    text = DEPLOY.read_text(encoding="utf-8")
    if DEPLOY_BEGIN not in text or DEPLOY_END not in text:
        return
    per = max(1, t.changes)
    total = sum(t.usd.values())
    least = floor(game, t, prices)
    lines = [
        DEPLOY_BEGIN,
        f"Written by `python -m bench.bench_cost` ({time.strftime('%Y-%m-%d')}, prices of "
        f"{price_date}): an 11-hand Harftet game, 2 people, 2 computer players, 2 spectators, "
        f"{t.changes} stored changes.",
        "",
        "| item | $ per million changes |",
        "|---|---|",
        *(
            f"| {name} | {v / per * 1e6:.2f} |"
            for name, v in sorted(t.usd.items(), key=lambda kv: -kv[1])
        ),
        f"| **total** | **{total / per * 1e6:.2f}** (target 10: "
        f"{'PASS' if total / per * 1e6 <= TARGET_PER_MILLION else 'MISS'}) |",
        "",
        f"The game: **${total:.4f}** (target $0.0015: "
        f"{'PASS' if total <= TARGET_PER_GAME else 'MISS'}). Its floor, whatever else is cut: "
        f"{least['posts']:.0f} pushes × ${prices['apigw_ws_message'] * 1e6:.2f} per million "
        f"WebSocket messages = ${least['ws']:.4f}, and {least['moves']:.0f} people's moves "
        f"sent on their sockets = ${least['rest']:.4f}: ${least['ws'] + least['rest']:.4f} for "
        "these two lines alone, "
        f"{(least['ws'] + least['rest']) / TARGET_PER_GAME:.1f}× the target. The target "
        "would need fewer pushes a game (fewer stored changes, or spectators pushed less "
        "often than every change), not cheaper ones.",
        DEPLOY_END,
    ]
    head, _, rest = text.partition(DEPLOY_BEGIN)
    _, _, tail = rest.partition(DEPLOY_END)
    DEPLOY.write_text(head + "\n".join(lines) + tail, encoding="utf-8")


SECTION = "## What a game costs (bench/bench_cost.py)"


def write_section(rows: list[Result], notes: list[str], results: Path) -> None:
    """Put this run's rows and notes into RESULTS.md as its own section (replacing the last
    one), so the cost benchmark can run alone: ``python -m bench.bench_cost``."""
    import platform
    from datetime import UTC, datetime

    from bench.__main__ import _row

    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    block = [
        SECTION,
        "",
        f"Run alone (`python -m bench.bench_cost`) on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.system()} {platform.machine()}, nproc {os.cpu_count()}, load average at "
        f"the end {load}. Targets are the baselines: the ratio must be ≤ 1.",
        "",
        "| benchmark | measurement | baseline | ratio | goal | result |",
        "|---|---|---|---|---|---|",
        *(_row(r) for r in rows),
        "",
        *(f"- {n}" for n in notes),
        "",
    ]
    put_section(results, SECTION, block)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, help="hands a game (a quick look; default 11)")
    parser.add_argument(
        "--dry", action="store_true", help="print only: write no RESULTS.md, DEPLOY.md or counts"
    )
    args = parser.parse_args()
    rows, notes = run(hands=args.hands, docs=not args.dry)
    for row in rows:
        print(
            f"{row.name}: {row.value:.2f} {row.unit} ({row.detail}) "
            f"vs {row.baseline} → {row.passed}"
        )
    print("\n".join(notes))
    if not args.dry:
        write_section(rows, notes, ROOT / "bench" / "RESULTS.md")


if __name__ == "__main__":
    main()
