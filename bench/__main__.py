"""``make bench``: run every benchmark and rewrite bench/RESULTS.md.

Order: codec, dictionary, move path (dynalite, then moto), load on the local stack
(``--load-seconds``, 60 by default), what a game costs on the local stack (``--no-cost`` skips
it; bench/bench_cost.py), cold start, the Harftet search,
the computer players' strength (``--strength-games`` hands per matchup; 0 skips it), the
levels' ladder and how long Harftet hands last against them (``--levels-games``,
``--hand-games``), the
Kastet search, the size of WebSocket pushes over whole games, how fast a move reaches the other
seat with 198 spectators (local stack), Lighthouse on the web client (``--no-lighthouse`` skips
it), tournaments on the local stack (``--no-tournaments`` skips it). Exits 0
even when a goal is missed (``--strict`` makes a MISS exit 1): the numbers are for reading,
not gating.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeVar

from bench import (
    ROOT,
    Result,
    bench_cold_start,
    bench_hand_length,
    bench_levels,
    bench_lighthouse,
    bench_load,
    bench_move_path,
    bench_push,
    bench_search_harftet,
    bench_search_kastet,
    bench_seats_first,
    bench_strength,
    bench_tokens,
)
from bench.report import kept_sections, render, row
from harftet.engine.codec import encode

RESULTS = ROOT / "bench" / "RESULTS.md"
T = TypeVar("T")


def step(title: str, fn: Callable[[], T]) -> T:
    """Run one benchmark with a progress line on stderr."""
    print(f"bench: {title} ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    value = fn()
    print(f"bench: {title} done in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return value


def codec() -> tuple[Result, list[str]]:
    """bench_codec: the worst-case size against its limit (goal), and its printed timings."""
    from bench import bench_codec

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench_codec.main()
    size = len(encode(bench_codec.worst_case_table()))
    row = Result(
        name="codec: worst-case table, encoded",
        value=size,
        unit="B",
        detail="deliberately larger than any real table",
        baseline_name="size limit (bench_codec.LIMIT)",
        baseline=bench_codec.LIMIT,
        goal=1.0,
    )
    return row, out.getvalue().strip().splitlines()


def words() -> list[tuple[str, str]]:
    """bench_words: its load, lookup and search rows (informational)."""
    from bench import bench_words

    return bench_words.bench_load() + bench_words.bench_lookup() + bench_words.bench_search()


def _parse_args() -> argparse.Namespace:
    """The command line: which benchmarks run, how long, and whether a MISS fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    sizes: list[tuple[str, type, float, str]] = [  # how much of a long benchmark runs
        ("--strength-games", int, bench_strength.GAMES, "hands per matchup and game (strength)"),
        ("--levels-games", int, bench_levels.GAMES, "seeded deals per row of the levels' ladder"),
        ("--hand-games", int, bench_hand_length.GAMES, "seeded deals per cell of hand length"),
        ("--load-seconds", float, bench_load.SECONDS, "seconds of the 50-table load (local stack)"),
    ]
    for flag, kind, default, meaning in sizes:
        parser.add_argument(flag, type=kind, default=default, help=f"{meaning} (0: skip it)")
    parser.add_argument(
        "--no-lighthouse",
        dest="lighthouse",
        action="store_false",
        help="skip Lighthouse on the web client",
    )
    parser.add_argument(
        "--no-cost", action="store_true", help="skip the cost benchmark (bench/bench_cost.py)"
    )
    parser.add_argument(
        "--no-tournaments", action="store_true", help="skip bench/bench_tournaments.py"
    )
    return parser.parse_args()


def main() -> None:
    """Run everything, write RESULTS.md, print the goal table."""
    args = _parse_args()
    started = datetime.now(UTC)
    load_start = os.getloadavg()
    t0 = time.perf_counter()
    codec_row, codec_lines = step("codec", codec)
    word_rows = step("dictionary", words)
    moves = step("move path (moto)", bench_move_path.run)
    load: list[Result] = []
    if args.load_seconds > 0:
        load = step("load (local stack)", lambda: bench_load.run(args.load_seconds))
    cost: list[Result] = []
    cost_notes: list[str] = []
    if not args.no_cost:
        from bench import bench_cost

        cost, cost_notes = step("cost (local stack)", bench_cost.run)
    cold = step("cold start", bench_cold_start.run)
    search_rows, search_notes = step("Harftet search", bench_search_harftet.run)
    sections = [("Harftet search (bench/bench_search_harftet.py)", search_notes)]
    if cost_notes:
        sections.insert(0, ("What a game costs (bench/bench_cost.py)", cost_notes))
    strength_rows: list[Result] = []
    if args.strength_games > 0:
        strength_rows, strength_notes = step(
            "strength", lambda: bench_strength.run(args.strength_games)
        )
        sections.append(
            ("Strength of the computer players (bench/bench_strength.py)", strength_notes)
        )
    if args.levels_games > 0:
        levels_rows, levels_notes = step("levels", lambda: bench_levels.run(args.levels_games, 2))
        strength_rows += levels_rows
        sections.append(("Computer player levels (bench/bench_levels.py)", levels_notes))
    if args.hand_games > 0:
        hand_rows, hand_notes = step("hand length", lambda: bench_hand_length.run(args.hand_games))
        strength_rows += hand_rows
        sections.append(("Hand length and words laid (bench/bench_hand_length.py)", hand_notes))
    results = [*moves, *load, *cost, *cold, codec_row, *search_rows, *strength_rows]
    results += step("Kastet search", bench_search_kastet.run)
    results += step("token check", bench_tokens.run)
    results += step("push size (whole games)", bench_push.run)
    results += step("seats first (local stack)", bench_seats_first.run)
    from bench import bench_leaderboard  # profiles and leaderboards (harftet.people)

    results += step("leaderboards", bench_leaderboard.run)
    from bench import bench_skill  # issue 38: skill and the weekly leagues, a section of its own

    skill = step("skill and leagues", bench_skill.section)

    from bench import bench_matchmaking  # matchmaking (harftet.matchmaking): its own section

    matchmaking = step("matchmaking (1,000 players)", lambda: bench_matchmaking.run("fakes"))
    from bench import bench_tournaments  # issue 39: tournaments on the local stack, own section

    tournaments: tuple[list[Result], list[str]] = ([], [])
    if not args.no_tournaments:
        tournaments = step("tournaments (local stack)", bench_tournaments.run)
    web = step("web client (Lighthouse)", bench_lighthouse.run) if args.lighthouse else []
    from bench import bench_boot  # the slow phone's cold start (issue 36)

    boot = step("web client (slow-phone boot)", bench_boot.run) if args.lighthouse else []
    seconds = time.perf_counter() - t0
    loads = (load_start, os.getloadavg())
    text = render(results, codec_lines, word_rows, started, seconds, loads, sections)
    before = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    RESULTS.write_text(kept_sections(text, before), encoding="utf-8")
    bench_skill.write_section(skill)
    bench_matchmaking.write_section(matchmaking, RESULTS)
    if tournaments[0]:
        bench_tournaments.write_section(*tournaments, RESULTS)
    matchmaking = [*matchmaking, *tournaments[0]]  # their goals printed and held together
    if web:
        bench_lighthouse.write_section(web)
    if boot:
        bench_boot.write_section(boot)
    print("\n".join(row(r) for r in [*results, *matchmaking]))
    print(f"\nwrote {RESULTS.relative_to(ROOT)} in {seconds:.0f} s")
    if args.strict and any(r.passed is False for r in [*results, *matchmaking]):
        sys.exit(1)


if __name__ == "__main__":
    main()
