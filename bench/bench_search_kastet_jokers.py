"""Kastet search exactness on in-game positions with jokers on the table (issue 15).

Run: ``nice -n 10 .venv/bin/python -m bench.bench_search_kastet_jokers [--positions N]
[--first-seed S]``

Positions: the start of every turn of seeded 4-player hands between ``medium`` players
(seeds from ``--first-seed`` on, until ``--positions`` positions are collected) where a joker
stands on the table — the positions the search once failed to prove (it gave up on 19 of
4,490 real turns, all with table jokers). Each is searched (``search.kastet.search``) and
checked against the independent exact method, the integer programme of
tests/unit/test_search_kastet.py (HiGHS; with a time limit per position, where HiGHS stops
early its dual bound is an upper bound: the search's lay is then checked against it).
Printed: the count, how many the search proved, how many agree with the MIP, the search's
CPU time (median, p99, max) and the seeds used.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "unit"))
sys.path.insert(0, str(ROOT / "shared"))

from test_search_kastet import mip_best, table_of  # noqa: E402
from test_search_kastet_exact import in_game_positions  # noqa: E402

from bench import median, percentile  # noqa: E402
from harftet.engine.search.kastet import search  # noqa: E402


def run(positions: int, first_seed: int, mip_seconds: float) -> list[str]:
    found: list[tuple[int, list, list[int]]] = []  # type: ignore[type-arg]
    seed = first_seed
    while len(found) < positions:
        found += [(seed, s, h) for s, h in in_game_positions(range(seed, seed + 1), 22, "medium")]
        seed += 1
    found = found[:positions]
    proven = agree = bounded = 0
    times: list[float] = []
    misses: list[str] = []
    for s, series, hand in found:
        started = time.process_time()
        result = search(table_of(series, hand), 0)
        times.append(1000 * (time.process_time() - started))
        shed = 0 if result.proposal is None else result.proposal.shed
        proven += result.exact
        best = mip_best(series, hand, mip_seconds)
        if shed == best:
            agree += 1
        elif shed < best:
            misses.append(f"seed {s}: search {shed}, MIP {best} (exact={result.exact})")
        else:
            bounded += 1  # the MIP stopped early: its bound is above the search's lay
    return [
        f"{len(found)} positions with jokers on the table, seeds {first_seed}–{seed - 1} "
        f"(medium players, every turn)",
        f"proven best by the search: {proven} of {len(found)}",
        f"shed equal to the MIP's optimum: {agree}; MIP stopped early (its bound above the "
        f"search's lay, {mip_seconds:.0f} s limit): {bounded}; search below the MIP: "
        f"{len(misses)}",
        f"search CPU per position: median {median(times):.1f} ms, p99 "
        f"{percentile(times, 99):.1f} ms, max {max(times):.1f} ms",
        *misses[:20],
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--mip-seconds", type=float, default=10.0)
    args = parser.parse_args()
    for line in run(args.positions, args.first_seed, args.mip_seconds):
        print("-", line, flush=True)


if __name__ == "__main__":
    main()
