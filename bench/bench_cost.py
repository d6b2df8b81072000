"""What a game costs, counted rather than guessed: whole games on the local stack with every AWS
call counted (bench/cost_calls.py: botocore's event hooks on every client of every process, the
Management API included), priced with bench/prices.json.

For each game kind: two people (they draw, or pass with 22 tiles or an empty pile, at once)
and two computer players (``easy``, ``botSeconds`` 0), two spectators, every one of the six on
a WebSocket; ``turnSeconds`` 10, so that every turn sends its timer and people's stale timers
fire too (the run waits for them). The window runs from the first ``POST /players`` until the
last timer of the game has fired. Counted:

- REST requests and their bytes, WebSocket messages both ways (32 KB units) and their bytes
  (the client's side: what API Gateway bills and sends out);
- every AWS call by function and service, DynamoDB read/write request units by AWS's sizing
  rules, the tables table's item size at every version (from the stream) and the index writes
  between consecutive versions (lobby-index: whole item while waiting; watch- and
  deadline-index: keys only, two writes when a key moves);
- Lambda invocations and handler time (this machine's: slower than Lambda's arm64, so the
  duration cost is on the high side);
- SQS: the functions' sends, and the event source mapping's receives that delivered messages
  and its deletes (idle long polls are a fixed cost, not a game's);
- not per game: the sweeper (once a minute in AWS: its calls per run are reported apart).

Also measured: timers' lateness (a person who never moves, turn after turn, with the sweeper
off, so only timers end the turns) — the time from each deadline to the push of the forced
move, as the spectator's socket receives it.

Run: ``.venv/bin/python -m bench.bench_cost`` (5–25 minutes, with the machine's load);
``--hands 1 --dry`` for a quick look that writes nothing.

The parts: cost_games.py plays the games, cost_tally.py counts and prices them,
cost_report.py writes the rows, the notes and docs/DEPLOY.md's table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from bench import ROOT, Result, put_section, report
from bench.cost_games import Game, play, timeouts
from bench.cost_report import game_notes, game_rows, timers_row, write_deploy
from bench.cost_tally import PRICES, former_map_bytes, load_prices, rates, records, tally

COUNTS = ROOT / "bench" / "cost_counts.json"  # per stored change, read by bench/scale_model.py
HOOKS = ROOT / "bench" / "cost_hooks"
GAMES = (("harftet", 11), ("kastet", 11))
TIMEOUTS = 4


def _deployed_settings() -> dict[str, str]:
    """The settings a deployed cell runs with that the local stack leaves at their local
    defaults: the template's DeadlineStepSeconds (the deadline index's step)."""
    from harftet.store.schema import load_template

    parameters = load_template(ROOT / "template.yaml")["Parameters"]
    return {"DEADLINE_STEP_SECONDS": str(parameters["DeadlineStepSeconds"]["Default"])}


def _logging_as_deployed() -> dict[str, str]:
    """The handlers log and publish metrics as in AWS, so that their lines can be counted
    (bench/cost_logs.py): powertools' metrics on (the local stack turns them off), the level
    Lambda gives them (AWS_LAMBDA_LOG_LEVEL from template.yaml's LoggingConfig; without one,
    powertools' own default, INFO)."""
    from bench.cost_tally import log_config

    deployed = log_config().environment()
    return {"POWERTOOLS_METRICS_DISABLED": "false", "LOG_LEVEL": "INFO", **deployed}


@contextlib.contextmanager
def counted_stack(prefix: str) -> Iterator[tuple[Any, Path]]:
    """A local stack whose every AWS call is counted into the yielded folder; stopped after."""
    from harftet.localstack.launcher import launch

    with tempfile.TemporaryDirectory(prefix=prefix) as workdir:
        calls = Path(workdir) / "calls"
        calls.mkdir()
        path = os.pathsep.join(filter(None, [str(HOOKS), str(ROOT), os.environ.get("PYTHONPATH")]))
        with mock.patch.dict(os.environ, {"PYTHONPATH": path, "HARFTET_COUNT_CALLS": str(calls)}):
            stack = launch(
                Path(workdir) / "stack",
                env={**_logging_as_deployed(), **_deployed_settings()},
                sweep_seconds=60,
                timeout=180,
            )
        try:
            yield stack, calls
        finally:
            stack.stop()


def measure(limit: float = 900.0, hands: int | None = None) -> dict[str, Any]:
    """Launch a counted local stack, play the games and the timeouts; the raw figures."""
    with counted_stack("harftet-cost-") as (stack, calls):
        games = [Game(kind, hands or n) for kind, n in GAMES]
        for n, game in enumerate(games):
            asyncio.run(play(stack.base_url, stack.ws_url, game, 1000 + n, limit))
        try:
            late = asyncio.run(timeouts(stack.base_url, stack.ws_url, TIMEOUTS))
        except Exception as error:  # the games' figures stand without it
            print(f"timer lateness not measured: {error!r}")
            late = []
        time.sleep(1.0)
        counted = records(calls)
        tables_table = stack.env["TABLES_TABLE"]
    return {"games": games, "records": counted, "late": late, "tables_table": tables_table}


def run(
    limit: float = 900.0, hands: int | None = None, docs: bool = True
) -> tuple[list[Result], list[str]]:
    """RESULTS.md rows and notes."""
    prices = load_prices()
    measured = measure(limit, hands)
    rows: list[Result] = []
    notes: list[str] = []
    price_date = json.loads(PRICES.read_text(encoding="utf-8"))["date"]
    notes.append(
        f"Prices: bench/prices.json (us-east-1 list prices of {price_date}, sources there). "
        "Pushes are deltas (`harftet.api.delta`), whole views to a socket that may lack the "
        "version before; each socket applies them as the web client does and asks for a sync "
        "when one does not fit."
    )
    counts: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "source": "bench/bench_cost.py"}
    for game in measured["games"]:
        t = tally(game, measured["records"], prices, measured["tables_table"])
        rows += game_rows(game, t)
        notes += game_notes(game, t, prices)
        counts[game.kind] = rates(game, t)
        if game.kind == "harftet" and docs:
            write_deploy(game, t, prices, price_date)
    if docs:
        COUNTS.write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    notes.append(
        "The former item kept the last 32 `{playerId}:{moveId}` keys: with these games' 32-hex "
        f"player ids that map alone was about {former_map_bytes()} B (item ≈ median + "
        f"{former_map_bytes() - 70} B, 2–3 write units a change); it is about 70 B now."
    )
    late = measured["late"]
    if late:
        rows.append(timers_row(late))
    return rows, notes


SECTION = "## What a game costs (bench/bench_cost.py)"


def write_section(rows: list[Result], notes: list[str], results: Path) -> None:
    """Put this run's rows and notes into RESULTS.md as its own section (replacing the last
    one), so the cost benchmark can run alone: ``python -m bench.bench_cost``."""
    import platform
    from datetime import UTC, datetime

    intro = (
        f"Run alone (`python -m bench.bench_cost`) on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.system()} {platform.machine()}, nproc {os.cpu_count()}, load average at "
        f"the end {report.load_average()}. Targets are the baselines: the ratio must be ≤ 1."
    )
    put_section(results, SECTION, report.section(SECTION, intro, rows, notes))


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, help="hands a game (a quick look; default 11)")
    parser.add_argument(
        "--dry", action="store_true", help="print only: write no RESULTS.md, DEPLOY.md or counts"
    )
    args = parser.parse_args()
    rows, notes = run(hands=args.hands, docs=not args.dry)
    for row in rows:
        print(
            f"{row.name}: {row.value:.2f} {row.unit} ({row.detail}) "
            f"vs {row.baseline} → {row.passed}"
        )
    print("\n".join(notes))
    if not args.dry:
        write_section(rows, notes, ROOT / "bench" / "RESULTS.md")


if __name__ == "__main__":
    main()
