"""How strong the computer players are: seeded one-hand, 4-player games of each game.

Run: ``.venv/bin/python -m bench.bench_strength [--games N] [--workers W] [--game G]
[--matchup STRONG:WEAK] [--out FILE]`` (part of ``make bench``; about a few minutes on 2
cores; ``--out``: one JSON line per hand as it ends, resumed by a run on the same file).

Matchups, each over ``--games`` seeded one-hand games per game (the strong seat rotates
through the four seats): ``expert`` and ``hard`` against three greedy players (a greedy
player lays the most valuable new meld or word from its own hand alone, else draws). The
figure is the share of hands where the strong seat has the strictly lowest penalty (an
equal player gets 25 %; the goal for expert against greedy is ≥ 60 %), and ``expert``
against three ``hard`` (today's full search against the level that models a person). Every
``expert``
and ``hard`` draw is checked: would a lay that sheds value have existed (the hint's
search, on a larger budget)? Players act through ``bot.choose_move``, so
Kastet uses its own computer players once they are there.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from bench import Result, jsonl_rows, jsonl_sink
from harftet.engine import bot
from harftet.engine.hand import apply_move, deal
from harftet.engine.moves import Draw, Lay, Move, Pass
from harftet.engine.rules import MAX_SERIES
from harftet.engine.state import Occupant, Placed, Seat, Table
from harftet.engine.tiles import KASTET_TILES

GAMES = 400
MATCHUPS = (("expert", "greedy"), ("expert", "hard"), ("hard", "greedy"))
"""``expert`` (the full search, what ``hard`` was before the levels modelled people) against
the greedy baseline, whose rows before the levels read ``hard vs 3 × greedy``; the ladder
between the levels is bench/bench_levels.py."""
STRONG = ("hard", "expert")  # draws checked for a lay that existed
GAME_NAMES = ("harftet", "kastet")

Player = Callable[[Table, int], Move]


def new_hand(game: str, seed: int, now: float = 0.0) -> Table:
    """A started 4-seat, one-hand table of computer players, dealt at ``now``."""
    table = Table(
        table_id=f"strength-{seed}",
        game=game,  # type: ignore[arg-type]
        seed=seed,
        manager="p0",
        hands=1,
        status="playing",
        seats=[Seat(occupant=Occupant(f"p{i}", f"p{i}", bot=True)) for i in range(4)],
        hand_number=1,
    )
    deal(table, now)
    return table


# --- the greedy player ----------------------------------------------------------------------


def _kastet_new_meld(table: Table, hand: list[int]) -> list[Placed] | None:
    """The most valuable run or set from the hand alone (no jokers, no table tiles)."""
    by_face: dict[tuple[str, int], int] = {}
    for t in sorted(hand):
        tile = KASTET_TILES[t]
        if not tile.joker and tile.number is not None:
            by_face.setdefault((tile.color, tile.number), t)
    best: tuple[int, list[int]] | None = None

    def offer(ids: list[int]) -> None:
        nonlocal best
        value = sum(KASTET_TILES[t].value for t in ids)
        if len(ids) >= 3 and (best is None or value > best[0]):
            best = (value, ids)

    for color in ("red", "yellow", "blue", "black"):
        for start in range(1, 12):
            run: list[int] = []
            for n in range(start, 14):
                if (color, n) not in by_face:
                    break
                run.append(by_face[(color, n)])
                offer(list(run))
    for n in range(1, 14):
        group = [by_face[(c, n)] for c in ("red", "yellow", "blue", "black") if (c, n) in by_face]
        offer(group)
    return None if best is None else [Placed(t) for t in best[1]]


def greedy_move(table: Table, seat: int) -> Move:
    """Lay the most valuable new meld or word from the hand alone, else draw (else pass)."""
    from harftet.engine.hand import legal_to_draw

    if len(table.series) < MAX_SERIES:
        if table.game == "harftet":
            from harftet.engine.search import harftet as search

            found = search.best_lay(table, seat, budget_ms=20.0, moves={"new"}, top=1)
            if found is not None:
                return found.lay
        else:
            meld = _kastet_new_meld(table, table.seats[seat].hand)
            if meld is not None:
                series = (*(tuple(m) for m in table.series), tuple(meld))
                return Lay(series)
    return Draw() if legal_to_draw(table, seat) else Pass()


def player(level: str) -> Player:
    if level == "greedy":
        return greedy_move
    return lambda table, seat: bot.choose_move(table, seat, level)  # type: ignore[arg-type]


def _lay_existed(table: Table, seat: int) -> tuple[bool, bool]:
    """Whether a lay that sheds value existed, and one that sheds more than jokers (hard
    keeps a joker that gains nothing on purpose). Harftet: the search on 4× hard's budget."""
    from harftet.engine.tiles import tiles_for

    if table.game == "harftet":
        from harftet.engine.search import harftet as search

        found = search.best_lay(table, seat, budget_ms=320.0)
    else:
        try:
            from harftet.engine.search import hint

            found = hint(table, seat)
        except ImportError:  # no Kastet search yet: the simple bot's lays
            return isinstance(bot.simple_move(table, seat), Lay), False
    if found is None:
        return False, False
    tiles = tiles_for(table.game)
    return True, any(not tiles[t].joker for t in found.tiles)


# --- one game -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandOutcome:
    strong_lowest: bool  # the strong seat alone has the lowest penalty
    penalties: tuple[int, ...]
    strong_seat: int
    hard_draws: int
    hard_draws_with_lay: int
    hard_draws_with_letter_lay: int  # the lay would have shed a tile other than a joker
    finished: bool
    seconds: float


def play_one(game: str, strong: str, weak: str, seed: int) -> HandOutcome:
    """One seeded hand: ``strong`` at seat ``seed % 4``, ``weak`` at the others."""
    started = time.perf_counter()
    table = new_hand(game, seed)
    strong_seat = seed % 4
    players = [player(strong if i == strong_seat else weak) for i in range(4)]
    draws = draws_with_lay = draws_with_letters = 0
    moves = 0
    while table.status == "playing":
        seat = table.turn_seat
        assert seat is not None
        move = players[seat](table, seat)
        if seat == strong_seat and strong in STRONG and isinstance(move, Draw):
            draws += 1
            existed, letters = _lay_existed(table, seat)
            draws_with_lay += existed
            draws_with_letters += letters
        table = apply_move(table, seat, move, float(moves)).table
        moves += 1
        if moves > 5000:
            raise RuntimeError(f"{game} seed {seed}: the hand does not end")
    (result,) = table.hand_results
    penalties = tuple(result.penalties)
    low = min(penalties)
    lowest = penalties[strong_seat] == low and penalties.count(low) == 1
    return HandOutcome(
        lowest,
        penalties,
        strong_seat,
        draws,
        draws_with_lay,
        draws_with_letters,
        result.finisher is not None,
        time.perf_counter() - started,
    )


def _task(args: tuple[str, str, str, int]) -> tuple[tuple[str, str, str], HandOutcome]:
    game, strong, weak, seed = args
    return (game, strong, weak), play_one(game, strong, weak, seed)


def run(
    games: int = GAMES,
    workers: int | None = None,
    game_names: tuple[str, ...] = GAME_NAMES,
    matchups: tuple[tuple[str, str], ...] = MATCHUPS,
    out: str | None = None,
) -> tuple[list[Result], list[str]]:
    """Every matchup of every game; rows (informational, the goal in the detail) and notes.
    With ``out``, every hand's outcome is a JSON line there as it ends, and the hands an
    earlier run wrote to it are not played again."""
    tasks = [
        (game, strong, weak, seed)
        for game in game_names
        for strong, weak in matchups
        for seed in range(1, games + 1)
    ]
    results: dict[tuple[str, str, str], list[HandOutcome]] = {}
    played: set[tuple[str, str, str, int]] = set()
    for row in jsonl_rows([out] if out else []):  # resume: the hands an earlier run wrote
        task = (row.pop("game"), row.pop("strong"), row.pop("weak"), row.pop("seed"))
        if task in tasks and task not in played:
            played.add(task)
            row["penalties"] = tuple(row["penalties"])
            results.setdefault(task[:3], []).append(HandOutcome(**row))
    todo = [t for t in tasks if t not in played]
    workers = workers or min(2, os.cpu_count() or 1)
    started = time.perf_counter()
    with jsonl_sink(out) as keep, ProcessPoolExecutor(max_workers=workers) as pool:
        for (key, outcome), task in zip(pool.map(_task, todo, chunksize=8), todo, strict=True):
            results.setdefault(key, []).append(outcome)
            line = {"game": key[0], "strong": key[1], "weak": key[2], "seed": task[3]}
            keep({**line, **asdict(outcome)})
    elapsed = time.perf_counter() - started
    rows: list[Result] = []
    notes: list[str] = [
        f"{len(todo)} hands on {workers} processes in {elapsed:.0f} s"
        + (f" ({len(tasks) - len(todo)} more from an earlier run, {out})" if played else "")
    ]
    for (game, strong, weak), outs in results.items():
        share = 100 * sum(o.strong_lowest for o in outs) / len(outs)
        goal = 60.0 if (strong, weak) == ("expert", "greedy") else None
        draws = sum(o.hard_draws for o in outs)
        with_lay = sum(o.hard_draws_with_lay for o in outs)
        with_letters = sum(o.hard_draws_with_letter_lay for o in outs)
        detail = f"{len(outs)} hands, par 25 %" + (f", goal ≥ {goal:.0f} %" if goal else "")
        if strong in STRONG:
            detail += (
                f"; {strong} drew {draws}×, {with_lay}× when a lay existed "
                f"({with_letters}× one shedding more than jokers)"
            )
        rows.append(
            Result(
                name=f"{game.capitalize()} strength: {strong} vs 3 × {weak}",
                value=share,
                unit="%",
                detail=detail,
            )
        )
        strong_pen = statistics.mean(o.penalties[o.strong_seat] for o in outs)
        weak_pen = statistics.mean(
            p for o in outs for i, p in enumerate(o.penalties) if i != o.strong_seat
        )
        notes.append(
            f"{game} {strong} vs 3 × {weak}: strictly lowest penalty in {share:.1f} % of "
            f"{len(outs)} hands; mean penalty {strong_pen:.1f} (strong) vs {weak_pen:.1f} "
            f"(each other); {100 * sum(o.finished for o in outs) / len(outs):.0f} % of hands "
            f"finished; {statistics.mean(o.seconds for o in outs):.2f} s a hand"
            + (
                f"; {strong} draws {draws}, of which with a lay that sheds value {with_lay} "
                f"(one shedding more than a kept joker: {with_letters})"
                if strong in STRONG
                else ""
            )
        )
    return rows, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="hands per matchup and game")
    parser.add_argument("--workers", type=int, default=None, help="processes (default 2)")
    parser.add_argument("--game", choices=GAME_NAMES, action="append", help="only this game")
    parser.add_argument(
        "--matchup", action="append", help="only this matchup, as strong:weak (expert:hard)"
    )
    parser.add_argument("--out", help="JSON lines of every hand (resumed if it exists)")
    args = parser.parse_args()
    names = tuple(args.game) if args.game else GAME_NAMES
    matchups = (
        tuple((m.split(":")[0], m.split(":")[1]) for m in args.matchup)
        if args.matchup
        else MATCHUPS
    )
    rows, notes = run(args.games, args.workers, names, matchups, args.out)
    for r in rows:
        print(f"{r.name}: {r.value:.1f} % ({r.detail})")
    for n in notes:
        print("-", n)


if __name__ == "__main__":
    main()
