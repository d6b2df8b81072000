"""What syncing the local journal costs on the move path (issue 35, finding 7).

The local stack journals every DynamoDB write (harftet.localstack.persist) and, since issue
35, syncs each line to the disk (fdatasync) before the write is answered, so a power cut
loses nothing acknowledged. Measured: the move path of bench_move_path (a draw through the
REST handler) against the stack's own journalled moto server, the journal in a folder on the
repository's disk (where `make run` keeps `.data`), in alternating blocks (ABBA) with the
sync on and off (off: flushed to the OS only, as before). No goal: the local stack only.

Run: ``.venv/bin/python -m bench.bench_journal`` (writes its section of bench/RESULTS.md).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from bench import ROOT, median, percentile, write_results_section
from bench.bench_move_path import (
    DRAWS_PER_SEAT,
    SEATS,
    TABLE_NAMES,
    WARMUP,
    Harness,
    handler_env,
    load_handler_module,
)

ITERATIONS = 400
BLOCK = 10
TITLE = "Local journal: the cost of syncing each write (bench/bench_journal.py)"
RESULTS = ROOT / "bench" / "RESULTS.md"


def measure(iterations: int = ITERATIONS, block: int = BLOCK) -> dict[str, list[float]]:
    """Move samples (ms) with the journal synced and flushed only, ABBA blocks."""
    from harftet.localstack.dynamo import MotoDynamo
    from harftet.localstack.persist import Journal

    warnings.filterwarnings("ignore", message="No application metrics")
    with tempfile.TemporaryDirectory(dir=ROOT, prefix=".bench-journal-") as folder:
        journal = Journal(Path(folder))
        server = MotoDynamo(journal=journal)
        endpoint = server.start()
        try:
            os.environ.update(handler_env(endpoint))
            from harftet.store.schema import create_tables

            create_tables(server.client(), TABLE_NAMES)
            with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
                harness = Harness(load_handler_module())
                harness.setup(2 * (WARMUP + iterations) // (SEATS * DRAWS_PER_SEAT) + 2)
                for _ in range(WARMUP):
                    harness.move()
                lines = journal.lines
                samples: dict[str, list[float]] = {"synced": [], "flushed": [], "writes": []}
                for b in range(-(-iterations // block)):
                    order = ("synced", "flushed") if b % 2 == 0 else ("flushed", "synced")
                    for kind in order:
                        gc.collect()
                        journal.sync = kind == "synced"
                        samples[kind] += [harness.move() * 1000 for _ in range(block)]
            samples["writes"] = [(journal.lines - lines) / (2 * len(samples["synced"]))]
            samples["sync"] = _syncs(Path(folder))
        finally:
            server.stop()
    return samples


def _syncs(folder: Path, n: int = ITERATIONS) -> list[float]:
    """What one fdatasync of a journal-sized line costs on this disk alone (ms): I/O, so
    the machine's CPU load moves it less than the move path's medians."""
    line = b"x" * 1500 + b"\n"
    with (folder / "sync-probe").open("ab") as probe:
        times = []
        for _ in range(n):
            probe.write(line)
            probe.flush()
            began = time.perf_counter()
            os.fdatasync(probe.fileno())
            times.append((time.perf_counter() - began) * 1000)
    return times


def section(samples: dict[str, list[float]], seconds: float) -> list[str]:
    synced, flushed, sync = samples["synced"], samples["flushed"], samples["sync"]
    writes = samples["writes"][0]
    cost = median(synced) - median(flushed)
    ratio = median(synced) / median(flushed)
    floor = percentile(synced, 0.1) - percentile(flushed, 0.1)  # the less load-sensitive reading
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    return [
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; took {seconds:.0f} s; "
        f"{platform.system()} {platform.machine()}, nproc {os.cpu_count()}, load {load}",
        "",
        "| move path (a draw through the REST handler, journalled moto) | median | p10 | p90 | n |",
        "|---|---|---|---|---|",
        *(
            f"| {name} | {median(v):.2f} ms | {percentile(v, 0.1):.2f} ms | "
            f"{percentile(v, 0.9):.2f} ms | {len(v)} |"
            for name, v in (("each write synced (fdatasync)", synced), ("flushed only", flushed))
        ),
        f"| one fdatasync of a 1.5 KB line, alone | {median(sync):.2f} ms | "
        f"{percentile(sync, 0.1):.2f} ms | {percentile(sync, 0.9):.2f} ms | {len(sync)} |",
        "",
        f"A move journals {writes:.1f} write(s): the sync adds ≈ {writes * median(sync):.2f} ms "
        "to it by the probe. "
        f"Measured on the move path: {cost:+.2f} ms a move at the median ({ratio:.2f}×) and "
        f"{floor:+.2f} ms at p10 (CPU load moves these more than the sync does). "
        "The local stack only: in AWS DynamoDB answers a write once it is durable.",
    ]


def main() -> None:
    if "--child" in sys.argv:  # the handler binds its endpoint at import: a fresh interpreter
        print(json.dumps(measure()))
        return
    started = time.perf_counter()
    command = [sys.executable, "-m", "bench.bench_journal", "--child"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    samples = json.loads(done.stdout.strip().splitlines()[-1])
    lines = section(samples, time.perf_counter() - started)
    write_results_section(RESULTS, TITLE, lines)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
