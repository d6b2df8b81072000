"""How long Harftet hands last against the computer players, and which words they lay
(RULES §4a, issue 37): seeded one-hand, 4-seat games.

Run: ``nice -n 10 .venv/bin/python -m bench.bench_hand_length [--games N] [--workers W]
[--level L] [--out FILE] [--also FILE] [--shard k/n] [--summary]`` (``--out``: one JSON line
per hand as it ends, resumed by a run on the same file; ``--shard k/n``: only the seeds s with
s % n == k, beside another shard's file read with ``--also``).

Cells, each over seeds ``1..N`` (the deal is ``bench_strength.new_hand("harftet", seed)``):

- **a person who only draws** at seat ``seed % 4`` (so it rotates through the four seats)
  against three computer players of a level: the share of deals where the hand ends before
  the person's second turn (goal ≤ 10 % at every level) and where the person gets a third
  turn (goal ≥ 80 % at hard, ≥ 60 % at expert);
- **four computer players of a level** (hard and expert): rounds per hand (turns begun / 4),
  median (goal ≥ 6 at hard, ≥ 4 at expert);
- **the words laid** in both kinds of hand (every meld a computer player's lay creates or
  changes): the share inside the level's vocabulary (goal ≥ 95 %), words of the blocked
  list (goal 0), and a seeded sample of 200 per level that the build's morphology
  (``bench.words_audit``) calls an inflected form or a name (goal 0);
- draws where the level had a lay by its own rules (its vocabulary, moves, tile limit: the
  same player with 20 times its budget, asked at each of its draws at the person's tables;
  ``--check-draws N``, seeds 1..N): informational, beside the budget fallback.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor

from bench import Result, jsonl_rows, jsonl_sink
from bench.bench_strength import new_hand
from harftet.engine import bot
from harftet.engine.hand import apply_move
from harftet.engine.moves import Draw, Lay, Move, Pass
from harftet.engine.rules import rules_for
from harftet.engine.search import BOT_LEVELS
from harftet.engine.state import Table

GAMES = 400
PERSON = "person"  # a seat that only draws (passes at 22 tiles or an empty pile)
EARLY_GOAL = 10.0  # % of deals over before the person's second turn, at most
THIRD_TURN_GOAL = {"hard": 80.0, "expert": 60.0}  # % of deals with a third turn, at least
ROUNDS_GOAL = {"hard": 6.0, "expert": 4.0}  # median rounds at four-computer tables
FOUR = ("hard", "expert")  # the levels with a goal on rounds (four-easy hands run 80 turns)

Task = tuple[str, str, int]  # kind ("person" | "four"), level, seed


def _new_words(before: Table, lay: Lay) -> list[str]:
    """The words of the melds ``lay`` creates or changes (a meld whose tiles were not one
    table meld before)."""
    rules = rules_for("harftet")
    old = {tuple(sorted(p.id for p in m)) for m in before.series}
    out = []
    for meld in (*lay.series, *lay.pairs):
        if tuple(sorted(p.id for p in meld)) not in old:
            out.append("".join(str(f) for f in rules.faces(meld)))
    return out


def play(kind: str, level: str, seed: int) -> dict[str, object]:
    """One seeded hand: three ``level`` players and a person who draws (``kind`` "person",
    at seat ``seed % 4``), or four ``level`` players (``kind`` "four")."""
    started = time.process_time()
    table = new_hand("harftet", seed)
    person = seed % 4 if kind == PERSON else None
    turns = [0, 0, 0, 0]
    total = 0
    last = None
    moves = 0
    words: list[str] = []
    while table.status == "playing":
        seat = table.turn_seat
        assert seat is not None
        if seat != last:
            turns[seat] += 1
            total += 1
            last = seat
        move: Move
        if seat == person:
            move = Draw() if len(table.seats[seat].hand) < 22 and table.pile else Pass()
        else:
            move = bot.choose_move(table, seat, level)  # type: ignore[arg-type]
            if isinstance(move, Lay):
                words += _new_words(table, move)
        table = apply_move(table, seat, move, float(moves)).table
        moves += 1
        if moves > 5000:
            raise RuntimeError(f"seed {seed}: the hand does not end")
    (result,) = table.hand_results
    return {
        "kind": kind,
        "level": level,
        "seed": seed,
        "person": person,
        "person_turns": None if person is None else turns[person],
        "turns": total,
        "finisher": result.finisher,
        "words": words,
        "cpu_s": round(time.process_time() - started, 3),
    }


def _task(task: Task) -> dict[str, object]:
    return play(*task)


def draws_with_a_lay(level: str, seed: int) -> tuple[int, int]:
    """At a person's table of three ``level`` players: their draws, and those at which the
    same player with 20 times its budget would have laid."""
    import dataclasses

    from harftet.engine.bots import harftet as bots

    table = new_hand("harftet", seed)
    person, draws, missed, moves = seed % 4, 0, 0, 0
    patient = dataclasses.replace(bots.PEOPLE[level], budget_ms=bots.PEOPLE[level].budget_ms * 20)
    while table.status == "playing" and moves < 5000:
        seat = table.turn_seat
        assert seat is not None
        if seat == person:
            move: Move = Draw() if len(table.seats[seat].hand) < 22 and table.pile else Pass()
        else:
            move = bot.choose_move(table, seat, level)  # type: ignore[arg-type]
            if isinstance(move, Draw):
                draws += 1
                saved, bots.PEOPLE[level] = bots.PEOPLE[level], patient
                try:
                    missed += bots.proposal(table, seat, level) is not None  # type: ignore[arg-type]
                finally:
                    bots.PEOPLE[level] = saved
        table = apply_move(table, seat, move, float(moves)).table
        moves += 1
    return draws, missed


def _draw_task(task: tuple[str, int]) -> tuple[str, int, int]:
    return (task[0], *draws_with_a_lay(*task))


def draw_rows(seeds: int, levels: Iterable[str], workers: int = 2) -> list[Result]:
    """One informational row per level: draws at which a lay by its own rules existed."""
    todo = [(level, seed) for level in levels for seed in range(1, seeds + 1)]
    totals: dict[str, list[int]] = {}
    with ProcessPoolExecutor(max_workers=min(workers, 2)) as pool:
        for level, draws, missed in pool.map(_draw_task, todo, chunksize=4):
            got = totals.setdefault(level, [0, 0])
            got[0] += draws
            got[1] += missed
    return [
        Result(
            name=f"Harftet {level}: draws with a lay by its own rules",
            value=100 * missed / max(draws, 1),
            unit="%",
            detail=f"{missed} of {draws} draws in {seeds} person's tables (seeds 1–{seeds}); "
            "the same player on 20 × its budget",
        )
        for level, (draws, missed) in totals.items()
    ]


def tasks(games: int, levels: Iterable[str]) -> list[Task]:
    """Seed by seed, so that a run cut short has every cell on the same seeds."""
    return [
        (kind, level, seed)
        for seed in range(1, games + 1)
        for level in levels
        for kind in (PERSON, "four")
        if kind == PERSON or level in FOUR
    ]


def _span(outs: list[dict[str, object]]) -> str:
    seeds = sorted(int(str(o["seed"])) for o in outs)
    whole = seeds == list(range(seeds[0], seeds[-1] + 1))
    return f"seeds {seeds[0]}–{seeds[-1]}" if whole else f"{len(seeds)} seeds"


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def person_rows(level: str, outs: list[dict[str, object]]) -> tuple[list[Result], str]:
    """The person's turns at a table of three ``level`` players."""
    n = len(outs)
    early = 100 * sum(int(str(o["person_turns"])) < 2 for o in outs) / n
    third = 100 * sum(int(str(o["person_turns"])) >= 3 for o in outs) / n
    span = _span(outs)
    rows = [
        Result(
            name=f"Harftet 3 × {level} + a person who draws: over before the person's 2nd turn",
            value=early,
            unit="%",
            detail=f"{n} deals, {span}, person's seat rotating, goal ≤ {EARLY_GOAL:.0f} % "
            + _verdict(early <= EARLY_GOAL),
        )
    ]
    goal = THIRD_TURN_GOAL.get(level)
    rows.append(
        Result(
            name=f"Harftet 3 × {level} + a person who draws: the person gets a 3rd turn",
            value=third,
            unit="%",
            detail=f"{n} deals, {span}"
            + ("" if goal is None else f", goal ≥ {goal:.0f} % {_verdict(third >= goal)}"),
        )
    )
    turns = statistics.mean(int(str(o["person_turns"])) for o in outs)
    note = (
        f"3 × {level} + a person who draws: {n} deals ({span}); over before the person's "
        f"second turn {early:.1f} %, a third turn {third:.1f} %, the person's turns "
        f"{turns:.1f} on average"
    )
    return rows, note


def four_rows(level: str, outs: list[dict[str, object]]) -> tuple[list[Result], str]:
    """Rounds per hand at a table of four ``level`` players."""
    n = len(outs)
    rounds = [int(str(o["turns"])) / 4 for o in outs]
    med = statistics.median(rounds)
    goal = ROUNDS_GOAL.get(level)
    span = _span(outs)
    row = Result(
        name=f"Harftet 4 × {level}: rounds per hand (median)",
        value=med,
        unit="rounds",
        detail=f"{n} deals, {span}; mean {statistics.mean(rounds):.1f}, p10 "
        f"{sorted(rounds)[n // 10]:.1f}"
        + ("" if goal is None else f", goal ≥ {goal:.0f} {_verdict(med >= goal)}"),
    )
    blocked = sum(o["finisher"] is None for o in outs)
    cpu = statistics.mean(float(str(o["cpu_s"])) for o in outs)
    note = (
        f"4 × {level}: {n} deals ({span}); rounds per hand median {med:.2f}, mean "
        f"{statistics.mean(rounds):.2f}; {blocked} hands ended with no finisher; "
        f"{cpu:.2f} s CPU a hand"
    )
    return [row], note


def summarise(outcomes: list[dict[str, object]]) -> tuple[list[Result], list[str]]:
    """Rows with PASS/MISS against the goals, and notes."""
    from bench.words_audit import word_rows

    groups: dict[tuple[str, str], list[dict[str, object]]] = {}
    for o in outcomes:
        groups.setdefault((str(o["kind"]), str(o["level"])), []).append(o)
    rows: list[Result] = []
    notes: list[str] = []
    for level in BOT_LEVELS:
        for kind, make in ((PERSON, person_rows), ("four", four_rows)):
            outs = groups.get((kind, level))
            if outs:
                got, note = make(level, outs)
                rows += got
                notes.append(note)
        laid = [w for k in (PERSON, "four") for o in groups.get((k, level), []) for w in _words(o)]
        if laid:
            got_rows, got_notes = word_rows(level, laid)
            rows += got_rows
            notes += got_notes
    return rows, notes


def _words(outcome: dict[str, object]) -> list[str]:
    words = outcome["words"]
    assert isinstance(words, list)
    return [str(w) for w in words]


def _read(paths: Iterable[str]) -> list[dict[str, object]]:
    found = {(o["kind"], o["level"], o["seed"]): o for o in jsonl_rows(paths)}
    return list(found.values())


def run(
    games: int = GAMES,
    workers: int = 2,
    levels: tuple[str, ...] = BOT_LEVELS,
    out: str | None = None,
    also: tuple[str, ...] = (),
    shard: tuple[int, int] = (0, 1),
) -> tuple[list[Result], list[str]]:
    """Play what is not in ``out`` or ``also`` yet (resume; with ``shard`` (k, n): only the
    seeds s with s % n == k, so that shards run as separate processes) and summarise all."""
    done = _read([out, *also] if out else also)
    have = {(o["kind"], o["level"], o["seed"]) for o in done}
    todo = [t for t in tasks(games, levels) if t not in have and t[2] % shard[1] == shard[0]]
    with jsonl_sink(out) as keep, ProcessPoolExecutor(max_workers=min(workers, 2)) as pool:
        for outcome in pool.map(_task, todo, chunksize=4):
            done.append(outcome)
            keep(outcome)
    return summarise([o for o in done if int(str(o["seed"])) <= games and o["level"] in levels])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="seeded deals per cell")
    parser.add_argument("--workers", type=int, default=2, help="processes (1 or 2)")
    parser.add_argument("--level", choices=BOT_LEVELS, action="append", help="only this level")
    parser.add_argument("--out", help="JSON lines of every hand (resumed if it exists)")
    parser.add_argument("--summary", action="store_true", help="only summarise --out")
    parser.add_argument(
        "--also", action="append", default=[], help="another shard's --out, read, not written"
    )
    parser.add_argument("--shard", default="0/1", help="k/n: only the seeds s with s %% n == k")
    parser.add_argument("--check-draws", type=int, default=0, help="seeds of the draw check")
    args = parser.parse_args()
    levels = tuple(args.level) if args.level else BOT_LEVELS
    if args.check_draws:
        rows, notes = draw_rows(args.check_draws, levels, args.workers), []
    elif args.summary:
        rows, notes = summarise(_read([args.out, *args.also]))
    else:
        k, n = (int(x) for x in args.shard.split("/"))
        rows, notes = run(args.games, args.workers, levels, args.out, tuple(args.also), (k, n))
    for r in rows:
        print(f"| {r.name} | {r.value:.1f} {r.unit} | {r.detail} |")
    for n in notes:
        print("-", n)


if __name__ == "__main__":
    main()
