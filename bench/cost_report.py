"""What bench/bench_cost.py reports of a game it priced: its rows of RESULTS.md's goal table,
its notes, and docs/DEPLOY.md's cost table (between its bench-cost markers)."""

from __future__ import annotations

import statistics
import time
from collections import Counter, defaultdict

from bench import ROOT, Result, percentile
from bench.cost_games import Game
from bench.cost_tally import Tally

TARGET_PER_MILLION = 10.0  # USD per million stored changes
TARGET_PER_GAME = 0.0015  # USD per 11-hand Harftet game with two spectators
PUSH_P99_TARGET = 2048  # bytes, as bench/bench_push.py
ITEM_TYPICAL = 1024
ITEM_WORST = 2048
DEPLOY = ROOT / "docs" / "DEPLOY.md"
DEPLOY_BEGIN = "<!-- bench-cost:begin -->"
DEPLOY_END = "<!-- bench-cost:end -->"


def _fmt_usd(value: float) -> str:
    return f"${value:.6f}" if value < 0.01 else f"${value:.4f}"


def _totals(game: Game, t: Tally) -> tuple[float, float, str]:
    """The game's cost (USD), per million stored changes, and a note when it did not finish."""
    total = sum(t.usd.values())
    per_million = total / max(1, t.changes) * 1e6
    state = "" if game.finished else " (NOT finished within the time limit: partial)"
    return total, per_million, state


def game_rows(game: Game, t: Tally) -> list[Result]:
    """A game's rows: what it cost, the size of its pushes and of its table item."""
    return [*_cost_rows(game, t), *_size_rows(game, t)]


def _cost_rows(game: Game, t: Tally) -> list[Result]:
    total, per_million, state = _totals(game, t)
    rows = [
        Result(
            name=f"cost: {game.kind} game, USD per million stored changes",
            value=per_million,
            unit="USD",
            detail=f"${per_million:.2f}; {t.changes} changes{state}",
            baseline_name="target",
            baseline=TARGET_PER_MILLION,
            goal=1.0,
        )
    ]
    if game.kind == "harftet":
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
    return rows


def _size_rows(game: Game, t: Tally) -> list[Result]:
    pushed = game.client.push_sizes or [0]
    typical = statistics.median(t.playing_sizes or t.item_sizes or [0])
    worst = max(t.item_sizes or [0])
    return [
        Result(
            name=f"push size on the local stack: {game.kind}, p99",
            value=percentile(pushed, 0.99),
            unit="B",
            detail=f"median {statistics.median(pushed):.0f} B, largest {max(pushed)} B; "
            f"{len(game.client.push_sizes)} pushes, {game.client.deltas} of them deltas",
            baseline_name="target",
            baseline=PUSH_P99_TARGET,
            goal=1.0,
        ),
        Result(
            name=f"table item: {game.kind}, median size while playing",
            value=typical,
            unit="B",
            detail=f"p99 {percentile(t.item_sizes, 0.99) if t.item_sizes else 0} B",
            baseline_name="one write unit",
            baseline=ITEM_TYPICAL,
            goal=1.0,
        ),
        Result(
            name=f"table item: {game.kind}, largest version",
            value=worst,
            unit="B",
            baseline_name="two write units",
            baseline=ITEM_WORST,
            goal=1.0,
        ),
    ]


def game_notes(game: Game, t: Tally, prices: dict[str, float]) -> list[str]:
    """A game's notes: what it cost and by what, its calls, its table item."""
    return [*_cost_notes(game, t, prices), *_call_notes(t, game), _item_note(game, t)]


def _cost_notes(game: Game, t: Tally, prices: dict[str, float]) -> list[str]:
    total, per_million, state = _totals(game, t)
    notes = []
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
    label = f"{game.kind}, {game.hands} hands, 2 people + 2 computer players, 2 spectators"
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
    return notes


def _call_notes(t: Tally, game: Game) -> list[str]:
    """The calls per stored change: by service, by operation, by function; timer messages."""
    by_service: Counter[str] = Counter()
    for (svc, _), n in t.calls.items():
        by_service[svc] += n
    client = game.client
    by_service["apigateway (REST requests)"] += client.rest
    by_service["apigateway (WebSocket messages)"] += client.push_units + client.ws_sent
    by_service["lambda (invocations)"] += sum(t.invocations.values())
    per = max(1, t.changes)
    ops = defaultdict(list)
    for (svc, op), n in sorted(t.calls.items()):
        ops[svc].append(f"{op} {n / per:.2f}")
    functions_calls: dict[str, list[str]] = defaultdict(list)
    for (fn, svc, op), n in sorted(t.by_function.items()):
        functions_calls[fn].append(f"{svc} {op} {n / per:.2f}")
    sent = sum(n for (fn, svc, op), n in t.by_function.items() if op == "SendMessage")
    return [
        "Calls per stored change by service: "
        + "; ".join(f"{svc} {n / per:.2f}" for svc, n in sorted(by_service.items())),
        "Per stored change, by operation: "
        + "; ".join(f"{svc}: {', '.join(v)}" for svc, v in ops.items()),
        "Per stored change, by function: "
        + "; ".join(f"{fn}: {', '.join(v)}" for fn, v in functions_calls.items()),
        f"Timer messages: {sent} sent ({sent / per:.2f} per change) for {t.deadlines_set} "
        f"versions that set a new deadline out of {t.changes}; a version that keeps its "
        "deadline sends none (a re-queued early timer is a send too).",
    ]


def _item_note(game: Game, t: Tally) -> str:
    """The table item's sizes and writes, the pushes, the requests, the invocations."""
    typical = statistics.median(t.playing_sizes or t.item_sizes or [0])
    worst = max(t.item_sizes or [0])
    per = max(1, t.changes)
    client = game.client
    functions = ", ".join(
        f"{fn.split('-')[-1] if '-' in fn else fn} {n}" for fn, n in sorted(t.invocations.items())
    )
    return (
        f"Tables item: median {typical:.0f} B while playing, largest {worst} B; "
        f"{t.table_wru / per:.2f} write units and {t.index_units / per:.2f} index write units "
        f"per change; pushes: {client.pushes} "
        f"({client.push_bytes / max(1, client.pushes):.0f} B mean); REST: {client.rest} "
        f"requests, statuses {dict(client.statuses)}; Lambda invocations: {functions}. "
        f"The sweeper (apart: once a minute in AWS) makes {t.sweeper_calls_per_run:.1f} "
        "AWS calls a run."
    )


def timers_row(late: list[float]) -> Result:
    """How late the timers forced the moves (the latest of them)."""
    return Result(
        name="timers: forced move after its deadline (sweeper off the path)",
        value=max(late) * 1000,
        unit="ms",
        detail=f"{len(late)} timeouts, median {statistics.median(late) * 1000:.0f} ms",
        baseline_name="2 s",
        baseline=2000.0,
        goal=1.0,
    )


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
