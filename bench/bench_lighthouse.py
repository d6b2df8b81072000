"""Lighthouse (mobile preset) on the web client of a fresh local stack, and Chrome's own
installability check: ``python -m bench.bench_lighthouse`` (also part of ``make bench``).

Goals (issue 16): performance ≥ 90, accessibility 100, best practices ≥ 95, installable.
Lighthouse is the npm package (``npm install``; package.json pins it) driving Debian's
Chromium through CHROME_PATH. Since Lighthouse 12 has no PWA category, installability is
read from Chromium itself (DevTools protocol ``Page.getInstallabilityErrors``, what the
install prompt uses) through Playwright. Run alone it rewrites only its own section of
bench/RESULTS.md.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench import ROOT, write_results_section

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = Path("/usr/bin/chromium")
RESULTS = ROOT / "bench" / "RESULTS.md"
TITLE = "Web client: Lighthouse, mobile (bench/bench_lighthouse.py)"
GOALS = {"performance": 90, "accessibility": 100, "best-practices": 95}
RUNS = 3  # the median of three: a shared 2-core machine makes single runs noisy


@contextmanager
def local_stack() -> Iterator[str]:
    """A local stack on a free port (the same runner as `make run`), stopped afterwards."""
    from harftet.localstack.launcher import launch

    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as workdir:
        stack = launch(Path(workdir), env={"LOG_LEVEL": "WARNING"}, timeout=120)
        try:
            yield stack.base_url
        finally:
            stack.stop()


def lighthouse(url: str) -> dict[str, Any]:
    """One Lighthouse run (mobile: Moto G-class emulation, simulated slow 4G)."""
    env = {**os.environ, "CHROME_PATH": str(CHROMIUM)}
    run = subprocess.run(
        [
            str(LIGHTHOUSE),
            url,
            "--output=json",
            "--output-path=stdout",
            "--quiet",
            "--only-categories=performance,accessibility,best-practices",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    if run.returncode != 0:
        raise RuntimeError(f"lighthouse failed: {run.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(run.stdout)
    return report


def installability(url: str) -> list[str]:
    """Chromium's reasons the page is not installable (empty: installable)."""
    from playwright.sync_api import sync_playwright

    # A profile on disk: Chromium never offers to install from an incognito (in-memory) one.
    with (
        tempfile.TemporaryDirectory(prefix="bench-lighthouse-profile-") as profile,
        sync_playwright() as p,
    ):
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu"],
        )
        page = context.new_page()
        page.goto(url)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        found = cdp.send("Page.getInstallabilityErrors")
        context.close()
    return [e.get("errorId", str(e)) for e in found.get("installabilityErrors", [])]


def measure(url: str, runs: int = RUNS) -> tuple[dict[str, int], list[str], list[str]]:
    """Median category scores (0–100), the failing audits of the median run, installability."""
    reports = [lighthouse(url) for _ in range(runs)]
    scores: dict[str, int] = {}
    for key in GOALS:
        values = sorted(round(100 * (r["categories"][key]["score"] or 0)) for r in reports)
        scores[key] = values[len(values) // 2]
    middle = sorted(reports, key=lambda r: r["categories"]["performance"]["score"] or 0)
    report = middle[len(middle) // 2]
    failing = [
        f"{a['id']} ({a['score']})"
        for a in report["audits"].values()
        if a.get("score") is not None and a["score"] < 0.9 and a.get("scoreDisplayMode") == "binary"
    ]
    return scores, failing, installability(url)


def section(url: str, scores: dict[str, int], failing: list[str], errors: list[str]) -> list[str]:
    """RESULTS.md lines for this benchmark."""
    lines = [
        f"Lighthouse {lighthouse_version()} (mobile preset, simulated throttling) on `{url}`, "
        f"median of {RUNS} runs; Chromium {chromium_version()}.",
        "",
        "| category | score | goal | result |",
        "|---|---|---|---|",
    ]
    for key, goal in GOALS.items():
        verdict = "**PASS**" if scores[key] >= goal else "**MISS**"
        lines.append(f"| {key} | {scores[key]} | ≥ {goal} | {verdict} |")
    verdict = "**PASS**" if not errors else "**MISS**"
    lines.append(
        f"| installable (Chromium `Page.getInstallabilityErrors`) | "
        f"{'none' if not errors else ', '.join(errors)} | no errors | {verdict} |"
    )
    if failing:
        lines += ["", "Failing audits of the median run: " + ", ".join(failing) + "."]
    return lines


def lighthouse_version() -> str:
    meta = json.loads((ROOT / "node_modules" / "lighthouse" / "package.json").read_text())
    return str(meta["version"])


def chromium_version() -> str:
    out = subprocess.run([str(CHROMIUM), "--version"], capture_output=True, text=True, check=False)
    match = re.search(r"[\d.]+", out.stdout)
    return match.group(0) if match else "?"


def write_section(lines: list[str]) -> None:
    """Replace (or add) this benchmark's section of RESULTS.md."""
    write_results_section(RESULTS, TITLE, lines)


def run() -> list[str]:
    """Start a stack, measure, return the section's lines."""
    with local_stack() as base:
        url = f"{base}/play/"
        scores, failing, errors = measure(url)
    return section(url.replace(base, "http://127.0.0.1:PORT"), scores, failing, errors)


def main() -> None:
    lines = run()
    write_section(lines)
    print("\n".join(lines))
    sys.exit(0)


if __name__ == "__main__":
    main()
