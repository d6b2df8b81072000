"""The size of a WebSocket push over whole games of both kinds: deltas against whole views.

Whole 4-player games of Kastet and Harftet between computer players (real rules and
dictionary): seats taken, the start, every move, now and then a connection dropping and
coming back. At every stored version each receiver — the four seats and a spectator — is
pushed what the fan-out sends it (``harftet.api.delta.view_delta`` of its view before and
after, as compact JSON); the baseline is the push of the same run's whole view, which every
push was before (``{"type": "table", "view"}``).

Targets (issue 19): median push ≤ 600 B, p99 ≤ 2 KB. The largest pushes are those at a hand's
end: every rack turned over (RULES §5) and, in the same version, the next deal — their tiles
in the short tile form (``[p, "tiles", ids]``: a tile's id names its face).

Besides the medium players' games, a game like the cost benchmark's (bench/bench_cost.py): two
people who draw until their racks hold 22 tiles (then pass) and two easy computer players, so
that a hand often ends with the pile empty and four full racks turned over — the largest
pushes there are.

Run: ``.venv/bin/python -m bench.bench_push [--hands 11] [--write]`` (``--write``: its own
section of bench/RESULTS.md).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from bench import Result, median, percentile, put_section, report
from bench.whole_games import begun, played, versions
from harftet.api.delta import size, view_delta
from harftet.engine.bot import choose_move
from harftet.engine.hand import apply_move
from harftet.engine.state import Occupant, Table
from harftet.engine.view import table_view

MEDIAN_TARGET = 600
P99_TARGET = 2048
HANDS = 11  # a whole game with the tables' default options
GAMES = (("kastet", 4, 3), ("harftet", 4, 8))  # (game, seats, seed)
HOARDERS = (("kastet", 4, 1001), ("harftet", 4, 1000))  # people who draw to 22, easy players
HAND_CAP = 22


def hoarders(game: str, players: int, hands: int, seed: int) -> Iterator[Table]:
    """Every stored version of a game like bench_cost's: seats 0 and 1 draw until they hold
    22 tiles (then pass), the others are easy computer players."""
    from harftet.engine.moves import Draw, Pass

    def turn(table: Table, seat: int, now: float) -> Table:
        if seat in (0, 1):
            full = len(table.seats[seat].hand) >= HAND_CAP or not table.pile
            move: Any = Pass() if full else Draw()
        else:
            move = choose_move(table, seat, "easy")
        return apply_move(table, seat, move, now).table

    now = 1_800_000_000.0
    people = [Occupant(f"{i:032x}", f"Kişi {i}") for i in range(players)]
    table = yield from begun("c1.AbCdEfGhIjKl", game, people, hands, seed, now)
    yield from played(table, players, now, 2.0, turn)


def measure(hands: int = HANDS) -> dict[str, Any]:
    """Push sizes (bytes) by game: every delta and every whole view, and the versions."""
    out: dict[str, Any] = {"hands": hands, "games": {}}
    plays = [(g, p, s, versions, "") for g, p, s in GAMES]
    plays += [(g, p, s, hoarders, " (people drawing to 22)") for g, p, s in HOARDERS]
    for game, players, seed, play, label in plays:
        ids = [f"{i:032x}" if play is hoarders else f"p{i}" for i in range(players)]
        viewers: list[str | None] = [*ids, None]
        held: dict[str | None, dict[str, Any]] = {}
        deltas: list[int] = []
        wholes: list[int] = []
        count = 0
        for version, table in enumerate(play(game, players, hands, seed), start=1):
            count += 1
            for viewer in viewers:
                view = table_view(table, viewer)
                view["version"] = version
                if viewer in held:
                    deltas.append(size(view_delta(held[viewer], view)))
                    wholes.append(size({"type": "table", "view": view}))
                held[viewer] = view
        out["games"][game + label] = {"deltas": deltas, "wholes": wholes, "versions": count}
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
                name=f"push size: median, whole {game[0].upper() + game[1:]} game",
                value=median(deltas),
                unit="B",
                detail=f"delta; {where}",
                baseline_name="target",
                baseline=MEDIAN_TARGET,
                baseline_detail=f"same run's whole view: {median(wholes):.0f} B",
                goal=1.0,
            ),
            Result(
                name=f"push size: p99, whole {game[0].upper() + game[1:]} game",
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
    parser.add_argument("--write", action="store_true", help="its own section of RESULTS.md")
    args = parser.parse_args()
    results = run(args.hands)
    for result in results:
        verdict = {True: "PASS", False: "MISS", None: ""}[result.passed]
        print(f"{result.name}: {result.value:.0f} {result.unit} ({result.detail}) {verdict}")
    if args.write:
        write_section(results)


SECTION = "## Push size (bench/bench_push.py)"


def write_section(results: list[Result]) -> None:
    """This run's rows as their own RESULTS.md section (replacing the last one), after the
    cost section, so that the push sizes can be measured alone."""
    import platform
    from datetime import UTC, datetime

    from bench import ROOT

    path = ROOT / "bench" / "RESULTS.md"
    intro = (
        f"Run alone (`python -m bench.bench_push --write`) on {datetime.now(UTC):%Y-%m-%d %H:%M}"
        f" UTC, {platform.system()} {platform.machine()}, load average {report.load_average()}."
        " Sizes are bytes, not times: the load does not move them."
    )
    put_section(path, SECTION, report.section(SECTION, intro, results))


if __name__ == "__main__":
    main()
