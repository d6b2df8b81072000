"""Kastet search exactness on in-game positions with jokers on the table (issue 15).

Run: ``nice -n 10 .venv/bin/python -m bench.bench_search_kastet_jokers [--positions N]
[--first-seed S] [--mip-seconds T] [--out FILE]... [--shard k/n] [--cache FILE]
[--retry-limits]`` (``--out``: one JSON line per position as it is checked, to the first
file; every file given is read, so a run resumes where it stopped and shards run as
separate processes skip each other's positions; ``--summary`` only summarises the files).

Positions: the start of every turn of seeded 4-player hands between ``medium`` players
(seeds from ``--first-seed`` on, until ``--positions`` positions are collected) where a joker
stands on the table, hands of any size — the positions the search once failed to prove (it
gave up on 19 of 4,490 real turns, all with table jokers).

Each is searched (``search.kastet.search``); the engine must accept the lay and the shed
must be the value of the tiles that left the hand. The independent exact method is the
integer programme of tests/unit/test_search_kastet.py (HiGHS), asked (``mip_confirms``)
whether a lay sheds more than the search's (must be infeasible): with the engine's
acceptance of the search's lay, the optimum is then the search's shed. With ``--reach`` it
is also asked whether a lay sheds as much (must be feasible: the MIP's own optimum equals
the shed; ~10× the work on large tables, so the default run leaves it to the unit tests).
Each solve has a time limit (``--mip-seconds``, wall clock); a position where HiGHS stops at
its limit is counted apart ("MIP at its limit"), never as agreement.
Printed: the count and seeds, how many the search proved, how many agree with the MIP, the
disagreements (seed, position, both values), the search's CPU time (median, p99, max).
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "unit"))
sys.path.insert(0, str(ROOT / "shared"))

from test_search_kastet import _value, mip_best, mip_confirms, table_of  # noqa: E402
from test_search_kastet_exact import in_game_positions  # noqa: E402

from bench import jsonl_rows, jsonl_sink, median, percentile  # noqa: E402
from harftet.engine.hand import apply_move  # noqa: E402
from harftet.engine.search.kastet import search  # noqa: E402


def check(  # type: ignore[type-arg]
    seed: int, index: int, series: list, hand: list[int], mip_seconds: float, reach: bool
) -> dict:
    """One position: the search's lay, the engine's verdict on it, the MIP's."""
    table = table_of(series, hand)
    started = time.process_time()
    result = search(table, 0)
    search_ms = 1000 * (time.process_time() - started)
    shed = 0 if result.proposal is None else result.proposal.shed
    accepted = True
    if result.proposal is not None:
        try:
            out = apply_move(table, 0, result.proposal.lay, 1.0).table
            accepted = _value(sorted(set(hand) - set(out.seats[0].hand))) == shed
        except Exception:  # the engine refusing the lay is the finding
            accepted = False
    started = time.process_time()
    verdict = mip_confirms(series, hand, shed, mip_seconds, reach)
    row: dict[str, object] = {
        "seed": seed,
        "index": index,
        "melds": len(series),
        "hand": len(hand),
        "shed": shed,
        "exact": result.exact,
        "accepted": accepted,
        "verdict": verdict,
        "search_ms": round(search_ms, 2),
    }
    if verdict == "above":  # what the search missed: the MIP's optimum
        row["mip_best"] = mip_best(series, hand, 10 * mip_seconds)
    row["mip_s"] = round(time.process_time() - started, 3)
    return row


def positions(count: int, first_seed: int) -> list[tuple[int, int, list, list[int]]]:  # type: ignore[type-arg]
    found: list[tuple[int, int, list, list[int]]] = []  # type: ignore[type-arg]
    seed = first_seed
    while len(found) < count:
        here = in_game_positions(range(seed, seed + 1), 22, "medium")
        found += [(seed, i, s, h) for i, (s, h) in enumerate(here)]
        seed += 1
    return found[:count]


def summarise(rows: list[dict]) -> list[str]:  # type: ignore[type-arg]
    if not rows:
        return ["no positions checked"]
    n = len(rows)
    seeds = sorted({int(r["seed"]) for r in rows})
    kinds = ("equal", "none above", "above", "below", "limit")
    counts = {v: sum(r["verdict"] == v for r in rows) for v in kinds}
    agree = sum(r["verdict"] in ("equal", "none above") and bool(r["accepted"]) for r in rows)
    times = [float(r["search_ms"]) for r in rows]
    proven = sum(bool(r["exact"]) for r in rows)
    refused = [r for r in rows if not r["accepted"]]
    limited = [r for r in rows if r["verdict"] == "limit"]
    lines = [
        f"{n} positions with a joker on the table, seeds {seeds[0]}–{seeds[-1]} (medium "
        f"players, the start of every turn, hands of 1–22 tiles; "
        f"{sum(int(r['melds']) >= 13 for r in rows)} with 13+ table melds)",
        f"search proved its lay best: {proven} of {n}; engine refused a lay or its shed: "
        f"{len(refused)}",
        f"agree (engine accepts the search's lay, MIP proves no lay sheds more): {agree} of "
        f"{n} ({counts['equal']} of them also with the MIP finding a lay shedding as much); "
        f"a lay shedding more (search below the optimum): {counts['above']}; MIP finds no "
        f"lay shedding the search's: {counts['below']}; MIP at its time limit (not counted "
        f"as agreement): {counts['limit']}",
        f"search CPU per position: median {median(times):.1f} ms, p99 "
        f"{percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms; MIP CPU in all "
        f"{sum(float(r['mip_s']) for r in rows):.0f} s",
    ]
    for r in rows:
        if r["verdict"] in ("above", "below") or not r["accepted"]:
            lines.append(
                f"disagreement: seed {r['seed']} position {r['index']} ({r['melds']} melds, "
                f"{r['hand']} tiles): search {r['shed']} (proven {r['exact']}), MIP "
                f"{r.get('mip_best', r['verdict'])}, engine accepted {r['accepted']}"
            )
    if limited:
        lines.append(
            "MIP at its limit: "
            + ", ".join(f"seed {r['seed']} #{r['index']} ({r['melds']} melds)" for r in limited)
        )
    return lines


def _read(paths: list[str]) -> list[dict]:  # type: ignore[type-arg]
    """The rows of every file, the last row of a position winning (a re-check of one that
    hit the MIP's limit)."""
    rows = {(row["seed"], row["index"]): row for row in jsonl_rows(paths)}
    return list(rows.values())


def run(
    count: int,
    first_seed: int,
    mip_seconds: float,
    outs: list[str],
    reach: bool = False,
    shard: tuple[int, int] = (0, 1),
    cache: str | None = None,
    retry: bool = False,
    reverse: bool = False,
) -> list[str]:
    """Check the positions of shard ``k`` of ``n`` (every n-th, from the k-th) not in any of
    ``outs`` yet (with ``retry``: also those where the MIP hit its limit), writing each row
    to the first of ``outs``; the summary is over all of ``outs``."""
    done = _read(outs)
    have = {(r["seed"], r["index"]) for r in done if not (retry and r["verdict"] == "limit")}
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            found = pickle.load(f)  # this bench's own file
    else:
        found = positions(count, first_seed)
        if cache:
            with open(cache, "wb") as f:
                pickle.dump(found, f)
    k, n = shard
    with jsonl_sink(outs[0] if outs else None) as keep:
        order = list(enumerate(found[:count]))
        for i, (seed, index, series, hand) in reversed(order) if reverse else order:
            if i % n != k or (seed, index) in have:
                continue
            row = check(seed, index, series, hand, mip_seconds, reach)
            row["mip_seconds"] = mip_seconds
            keep(row)
    return summarise(_read(outs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--mip-seconds", type=float, default=120.0)
    parser.add_argument(
        "--out",
        action="append",
        default=[],
        help="JSON lines of every position, written to the first, all read (resumed)",
    )
    parser.add_argument("--summary", action="store_true", help="only summarise --out")
    parser.add_argument("--reach", action="store_true", help="also: a lay sheds as much")
    parser.add_argument("--shard", default="0/1", help="k/n: every n-th position from the k-th")
    parser.add_argument("--cache", help="the positions, pickled (made once, then read)")
    parser.add_argument("--retry-limits", action="store_true", help="re-check MIP limits")
    parser.add_argument("--reverse", action="store_true", help="from the last position back")
    args = parser.parse_args()
    if args.summary:
        lines = summarise(_read(args.out))
    else:
        k, n = (int(x) for x in args.shard.split("/"))
        lines = run(
            args.positions,
            args.first_seed,
            args.mip_seconds,
            args.out,
            args.reach,
            (k, n),
            args.cache,
            args.retry_limits,
            args.reverse,
        )
    for line in lines:
        print("-", line, flush=True)


if __name__ == "__main__":
    main()
