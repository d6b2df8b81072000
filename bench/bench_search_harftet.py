"""Harftet's search and computer players: decision time, and what the index adds to a cold start.

Run: ``.venv/bin/python -m bench.bench_search_harftet`` (part of ``make bench``).

- Decisions: ``bot.choose_move`` at each level on seeded positions of a 22-tile hand against a
  full 26-meld table (tests/unit/harftet_positions.py), beside the simple bot that was there
  before the search (``bot.simple_move``), on the same positions in the same run. Goals
  (issue 7): hard median ≤ 100 ms and p99 ≤ 500 ms; easy and medium ≤ 10 ms; expert, a person
  since issue 37, as hard.
- Cold start: in fresh interpreters, the dictionary load (the baseline) and then the index
  load; goal: the index adds ≤ 100 ms.
- Times are CPU time of the measuring process (``time.process_time``) with wall time beside
  them: 8 helpers share 2 cores here, and wall time then mostly measures the queue.
- Calibration: work units per millisecond of the search on this machine now (the search
  counts units, never time; ``UNITS_PER_MS`` is what it assumes).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from bench import ROOT, Result, percentile
from harftet.engine import bot
from harftet.engine.search import harftet as search
from harftet.engine.state import Table
from harftet.engine.words import default_words

sys.path.insert(0, str(ROOT / "tests" / "unit"))
from harftet_positions import random_position

POSITIONS = 60
RUNS = 9
SEED = 7


def positions(n: int = POSITIONS, seed: int = SEED) -> list[Table]:
    """``n`` seeded positions: a 22-tile hand against 26 series words (pairs among them)."""
    rng = random.Random(seed)
    words = default_words()
    out: list[Table] = []
    while len(out) < n:
        table = random_position(rng, words)
        if len(table.seats[0].hand) == 22 and len(table.series) == 26:
            out.append(table)
    return out


def _times(fn: Callable[[Table], object], tables: list[Table]) -> tuple[list[float], list[float]]:
    """Per position: CPU ms of this process (what the decision costs; other work sharing the
    CPUs does not count) and wall ms (what it took here, under whatever load there was)."""
    cpu, wall = [], []
    for table in tables:
        c, w = time.process_time(), time.perf_counter()
        fn(table)
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return cpu, wall


def decisions(tables: list[Table]) -> tuple[list[Result], list[str]]:
    """One row per level (median, p99) beside the simple bot on the same positions."""
    bot.choose_move(tables[0], 0, "hard")  # warm: dictionary, index, frequency ranking
    base, _ = _times(lambda t: bot.simple_move(t, 0), tables)
    rows, notes = [], []
    goals = {
        "easy": (10.0, None),
        "medium": (10.0, None),
        "hard": (100.0, 500.0),
        "expert": (100.0, 500.0),
    }
    for level, (median_goal, p99_goal) in goals.items():
        took, wall = _times(lambda t, lv=level: bot.choose_move(t, 0, lv), tables)  # type: ignore[misc]
        med, p99 = statistics.median(took), percentile(took, 0.99)
        rows.append(
            Result(
                name=f"Harftet {level} decision (CPU), 22 tiles vs 26 melds",
                value=med,
                unit="ms",
                detail=f"p99 {p99:.0f} ms; wall median {statistics.median(wall):.0f} ms",
                baseline_name="goal",
                baseline=median_goal,
                baseline_detail=f"simple bot {statistics.median(base):.2f} ms",
                goal=1.0,
            )
        )
        if p99_goal is not None:
            rows.append(
                Result(
                    name=f"Harftet {level} decision p99 (CPU)",
                    value=p99,
                    unit="ms",
                    baseline_name="goal",
                    baseline=p99_goal,
                    baseline_detail=f"simple bot p99 {percentile(base, 0.99):.2f} ms",
                    goal=1.0,
                )
            )
        notes.append(
            f"{level}: CPU median {med:.1f} ms, p90 {percentile(took, 0.9):.1f} ms, "
            f"p99 {p99:.1f} ms, max {max(took):.1f} ms; wall median "
            f"{statistics.median(wall):.1f} ms, p99 {percentile(wall, 0.99):.1f} ms"
        )
    notes.append(
        f"simple bot (before the search): median {statistics.median(base):.2f} ms, "
        f"max {max(base):.2f} ms"
    )
    sheds = [(search.best_lay(t, 0), bot.simple_move(t, 0)) for t in tables[:20]]
    found = sum(p.shed for p, _ in sheds if p is not None)
    notes.append(f"search (80 ms budget) sheds {found} hand value on the first 20 positions")
    return rows, notes


_COLD = """
import time
t0, c0 = time.perf_counter(), time.process_time()
from harftet.engine.words import default_words
default_words()
t1, c1 = time.perf_counter(), time.process_time()
from harftet.engine.words.index import for_words
for_words(default_words())
t2, c2 = time.perf_counter(), time.process_time()
print((t1 - t0) * 1000, (t2 - t1) * 1000, (c2 - c1) * 1000)
"""


def cold_start(runs: int = RUNS) -> Result:
    """What loading the index adds to a fresh interpreter, beside the dictionary load."""
    words, index, cpu = [], [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _COLD], check=True, capture_output=True, text=True
        ).stdout.split()
        words.append(float(out[0]))
        index.append(float(out[1]))
        cpu.append(float(out[2]))
    return Result(
        name="Harftet search index load (CPU), added to a cold start",
        value=statistics.median(cpu),
        unit="ms",
        detail=f"wall {statistics.median(index):.1f} ms; the dictionary load itself "
        f"{statistics.median(words):.1f} ms wall",
        baseline_name="goal",
        baseline=100.0,
        goal=1.0,
    )


def calibration(tables: list[Table]) -> str:
    """Work units per CPU ms the search achieves here (it assumes ``UNITS_PER_MS``)."""
    stats: dict[str, int] = {}
    units = 0
    start = time.process_time()
    for table in tables[:20]:
        search.best_lay(table, 0, stats=stats)
        units += stats["units"]
    ms = (time.process_time() - start) * 1000
    return (
        f"search speed here: {units / ms:.0f} work units per CPU ms "
        f"(the search assumes {search.UNITS_PER_MS}/ms)"
    )


def run() -> tuple[list[Result], list[str]]:
    """Every row and note of this benchmark."""
    tables = positions()
    rows, notes = decisions(tables)
    rows.append(cold_start())
    notes.append(calibration(tables))
    return rows, notes


def main() -> None:
    rows, notes = run()
    for r in rows:
        ratio = f"{r.ratio:.2f}×" if r.ratio is not None else "—"
        verdict = {True: "PASS", False: "MISS", None: "info"}[r.passed]
        print(f"{r.name}: {r.value:.2f} {r.unit} ({r.detail}) vs {r.baseline} → {ratio} {verdict}")
    for n in notes:
        print("-", n)


if __name__ == "__main__":
    main()
