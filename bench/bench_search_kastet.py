"""Kastet computer player decisions on the worst case: a 22-tile hand against a full
26-meld table, jokers on the table and in hand (stdlib only, like the engine).

Run: .venv/bin/python -m bench.bench_search_kastet
Rows: a ``hard`` decision (median, p99), ``medium`` and ``easy`` decisions, each beside the
naive baseline timed in the same run: the old hand-only lay of ``engine/bot.py``
(``_kastet_lay``). The issue's goals are absolute (hard: median ≤ 50 ms, p99 ≤ 250 ms;
easy/medium ≤ 10 ms) and are printed as such; the rows carry no ratio goal. Also printed:
how often the full search proved its lay best within its work budget.

Two rows for the exact search itself (``search.kastet.search``, the hint's search): the share
of decisions it proves best and its CPU time, on the full tables above and on every turn of
seeded 4-player hands between ``medium`` players (the positions a hint is asked about:
mid-game tables, blocked 22-tile hands), each beside the budgeted ladder alone
(``search.kastet._steps``, the search before the exact tree) on the same positions.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from bench import Result, median, percentile
from bench.bench_strength import new_hand
from harftet.engine.bot import _kastet_lay
from harftet.engine.bot import choose_move as any_move
from harftet.engine.bots.kastet import choose_move
from harftet.engine.hand import apply_move
from harftet.engine.search.kastet import _steps, search
from harftet.engine.state import Occupant, Placed, Seat, Table
from harftet.engine.tiles import COLORS, KASTET_TILES

POSITIONS = 40
GAME_HANDS = 4  # seeded hands whose every turn is a position for the exact-search row
GOALS = {"hard": (50.0, 250.0), "medium": (10.0, None), "easy": (10.0, None)}


def worst_case(seed: int, melds: int = 26) -> Table:
    """A 4-seat table in play: ``melds`` random runs and sets on the series area (one or two
    of them holding a joker), seat 0 in turn with 22 tiles (one joker on odd seeds)."""
    rng = random.Random(seed)
    faces = [(c, n) for c in range(4) for n in range(1, 14)]
    pool = {(c, n): [k * 52 + c * 13 + n - 1 for k in (0, 1)] for c, n in faces}
    for ids in pool.values():
        rng.shuffle(ids)
    while True:
        series: list[list[Placed]] = []
        left = {f: list(ids) for f, ids in pool.items()}
        for _ in range(4000):
            if len(series) == melds:
                break
            if rng.random() < 0.5:
                c, length = rng.randrange(4), rng.choice((3, 3, 4, 5))
                a = rng.randint(1, 14 - length)
                faces = [(c, n) for n in range(a, a + length)]
            else:
                n = rng.randint(1, 13)
                faces = [(c, n) for c in rng.sample(range(4), rng.choice((3, 4)))]
            if all(left[f] for f in faces):
                series.append([Placed(left[f].pop()) for f in faces])
        if len(series) == melds:
            break
    on_table = [105] if seed % 2 else [104, 105]
    for j in on_table:
        m = rng.choice(series)
        i = rng.randrange(len(m))
        if KASTET_TILES[m[i].id].joker:
            continue
        tile = KASTET_TILES[m[i].id]
        assert tile.number is not None
        left[(COLORS.index(tile.color), tile.number)].append(m[i].id)
        m[i] = Placed(j, (tile.color, tile.number))
    rest = [t for ids in left.values() for t in ids]
    rng.shuffle(rest)
    on_series = {p.id for m in series for p in m}
    hand = rest[:21] + ([104] if 104 not in on_series else rest[21:22])
    others = rest[22:]
    seats = [Seat(occupant=Occupant(f"p{i}", f"Oyuncu {i}")) for i in range(4)]
    seats[0].hand = hand
    for i in range(1, 4):
        seats[i].hand = others[(i - 1) :: 3]
    return Table(
        table_id="bench",
        game="kastet",
        seed=seed,
        manager="p0",
        status="playing",
        seats=seats,
        series=series,
        hand_number=1,
        turn_seat=0,
    )


def game_positions(hands: int = GAME_HANDS) -> list[Table]:
    """Every turn's table (the seat in turn to search) of ``hands`` seeded one-hand games
    between four ``medium`` players."""
    out: list[Table] = []
    for seed in range(1, hands + 1):
        table = new_hand("kastet", seed)
        moves = 0
        while table.status == "playing" and moves < 400:
            seat = table.turn_seat
            assert seat is not None
            if table.seats[seat].hand:
                out.append(table)
            table = apply_move(table, seat, any_move(table, seat, "medium"), float(moves)).table
            moves += 1
    return out


def _exact_rows(label: str, tables: list[Table]) -> list[Result]:
    """The exact search's proven share and CPU time on ``tables`` beside the ladder's."""
    cpu: list[float] = []
    ladder: list[float] = []
    proven = ladder_proven = 0
    for table in tables:
        seat = table.turn_seat
        assert seat is not None
        start = time.process_time()
        found = search(table, seat)
        cpu.append((time.process_time() - start) * 1000)
        proven += found.exact
        start = time.process_time()
        old = _steps(table, list(table.seats[seat].hand))
        ladder.append((time.process_time() - start) * 1000)
        ladder_proven += old.exact
    n = len(tables)
    return [
        Result(
            name=f"kastet exact search, proven best: {label}",
            value=100 * proven / n,
            unit="%",
            detail=f"{proven}/{n} decisions",
            baseline_name="budgeted ladder alone",
            baseline=100 * ladder_proven / n,
            baseline_detail=f"{ladder_proven}/{n}",
        ),
        Result(
            name=f"kastet exact search, CPU time: {label}",
            value=median(cpu),
            unit="ms",
            detail=(
                f"p90 {percentile(cpu, 0.9):.0f} ms, p99 {percentile(cpu, 0.99):.0f} ms, "
                f"max {max(cpu):.0f} ms; goal median ≤ 100 ms, p99 ≤ 1000 ms"
            ),
            baseline_name="budgeted ladder alone",
            baseline=median(ladder),
            baseline_detail=f"p99 {percentile(ladder, 0.99):.0f} ms",
        ),
    ]


def _time(fn: object, table: Table) -> float:
    start = time.perf_counter()
    fn(table)  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def run() -> list[Result]:
    """Time each level's decision and the baseline on the same positions, interleaved."""
    tables = [worst_case(seed) for seed in range(POSITIONS)]
    times: dict[str, list[float]] = {"hard": [], "medium": [], "easy": [], "baseline": []}
    exact = 0
    for table in tables:
        times["baseline"].append(_time(lambda t: _kastet_lay(t, t.seats[0].hand), table))
        for level in ("hard", "medium", "easy"):
            times[level].append(_time(lambda t, lv=level: choose_move(t, 0, lv), table))
        exact += search(table, 0).exact
    base = times["baseline"]
    rows = []
    for level in ("hard", "medium", "easy"):
        values = times[level]
        goal_median, goal_p99 = GOALS[level]
        verdict = "PASS" if median(values) <= goal_median else "MISS"
        detail = f"p99 {percentile(values, 0.99):.0f} ms; goal median ≤ {goal_median:.0f} ms"
        if goal_p99 is not None:
            verdict_p99 = "PASS" if percentile(values, 0.99) <= goal_p99 else "MISS"
            detail += f" {verdict}, p99 ≤ {goal_p99:.0f} ms {verdict_p99}"
        else:
            detail += f" {verdict}"
        if level == "hard":
            detail += f"; proven best {exact}/{len(tables)}"
        rows.append(
            Result(
                name=f"kastet {level} decision: 22-tile hand, full 26-meld table",
                value=median(values),
                unit="ms",
                detail=detail,
                baseline_name="old hand-only lay (engine/bot.py)",
                baseline=median(base),
                baseline_detail=f"p99 {percentile(base, 0.99):.2f} ms",
            )
        )
    rows += _exact_rows(f"{len(tables)} full 26-meld tables, 22-tile hands", tables)
    positions = game_positions()
    rows += _exact_rows(f"{len(positions)} turns of {GAME_HANDS} medium-player hands", positions)
    return rows


def main() -> None:
    """Print the rows."""
    for row in run():
        print(
            f"{row.name}: {row.value:.1f} {row.unit} ({row.detail}); "
            f"{row.baseline_name}: {row.baseline:.2f} {row.unit} ({row.baseline_detail})"
        )


if __name__ == "__main__":
    main()
