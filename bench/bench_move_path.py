"""The full move path through the REST handler versus the bare DynamoDB I/O floor.

Move path: ``POST /tables/{id}/moves`` (a draw) through functions/rest/app.py ``handler`` —
token verify, pydantic parse of the body, a strongly consistent get_item, the engine's
apply_move, the conditional update_item on the version, the view, powertools' logger and
metrics. Floor: one strongly consistent get_item plus one update_item that writes an item of
the same size with the same ``version = :expected`` condition, on the same client. Both run
in the same process against the same backend, interleaved in alternating blocks (ABBA) to
cancel drift; the goal is median(move path) / median(floor) ≤ 1.3.

Backends: dynalite (in memory, a separate node process: the headline) and moto's
ThreadedMotoServer (in this process). Each backend runs in its own child interpreter, so
the handler module is imported fresh against its endpoint.

Run: ``.venv/bin/python -m bench.bench_move_path [--backend dynalite|moto] [--profile]``.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import importlib.util
import json
import logging
import os
import pstats
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bench import ROOT, Result, free_port, median, percentile
from harftet import bootstrap
from harftet.localstack.dynalite import dynalite
from harftet.localstack.lambda_events import FakeLambdaContext, rest_event

GOAL = 1.3
ITERATIONS = 400
BLOCK = 10
WARMUP = 20
# dynalite has no TransactWriteItems, which creating a table now needs (the new table and its
# manager's list of waiting tables are written together): the move path is measured on moto.
BACKENDS = ("moto",)
TABLE_NAMES = {
    "TablesTable": "harftet-tables",
    "PlayersTable": "harftet-players",
    "ConnectionsTable": "harftet-connections",
}
DRAWS_PER_SEAT = 22 - 14  # the hand cap (22 tiles) minus the deal (14 tiles)
SEATS = 2
HANDLER_PATH = ROOT / "functions" / "rest" / "app.py"


def handler_env(endpoint: str) -> dict[str, str]:
    """The environment the REST handler is imported with: local endpoint, no AWS, no X-Ray.

    TOKEN_SECRET is set, so the SSM path is never taken; WS_ENDPOINT is not set, so a move
    pushes to nobody (the push fan-out is not part of this measurement).
    """
    return {
        "TABLES_TABLE": TABLE_NAMES["TablesTable"],
        "PLAYERS_TABLE": TABLE_NAMES["PlayersTable"],
        "CONNECTIONS_TABLE": TABLE_NAMES["ConnectionsTable"],
        "AWS_ENDPOINT_URL_DYNAMODB": endpoint,
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "bench",
        "AWS_SECRET_ACCESS_KEY": "bench",
        "AWS_EC2_METADATA_DISABLED": "true",
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        "TOKEN_SECRET": "bench-only-secret-0123456789abcdefghijklmnop",
        "TEST_MODE": "1",
        "POWERTOOLS_SERVICE_NAME": "harftet",
        "POWERTOOLS_METRICS_NAMESPACE": "Harftet",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
    }


# -- backends ------------------------------------------------------------------------------
@contextlib.contextmanager
def moto_server() -> Iterator[str]:
    """moto's ThreadedMotoServer in this process on a free port."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


BACKEND_FACTORIES: dict[str, Callable[[], contextlib.AbstractContextManager[str]]] = {
    "dynalite": dynalite,
    "moto": moto_server,
}


def load_handler_module() -> ModuleType:
    """functions/rest/app.py, imported by file path (it wires the default service)."""
    spec = importlib.util.spec_from_file_location("harftet_bench_rest_app", HANDLER_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# -- the two measured operations -----------------------------------------------------------
@dataclass(slots=True)
class Game:
    """A started 2-seat table the benchmark draws on, and what it knows of its state."""

    table_id: str
    version: int
    turn: int
    draws: int = 0


class Harness:
    """Drives the REST handler and the I/O floor against one backend."""

    def __init__(self, app: ModuleType) -> None:
        self.handler: Callable[[dict[str, Any], Any], dict[str, Any]] = app.handler
        self.client: Any = bootstrap.app().stores.client  # the handler's own boto3 client
        self.tokens: list[str] = []
        self.games: list[Game] = []
        self.moves = 0

    def call(self, method: str, path: str, token: str | None, body: Any = None, **kw: Any) -> Any:
        """One API Gateway event through the handler; the decoded body of a 2xx answer."""
        response = self.handler(self._event(method, path, token, body, **kw), self._ctx())
        if not 200 <= response["statusCode"] < 300:
            raise RuntimeError(f"{method} {path}: {response['statusCode']} {response['body']}")
        return json.loads(response["body"])

    def _ctx(self) -> Any:
        return FakeLambdaContext(function_name="RestFunction")

    def _event(
        self,
        method: str,
        path: str,
        token: str | None,
        body: Any,
        resource: str | None = None,
        path_parameters: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        headers = [("Content-Type", "application/json"), ("User-Agent", "harftet-bench")]
        if token:
            headers.append(("Authorization", f"Bearer {token}"))
        event: dict[str, Any] = rest_event(
            method=method,
            path=path,
            headers=headers,
            body=b"" if body is None else json.dumps(body).encode(),
            resource=resource,
            path_parameters=path_parameters,
        )
        return event

    def setup(self, tables: int) -> None:
        """Two players and ``tables`` started 2-seat tables (seeded, so every draw is legal)."""
        self.tokens = [self.call("POST", "/players", None, {"name": n})["token"] for n in "AB"]
        for seed in range(tables):
            view = self.call(
                "POST",
                "/tables",
                self.tokens[0],
                {"game": "harftet", "seats": SEATS, "hands": 21, "turnSeconds": 600, "seed": seed},
            )
            table_id = view["tableId"]
            self.call("POST", f"/tables/{table_id}/seats/1", self.tokens[1], {})
            view = self.call("POST", f"/tables/{table_id}/start", self.tokens[0])
            self.games.append(Game(table_id, view["version"], view["turn"]["seat"]))

    def current(self) -> Game:
        """The table the next draw goes to (each seat may draw 8 times per table)."""
        while self.games and self.games[0].draws >= SEATS * DRAWS_PER_SEAT:
            self.games.pop(0)
        if not self.games:
            raise RuntimeError("out of tables: set up more")
        return self.games[0]

    def move(self) -> float:
        """One draw through the handler; returns its seconds (event building excluded)."""
        game = self.current()
        self.moves += 1
        event = self._event(
            "POST",
            f"/tables/{game.table_id}/moves",
            self.tokens[game.turn],
            {"type": "draw", "version": game.version, "moveId": f"m{self.moves}"},
            resource="/tables/{tableId}/moves",
            path_parameters={"tableId": game.table_id},
        )
        context = self._ctx()
        start = time.perf_counter()
        response = self.handler(event, context)
        elapsed = time.perf_counter() - start
        if response["statusCode"] != 200:
            raise RuntimeError(f"move failed: {response['statusCode']} {response['body']}")
        view = json.loads(response["body"])
        game.version, game.turn, game.draws = view["version"], view["turn"]["seat"], game.draws + 1
        return elapsed

    def refresh_floor(self) -> str:
        """Copy the current table's item (same size) to a floor item; returns its id."""
        name = TABLE_NAMES["TablesTable"]
        game = self.current()
        item = self.client.get_item(
            TableName=name, Key={"tableId": {"S": game.table_id}}, ConsistentRead=True
        )["Item"]
        floor_id = f"floor-{game.table_id}"
        self.client.put_item(TableName=name, Item={**item, "tableId": {"S": floor_id}})
        return floor_id

    def floor(self, floor_id: str) -> float:
        """One consistent get_item plus one conditional update_item of the same item size."""
        name = TABLE_NAMES["TablesTable"]
        key = {"tableId": {"S": floor_id}}
        start = time.perf_counter()
        item = self.client.get_item(TableName=name, Key=key, ConsistentRead=True)["Item"]
        attributes = [a for a in item if a not in ("tableId", "version")]
        names = {"#v": "version", "#l": "lobby"} | {f"#a{i}": a for i, a in enumerate(attributes)}
        values = {
            ":expected": item["version"],
            ":version": {"N": str(int(item["version"]["N"]) + 1)},
        } | {f":a{i}": item[a] for i, a in enumerate(attributes)}
        sets = ", ".join(["#v = :version"] + [f"#a{i} = :a{i}" for i in range(len(attributes))])
        self.client.update_item(
            TableName=name,
            Key=key,
            UpdateExpression=f"SET {sets} REMOVE #l",
            ConditionExpression="#v = :expected",
            ExpressionAttributeNames=names,
            ExpressionAttributeValues=values,
            ReturnValuesOnConditionCheckFailure="ALL_OLD",
        )
        return time.perf_counter() - start

    def item_bytes(self) -> tuple[int, int]:
        """Sizes of the current table's ``state`` attribute and of its whole item (approx.)."""
        item = self.client.get_item(
            TableName=TABLE_NAMES["TablesTable"],
            Key={"tableId": {"S": self.current().table_id}},
            ConsistentRead=True,
        )["Item"]
        state = len(item["state"]["B"])
        return state, len(json.dumps(item, default=lambda b: "x" * len(b)))


def measure(harness: Harness, iterations: int, block: int) -> dict[str, list[float]]:
    """Move and floor samples (seconds), in alternating blocks: ABBA, after a warm-up."""
    for _ in range(WARMUP):
        harness.move()
    floor_id = harness.refresh_floor()
    for _ in range(WARMUP):
        harness.floor(floor_id)
    samples: dict[str, list[float]] = {"move": [], "floor": []}
    blocks = -(-iterations // block)
    for b in range(blocks):
        order = ("move", "floor") if b % 2 == 0 else ("floor", "move")
        for kind in order:
            gc.collect()
            if kind == "move":
                samples["move"] += [harness.move() for _ in range(block)]
            else:
                floor_id = harness.refresh_floor()
                samples["floor"] += [harness.floor(floor_id) for _ in range(block)]
    return samples


def run_backend(backend: str, iterations: int, block: int, profile: bool = False) -> dict[str, Any]:
    """Start ``backend``, set up tables, measure; a JSON-able summary (times in ms)."""
    warnings.filterwarnings("ignore", message="No application metrics")
    with BACKEND_FACTORIES[backend]() as endpoint:
        os.environ.update(handler_env(endpoint))
        import boto3

        from harftet.store.schema import create_tables

        create_tables(boto3.client("dynamodb"), TABLE_NAMES)
        # powertools metrics print one EMF line per invocation: keep it (it is part of the
        # path) but send it nowhere, so the terminal is not measured.
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            app = load_handler_module()
            harness = Harness(app)
            per_table = SEATS * DRAWS_PER_SEAT
            harness.setup(-(-(2 * WARMUP + iterations + block) // per_table) + 1)
            if profile:
                return profile_moves(harness, iterations)
            samples = measure(harness, iterations, block)
            state_bytes, item_bytes = harness.item_bytes()
    ms = {k: [v * 1000 for v in vs] for k, vs in samples.items()}
    return {
        "backend": backend,
        "iterations": len(ms["move"]),
        "block": block,
        "state_bytes": state_bytes,
        "item_bytes": item_bytes,
        **{f"{k}_median": median(v) for k, v in ms.items()},
        **{f"{k}_p10": percentile(v, 0.1) for k, v in ms.items()},
        **{f"{k}_p90": percentile(v, 0.9) for k, v in ms.items()},
    }


def profile_moves(harness: Harness, iterations: int) -> dict[str, Any]:
    """cProfile over ``iterations`` moves; the top of the report goes to stderr."""
    for _ in range(WARMUP):
        harness.move()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(iterations):
        harness.move()
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stderr)
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(25)
    return {"profiled": iterations}


# -- the parent side -----------------------------------------------------------------------
def run_child(backend: str, iterations: int = ITERATIONS, block: int = BLOCK) -> dict[str, Any]:
    """``run_backend`` in a fresh interpreter (the handler binds its endpoint at import)."""
    command = [sys.executable, "-m", "bench.bench_move_path", "--backend", backend, "--json"]
    command += ["--iterations", str(iterations), "--block", str(block)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"move-path benchmark on {backend} failed:\n{done.stderr}")
    summary: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return summary


def to_result(summary: dict[str, Any]) -> Result:
    """The RESULTS.md row of one backend's summary."""
    backend = summary["backend"]
    return Result(
        name=f"move path, {backend}" + (" (headline)" if backend == BACKENDS[0] else ""),
        value=summary["move_median"],
        unit="ms",
        detail=(
            f"p10 {summary['move_p10']:.2f}, p90 {summary['move_p90']:.2f} ms; "
            f"p10 ratio {summary['move_p10'] / summary['floor_p10']:.2f}×; "
            f"n={summary['iterations']}"
        ),
        baseline_name="get_item + conditional update_item",
        baseline=summary["floor_median"],
        baseline_detail=(
            f"p10 {summary['floor_p10']:.2f}, p90 {summary['floor_p90']:.2f} ms; "
            f"item ≈{summary['item_bytes']} B"
        ),
        goal=GOAL,
    )


def run(iterations: int = ITERATIONS, block: int = BLOCK) -> list[Result]:
    """Both backends, dynalite first."""
    return [to_result(run_child(b, iterations, block)) for b in BACKENDS]


def main() -> None:
    """Command line: one backend in-process (--json for the parent), or both via children."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=BACKENDS)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--block", type=int, default=BLOCK)
    parser.add_argument("--json", action="store_true", help="print one JSON summary line")
    parser.add_argument("--profile", action="store_true", help="cProfile the move path")
    args = parser.parse_args()
    if args.backend is None:
        for result in run(args.iterations, args.block):
            print(f"{result.name}: {result.value:.2f} ms ({result.detail}) vs floor ", end="")
            print(f"{result.baseline:.2f} ms ({result.baseline_detail}) = {result.ratio:.2f}×")
        return
    summary = run_backend(args.backend, args.iterations, args.block, args.profile)
    print(json.dumps(summary) if args.json else summary)


if __name__ == "__main__":
    main()
