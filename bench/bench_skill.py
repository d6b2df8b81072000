"""Skill (issue 38, RULES §8): does the OpenSkill rating find who is stronger, and at what
fixed rating does each computer level count.

Run: ``.venv/bin/python -m bench.bench_skill [--games N] [--hands H] [--levels HANDS]
[--write]`` (part of ``make bench``; ``--write``: this section of bench/RESULTS.md alone,
with bench/bench_leagues.py's rows).

- Kendall τ: 40 players of known strength — the computer levels as stand-ins, 10 each of
  easy, medium, hard and expert — play ``--games`` (200) rated 4-seat Harftet games of
  ``--hands`` hands each, four drawn at random per game, every move the engine's own
  (``bot.choose_move``); each game's final order (total penalty, ties shared) rates all four
  through ``harftet.rating.rate``. The row is τ-b between the true level and the rating's
  μ (goal ≥ 0.8).
- ``--levels``: the fixed ratings of ``harftet.rating.LEVEL_MU``. For each rung of the
  ladder (bench_levels: a level against three of the level below) it plays seeded hands and
  solves for the μ at which OpenSkill's ``predict_win`` gives the stronger seat its measured
  share of pairs won (its penalty below a weaker seat's), ``medium`` anchored at the model's
  default μ.
"""

from __future__ import annotations

import argparse
import random
import statistics
from itertools import combinations

from bench import Result
from bench.bench_strength import new_hand
from harftet.engine import bot
from harftet.engine.hand import apply_move
from harftet.rating import BOT_SIGMA, MU, Rating, predict_win, rate
from harftet.skill.records import ranks_of

LEVELS = ("easy", "medium", "hard", "expert")
GAMES = 200
HANDS = 3
PLAYERS_PER_LEVEL = 10
GOAL_TAU = 0.8


def hand(game: str, seed: int, levels: list[str]) -> list[int]:
    """One seeded 4-seat hand with ``levels`` by seat: each seat's penalty."""
    table = new_hand(game, seed)
    moves = 0
    while table.status == "playing":
        seat = table.turn_seat
        assert seat is not None
        move = bot.choose_move(table, seat, levels[seat])  # type: ignore[arg-type]
        table = apply_move(table, seat, move, float(moves)).table
        moves += 1
        if moves > 5000:
            raise RuntimeError(f"{game} seed {seed}: the hand does not end")
    (result,) = table.hand_results
    return list(result.penalties)


def tau_b(x: list[float], y: list[float]) -> float:
    """Kendall's τ-b (ties in either order counted as neither concordant nor discordant)."""
    concordant = discordant = ties_x = ties_y = 0
    for i, j in combinations(range(len(x)), 2):
        dx, dy = x[i] - x[j], y[i] - y[j]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    denominator = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator else 0.0


def kendall(games: int = GAMES, hands: int = HANDS, seed: int = 38) -> tuple[Result, list[str]]:
    """The τ row: rated games among 40 computer players of the four levels."""
    rng = random.Random(seed)
    truth = [level for level in LEVELS for _ in range(PLAYERS_PER_LEVEL)]
    ratings = [Rating() for _ in truth]
    for g in range(games):
        seats = rng.sample(range(len(truth)), 4)
        totals = [0, 0, 0, 0]
        for h in range(hands):
            penalties = hand("harftet", 1 + g * hands + h, [truth[s] for s in seats])
            totals = [a + b for a, b in zip(totals, penalties, strict=True)]
        after = rate([[ratings[s]] for s in seats], ranks_of(totals))
        for s, (new,) in zip(seats, after, strict=True):
            ratings[s] = new
    tau = tau_b([float(LEVELS.index(t)) for t in truth], [r.mu for r in ratings])
    means = {
        level: statistics.mean(r.mu for r, t in zip(ratings, truth, strict=True) if t == level)
        for level in LEVELS
    }
    verdict = "PASS" if tau >= GOAL_TAU else "MISS"
    row = Result(
        name=f"skill: Kendall τ-b × 100, true order vs rating, {games} rated games, 40 players",
        value=100 * tau,
        unit="",
        detail=f"τ-b {tau:.3f}; 4-seat Harftet games of {hands} hands, 10 computer players "
        f"of each level; goal ≥ {GOAL_TAU} {verdict}; mean μ "
        + ", ".join(f"{k} {v:.1f}" for k, v in means.items()),
    )
    games_each = statistics.mean(r.games for r in ratings)
    return row, [f"kendall: τ-b {tau:.3f}; {games_each:.0f} games a player on average"]


def pair_share(hands: list[tuple[int, list[int]]]) -> float:
    """The share of (hand, weaker seat) pairs in which the strong seat has the lower penalty
    (an equal penalty: half): the ladder read pairwise, as OpenSkill predicts a pair."""
    won = 0.0
    for strong, penalties in hands:
        for seat, penalty in enumerate(penalties):
            if seat != strong:
                won += (
                    1.0
                    if penalties[strong] < penalty
                    else 0.5
                    if penalties[strong] == penalty
                    else 0
                )
    return won / (3 * len(hands))


def solve(weak_mu: float, share: float) -> float:
    """The μ at which OpenSkill predicts ``share`` of wins for one seat against one at
    ``weak_mu`` (both at the computer players' σ)."""
    low, high = weak_mu - 100, weak_mu + 100
    share = min(max(share, 0.005), 0.995)
    weak = Rating(weak_mu, BOT_SIGMA)
    for _ in range(60):
        mid = (low + high) / 2
        p = predict_win([[Rating(mid, BOT_SIGMA)], [weak]])[0]
        low, high = (mid, high) if p < share else (low, mid)
    return (low + high) / 2


def levels(game: str, hands: int) -> tuple[dict[str, float], list[str]]:
    """The fixed μ of each level in ``game`` from the ladder's seeded hands, read pairwise
    (OpenSkill's ``predict_win`` of four teams never passes 50 %, and over 11-hand games the
    stronger level wins nearly always: the pairwise, per-hand reading is what a few hundred
    hands measure, and the conservative one)."""
    from bench.bench_levels import play

    mus = {"medium": MU}
    notes = []
    shares = {}
    for strong, weak in (("medium", "easy"), ("hard", "medium"), ("expert", "hard")):
        played = [play(game, strong, weak, seed) for seed in range(1, hands + 1)]
        sample = [(int(str(o["strong_seat"])), list(o["penalties"])) for o in played]  # type: ignore[call-overload]
        shares[(strong, weak)] = pair_share(sample)
    mus["easy"] = MU - (solve(MU, shares[("medium", "easy")]) - MU)
    mus["hard"] = solve(MU, shares[("hard", "medium")])
    mus["expert"] = solve(mus["hard"], shares[("expert", "hard")])
    for (strong, weak), share in shares.items():
        notes.append(f"{game} {strong} vs {weak}: lower penalty in {100 * share:.0f} % of "
                     f"pairs over {hands} seeded hands")  # fmt: skip
    notes.append(f"{game} levels' μ: " + ", ".join(f"{k} {mus[k]:.1f}" for k in LEVELS))
    return mus, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--levels", type=int, default=0, help="ladder hands per rung (0: skip)")
    parser.add_argument("--players", type=int, default=0, help="league roll-over (100,000)")
    parser.add_argument("--divisions", type=int, default=0, help="its divisions (3,400)")
    parser.add_argument("--write", action="store_true", help="write the section of RESULTS.md")
    args = parser.parse_args()
    lines = section(args.games, args.hands, args.levels, args.players, args.divisions)
    if args.write:
        write_section(lines)
    print("\n".join(lines))


TITLE = "Skill and weekly leagues (bench/bench_skill.py, bench/bench_leagues.py)"


def section(
    games: int = GAMES,
    hands: int = HANDS,
    level_hands: int = 0,
    players: int = 0,
    divisions: int = 0,
) -> list[str]:
    """This section's lines of RESULTS.md: the τ row, the leagues' rows, their notes (and
    with ``level_hands`` the levels' fixed ratings measured from the ladder)."""
    from bench import bench_leagues
    from bench.report import row

    tau, notes = kendall(games, hands)
    rows, league_notes = bench_leagues.measure(
        players or bench_leagues.PLAYERS, divisions or bench_leagues.DIVISIONS
    )
    for game in ("harftet", "kastet") if level_hands else ():
        notes += levels(game, level_hands)[1]
    header = [
        "| benchmark | measurement (median) | baseline (median) | ratio | goal | result |",
        "|---|---|---|---|---|---|",
    ]
    return [*header, *(row(r) for r in [tau, *rows]), "", *(f"- {n}" for n in notes + league_notes)]


def write_section(lines: list[str]) -> None:
    """Replace (or add) this section of RESULTS.md (its own: the rest is left as it is)."""
    import re

    from bench import ROOT

    results = ROOT / "bench" / "RESULTS.md"
    text = results.read_text(encoding="utf-8") if results.exists() else "# Benchmark results\n"
    body = "\n".join([f"## {TITLE}", "", *lines, ""])
    pattern = re.compile(rf"^## {re.escape(TITLE)}\n.*?(?=^## |\Z)", re.M | re.S)
    text = pattern.sub(body + "\n", text) if pattern.search(text) else text.rstrip() + "\n\n" + body
    results.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
