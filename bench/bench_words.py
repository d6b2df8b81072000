"""Benchmark the Turkish word list: load, lookup, search. Run: .venv/bin/python bench/bench_words.py

Load costs are measured in fresh interpreters (median of RUNS) against a baseline measured in
the same run; lookups and searches in this process. Prints a markdown table.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from harftet.engine.words import default_words, turkish_upper
from harftet.engine.words.search import find_pairs, find_words

RUNS = 11
RACKS = 50
SEED = 20240601

# RULES.md §1: the Harftet bag (single letters × count, ten two-letter tiles, two jokers).
SINGLES = "".join(
    letter * count
    for letter, count in zip(
        "AEİKLNRTIMOSUBDÜYCÇŞZGHPFÖVĞJ",
        (8, 7, 8, 5, 5, 4, 6, 4, 4, 5, 3, 4, 3, 3, 3, 2, 4, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1),
        strict=True,
    )
)
DOUBLES = ("AR", "ER", "AN", "EN", "LA", "LE", "DA", "DE", "İN", "IN")
BAG: list[tuple[int, str | None]] = [
    (i, face) for i, face in enumerate([*SINGLES, *DOUBLES, None, None])
]
assert len(BAG) == 106


def wall_ms(code: str) -> float:
    """Run `code` in a fresh interpreter and return its wall time in ms."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return (time.perf_counter() - start) * 1000


def import_ms(module: str, after: str) -> float:
    """Return the cumulative -X importtime of `module` in ms, imported after `after`."""
    code = f"import {after}; import {module}"
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], check=True, capture_output=True, text=True
    )
    line = [x for x in out.stderr.splitlines() if x.rstrip().endswith(f"| {module}")][-1]
    return int(line.split("|")[1]) / 1000


def inner_ms(code: str) -> float:
    """Run `code` in a fresh interpreter; it prints a number of ms, which is returned."""
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout)


def bench_load() -> list[tuple[str, str]]:
    """Measure process-level load costs against the interpreter-plus-gzip baseline.

    The variants run interleaved, round by round, so background load hits them alike; the
    table shows the median of RUNS rounds and, in brackets, the fastest round.
    """
    variants: dict[str, Callable[[], float]] = {
        "base": lambda: wall_ms("import gzip"),
        "import": lambda: wall_ms("import harftet.engine.words"),
        "load": lambda: wall_ms("import harftet.engine.words as w; w.default_words()"),
        "warm import": lambda: import_ms("harftet.engine.words", after="typing, re, collections"),
        "call": lambda: inner_ms(
            "import time, harftet.engine.words as w\n"
            "t = time.perf_counter(); w.default_words()\n"
            "print((time.perf_counter() - t) * 1000)"
        ),
        "index": lambda: inner_ms(
            "import time, harftet.engine.words as w, harftet.engine.words.search as s\n"
            "words = w.default_words(); t = time.perf_counter(); s._index(words)\n"
            "print((time.perf_counter() - t) * 1000)"
        ),
    }
    for fn in variants.values():
        fn()  # warm the OS file cache
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(RUNS):
        for name, fn in variants.items():
            samples[name].append(fn())
    med = {name: statistics.median(xs) for name, xs in samples.items()}
    low = {name: min(xs) for name, xs in samples.items()}

    def show(name: str, digits: int = 1) -> str:
        return f"{med[name]:.{digits}f} ms ({low[name]:.{digits}f})"

    base = med["base"]
    return [
        (f"baseline: `python -c 'import gzip'`, median (min) of {RUNS}", show("base")),
        ("`import harftet.engine.words`", f"{show('import')}, +{med['import'] - base:.1f} ms"),
        (
            "`import harftet.engine.words` once `typing` is loaded (as by pydantic in the Lambda)",
            show("warm import"),
        ),
        (
            "import + `default_words()`",
            f"{show('load')}, +{med['load'] - base:.1f} ms, ×{med['load'] / base:.2f}",
        ),
        ("`default_words()` alone, timed inside the process", show("call")),
        ("search index, built once on the first search", show("index", 0)),
    ]


def per_word_ns(sample: list[str], test: Callable[[str], object], rounds: int = 7) -> float:
    """Return the best-of-rounds ns per word of `test`, on fresh copies of the strings."""
    times = []
    for _ in range(rounds):
        fresh = ["".join(list(w)) for w in sample]  # new str objects: hash not cached yet
        start = time.perf_counter_ns()
        for w in fresh:
            test(w)
        times.append((time.perf_counter_ns() - start) / len(fresh))
    return min(times)


def bench_lookup() -> list[tuple[str, str]]:
    """Measure membership tests in ns per word, hashing fresh strings as a request would."""
    words = default_words()
    rng = random.Random(SEED)
    hits = rng.sample(sorted(words), 20_000)
    misses = [w + "Ğ" for w in hits]  # almost never a word
    raw = [w.replace("I", "ı").replace("İ", "i").lower() for w in hits]  # as a player types
    noop = per_word_ns(hits, lambda w: None)  # loop and call overhead, subtracted below
    rows = []
    for label, sample, test in (
        ("hit, `word in words`", hits, words.__contains__),
        ("miss, `word in words`", misses, words.__contains__),
        ("hit, `word in words.words` (the bare frozenset)", hits, words.words.__contains__),
        ("`turkish_upper(raw) in words` (player input)", raw, lambda w: turkish_upper(w) in words),
    ):
        rows.append((f"lookup, {label}", f"{per_word_ns(sample, test) - noop:.0f} ns"))
    return rows


def bench_search() -> list[tuple[str, str]]:
    """Measure find_words / find_pairs on random racks drawn from the Harftet bag."""
    words = default_words()
    find_words(words, BAG[:3])  # build the index outside the timings
    rng = random.Random(SEED)
    rows = []
    for size in (7, 14, 22):
        racks = [rng.sample(BAG, size) for _ in range(RACKS)]
        for label, fn in (
            ("find_words, top 50", lambda r: find_words(words, r)),
            ("find_words, all", lambda r: find_words(words, r, max_results=100_000)),
            ("find_pairs, top 50", lambda r: find_pairs(words, r)),
        ):
            ms, counts = [], []
            for rack in racks:
                start = time.perf_counter()
                counts.append(len(fn(rack)))
                ms.append((time.perf_counter() - start) * 1000)
            ms.sort()
            rows.append(
                (
                    f"{label}, rack of {size}",
                    f"median {statistics.median(ms):.1f} ms · p95 {ms[int(0.95 * len(ms))]:.1f}"
                    f" ms · max {ms[-1]:.1f} ms · {statistics.mean(counts):.0f} words on average",
                )
            )
    return rows


def main() -> None:
    """Print the results as a markdown table."""
    words = default_words()
    rows = bench_load() + bench_lookup() + bench_search()
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Turkish word list: {len(words):,} words; Python {sys.version.split()[0]}; ", end="")
    print(f"{os.cpu_count()} CPUs, load average after the run {load}\n")
    print("| measurement | result |")
    print("|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
