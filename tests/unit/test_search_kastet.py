"""Kastet's search and computer players: the rules' example, engine acceptance over random
states, exactness against an independent integer programme (HiGHS), and whole hands between
hard computer players.

The MIP is Den Hertog & Hulshof's model: one integer variable per possible meld (faces,
with joker places), tiles of each face on the table = tiles of that face in the melds minus
those laid from the hand; pairs only with exactly 26 melds. ``highspy`` is a dev extra used
only here, never by ``shared/``.
"""

from __future__ import annotations

import random
from itertools import combinations

import highspy
import pytest
from engine_helpers import NOW, arrange, kastet_id, lay, make_table, meld, play

from harftet.engine.bots.kastet import Strongest, choose_move
from harftet.engine.hand import apply_move
from harftet.engine.moves import Draw, Lay, Pass
from harftet.engine.rules import MAX_SERIES
from harftet.engine.search.kastet import best_lay, local_lay, search
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import COLORS, KASTET_TILES

Face = tuple[int, int]


def _tid(c: int, n: int, copy: int) -> int:
    return copy * 52 + c * 13 + n - 1


def _face(t: int) -> Face:
    tile = KASTET_TILES[t]
    assert tile.number is not None
    return COLORS.index(tile.color), tile.number


def _value(ids: list[int] | tuple[int, ...]) -> int:
    return sum(50 if KASTET_TILES[t].joker else KASTET_TILES[t].value for t in ids)


def random_position(
    rng: random.Random, melds: int, hand_size: int, table_jokers: int, hand_jokers: int
) -> tuple[list[list[Placed]], list[int]]:
    """A valid series area of up to ``melds`` random runs and sets (jokers replacing some
    tiles) and a hand drawn from the rest."""
    pool = {(c, n): [_tid(c, n, 0), _tid(c, n, 1)] for c in range(4) for n in range(1, 14)}
    for ids in pool.values():
        rng.shuffle(ids)
    series: list[list[Placed]] = []
    for _ in range(4000):
        if len(series) >= melds:
            break
        if rng.random() < 0.5:
            c, length = rng.randrange(4), rng.choice((3, 3, 4, 5, 6))
            a = rng.randint(1, 14 - length)
            faces = [(c, n) for n in range(a, a + length)]
        else:
            n = rng.randint(1, 13)
            faces = [(c, n) for c in rng.sample(range(4), rng.choice((3, 4)))]
        if all(pool[f] for f in faces):
            series.append([Placed(pool[f].pop()) for f in faces])
    jokers = [104, 105]
    for j in jokers[:table_jokers]:
        if not series:
            break
        m = rng.choice(series)
        i = rng.randrange(len(m))
        if KASTET_TILES[m[i].id].joker:
            continue
        c, n = _face(m[i].id)
        pool[(c, n)].append(m[i].id)
        m[i] = Placed(j, (COLORS[c], n))
    used = {p.id for m in series for p in m}
    rest = [t for ids in pool.values() for t in ids]
    rng.shuffle(rest)
    hand = rest[: hand_size - hand_jokers]
    hand += [j for j in jokers if j not in used][:hand_jokers]
    return series, hand


def table_of(series: list[list[Placed]], hand: list[int], pile: int = 10) -> Table:
    return arrange(make_table(), {0: hand}, series, pile=pile)


# --- the independent exact method -------------------------------------------------------------


def mip_model(series: list[list[Placed]], hand: list[int]) -> highspy.Highs:
    """The integer programme (HiGHS, model passed, not run) whose optimum is the most hand
    value any lay can shed."""
    req: dict[Face, int] = {}
    have: dict[Face, int] = {}
    tj = sum(KASTET_TILES[p.id].joker for m in series for p in m)
    hj = sum(KASTET_TILES[t].joker for t in hand)
    for m in series:
        for p in m:
            if not KASTET_TILES[p.id].joker:
                req[_face(p.id)] = req.get(_face(p.id), 0) + 1
    for t in hand:
        if not KASTET_TILES[t].joker:
            have[_face(t)] = have.get(_face(t), 0) + 1
    avail = {f: req.get(f, 0) + have.get(f, 0) for f in {*req, *have}}
    jokers = tj + hj
    candidates: list[tuple[list[Face], int]] = []  # real faces, jokers
    # with fewer than 78 tiles no lay reaches 26 melds: runs of 6+ may be split, no pairs
    longest = 13 if sum(avail.values()) + jokers >= 3 * MAX_SERIES else 5
    for c in range(4):
        for a in range(1, 12):
            for b in range(a + 2, min(a + longest, 14)):
                places = [(c, n) for n in range(a, b + 1)]
                for k in range(min(jokers, 2) + 1):
                    for holes in combinations(range(len(places)), k):
                        reals = [f for i, f in enumerate(places) if i not in holes]
                        if reals and all(avail.get(f, 0) for f in reals):
                            candidates.append((reals, k))
    for n in range(1, 14):
        for size in (3, 4):
            for k in range(min(jokers, 2) + 1):
                for cols in combinations(range(4), size - k):
                    reals = [(c, n) for c in cols]
                    if reals and all(avail.get(f, 0) for f in reals):
                        candidates.append((reals, k))
    faces = sorted(avail)
    cols: list[tuple[float, float, float]] = []  # (lower, upper, gain) of each variable

    def var(upper: float, gain: float = 0.0) -> int:
        cols.append((0.0, upper, gain))
        return len(cols) - 1

    x = [var(2) for _ in candidates]  # copies of each meld
    y = {f: var(have.get(f, 0), f[1]) for f in faces}  # hand tiles in series
    p2 = {f: var(1, 2 * f[1]) for f in faces if have.get(f, 0) == 2}  # a pair of two copies
    p1 = {f: var(min(have.get(f, 0), 2), f[1] + 50) for f in faces if have.get(f, 0)}
    yj = var(hj, 50)  # hand jokers in series
    jj = var(1 if hj == 2 else 0, 100)  # the two jokers as a pair
    z = var(1)  # pairs laid: then exactly 26 melds
    rows: list[tuple[float, float, dict[int, float]]] = []
    inf = highspy.kHighsInf
    for f in faces:
        row = {x[i]: 1.0 for i, (reals, _) in enumerate(candidates) if f in reals}
        row[y[f]] = -1.0
        rows.append((req.get(f, 0), req.get(f, 0), row))
        spent = {y[f]: 1.0}
        if f in p2:
            spent[p2[f]] = 2.0
        if f in p1:
            spent[p1[f]] = 1.0
        rows.append((-inf, have.get(f, 0), spent))
    row = {x[i]: float(k) for i, (_, k) in enumerate(candidates) if k}
    row[yj] = -1.0
    rows.append((tj, tj, row))
    rows.append((-inf, hj, {yj: 1.0, jj: 2.0, **{v: 1.0 for v in p1.values()}}))
    rows.append((-inf, MAX_SERIES, dict.fromkeys(x, 1.0)))
    rows.append((0, inf, {**dict.fromkeys(x, 1.0), z: -float(MAX_SERIES)}))
    for v in (*p2.values(), *p1.values(), jj):
        rows.append((-inf, 0, {v: 1.0, z: -2.0}))
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(cols), len(rows)
    lp.col_lower_ = [c[0] for c in cols]
    lp.col_upper_ = [c[1] for c in cols]
    lp.col_cost_ = [c[2] for c in cols]
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.row_lower_ = [r[0] for r in rows]
    lp.row_upper_ = [r[1] for r in rows]
    starts, index, value = [], [], []
    for _, _, row in rows:
        starts.append(len(index))
        index.extend(row)
        value.extend(row.values())
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = [*starts, len(index)]
    lp.a_matrix_.index_ = index
    lp.a_matrix_.value_ = value
    lp.integrality_ = [highspy.HighsVarType.kInteger] * len(cols)
    h.passModel(lp)
    return h


def mip_best(series: list[list[Placed]], hand: list[int], seconds: float | None = None) -> int:
    """The most hand value any lay can shed, by integer programming (HiGHS); with a time
    limit, an upper bound on it (HiGHS's dual bound) when the limit stops the solve."""
    h = mip_model(series, hand)
    if seconds is not None:
        h.setOptionValue("time_limit", seconds)
    h.run()
    if h.getModelStatus() == highspy.HighsModelStatus.kOptimal:
        return round(h.getInfo().objective_function_value)
    bound = h.getInfo().mip_dual_bound  # infinite when stopped before the root: the hand
    total = _value(hand)
    return total if not bound < total else int(bound + 1e-6)


def _mip_with_floor(
    series: list[list[Placed]], hand: list[int], floor: int, seconds: float | None
) -> highspy.HighsModelStatus:
    """Whether some lay sheds at least ``floor``: the MIP's status with its objective made a
    row (shed >= ``floor``) and nothing to maximise (a feasibility problem, far faster to
    prove infeasible than the optimum is to prove optimal)."""
    h = mip_model(series, hand)
    lp = h.getLp()
    gains = [i for i, c in enumerate(lp.col_cost_) if c]
    h.addRow(floor, highspy.kHighsInf, len(gains), gains, [lp.col_cost_[i] for i in gains])
    for i in gains:
        h.changeColCost(i, 0.0)
    if seconds is not None:
        h.setOptionValue("time_limit", seconds)
    h.run()
    return h.getModelStatus()


def mip_confirms(
    series: list[list[Placed]],
    hand: list[int],
    shed: int,
    seconds: float | None = None,
    reach: bool = True,
) -> str:
    """The MIP's verdict on a lay shedding ``shed``: "equal" (the MIP finds a lay shedding
    ``shed`` and proves none sheds more: its optimum is ``shed``), "above" (a lay sheds
    more), "below" (the MIP finds no lay shedding ``shed``) or "limit" (the time limit
    stopped a solve before it decided). With ``reach`` False only the first question is
    asked (nine tenths of the work on large tables): "none above" when no lay sheds more —
    where the engine accepted a lay shedding ``shed``, that too makes ``shed`` the optimum."""
    ok = highspy.HighsModelStatus.kOptimal
    infeasible = highspy.HighsModelStatus.kInfeasible
    more = _mip_with_floor(series, hand, shed + 1, seconds)
    if more == ok:
        return "above"
    if more != infeasible:
        return "limit"
    if not reach:
        return "none above"
    if shed == 0:  # laying nothing is always a solution
        return "equal"
    this = _mip_with_floor(series, hand, shed, seconds)
    return "equal" if this == ok else "below" if this == infeasible else "limit"


# --- the rules' example and small cases ---------------------------------------------------------


def test_rules_example_sets_of_fives_and_a_run() -> None:
    black = [kastet_id("black", n) for n in (5, 6, 7, 8)]
    red5, blue5 = kastet_id("red", 5), kastet_id("blue", 5)
    table = arrange(make_table(), {0: [red5, blue5, kastet_id("yellow", 11)]}, [meld(black)])
    proposal = best_lay(table, 0)
    assert proposal is not None
    assert proposal.shed == 10 and set(proposal.tiles) == {red5, blue5}
    after = play(table, 0, proposal.lay)
    shown = sorted(sorted(_face(p.id) for p in m) for m in after.series)
    assert shown == [[(0, 5), (2, 5), (3, 5)], [(3, 6), (3, 7), (3, 8)]]


def test_nothing_to_lay_is_none_and_the_bot_draws() -> None:
    table = arrange(make_table(), {0: [kastet_id("red", 1), kastet_id("blue", 9)]})
    assert best_lay(table, 0) is None
    assert isinstance(choose_move(table, 0, "hard"), Draw)


def test_untouched_melds_stay_identical_and_in_place() -> None:
    sets = [meld([kastet_id(c, n) for c in ("red", "blue", "black")]) for n in (2, 9, 11)]
    run = meld([kastet_id("yellow", n) for n in (4, 5, 6)])
    table = arrange(make_table(), {0: [kastet_id("yellow", 7)]}, [sets[0], run, *sets[1:]])
    proposal = best_lay(table, 0)
    assert proposal is not None and proposal.shed == 7
    series = [list(m) for m in proposal.lay.series]
    assert series[0] == sets[0] and series[2:] == sets[1:]
    assert [p.id for p in series[1]] == [p.id for p in run] + [kastet_id("yellow", 7)]


def test_a_full_table_takes_pairs_and_the_mip_agrees() -> None:
    sets = [meld([_tid(c, n, copy) for c in range(3)]) for n in range(1, 14) for copy in range(2)]
    hand = [_tid(3, 5, 0), _tid(3, 5, 1), 104, _tid(3, 9, 0)]
    table = arrange(make_table(), {0: hand}, sets)
    proposal = best_lay(table, 0)
    assert proposal is not None and proposal.shed == 10 + 50 + 9 == mip_best(sets, hand)
    assert play(table, 0, proposal.lay).seats[0].hand == []


def test_the_expert_keeps_a_joker_that_gains_nothing() -> None:
    run = meld([kastet_id("red", n) for n in (3, 4, 5)])
    hand = [104, kastet_id("blue", 9), kastet_id("blue", 12)]
    table = arrange(make_table(), {0: hand}, [run])
    # the joker alone can extend the run (shed 50), but nothing else is gained by it
    assert best_lay(table, 0) is not None
    assert Strongest()(table, 0) is None
    assert isinstance(choose_move(table, 0, "expert"), Draw)
    # with blue 10 and 11 missing, the joker makes blue 9-J-... no: give it a real use
    hand = [104, kastet_id("blue", 9), kastet_id("blue", 11)]
    table = arrange(make_table(), {0: hand}, [run])
    proposal = Strongest()(table, 0)
    assert proposal is not None and proposal.shed == 50 + 9 + 11  # blue 9-J-11
    # and it always lays a joker that finishes its hand
    table = arrange(make_table(), {0: [104]}, [run])
    finish = Strongest()(table, 0)
    assert finish is not None and finish.tiles == (104,)


def test_after_a_lay_the_bot_lays_again_or_passes() -> None:
    table = arrange(make_table(), {0: [kastet_id("red", n) for n in (1, 2, 3)]})
    for level in ("easy", "medium", "hard", "expert"):
        move = choose_move(table, 0, level)  # type: ignore[arg-type]
        assert isinstance(move, Lay)
        after = play(table, 0, move)
        assert isinstance(choose_move(after, 0, level), Pass)  # type: ignore[arg-type]


def test_easy_uses_its_own_hand_only() -> None:
    run = meld([kastet_id("red", n) for n in (3, 4, 5)])
    table = arrange(make_table(), {0: [kastet_id("red", 6)]}, [run])
    assert local_lay(table, 0, None) is None
    assert isinstance(choose_move(table, 0, "easy"), Draw)
    assert isinstance(choose_move(table, 0, "medium"), Lay)


# --- random states: the engine accepts every proposal ---------------------------------------------

SIZES = [  # (melds on the table, hand size, jokers on the table, jokers in hand), states
    ((3, 6, 0, 0), 1000),
    ((6, 10, 1, 0), 150),
    ((10, 14, 0, 1), 30),
    ((16, 18, 1, 1), 30),
    ((26, 22, 1, 1), 30),
    ((26, 22, 2, 0), 30),
    ((26, 22, 0, 2), 30),
]


@pytest.mark.parametrize(("size", "count"), SIZES)
def test_every_proposal_is_accepted(size: tuple[int, int, int, int], count: int) -> None:
    rng = random.Random(sum(size) * 31 + size[0])
    for i in range(count):
        series, hand = random_position(rng, *size)
        table = table_of(series, hand, pile=rng.choice((0, 10)))
        found = search(table, 0)
        moves = [choose_move(table, 0, level) for level in ("easy", "medium")]
        if i % 4 == 0:
            moves.append(choose_move(table, 0, "hard"))
        if found.proposal is not None:
            moves.append(found.proposal.lay)
            out = apply_move(table, 0, found.proposal.lay, NOW + 1).table
            assert _value(sorted(set(hand) - set(out.seats[0].hand))) == found.proposal.shed
        for move in moves:
            out = apply_move(table, 0, move, NOW + 1).table
            if isinstance(move, Lay):
                gone = sorted(set(hand) - set(out.seats[0].hand))
                assert gone and all(t in hand for t in gone)


# --- whole hands between hard computer players ---------------------------------------


def play_hand(seed: int, level: str = "hard", max_moves: int = 600) -> Table:
    table = make_table(seed=seed)
    for _ in range(max_moves):
        if table.status != "playing" or table.hand_results:
            break
        seat = table.turn_seat
        assert seat is not None
        table = apply_move(table, seat, choose_move(table, seat, level), NOW + 1).table  # type: ignore[arg-type]
    return table


def test_hard_players_finish_most_hands() -> None:
    finished = 0
    games = 4
    for seed in range(games):
        table = play_hand(seed)
        assert table.hand_results, "the hand did not end"
        finished += table.hand_results[0].finisher is not None
    assert finished >= games // 2 + 1


def test_a_lay_then_a_pass_ends_a_finished_hand() -> None:
    table = arrange(make_table(), {0: [kastet_id("red", n) for n in (7, 8, 9)]})
    after = play(table, 0, choose_move(table, 0, "hard"))
    assert after.seats[0].hand == []
    done = apply_move(after, 0, choose_move(after, 0, "hard"), NOW + 2).table
    assert done.hand_results and done.hand_results[0].finisher == 0


def test_lay_helper_is_the_engine_shape() -> None:
    # the proposal's lay is exactly what a client would send
    run = meld([kastet_id("black", n) for n in (1, 2, 3)])
    table = arrange(make_table(), {0: [kastet_id("black", 4)]}, [run])
    proposal = best_lay(table, 0)
    assert proposal is not None
    assert proposal.lay == lay([*run, Placed(kastet_id("black", 4))])
