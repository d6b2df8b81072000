"""The computer players' ladder (RULES §4a, issue 15): seeded one-hand, 4-player games.

Run: ``nice -n 10 .venv/bin/python -m bench.bench_levels [--games N] [--workers W]
[--game harftet|kastet] [--out FILE] [--shard k/n --also FILE]`` (one command; every
hand's outcome is written as a JSON line to ``--out`` as it finishes, so a run cut short
still counts what it played; ``--also``: other shards' files, read so that their hands are
neither played again nor left out of the summary).

Rows, each over seeds ``1..N`` per game (the deal is ``bench_strength.new_hand(game, seed)``;
the strong seat is ``seed % 4``, so it rotates through the four seats):

- the ladder: each level against three of the level below (medium vs 3 easy, hard vs 3
  medium, expert vs 3 hard), the share of hands where the stronger seat alone has the
  lowest penalty — goal ≥ 55 % (an equal player: 25 %);
- four ``hard`` players, and four ``expert`` players (today's full search, what ``hard``
  was before the levels modelled people): how often the hand ends within the first round
  (a player emptying its hand on its first turn) — Harftet goal ≤ 10 % for hard — and the
  turns a hand lasts.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor

from bench import Result, jsonl_rows, jsonl_sink
from bench.bench_strength import new_hand
from harftet.engine import bot
from harftet.engine.hand import apply_move
from harftet.engine.moves import Move

GAMES = 400
LADDER = (("medium", "easy"), ("hard", "medium"), ("expert", "hard"))
TABLES = ("hard", "expert")  # four of a level at a table
GAME_NAMES = ("harftet", "kastet")
LADDER_GOAL = 55.0
FIRST_TURN_GOAL = 10.0

Task = tuple[str, str, str, int]  # game, strong level, weak level, seed


def play(game: str, strong: str, weak: str, seed: int) -> dict[str, object]:
    """One seeded hand with ``strong`` at seat ``seed % 4`` and ``weak`` at the others."""
    started = time.process_time()
    table = new_hand(game, seed)
    strong_seat = seed % 4
    levels = [strong if i == strong_seat else weak for i in range(4)]
    turns = 0  # turns begun
    last = None
    moves = 0
    first_round = True
    while table.status == "playing":
        seat = table.turn_seat
        assert seat is not None
        if seat != last:
            turns += 1
            last = seat
            if turns > 4:
                first_round = False
        move: Move = bot.choose_move(table, seat, levels[seat])  # type: ignore[arg-type]
        table = apply_move(table, seat, move, float(moves)).table
        moves += 1
        if moves > 5000:
            raise RuntimeError(f"{game} seed {seed}: the hand does not end")
    (result,) = table.hand_results
    penalties = list(result.penalties)
    low = min(penalties)
    return {
        "game": game,
        "strong": strong,
        "weak": weak,
        "seed": seed,
        "strong_seat": strong_seat,
        "penalties": penalties,
        "strong_lowest": penalties[strong_seat] == low and penalties.count(low) == 1,
        "finisher": result.finisher,
        "first_round_finish": result.finisher is not None and first_round,
        "turns": turns,
        "cpu_s": round(time.process_time() - started, 3),
    }


def _task(task: Task) -> dict[str, object]:
    return play(*task)


def tasks(games: int, game_names: Iterable[str], ladder_only: bool = False) -> list[Task]:
    """Seed by seed, so that a run cut short has every row on the same seeds."""
    rows = ([] if ladder_only else [(level, level) for level in TABLES]) + list(LADDER)
    return [
        (game, s, w, seed) for seed in range(1, games + 1) for game in game_names for s, w in rows
    ]


def summarise(outcomes: list[dict[str, object]]) -> tuple[list[Result], list[str]]:
    """Rows with PASS/MISS where there is a goal, and notes (counts, seeds, CPU)."""
    groups: dict[tuple[str, str, str], list[dict[str, object]]] = {}
    for o in outcomes:
        groups.setdefault((str(o["game"]), str(o["strong"]), str(o["weak"])), []).append(o)
    rows: list[Result] = []
    notes: list[str] = []
    for (game, strong, weak), outs in sorted(groups.items()):
        n = len(outs)
        seeds = sorted(int(str(o["seed"])) for o in outs)
        whole = seeds == list(range(seeds[0], seeds[-1] + 1))
        span = f"seeds {seeds[0]}–{seeds[-1]}" if whole else f"{n} seeds"
        cpu = statistics.mean(float(str(o["cpu_s"])) for o in outs)
        if strong == weak:
            first = 100 * sum(bool(o["first_round_finish"]) for o in outs) / n
            counts = [int(str(o["turns"])) for o in outs]
            turns = statistics.mean(counts)
            goal = FIRST_TURN_GOAL if (game, strong) == ("harftet", "hard") else None
            verdict = "" if goal is None else (" PASS" if first <= goal else " MISS")
            rows.append(
                Result(
                    name=f"{game.capitalize()} 4 × {strong}: hand over in the first round",
                    value=first,
                    unit="%",
                    detail=f"{n} deals, {span}"
                    + (f", goal ≤ {goal:.0f} %{verdict}" if goal is not None else ""),
                )
            )
            rows.append(
                Result(
                    name=f"{game.capitalize()} 4 × {strong}: turns per hand",
                    value=turns,
                    unit="turns",
                    detail=f"{n} deals, {span}; median {statistics.median(counts):.0f}",
                )
            )
            notes.append(
                f"{game} 4 × {strong}: {n} deals ({span}), hand over in the first round "
                f"{first:.1f} %, {turns:.1f} turns a hand, {cpu:.2f} s CPU a hand"
            )
            continue
        share = 100 * sum(bool(o["strong_lowest"]) for o in outs) / n
        verdict = "PASS" if share >= LADDER_GOAL else "MISS"
        rows.append(
            Result(
                name=f"{game.capitalize()} ladder: {strong} vs 3 × {weak}",
                value=share,
                unit="%",
                detail=f"{n} hands, {span}, seat rotating, goal ≥ {LADDER_GOAL:.0f} % {verdict}",
            )
        )
        strong_pen = statistics.mean(
            list(o["penalties"])[int(str(o["strong_seat"]))]  # type: ignore[call-overload]
            for o in outs
        )
        notes.append(
            f"{game} {strong} vs 3 × {weak}: strictly lowest in {share:.1f} % of {n} hands "
            f"({span}); mean penalty of the {strong} seat {strong_pen:.1f}; "
            f"{cpu:.2f} s CPU a hand"
        )
    return rows, notes


def _read(paths: Iterable[str]) -> list[dict[str, object]]:
    """The outcomes in every file, each hand once."""
    found = {(o["game"], o["strong"], o["weak"], o["seed"]): o for o in jsonl_rows(paths)}
    return list(found.values())


def run(
    games: int = GAMES,
    workers: int | None = None,
    game_names: tuple[str, ...] = GAME_NAMES,
    out: str | None = None,
    also: tuple[str, ...] = (),
    shard: tuple[int, int] = (0, 1),
    ladder_only: bool = False,
    pairs: tuple[tuple[str, str], ...] = (),
) -> tuple[list[Result], list[str]]:
    """Play what is not in ``out`` or ``also`` yet (resume; with ``shard`` (k, n): only the
    seeds s with s % n == k, so that shards run as separate processes; with ``pairs``: only
    those (strong, weak) rows) and summarise all."""
    todo = [
        t
        for t in tasks(games, game_names, ladder_only)
        if t[3] % shard[1] == shard[0] and (not pairs or (t[1], t[2]) in pairs)
    ]
    done = _read([out, *also] if out else also)
    have = {(o["game"], o["strong"], o["weak"], o["seed"]) for o in done}
    todo = [t for t in todo if t not in have]
    workers = workers or 1
    with jsonl_sink(out) as keep, ProcessPoolExecutor(max_workers=min(workers, 2)) as pool:
        for outcome in pool.map(_task, todo, chunksize=4):
            done.append(outcome)
            keep(outcome)
    return summarise(done)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="seeded deals per row")
    parser.add_argument("--workers", type=int, default=1, help="processes (1 or 2)")
    parser.add_argument("--game", choices=GAME_NAMES, action="append", help="only this game")
    parser.add_argument("--out", help="JSON lines of every hand (resumed if it exists)")
    parser.add_argument("--summary", action="store_true", help="only summarise --out")
    parser.add_argument(
        "--also", action="append", default=[], help="another shard's --out, read, not written"
    )
    parser.add_argument("--shard", default="0/1", help="k/n: only the seeds s with s %% n == k")
    parser.add_argument(
        "--ladder-only",
        action="store_true",
        help="only the ladder (bench_hand_length measures four of a level at a table)",
    )
    parser.add_argument(
        "--pair", action="append", default=[], help="STRONG/WEAK: only this row (repeatable)"
    )
    args = parser.parse_args()
    names = tuple(args.game) if args.game else GAME_NAMES
    if args.summary:
        rows, notes = summarise(_read([args.out, *args.also]))
    else:
        k, n = (int(x) for x in args.shard.split("/"))
        shard = (k, n)
        pairs = tuple((s, w) for s, w in (p.split("/") for p in args.pair))
        rows, notes = run(
            args.games,
            args.workers,
            names,
            args.out,
            tuple(args.also),
            shard,
            args.ladder_only,
            pairs,
        )
    for r in rows:
        print(f"| {r.name} | {r.value:.1f} {r.unit} | {r.detail} |")
    for n in notes:
        print("-", n)


if __name__ == "__main__":
    main()
