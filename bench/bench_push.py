"""The size of a WebSocket push over whole games of both kinds: deltas against whole views.

Whole 4-player games of Kastet and Harftet between computer players (real rules and
dictionary): seats taken, the start, every move, now and then a connection dropping and
coming back. At every stored version each receiver — the four seats and a spectator — is
pushed what the fan-out sends it (``harftet.api.delta.view_delta`` of its view before and
after, as compact JSON); the baseline is the push of the same run's whole view, which every
push was before (``{"type": "table", "view"}``).

Targets (issue 19): median push ≤ 600 B, p99 ≤ 2 KB. The largest pushes are those at a hand's
end: every rack turned over (RULES §5) and, in the same version, the next deal.

Run: ``.venv/bin/python -m bench.bench_push [--hands 11]``.
"""

from __future__ import annotations

import argparse
from typing import Any

from bench import Result, median, percentile
from bench.whole_games import versions
from harftet.api.delta import size, view_delta
from harftet.engine.view import table_view

MEDIAN_TARGET = 600
P99_TARGET = 2048
HANDS = 11  # a whole game with the tables' default options
GAMES = (("kastet", 4, 3), ("harftet", 4, 8))  # (game, seats, seed)


def measure(hands: int = HANDS) -> dict[str, Any]:
    """Push sizes (bytes) by game: every delta and every whole view, and the versions."""
    out: dict[str, Any] = {"hands": hands, "games": {}}
    for game, players, seed in GAMES:
        viewers: list[str | None] = [*(f"p{i}" for i in range(players)), None]
        held: dict[str | None, dict[str, Any]] = {}
        deltas: list[int] = []
        wholes: list[int] = []
        count = 0
        for version, table in enumerate(versions(game, players, hands, seed), start=1):
            count += 1
            for viewer in viewers:
                view = table_view(table, viewer)
                view["version"] = version
                if viewer in held:
                    deltas.append(size(view_delta(held[viewer], view)))
                    wholes.append(size({"type": "table", "view": view}))
                held[viewer] = view
        out["games"][game] = {"deltas": deltas, "wholes": wholes, "versions": count}
    return out


def to_results(summary: dict[str, Any]) -> list[Result]:
    """RESULTS.md rows: each game's median and p99 delta against the targets."""
    rows = []
    for game, found in summary["games"].items():
        deltas, wholes = found["deltas"], found["wholes"]
        where = (
            f"{len(deltas)} pushes to 4 seats + a spectator over a {summary['hands']}-hand "
            f"game of {found['versions']} versions"
        )
        rows += [
            Result(
                name=f"push size: median, whole {game.capitalize()} game",
                value=median(deltas),
                unit="B",
                detail=f"delta; {where}",
                baseline_name="target",
                baseline=MEDIAN_TARGET,
                baseline_detail=f"same run's whole view: {median(wholes):.0f} B",
                goal=1.0,
            ),
            Result(
                name=f"push size: p99, whole {game.capitalize()} game",
                value=percentile(deltas, 0.99),
                unit="B",
                detail=f"delta; largest {max(deltas)} B; "
                f"{sum(d > P99_TARGET for d in deltas)} over {P99_TARGET} B",
                baseline_name="target",
                baseline=P99_TARGET,
                baseline_detail=f"same run's whole view: p99 {percentile(wholes, 0.99):.0f} B",
                goal=1.0,
            ),
        ]
    return rows


def run(hands: int = HANDS) -> list[Result]:
    """``make bench``: both rows."""
    return to_results(measure(hands))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=HANDS)
    args = parser.parse_args()
    for result in run(args.hands):
        verdict = {True: "PASS", False: "MISS", None: ""}[result.passed]
        print(f"{result.name}: {result.value:.0f} {result.unit} ({result.detail}) {verdict}")


if __name__ == "__main__":
    main()
