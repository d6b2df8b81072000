"""Kastet's computer players as people (RULES §4a, issue 37): seeded one-hand, 4-seat games.

Run: ``nice -n 10 .venv/bin/python -m bench.bench_levels_kastet [--games N] [--workers W]
[--out FILE] [--also FILE] [--shard k/n] [--summary] [--write]`` (one command; every hand
is a JSON line in ``--out`` as it finishes, so a run cut short keeps what it played and a
second run resumes; ``--write`` puts the section into bench/RESULTS.md).

Cells, each over seeds ``1..N`` (the deal is ``bench_strength.new_hand("kastet", seed)``; in
a ladder cell the stronger seat is ``seed % 4``, so it rotates through the four seats):

- four players of one level: the share of hands that end by a player finishing (goal ≥ 90 %
  at easy and medium), the turns and rounds a hand lasts (four hard and four expert players
  on the first ``--extra`` seeds, 100 by default: reported, no goal);
- the ladder: each level against three of the level below — the share of hands where the
  stronger seat alone has the lowest penalty (goal ≥ 55 %);
- in every cell, at every draw (and pass without a lay) of a seat: whether that level could
  have laid by its own rules (``Person.exactly()``: the same looks without work budgets) —
  goal ≤ 1 % of draws per level;
- every decision's CPU time, by level and by the size of the series area; and each level's
  decision on a 22-tile hand against seeded tables of 8, 14, 20 and 26 melds
  (``bench_search_kastet.worst_case``) — goal p99 ≤ 250 ms at every level and size.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor

from bench import ROOT, Result, jsonl_rows, jsonl_sink, percentile, put_section
from bench.bench_search_kastet import worst_case
from bench.bench_strength import new_hand
from bench.report import section
from harftet.engine.bots.kastet import PEOPLE, Person, move_of
from harftet.engine.hand import apply_move
from harftet.engine.moves import Lay
from harftet.engine.state import Table

GAMES = 400
EXTRA = 100  # seeded deals of the four-hard and four-expert tables (reported, no goal)
LEVELS = ("easy", "medium", "hard", "expert")
LADDER = (("medium", "easy"), ("hard", "medium"), ("expert", "hard"))
FINISH_GOAL = {"easy": 90.0, "medium": 90.0}
LADDER_GOAL = 55.0
MISSED_GOAL = 1.0
P99_GOAL = 250.0  # ms
SIZES = (8, 14, 20, 26)  # series melds of the seeded full-table positions
POSITIONS = 40  # per size
BUCKETS = ((0, 8), (9, 16), (17, 26))  # series melds, for the in-game decision times
HEADING = "## Kastet computer players as people (bench/bench_levels_kastet.py)"

Task = tuple[str, str, int]  # strong level, weak level, seed
EXACT = {level: person.exactly() for level, person in PEOPLE.items()}


def _could_lay(person: Person, table: Table, seat: int) -> bool:
    return person.turn(table, seat).lay(table, seat) is not None


def play(strong: str, weak: str, seed: int) -> dict[str, object]:
    """One seeded hand with ``strong`` at seat ``seed % 4`` and ``weak`` at the others."""
    started = time.process_time()
    table = new_hand("kastet", seed)
    strong_seat = seed % 4
    levels = [strong if i == strong_seat else weak for i in range(4)]
    draws = [0] * 4
    missed = [0] * 4
    times: list[list[float]] = [[] for _ in range(4)]  # [melds, ms] per decision
    turns, last, moves = 0, None, 0
    while table.status == "playing":
        seat = table.turn_seat
        assert seat is not None
        if seat != last:
            turns, last = turns + 1, seat
        began = time.process_time()
        move = move_of(PEOPLE[levels[seat]], table, seat)
        times[seat].append([len(table.series), (time.process_time() - began) * 1000])
        if not isinstance(move, Lay) and not table.laid:
            draws[seat] += 1
            missed[seat] += _could_lay(EXACT[levels[seat]], table, seat)
        table = apply_move(table, seat, move, float(moves)).table
        moves += 1
        if moves > 5000:
            raise RuntimeError(f"seed {seed}: the hand does not end")
    (result,) = table.hand_results
    penalties = list(result.penalties)
    low = min(penalties)
    return {
        "strong": strong,
        "weak": weak,
        "seed": seed,
        "strong_seat": strong_seat,
        "levels": levels,
        "penalties": penalties,
        "strong_lowest": penalties[strong_seat] == low and penalties.count(low) == 1,
        "finisher": result.finisher,
        "turns": turns,
        "draws": draws,
        "missed": missed,
        "times": times,
        "cpu_s": round(time.process_time() - started, 3),
    }


def _task(task: Task) -> dict[str, object]:
    return play(*task)


def tasks(games: int, extra: int = EXTRA) -> list[Task]:
    """Seed by seed, so that a run cut short has every cell on the same seeds: the cells with
    a goal on ``games`` seeds, four hard and four expert players on the first ``extra``."""
    cells = [(level, level) for level in LEVELS[:2]] + list(LADDER)
    more = [(level, level) for level in LEVELS[2:]]
    return [
        (s, w, seed)
        for seed in range(1, max(games, extra) + 1)
        for s, w in [*(cells if seed <= games else []), *(more if seed <= extra else [])]
    ]


def _span(outs: list[dict[str, object]]) -> str:
    seeds = sorted(int(str(o["seed"])) for o in outs)
    whole = seeds == list(range(seeds[0], seeds[-1] + 1))
    return f"seeds {seeds[0]}–{seeds[-1]}" if whole else f"{len(seeds)} seeds"


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def _table_rows(level: str, outs: list[dict[str, object]]) -> tuple[list[Result], str]:
    n, span = len(outs), _span(outs)
    finished = 100 * sum(o["finisher"] is not None for o in outs) / n
    turns = [int(str(o["turns"])) for o in outs]
    rounds = statistics.median(turns) / 4
    goal = FINISH_GOAL.get(level)
    detail = f"{n} deals, {span}; median {statistics.median(turns):.0f} turns ({rounds:.1f} rounds)"
    if goal is not None:
        detail += f"; goal ≥ {goal:.0f} % {_verdict(finished >= goal)}"
    row = Result(f"Kastet 4 × {level}: hands ended by a player finishing", finished, "%", detail)
    note = (
        f"kastet 4 × {level}: {n} deals ({span}); finished {finished:.1f} %, "
        f"{statistics.mean(turns):.1f} turns a hand (median {statistics.median(turns):.0f}, "
        f"{rounds:.1f} rounds); {statistics.mean(float(str(o['cpu_s'])) for o in outs):.2f} s "
        "CPU a hand (the exact checks included)"
    )
    return [row], note


def _ladder_row(strong: str, weak: str, outs: list[dict[str, object]]) -> tuple[Result, str]:
    n, span = len(outs), _span(outs)
    share = 100 * sum(bool(o["strong_lowest"]) for o in outs) / n
    detail = f"{n} hands, {span}, seat rotating; goal ≥ {LADDER_GOAL:.0f} % "
    detail += _verdict(share >= LADDER_GOAL)
    pen = statistics.mean(
        list(o["penalties"])[int(str(o["strong_seat"]))]  # type: ignore[call-overload]
        for o in outs
    )
    note = (
        f"kastet {strong} vs 3 × {weak}: strictly lowest in {share:.1f} % of {n} hands "
        f"({span}); mean penalty of the {strong} seat {pen:.1f}"
    )
    return Result(f"Kastet ladder: {strong} vs 3 × {weak}", share, "%", detail), note


def _per_level(outcomes: list[dict[str, object]]) -> dict[str, dict[str, list[float]]]:
    """Per level: draws, missed (counts) and decision times by size bucket."""
    out: dict[str, dict[str, list[float]]] = {}
    for o in outcomes:
        for seat, level in enumerate(list(o["levels"])):  # type: ignore[call-overload]
            d = out.setdefault(level, {"draws": [0], "missed": [0]})
            d["draws"][0] += list(o["draws"])[seat]  # type: ignore[call-overload]
            d["missed"][0] += list(o["missed"])[seat]  # type: ignore[call-overload]
            for melds, ms in list(o["times"])[seat]:  # type: ignore[call-overload]
                lo, hi = next(b for b in BUCKETS if b[0] <= melds <= b[1])
                d.setdefault(f"{lo}–{hi}", []).append(ms)
    return out


def _level_rows(outcomes: list[dict[str, object]]) -> tuple[list[Result], list[str]]:
    rows, notes = [], []
    for level, d in sorted(_per_level(outcomes).items(), key=lambda kv: LEVELS.index(kv[0])):
        draws, missed = int(d["draws"][0]), int(d["missed"][0])
        share = 100 * missed / max(draws, 1)
        rows.append(
            Result(
                f"Kastet {level}: draws and passes with a lay of its own rules in reach",
                share,
                "%",
                f"{missed} of {draws} over every cell; goal ≤ {MISSED_GOAL:.0f} % "
                + _verdict(share <= MISSED_GOAL),
            )
        )
        for bucket in (f"{lo}–{hi}" for lo, hi in BUCKETS):
            ms = d.get(bucket, [])
            if ms:
                p99 = percentile(ms, 0.99)
                notes.append(
                    f"kastet {level} in play, {bucket} table melds: {len(ms)} decisions, CPU "
                    f"median {statistics.median(ms):.1f} ms, p99 {p99:.0f} ms, max "
                    f"{max(ms):.0f} ms (goal p99 ≤ {P99_GOAL:.0f} ms {_verdict(p99 <= P99_GOAL)})"
                )
    return rows, notes


def summarise(outcomes: list[dict[str, object]]) -> tuple[list[Result], list[str]]:
    """Rows with PASS/MISS and notes (counts, seeds, CPU)."""
    groups: dict[tuple[str, str], list[dict[str, object]]] = {}
    for o in outcomes:
        groups.setdefault((str(o["strong"]), str(o["weak"])), []).append(o)
    rows: list[Result] = []
    notes: list[str] = []
    for level in LEVELS:
        if (level, level) in groups:
            more, note = _table_rows(level, groups[(level, level)])
            rows += more
            notes.append(note)
    for strong, weak in LADDER:
        if (strong, weak) in groups:
            row, note = _ladder_row(strong, weak, groups[(strong, weak)])
            rows.append(row)
            notes.append(note)
    more_rows, more_notes = _level_rows(outcomes)
    return rows + more_rows, notes + more_notes


def decisions(positions: int = POSITIONS) -> list[Result]:
    """Each level's decision (CPU ms) on a 22-tile hand against seeded tables of each size."""
    rows = []
    for size in SIZES:
        tables = [worst_case(seed, size) for seed in range(positions)]
        for level in LEVELS:
            ms = []
            for table in tables:
                began = time.process_time()
                move_of(PEOPLE[level], table, 0)
                ms.append((time.process_time() - began) * 1000)
            p99 = percentile(ms, 0.99)
            rows.append(
                Result(
                    f"Kastet {level} decision: 22-tile hand, {size}-meld table (p99)",
                    p99,
                    "ms",
                    f"CPU; median {statistics.median(ms):.1f} ms, max {max(ms):.0f} ms, "
                    f"{positions} positions (seeds 0–{positions - 1}); goal p99 ≤ "
                    f"{P99_GOAL:.0f} ms {_verdict(p99 <= P99_GOAL)}",
                )
            )
    return rows


def _read(paths: Iterable[str]) -> list[dict[str, object]]:
    found = {(o["strong"], o["weak"], o["seed"]): o for o in jsonl_rows(paths)}
    return list(found.values())


def run(
    games: int = GAMES,
    workers: int = 1,
    out: str | None = None,
    also: tuple[str, ...] = (),
    shard: tuple[int, int] = (0, 1),
    extra: int = EXTRA,
) -> tuple[list[Result], list[str]]:
    """Play what is not in ``out`` or ``also`` yet (resume; ``shard`` (k, n): only the seeds
    s with s % n == k) and summarise all."""
    done = _read([out, *also] if out else also)
    have = {(o["strong"], o["weak"], o["seed"]) for o in done}
    todo = [t for t in tasks(games, extra) if t[2] % shard[1] == shard[0] and t not in have]
    with jsonl_sink(out) as keep, ProcessPoolExecutor(max_workers=min(workers, 2)) as pool:
        for outcome in pool.map(_task, todo, chunksize=2):
            done.append(outcome)
            keep(outcome)
    return summarise(done)


INTRO = (
    "Issue 37's Kastet targets. Command: `nice -n 10 .venv/bin/python -m "
    "bench.bench_levels_kastet --games 400 --extra 100 --workers 2 --out "
    "/tmp/levels_kastet.jsonl --write`. "
    "Decision times are CPU time (`time.process_time`: the machine is shared). A draw is "
    "counted missed when the same level without its work budgets (`Person.exactly()`) would "
    "have laid."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="seeded deals per cell")
    parser.add_argument("--workers", type=int, default=1, help="processes (1 or 2)")
    parser.add_argument("--out", help="JSON lines of every hand (resumed if it exists)")
    parser.add_argument("--also", action="append", default=[], help="another shard's --out")
    parser.add_argument("--shard", default="0/1", help="k/n: only the seeds s with s %% n == k")
    parser.add_argument("--summary", action="store_true", help="only summarise --out")
    parser.add_argument("--extra", type=int, default=EXTRA, help="deals of 4 hard, 4 expert")
    parser.add_argument("--positions", type=int, default=POSITIONS, help="per table size")
    parser.add_argument("--write", action="store_true", help="put the section in RESULTS.md")
    args = parser.parse_args()
    if args.summary:
        rows, notes = summarise(_read([args.out, *args.also]))
    else:
        k, n = (int(x) for x in args.shard.split("/"))
        rows, notes = run(args.games, args.workers, args.out, tuple(args.also), (k, n), args.extra)
    rows += decisions(args.positions) if args.positions > 0 else []
    for r in rows:
        print(f"| {r.name} | {r.value:.1f} {r.unit} | {r.detail} |")
    for note in notes:
        print("-", note)
    if args.write:
        put_section(ROOT / "bench" / "RESULTS.md", HEADING, section(HEADING, INTRO, rows, notes))


if __name__ == "__main__":
    main()
