"""Harftet's benchmarks: each compares a measurement with a baseline taken in the same run.

Run them all with ``make bench`` (``.venv/bin/python -m bench``); the results are written to
bench/RESULTS.md. Goals are on ratios, never on absolute times: these machines are noisy.
"""

from __future__ import annotations

import json
import math
import os
import re
import socket
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
"""The repository root."""


@dataclass(frozen=True, slots=True)
class Result:
    """One row of RESULTS.md: a measurement, its same-run baseline and the goal on their ratio.

    ``goal`` is the largest acceptable ``value / baseline``; rows without a baseline or goal
    are informational.
    """

    name: str
    value: float
    unit: str
    detail: str = ""
    baseline_name: str = ""
    baseline: float | None = None
    baseline_detail: str = ""
    goal: float | None = None

    @property
    def ratio(self) -> float | None:
        """value / baseline, when there is a baseline."""
        if self.baseline is None or self.baseline == 0:
            return None
        return self.value / self.baseline

    @property
    def passed(self) -> bool | None:
        """True/False against the goal; None when the row has no goal."""
        ratio = self.ratio
        if ratio is None or self.goal is None:
            return None
        return ratio <= self.goal


def median(values: Sequence[float]) -> float:
    """The median of ``values``."""
    return statistics.median(values)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def jsonl_rows(paths: Iterable[str]) -> Iterator[Any]:
    """Every row of the JSON-lines files at ``paths`` (those that exist), in order."""
    for path in paths:
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                yield from (json.loads(line) for line in f if line.strip())


@contextmanager
def jsonl_sink(path: str | None) -> Iterator[Callable[[Any], None]]:
    """A function that appends a row to the JSON-lines file at ``path`` at once (flushed: an
    interrupted run keeps what it did); no path: keeps nothing."""
    if not path:
        yield lambda row: None
        return
    with open(path, "a", encoding="utf-8") as sink:

        def keep(row: Any) -> None:
            sink.write(json.dumps(row) + "\n")
            sink.flush()

        yield keep


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def put_section(path: Path, heading: str, block: list[str]) -> None:
    """Puts `block` (lines starting with `heading`) into bench/RESULTS.md at `path`: in place
    of the section under `heading`, else before "## Codec", else at the end."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if heading in text:
        head, _, rest = text.partition(heading)
        tail = rest[rest.index("\n## ") + 1 :] if "\n## " in rest else ""
        text = head + "\n".join(block) + "\n" + tail
    elif "## Codec" in text:
        head, _, rest = text.partition("## Codec")
        text = head + "\n".join(block) + "\n## Codec" + rest
    else:
        text += "\n" + "\n".join(block)
    path.write_text(text, encoding="utf-8")


def write_results_section(results: Path, title: str, lines: list[str]) -> None:
    """Replace (or add) the section ``## title`` of RESULTS.md: a benchmark run on its own
    keeps its rows there, and ``make bench`` leaves the section as it is."""
    text = results.read_text(encoding="utf-8") if results.exists() else "# Benchmark results\n"
    body = "\n".join([f"## {title}", "", *lines, ""])
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.M | re.S)
    text = pattern.sub(body + "\n", text) if pattern.search(text) else text.rstrip() + "\n\n" + body
    results.write_text(text, encoding="utf-8")
