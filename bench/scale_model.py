"""How many live tables one cell (one stack in one AWS account and Region) carries before each
quota binds, from the calls bench/bench_cost.py counted per stored change
(bench/cost_counts.json), for docs/SCALE.md.

Load: every table makes ``CHANGES_PER_TABLE`` stored changes a second (1,000,000 tables make
125,000 a second: one change every 8 s per table), with the game's connections open. Each
quota's row gives the per-table load on it, the quota (its default, and the raised value the
design asks for), and the number of tables at which it binds. The cell is sized at
``HEADROOM`` of the first quota that binds after the raises.

Run: ``.venv/bin/python -m bench.scale_model`` (prints the table; ``--write`` puts it into
docs/SCALE.md between its markers).
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import ROOT

COUNTS = ROOT / "bench" / "cost_counts.json"
DEFAULT_KIND = "reference"  # the people-like game of bench/bench_cost_reference.py
SCALE_MD = ROOT / "docs" / "SCALE.md"
BEGIN, END = "<!-- scale-model:begin -->", "<!-- scale-model:end -->"
TABLES = 1_000_000
CHANGES_PER_TABLE = 0.125  # 125,000 changes/s over 1,000,000 tables
GAME_MINUTES = 30.0  # a game's length: its players and spectators connect once per game
CONNECTION_HOURS = 2.0  # API Gateway closes a WebSocket after 2 hours: clients reconnect
HEADROOM = 0.5  # a cell is sized at half the tables of its first binding quota
QUIET_SECONDS = 9 * 60.0  # the clients ping only after this much silence (clients/web/live.js)
SCALE_UP = 6_000  # new execution environments a function gets in a minute (1,000 / 10 s)
PARALLELIZATION = 4  # the stream mapping's ParallelizationFactor (template.yaml)
PARTITION_WRITES = 1000.0  # write units a second one DynamoDB partition (and index key) takes
STREAM_RECORDS_PER_SHARD = 1000.0  # a shard follows a partition: about 1,000 writes/s


@dataclass(frozen=True)
class Quota:
    name: str
    per_table: float  # load one table puts on it (its unit per second, or per table)
    unit: str
    default: float
    raised: float
    note: str
    aws: bool = True  # False: one of the template's own parameters, not an AWS quota

    def binds_at(self, value: float) -> float:
        return math.inf if self.per_table <= 0 else value / self.per_table


def load(kind: str = "harftet", path: Path = COUNTS) -> dict[str, float]:
    """The counted per-change figures of one game kind."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return {k: float(v) for k, v in data[kind].items()}


def quotas(c: dict[str, float], shards: int = 32) -> list[Quota]:
    """Every quota a cell meets, with its per-table load from the counted calls ``c``."""
    r = CHANGES_PER_TABLE
    connections = c["connections_per_table"]
    apigw = r * (c["rest_requests"] + c["ws_client_messages"] + c["ws_posts"])
    connects = connections * (1 / (GAME_MINUTES * 60) + 1 / (CONNECTION_HOURS * 3600))
    # the handlers' time per change as measured (this machine's, slower than Lambda's arm64:
    # the concurrency rows are on the safe side)
    lambda_seconds = r * c["lambda_ms"] / 1000
    timer_share = c.get("invocations_timer", 0) / max(c["lambda_invocations"], 1e-9)
    writes = r * (c["table_write_units"] + c["index_write_units"] + c.get("other_write_units", 2))
    reads = r * c.get("read_units", 1.0)
    index_writes = r * c["index_write_units"]
    return [
        Quota(
            "API Gateway requests, account and Region (REST, WebSocket messages, posts)",
            apigw,
            "requests/s",
            10_000,
            50_000,
            "Service Quotas L-8A5B8E43; the burst (5,000) follows it",
        ),
        *route_throttles(c),
        Quota(
            "WebSocket new connections per second, account and Region",
            connects,
            "connects/s",
            500,
            2_000,
            f"{connections:.0f} per table, once a game ({GAME_MINUTES:.0f} min) and every 2 h",
        ),
        Quota(
            "WebSocket connections open at once (no quota: new-connection rate × 2 h)",
            connections,
            "connections",
            500 * 7200,
            2_000 * 7200,
            "concurrent connections follow from the connect rate and the 2-hour limit",
        ),
        Quota(
            "Lambda concurrent executions, account and Region",
            lambda_seconds,
            "executions",
            1_000,
            20_000,
            f"{c['lambda_ms']:.0f} ms of handler time per change (measured on this machine)",
        ),
        Quota(
            "DynamoDB table throughput, on-demand (write units/s per table)",
            writes,
            "WRU/s",
            40_000,
            80_000,
            "table-level quota; item, indexes, log, connections, limits",
        ),
        Quota(
            "DynamoDB table throughput, on-demand (read units/s per table)",
            reads,
            "RRU/s",
            40_000,
            80_000,
            "table-level quota; consistent item reads, the connections query",
        ),
        Quota(
            "DynamoDB partition of one deadline-index key (write units/s)",
            index_writes / shards,
            "WRU/s",
            PARTITION_WRITES,
            PARTITION_WRITES,
            f"{shards} shards (DeadlineShards): a hard per-partition limit, raised by more shards",
        ),
        Quota(
            "DynamoDB stream: fan-out concurrency (shards × ParallelizationFactor)",
            r * c["table_write_units"] / STREAM_RECORDS_PER_SHARD * PARALLELIZATION,
            "executions",
            1_000,
            20_000,
            "a shard per partition, ≤ 4 batches at once each; counts in Lambda concurrency",
        ),
        Quota(
            "SQS timer queue → Lambda (event source mapping concurrency)",
            lambda_seconds * timer_share,
            "executions",
            1_250,
            1_250,
            "a standard queue has no practical request limit; Lambda's SQS poller scales "
            "to 1,250 concurrent invocations",
        ),
        Quota(
            "Lambda scaling rate (1,000 new environments / 10 s per function): load a cold "
            "cell reaches within a minute",
            lambda_seconds,
            "executions",
            SCALE_UP,
            SCALE_UP,
            "not a ceiling: beyond it, move load into a new cell over several minutes",
        ),
    ]


def _parameter(name: str) -> float:
    """A template.yaml parameter's default (the stage throttles follow the template)."""
    from harftet.store.schema import load_template

    return float(load_template(ROOT / "template.yaml")["Parameters"][name]["Default"])


def route_throttles(c: dict[str, float]) -> list[Quota]:
    """The template's own stage throttles (parameters, not AWS quotas): REST's per method, and
    the WebSocket's per route — moves, syncs and pings each on a route of its own (issue 40).
    Pings: the counted rate, or, if more, every socket of the table silent for QUIET seconds
    (the most a table can ping by the clients' rule)."""
    r = CHANGES_PER_TABLE
    pings = max(r * c.get("ws_ping", 0.0), c["connections_per_table"] / QUIET_SECONDS)
    note = "a parameter, not an AWS quota: set it with the cell (e.g. {}, burst twice)"
    return [
        Quota(
            "Stage throttle: REST, per method (ThrottleRateLimit; all REST requests on one "
            "method, on the safe side)",
            r * c["rest_requests"],
            "requests/s",
            _parameter("ThrottleRateLimit"),
            5_000,
            note.format("5,000"),
            aws=False,
        ),
        Quota(
            "Stage throttle: WebSocket `move` route (WsMoveRateLimit): moves sent on the socket",
            r * c.get("ws_move", c["ws_client_messages"]),
            "messages/s",
            _parameter("WsMoveRateLimit"),
            5_000,
            note.format("5,000"),
            aws=False,
        ),
        Quota(
            "Stage throttle: WebSocket `sync` route (WsSyncRateLimit): a missed push's resync",
            r * c.get("ws_sync", 0.0),
            "messages/s",
            _parameter("WsSyncRateLimit"),
            2_000,
            note.format("2,000"),
            aws=False,
        ),
        Quota(
            "Stage throttle: WebSocket `ping` route (WsPingRateLimit): pings after 9 minutes of "
            "silence",
            pings,
            "messages/s",
            _parameter("WsPingRateLimit"),
            2_000,
            f"counted {r * c.get('ws_ping', 0.0):.3g}/s; the row takes every socket silent "
            f"(one ping per socket per {QUIET_SECONDS:.0f} s), the most the clients send",
            aws=False,
        ),
    ]


def former_default_route(c: dict[str, float]) -> float:
    """Tables at which the one $default route (moves, syncs and the former 25 s pings of
    every socket, ThrottleRateLimit 50) bound before issue 40."""
    load = CHANGES_PER_TABLE * c["ws_client_messages"] + c["connections_per_table"] / 25.0
    return 50 / load


def rows(c: dict[str, float], shards: int = 32) -> tuple[list[list[str]], Quota, float]:
    """Markdown rows, the first quota to bind with default quotas, and the cell size (tables)
    after the raises."""
    table = []
    found = quotas(c, shards)

    def tables(value: float) -> str:
        return "never" if math.isinf(value) else f"{value:,.0f}"

    for q in found:
        table.append(
            [
                q.name,
                f"{q.per_table:.4g} {q.unit}",
                f"{q.default:,.0f}",
                tables(q.binds_at(q.default)),
                f"{q.raised:,.0f}",
                tables(q.binds_at(q.raised)),
                q.note,
            ]
        )
    first = min((q for q in found if q.aws), key=lambda q: q.binds_at(q.default))
    cell = HEADROOM * min(q.binds_at(q.raised) for q in found)
    return table, first, cell


def with_connections(c: dict[str, float], connections: int) -> dict[str, float]:
    """The counted figures for tables with ``connections`` open connections instead: posts
    (and the messages they bill) follow the connections; nothing else does."""
    factor = connections / c["connections_per_table"]
    return {
        **c,
        "connections_per_table": connections,
        "ws_posts": c["ws_posts"] * factor,
        "ws_message_units": c.get("ws_message_units", c["ws_posts"]) * factor,
    }


def first_raised(c: dict[str, float], shards: int = 32) -> tuple[Quota, float]:
    """The first quota to bind once every quota and throttle is raised, and where."""
    first = min(quotas(c, shards), key=lambda q: q.binds_at(q.raised))
    return first, first.binds_at(first.raised)


def markdown(kind: str = DEFAULT_KIND, path: Path = COUNTS, shards: int = 32) -> str:
    c = load(kind, path)
    table, first, cell = rows(c, shards)
    cells = math.ceil(TABLES / cell)
    own = min((q for q in quotas(c, shards) if not q.aws), key=lambda q: q.binds_at(q.default))
    raised, raised_at = first_raised(c, shards)
    full = with_connections(c, 6)
    _, full_first, full_cell = rows(full, shards)
    source = {
        "reference": "the reference game of bench/bench_cost_reference.py: 2 people who play "
        "like medium, 2 computer players, 2 spectators; pings counted",
        "harftet": "the stress game of bench/bench_cost.py",
    }.get(kind, kind)
    lines = [
        f"Generated by `python -m bench.scale_model` from bench/cost_counts.json ({kind}: "
        f"{source}): {c['rest_requests']:.2f} REST requests, {c['ws_client_messages']:.2f} "
        f"client WebSocket messages (moves {c.get('ws_move', 0):.2f}, syncs "
        f"{c.get('ws_sync', 0):.2f}, pings {c.get('ws_ping', 0):.2f}), "
        f"{c['ws_posts']:.2f} WebSocket posts, {c['lambda_invocations']:.2f} Lambda invocations, "
        f"{c['table_write_units'] + c['index_write_units']:.2f} table and index write units per "
        f"stored change; {c['connections_per_table']:.0f} connections per table; "
        f"{CHANGES_PER_TABLE} changes per table per second.",
        "",
        "| quota | per table | default | binds at (tables) | raised to | binds at | note |",
        "|---|---|---|---|---|---|---|",
        *("| " + " | ".join(r) + " |" for r in table),
        "",
        f"- **First AWS quota to bind with default quotas:** {first.name}, at "
        f"{first.binds_at(first.default):,.0f} tables per account and Region. Before it, the "
        f"template's own throttles: the first, {own.name}, binds at "
        f"{own.binds_at(own.default):,.0f} tables at its default of {own.default:,.0f}: a "
        "parameter, set with the cell. Before issue 40 the one `$default` route carried moves, "
        f"syncs and every socket's 25 s pings: it bound at {former_default_route(c):,.0f} tables "
        f"(50 a second) and {former_default_route(c) * 100:,.0f} raised to 5,000.",
        f"- **First quota to bind after the raises** (route throttles included, pings counted): "
        f"{raised.name}, at {raised_at:,.0f} tables.",
        f"- **Cell size** (half of the first binding quota after the raises): "
        f"{cell:,.0f} tables; **{cells} cells** for {TABLES:,} tables.",
        f"- With **6 connections a table** (four people and two spectators; posts follow the "
        f"connections): the first bind is {full_first.name} at "
        f"{full_first.binds_at(full_first.default):,.0f} tables; cells of {full_cell:,.0f} "
        f"tables, **{math.ceil(TABLES / full_cell)} cells**.",
    ]
    return "\n".join(lines)


def write(text: str, path: Path = SCALE_MD) -> None:
    doc = path.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    path.write_text(doc[:start] + "\n" + text + "\n" + doc[end:], encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default=DEFAULT_KIND, help="reference, harftet or kastet")
    parser.add_argument("--shards", type=int, default=32)
    parser.add_argument("--write", action="store_true", help="update docs/SCALE.md")
    args = parser.parse_args()
    text = markdown(args.kind, shards=args.shards)
    print(text)
    if args.write:
        write(text)


if __name__ == "__main__":
    main()
