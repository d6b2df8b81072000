"""What the web client costs a slow phone while nothing happens: ``python -m bench.bench_idle``.

A signed-in player on the lobby (no table open) for 10 s, in Chromium at 390×844 with 4× CPU
slowdown (``Emulation.setCPUThrottlingRate``, as bench_boot): the main thread's task time over
those 10 s (DevTools ``Performance.getMetrics`` TaskDuration, before and after) and how many
interval callbacks ran (a count that does not depend on the machine's load). The table's clock
used to tick every 250 ms on every screen (this bench on main 1296880's table.js: 41 of its
callbacks and 96 ms of task time per 10 s; the review had measured ~290 ms of CPU); it now
ticks only while a table with a running clock is on screen. Median of 3 runs.
Run alone it rewrites only its own section of bench/RESULTS.md.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any

from bench import write_results_section
from bench.bench_lighthouse import RESULTS, local_stack

TITLE = "Web client: an idle lobby on a slow phone (bench/bench_idle.py)"
CPU_SLOWDOWN = 4
IDLE_S = 10.0
RUNS = 3
CLOCK_MS = 250  # table.js TICK_MS: the clock's interval
# Every interval callback the page runs, counted by its period (wrapped before the page loads).
COUNT_INTERVALS = """(() => {
  window.__intervalRuns = {};
  const set = window.setInterval.bind(window);
  window.setInterval = (fn, ms, ...rest) => set((...a) => {
    window.__intervalRuns[ms] = (window.__intervalRuns[ms] || 0) + 1;
    return typeof fn === "function" ? fn(...a) : undefined; }, ms, ...rest);
})();"""


def task_seconds(cdp: Any) -> float:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def one_run(browser: Any, url: str, n: int) -> tuple[float, int, int]:
    """CPU milliseconds of the main thread, the clock's callbacks and every interval's callbacks
    over IDLE_S on the lobby."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    page.add_init_script(COUNT_INTERVALS)
    page.goto(url)
    page.locator("#login-name").fill(f"Boşta {n}")
    page.locator("#login-form button[type=submit]").click()
    page.locator("#lobby").wait_for(state="visible", timeout=60_000)
    page.wait_for_timeout(2000)  # the lobby's first loads answered
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    before, runs_before = task_seconds(cdp), page.evaluate("window.__intervalRuns")
    time.sleep(IDLE_S)
    after, runs_after = task_seconds(cdp), page.evaluate("window.__intervalRuns")
    context.close()
    ran = {ms: int(k) - int(runs_before.get(ms, 0)) for ms, k in runs_after.items()}
    return (after - before) * 1000, ran.get(str(CLOCK_MS), 0), sum(ran.values())


def measure(url: str) -> list[tuple[float, int, int]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        runs = [one_run(browser, url, n) for n in range(RUNS)]
        browser.close()
    return runs


def section(runs: list[tuple[float, int, int]]) -> list[str]:
    cpu = statistics.median(r[0] for r in runs)
    clock, every = max(r[1] for r in runs), max(r[2] for r in runs)
    verdict = "**PASS**" if clock == 0 else "**MISS**"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    shown = ", ".join(f"{r[0]:.0f}" for r in runs)
    return [
        f"Chromium, 390×844, {CPU_SLOWDOWN}× CPU slowdown, a signed-in player on the lobby for"
        f" {IDLE_S:.0f} s; median of {RUNS} runs ({shown} ms); load average {load} on 2 cores.",
        "",
        "| measure | value | goal | result |",
        "|---|---|---|---|",
        f"| the table clock's {CLOCK_MS} ms callbacks in {IDLE_S:.0f} s (most of {RUNS} runs) |"
        f" {clock} | 0 (was 41) | {verdict} |",
        f"| every interval callback in {IDLE_S:.0f} s (the lobby's own list refresh stays) |"
        f" {every} | – (was 42) | – |",
        f"| main-thread task time in {IDLE_S:.0f} s | {cpu:.0f} ms | – | – |",
    ]


def run() -> list[str]:
    with local_stack() as base:
        return section(measure(f"{base}/play/"))


def main() -> None:
    lines = run()
    write_results_section(RESULTS, TITLE, lines)
    print("\n".join(lines))
    sys.exit(0)


if __name__ == "__main__":
    main()
