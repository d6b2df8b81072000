"""Counting and pricing what a game made, for bench/bench_cost.py: the AWS calls, invocations
and item versions bench/cost_calls.py recorded in the game's window, priced with
bench/prices.json; and the rates per stored change that bench/scale_model.py reads.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import ROOT
from bench.cost_games import Client, Game
from bench.cost_logs import LogConfig, template_config

PRICES = ROOT / "bench" / "prices.json"
HUMAN_TURN_SECONDS = 15.0  # a person's turn, for connection-minutes of a real game
BOT_TURN_SECONDS = 1.0  # a computer player's default botSeconds


def records(directory: Path) -> list[dict[str, Any]]:
    """Every record the counted processes wrote into ``directory``."""
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
    logs: Logs = field(default_factory=lambda: Logs(LogConfig()))


@dataclass
class Logs:
    """The log events and bytes of a game's invocations, by function: what the handlers wrote
    (measured) and Lambda's platform lines under ``config`` (bench/cost_logs.py)."""

    config: LogConfig
    lines: Counter[str] = field(default_factory=Counter)  # the handlers' own, kept
    app_bytes: Counter[str] = field(default_factory=Counter)
    invocations: Counter[str] = field(default_factory=Counter)
    cold: Counter[str] = field(default_factory=Counter)

    def add(self, record: dict[str, Any]) -> None:
        fn = _short(record.get("fn", ""))
        self.invocations[fn] += 1
        self.lines[fn] += int(record.get("log_lines", 0))
        self.app_bytes[fn] += int(record.get("log_bytes", 0))
        self.cold[fn] += bool(record.get("cold"))

    def platform_bytes(self, fn: str) -> int:
        warm = self.invocations[fn] - self.cold[fn]
        return warm * self.config.platform_bytes() + self.cold[fn] * self.config.platform_bytes(
            cold=True
        )

    def platform_lines(self, fn: str) -> int:
        return self.invocations[fn] * len(self.config.platform_lines())

    def total_bytes(self) -> int:
        return sum(self.app_bytes.values()) + sum(self.platform_bytes(f) for f in self.invocations)

    def per_invocation(self, fn: str) -> tuple[float, float, float]:
        """(the handler's bytes, the platform's bytes, events) per invocation of ``fn``."""
        n = max(1, self.invocations[fn])
        events = self.lines[fn] + self.platform_lines(fn)
        return self.app_bytes[fn] / n, self.platform_bytes(fn) / n, events / n

    def by_function(self) -> str:
        """``rest 0+0 B (0.00 events) × 120`` for each function, largest total first."""
        parts = []
        for fn in sorted(self.invocations, key=lambda f: -self.total_of(f)):
            app, platform, events = self.per_invocation(fn)
            parts.append(
                f"{fn} {app:.0f}+{platform:.0f} B ({events:.2f} events) × {self.invocations[fn]}"
            )
        return "; ".join(parts)

    def total_of(self, fn: str) -> int:
        return self.app_bytes[fn] + self.platform_bytes(fn)


def log_config() -> LogConfig:
    """The logging configuration template.yaml deploys the game's functions with."""
    return template_config(ROOT / "template.yaml")


@dataclass
class _Calls:
    """The calls and invocations of a game's window, counted as they are billed."""

    calls: Counter[tuple[str, str]] = field(default_factory=Counter)
    by_function: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    invocations: Counter[str] = field(default_factory=Counter)
    read_units: float = 0.0
    write_units: float = 0.0  # other than the tables item's (sized from its versions)
    inbox_index_units: float = 0.0
    sqs: int = 0
    lambda_ms: float = 0.0
    logs: Logs = field(default_factory=lambda: Logs(log_config()))


def tally(
    game: Game,
    records: list[dict[str, Any]],
    prices: dict[str, float],
    tables_table: str,
    logging: LogConfig | None = None,
) -> Tally:
    """Price one game's window of records; its functions' Lambda platform log lines as
    ``logging`` configures them (None: as template.yaml does now)."""
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
    table_wru, index_units = _table_writes(images)
    counted = _count_calls(window, tables_table)
    counted.logs.config = logging or counted.logs.config
    sweeper_runs = max(
        1, sum(1 for r in records if r["k"] == "invoke" and "weeper" in r.get("fn", ""))
    )
    sweeper_all = sum(1 for r in records if r["k"] == "call" and "weeper" in r.get("fn", ""))
    return Tally(
        changes=changes,
        calls=counted.calls,
        usd=_usd(game.client, counted, changes, table_wru, index_units, prices),
        item_sizes=[s for _, s, _, _ in images],
        playing_sizes=[s for _, s, _, status in images if status == "playing"],
        index_units=index_units,
        table_wru=table_wru,
        sweeper_calls_per_run=sweeper_all / sweeper_runs,
        invocations=counted.invocations,
        deadlines_set=deadlines_set,
        by_function=counted.by_function,
        lambda_ms=counted.lambda_ms,
        other_write_units=counted.write_units,
        read_units=counted.read_units,
        logs=counted.logs,
    )


def _table_writes(images: list[tuple[int, int, str, str]]) -> tuple[float, int]:
    """The tables table's write units (the larger of the item before and after, per version)
    and its indexes' write units, over its versions in order."""
    table_wru = 0.0
    index_units = 0
    previous: tuple[int, dict[str, Any]] | None = None
    for _, size, keys, _ in images:
        now = json.loads(keys)
        before = previous[0] if previous else 0
        table_wru += max(1, math.ceil(max(before, size) / 1024))
        index_units += _index_writes(previous[1] if previous else None, now, size)
        previous = (size, now)
    return table_wru, index_units


def _count_calls(window: list[dict[str, Any]], tables_table: str) -> _Calls:
    """The window's billed calls by operation and function, its invocations, and DynamoDB's
    request units (the sweeper's left out: it is not a game's)."""
    counted = _Calls()
    for r in window:
        fn = r.get("fn", "")
        if "weeper" in fn:
            continue
        if r["k"] == "invoke":
            counted.invocations[fn] += 1
            counted.lambda_ms += r["ms"]
            counted.logs.add(r)
            continue
        if r["k"] != "call":
            continue
        svc, op = r["svc"], r["op"]
        if fn == "stack":  # Lambda's own pollers: stream reads are free, SQS's are billed
            delivered = op == "ReceiveMessage" and r.get("n")
            if svc == "sqs" and (delivered or op.startswith("DeleteMessage")):
                counted.calls[(svc, op)] += 1
                counted.by_function[("lambda poller", svc, op)] += 1
                counted.sqs += 1
            continue
        counted.calls[(svc, op)] += 1
        counted.by_function[(_short(fn), svc, op)] += 1
        if svc == "dynamodb":
            counted.read_units += r.get("rru", 0)
            touches_tables = tables_table in str(r.get("table", "")).split(",")
            if touches_tables and op == "UpdateItem" and r.get("ok"):
                continue  # sized from the stream's images (table_wru)
            if touches_tables and op == "TransactWriteItems" and r.get("ok"):
                # the transaction's second unit; the first is table_wru
                counted.write_units += r.get("wru", 0) / 2
                continue
            counted.write_units += r.get("wru", 0)
            if op == "PutItem" and "mail" in str(r.get("table", "")) and "fanout" in fn.lower():
                # an inbox item: its rank-index entry (a local index projecting ALL) is
                # written with it — one more unit at least (two when its rank moved)
                counted.inbox_index_units += r.get("wru", 0)
        elif svc == "sqs":
            counted.sqs += 1
    return counted


def _usd(
    c: Client,
    counted: _Calls,
    changes: int,
    table_wru: float,
    index_units: int,
    prices: dict[str, float],
) -> dict[str, float]:
    """What the game cost, by item (USD)."""
    invocations = sum(counted.invocations.values())
    minutes = (
        c.human_moves * HUMAN_TURN_SECONDS + max(0, changes - c.human_moves) * BOT_TURN_SECONDS
    ) / 60
    write_unit = prices["dynamodb_write_request_unit"]
    return {
        "API Gateway REST requests": c.rest * prices["apigw_rest_request"],
        "API Gateway WebSocket messages": (c.push_units + c.ws_sent) * prices["apigw_ws_message"],
        "API Gateway WebSocket connection-minutes": c.connections
        * minutes
        * prices["apigw_ws_connection_minute"],
        "data transfer out": (c.rest_out + c.push_bytes) / 1e9 * prices["data_transfer_out_gb"],
        "Lambda requests": invocations * prices["lambda_request"],
        "Lambda duration (512 MB arm64)": counted.lambda_ms
        / 1000
        * 0.5
        * prices["lambda_gb_second_arm64"],
        "DynamoDB writes (tables item)": table_wru * write_unit,
        "DynamoDB index writes (tables)": index_units * write_unit,
        "DynamoDB index writes (inbox rank-index, at least)": counted.inbox_index_units
        * write_unit,
        "DynamoDB other writes": counted.write_units * write_unit,
        "DynamoDB reads": counted.read_units * prices["dynamodb_read_request_unit"],
        "SQS requests": counted.sqs * prices["sqs_request"],
        "CloudWatch Logs (measured)": counted.logs.total_bytes()
        / 1e9
        * prices["cloudwatch_logs_ingest_gb"],
    }


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
        "log_bytes": t.logs.total_bytes() / per,
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
    """bench/prices.json's prices, by name (USD)."""
    data = json.loads(PRICES.read_text(encoding="utf-8"))
    return {name: float(entry["usd"]) for name, entry in data["prices"].items()}
