"""What the reference game costs (issue 40), counted on the local stack beside today's stress
game: an 11-hand Harftet game with two people who play like ``medium`` (bench/cost_reference.py),
two ``medium`` computer players and two spectators, pings (the clients' own rule) and
connection-minutes counted; priced at bench/prices.json's list prices (Lambda requests and
GB-s at template.yaml's memory, DynamoDB on-demand units — stream reads by Lambda are free —,
API Gateway WebSocket messages in 32 KB units and connection-minutes, REST requests, SQS).

Every AWS call of the stack's processes is counted (bench/cost_calls.py, as bench_cost.py);
the stress game is bench_cost.py's own (two people who only draw, two easy computer players).

Run: ``.venv/bin/python -m bench.bench_cost_reference`` (10–20 minutes); ``--hands 1 --dry``
for a quick look that writes nothing. Writes its own RESULTS.md section and the ``reference``
(and the stress game's ``harftet``) figures of bench/cost_counts.json for bench/scale_model.py.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import time
from typing import Any

from bench import ROOT, Result, put_section, report
from bench.bench_cost import counted_stack
from bench.cost_games import Game, play
from bench.cost_reference import OLD_PING_SECONDS, QUIET, Pings, Reader, play_reference
from bench.cost_report import TARGET_PER_GAME, TARGET_PER_MILLION
from bench.cost_tally import (
    BOT_TURN_SECONDS,
    HUMAN_TURN_SECONDS,
    PRICES,
    Tally,
    load_prices,
    log_config,
    rates,
    records,
    tally,
)

COUNTS = ROOT / "bench" / "cost_counts.json"
SECTION = "## Issue 40: the reference game's cost (bench/bench_cost_reference.py)"
CELL_TARGET = 40_000.0  # tables a cell carries before its first quota binds (issue 40)
MEMORY_MB = 512  # what cost_tally prices Lambda's GB-s at; checked against template.yaml
# Scheduled functions run per cell whatever its games do (like the sweeper, which the tally
# already leaves out): not a game's cost.
SCHEDULED = ("matcher", "league", "synthetic", "keys", "tournament")


def per_game(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records a game made: the scheduled functions' calls and invocations left out."""
    return [r for r in records if not any(s in r.get("fn", "").lower() for s in SCHEDULED)]


def template_memory() -> int:
    from harftet.store.schema import load_template

    glob = load_template(ROOT / "template.yaml")["Globals"]["Function"]
    return int(glob["MemorySize"])


def measure(limit: float, hands: int | None, stress: bool) -> dict[str, Any]:
    """A counted local stack; the reference game, then (``stress``) the stress game."""
    logging = log_config()  # what the stack's handlers log with (counted_stack)
    with counted_stack("harftet-cost-ref-") as (stack, calls):
        tables_table = stack.env["TABLES_TABLE"]
        reference = Game("harftet", hands or 11)
        pings = Pings()
        reader = Reader(stack.dynamodb_endpoint, tables_table)
        asyncio.run(
            play_reference(stack.base_url, stack.ws_url, reader, reference, 4000, limit, pings)
        )
        games = {"reference": reference}
        if stress:
            games["stress"] = Game("harftet", hands or 11)
            asyncio.run(play(stack.base_url, stack.ws_url, games["stress"], 1000, limit))
        time.sleep(1.0)
        counted = records(calls)
        events = {
            name: reader.events(stack.env["LOG_TABLE"], game.table_id)
            for name, game in games.items()
        }
    return {
        "games": games,
        "pings": pings,
        "records": counted,
        "tables_table": tables_table,
        "events": events,
        "logging": logging,
    }


def minutes(game: Game, t: Tally) -> float:
    """The game's length as people play it (cost_tally's model): a person's move 15 s, a
    computer player's 1 s."""
    c = game.client
    human = c.human_moves * HUMAN_TURN_SECONDS
    return (human + max(0, t.changes - c.human_moves) * BOT_TURN_SECONDS) / 60


def old_pings_usd(game: Game, t: Tally, prices: dict[str, float]) -> tuple[float, float]:
    """What the clients' former 25 s pings would have added: (pings, USD) — each a message
    in, a pong out, a Lambda request and its log lines (a WebSocket invocation's, measured)."""
    pings = game.client.connections * minutes(game, t) * 60 / OLD_PING_SECONDS
    app, platform, _ = t.logs.per_invocation("ws")
    each = (
        2 * prices["apigw_ws_message"]
        + prices["lambda_request"]
        + (app + platform) / 1e9 * prices["cloudwatch_logs_ingest_gb"]
    )
    return pings, pings * each


def rows_and_notes(measured: dict[str, Any]) -> tuple[list[Result], list[str], dict[str, Any]]:
    prices = load_prices()
    rows: list[Result] = []
    notes: list[str] = []
    counts: dict[str, Any] = {}
    pings: Pings = measured["pings"]
    for name, game in measured["games"].items():
        records = per_game(measured["records"])
        t = tally(game, records, prices, measured["tables_table"], measured["logging"])
        total = sum(t.usd.values())
        per_million = total / max(1, t.changes) * 1e6
        state = "" if game.finished else " (NOT finished within the time limit: partial)"
        label = "reference game" if name == "reference" else "stress game"
        _, old_usd = old_pings_usd(game, t, prices)
        counts[name] = {
            **rates(game, t),
            **{f"ws_{a}": n / max(1, t.changes) for a, n in game.client.actions.items()},
            "minutes": minutes(game, t),
        }
        sent = dict(game.client.actions)
        rows.append(
            Result(
                name=f"issue 40: {label}, USD per million stored changes, pings counted",
                value=per_million,
                unit="USD",
                detail=f"${per_million:.2f}; {t.changes} changes; client messages {sent}; "
                f"with the former 25 s pings ${(total + old_usd) / max(1, t.changes) * 1e6:.2f}"
                f"{state}",
                baseline_name="target",
                baseline=TARGET_PER_MILLION,
                goal=1.0 if name == "reference" else None,
            )
        )
        if name == "reference":
            rows.append(
                Result(
                    name="issue 40: reference game (11-hand Harftet, 2 people like medium, "
                    "2 computer players, 2 spectators), USD ×10⁴",
                    value=total * 1e4,
                    unit="",
                    detail=f"${total:.6f}; with the former 25 s pings ${total + old_usd:.6f}"
                    f"{state}",
                    baseline_name="target ×10⁴",
                    baseline=TARGET_PER_GAME * 1e4,
                    goal=1.0,
                )
            )
        notes += _notes(label, game, t, prices)
        if name == "reference":
            notes.append(_floor_note(game, t, prices, measured["events"][name]))
        notes.append(_answers_note(label, game, measured["records"]))
        notes.append(_writes_note(label, game, measured["records"], t.changes))
        kinds = measured["events"][name]
        notes.append(
            f"{label}, logged events by type (seats 0–1 people, 2–3 computer players): "
            + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
        )
    rows.append(quota_row(counts["reference"]))
    notes.append(
        f"Pings, counted by the clients' rule (a ping only after {QUIET / 60:.0f} minutes "
        f"without a message either way): {pings.sent} sent, {pings.pongs} pongs; the longest "
        f"silence any socket saw was {pings.longest_silence:.1f} s on this machine (a person's "
        "turn is at most the table's turnSeconds, 45 s by default, so a live game pings never)."
    )
    return rows, notes, counts


def _notes(label: str, game: Game, t: Tally, prices: dict[str, float]) -> list[str]:
    per = max(1, t.changes)
    c = game.client
    old, old_usd = old_pings_usd(game, t, prices)
    total = sum(t.usd.values())
    calls = "; ".join(
        f"{fn} {svc} {op} {n / per:.2f}" for (fn, svc, op), n in sorted(t.by_function.items())
    )
    invocations = ", ".join(f"{fn.split('-')[-1]} {n}" for fn, n in sorted(t.invocations.items()))
    return [
        f"**{label}**: {t.changes} stored changes, {c.human_moves} people's moves on their "
        f"sockets, {c.rest} REST requests, {c.pushes} pushes ({c.push_units} 32 KB units), "
        f"{c.ws_sent} client messages {dict(c.actions)}, messages in "
        f"{dict(sorted(c.received.items()))}, {c.connections} connections for "
        f"{minutes(game, t):.1f} modelled minutes each; {game.ended - game.started:.0f} s on "
        f"this machine; ${total:.6f} a game, ${total / per * 1e6:.2f} per million changes. "
        f"The former 25 s pings would have been {old:.0f} more pings, +${old_usd:.6f} "
        f"(+{old_usd / max(total, 1e-12) * 100:.0f} %).",
        f"{label}, $ per million changes by item: "
        + "; ".join(
            f"{k} {v / per * 1e6:.2f}" for k, v in sorted(t.usd.items(), key=lambda kv: -kv[1])
        ),
        f"{label}, calls per stored change by function: {calls}; Lambda invocations: "
        f"{invocations}.",
        f"{label}, CloudWatch Logs per invocation by function, measured (the handler's own "
        f"lines — JSON logs and EMF metrics — + Lambda's platform lines at "
        f"{t.logs.config.describe()}): {t.logs.by_function()}; "
        f"{t.logs.total_bytes():,} bytes in the game, {t.logs.total_bytes() / per:.0f} a change"
        f"{_debugging_logs(t, prices)}.",
    ]


def _debugging_logs(t: Tally, prices: dict[str, float]) -> str:
    """What the same invocations would log with START and REPORT back (SystemLogLevel INFO,
    docs/DEPLOY.md "Logs"), when they are off."""
    config = t.logs.config
    if config.log_format != "JSON" or config.system_level != "WARN":
        return ""
    on = dataclasses.replace(t.logs, config=dataclasses.replace(config, system_level="INFO"))
    usd = on.total_bytes() / 1e9 * prices["cloudwatch_logs_ingest_gb"] / max(1, t.changes)
    start, report = (len(line.encode()) for line in on.config.platform_lines())
    return (
        f"; with SystemLogLevel INFO (a START line of {start} B and a REPORT of {report} B an "
        f"invocation) it would be {on.total_bytes():,} bytes, ${usd * 1e6:.2f} per million changes"
    )


def quota_row(counted: dict[str, Any]) -> Result:
    """The cell's size from the reference game's counts (bench/scale_model.py: half of the
    first quota to bind once every quota and route throttle is raised; pings counted) against
    the 40,000 tables a cell must carry."""
    from bench import scale_model

    c = {k: float(v) for k, v in counted.items()}
    first, at = scale_model.first_raised(c)
    before = scale_model.former_default_route(c)
    return Result(
        name="issue 40: a cell's tables (first quota, pings counted, route throttles raised)",
        value=CELL_TARGET,
        unit="tables",
        detail=f"target; the first to bind: {first.name} at {at:,.0f} tables, cell "
        f"{scale_model.HEADROOM * at:,.0f}; before, the one $default route with 25 s pings "
        f"bound at {before:,.0f} (default 50/s) and {before * 100:,.0f} (5,000/s)",
        baseline_name="cell size (half the first bind)",
        baseline=scale_model.HEADROOM * at,
        goal=1.0,
    )


def _floor_note(game: Game, t: Tally, prices: dict[str, float], kinds: Any) -> str:
    """What the reference game costs at the least on API Gateway WebSocket, whatever else is
    cut: a message for each push its sockets got and for each move its people sent."""
    c = game.client
    least = (c.push_units + c.ws_sent) * prices["apigw_ws_message"]
    turns = sum(n for kind, n in kinds.items() if kind.split()[0] in ("draw", "pass"))
    spectators = c.received["spectator push"]
    shown = c.received["spectator versions pushed"]
    return (
        f"**The per-game target's floor**: this game's {c.push_units} pushes and {c.ws_sent} "
        f"people's messages at ${prices['apigw_ws_message'] * 1e6:.2f} per million WebSocket "
        f"messages cost ${least:.6f} alone, {least / TARGET_PER_GAME:.2f}× the $0.0015 target "
        f"({(c.push_units + c.ws_sent) / max(1, t.changes):.2f} messages a change: a person "
        f"gets one per version — their own move's answer or a push —, and spectators one per "
        f"group of versions while computer players move: {spectators} messages carried "
        f"{shown} versions). {t.changes} changes for {turns} turns (a draw or a pass ends "
        "one): a stored change is about one turn (lay and pass one change, a draw one). Lambda "
        "duration is this machine's handler time under its load (see the load average "
        "above): on Lambda's arm64 it is lower."
    )


def _answers_note(label: str, game: Game, recorded: list[dict[str, Any]]) -> str:
    """What keeping each move's first answer (harftet.store.answers) wrote in the game."""
    puts = [
        r
        for r in recorded
        if r.get("k") == "call"
        and game.started <= r["t"] <= game.ended
        and r.get("op") == "PutItem"
        and "mail" in str(r.get("table", "")).lower()
        and r.get("fn", "").split("-")[-1].lower() in ("ws", "rest")
    ]
    units = sum(float(r.get("wru", 0)) for r in puts)
    return (
        f"{label}, each move's kept first answer (its retries' answer, 24 h): {len(puts)} "
        f"PutItem, {units:.0f} write units ({units / max(1, len(puts)):.2f} each)."
    )


def _writes_note(label: str, game: Game, recorded: list[dict[str, Any]], changes: int) -> str:
    """The write units of the game's DynamoDB calls per stored change, by function, operation
    and table (the tables table's own writes, sized from its versions, are the item line), and
    the timer messages sent: what the per-change writes are made of."""
    units: dict[tuple[str, str, str], float] = {}
    sends: dict[str, int] = {}
    for r in recorded:
        if r.get("k") != "call" or not game.started <= r["t"] <= game.ended:
            continue
        fn = r.get("fn", "").split("-")[-1].lower().removesuffix("function")
        if r.get("svc") == "sqs" and r.get("op") == "SendMessage":
            sends[fn] = sends.get(fn, 0) + 1
        if r.get("svc") != "dynamodb" or not r.get("wru") or "weeper" in fn:
            continue
        table = str(r.get("table", "")).split(",")[0].split("-")[-1].lower() or "?"
        key = (fn, str(r["op"]), table)
        units[key] = units.get(key, 0.0) + float(r["wru"])
    per = max(1, changes)
    parts = "; ".join(f"{f} {o} {tb} {u / per:.2f}" for (f, o, tb), u in sorted(units.items()))
    sent = ", ".join(f"{f} {n / per:.2f}" for f, n in sorted(sends.items()))
    return (
        f"{label}, DynamoDB write units per stored change by function, operation and table: "
        f"{parts}; timer messages sent per change: {sent or 'none'}."
    )


def write_counts(counts: dict[str, Any]) -> None:
    """Put this run's reference game into bench/cost_counts.json as ``reference`` (numbers
    only: bench/scale_model.py reads them); the stress games' figures stay as bench_cost.py
    wrote them."""
    data = json.loads(COUNTS.read_text(encoding="utf-8"))
    data["reference"] = counts["reference"]
    COUNTS.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def write_section(rows: list[Result], notes: list[str]) -> None:
    import platform
    from datetime import UTC, datetime

    price_date = json.loads(PRICES.read_text(encoding="utf-8"))["date"]
    when = f"{datetime.now(UTC):%Y-%m-%d %H:%M}"
    intro = (
        f"Run alone (`python -m bench.bench_cost_reference`) on {when} UTC, "
        f"{platform.system()} {platform.machine()}, nproc {os.cpu_count()}, load "
        f"average at the end {report.load_average()}; prices of {price_date} (bench/prices.json), "
        f"Lambda at template.yaml's {template_memory()} MB arm64. Targets are the baselines: "
        "the ratio must be ≤ 1."
    )
    put_section(ROOT / "bench" / "RESULTS.md", SECTION, report.section(SECTION, intro, rows, notes))


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, help="hands a game (a quick look; default 11)")
    parser.add_argument("--no-stress", action="store_true", help="the reference game only")
    parser.add_argument("--dry", action="store_true", help="print only: write nothing")
    parser.add_argument("--limit", type=float, default=1500.0, help="seconds a game at most")
    args = parser.parse_args()
    assert template_memory() == MEMORY_MB, "cost_tally prices Lambda at 512 MB: update it"
    measured = measure(args.limit, args.hands, not args.no_stress)
    rows, notes, counts = rows_and_notes(measured)
    for row in rows:
        print(f"{row.name}: {row.value:.2f} {row.unit} ({row.detail}) → {row.passed}")
    print("\n".join(notes))
    if not args.dry:
        write_section(rows, notes)
        write_counts(counts)


if __name__ == "__main__":
    main()
