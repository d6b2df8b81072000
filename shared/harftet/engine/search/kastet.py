"""Kastet's exact search: the lay that sheds the most hand value (stdlib only).

The whole series area may be rebuilt: every table series tile must stay in it, every meld
must be valid, at most 26 melds; new pairs come from the hand when the lay leaves exactly
26 series melds. This is the Rummikub table problem, solved with van Rijn's dynamic
programme (van Rijn, Takes & Vis, "The Complexity of Rummikub Problems", 2015): sweep the
numbers 1..13; the state is, per colour, how many runs are open and how long they are
(1, 2, or 3+: only complete runs may stop), how many jokers are used (in series and in
pairs), whether a pair was laid, and how many melds stand. At each number the tiles of that
number are split between the open runs, new runs, sets (3–4 distinct colours, jokers
filling missing colours) and pairs. Colours are handled one after another inside a number
so that a layer costs a sum, not a product, of the colours' choices.

Work is budgeted (``DECISION_BUDGET``, counted in states, so a decision is deterministic):
``search`` first searches the hand alone (table melds frozen), then with the table melds near
the hand's tiles released, then the whole series area with the best shed so far as a floor
(states that cannot reach it are dropped). ``Search.exact`` says whether the whole area was
searched to the end; on dense full tables the budget usually stops that last step, and the
answer is then the best lay that changes only the released melds.

Values are ``shed * _W + bias``: the bias (far below ``_W``) rewards keeping tiles in the
kind of meld they were in and runs starting and ending where table runs do, so that among
equally good lays the one chosen changes few table melds; the melds that come out identical
to a table meld are then given that meld's own tiles and place (``_keep``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from harftet.engine.moves import Lay
from harftet.engine.rules import MAX_SERIES
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import COLORS, JOKER_HAND_VALUE, KASTET_TILES

from . import Proposal

_W = 1024  # weight of one point of shed value against the bias (the bias stays below it)
_NEG = -(1 << 60)

# A colour's open runs: (x1, x2, x3) = how many of length 1, 2 and 3+ (at most 4 in all:
# two copies of each tile and two jokers).
_LANES: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, c) for a in range(5) for b in range(5) for c in range(5) if a + b + c <= 4
)
_LANE_INDEX = {lane: i for i, lane in enumerate(_LANES)}
_NL = len(_LANES)  # 35
_P = (1, _NL, _NL**2, _NL**3)  # place of each colour's lane in a key
_LS = _NL**4  # the lanes part of a key is key % _LS
# Joker state (series jokers, pair jokers, a pair laid): index js + 3*jp + 9*pf.
_JSTATES = 18
_MU = _LS * _JSTATES  # one meld
_RU = _MU * 64  # one real tile put in a set at this number
_TU = _RU * 9  # one colour giving two tiles to sets at this number
_FINAL_LANES = frozenset(i for i, (a, b, _) in enumerate(_LANES) if a == 0 and b == 0)


def _jstate(js: int, jp: int, pf: int) -> int:
    return js + 3 * jp + 9 * pf


def _junpack(j: int) -> tuple[int, int, int]:
    return j % 3, j // 3 % 3, j // 9


@dataclass(frozen=True, slots=True)
class _Choice:
    """What one colour does at one number (see ``_colour_options``)."""

    ser: int  # real tiles of this face in series melds
    runs: int  # of which in runs
    jokers: int  # jokers declared as this face, in runs
    cont: int  # complete (3+) runs that go on
    new: int  # runs started here
    sets: int  # real tiles in sets
    pair: int  # hand tiles in pairs: 2 = a pair of the two copies, 1 = one with a joker


@dataclass(slots=True)
class _Problem:
    """Counts per face (index [colour][number]) and jokers; ``cap`` melds at most."""

    req: list[list[int]]  # table tiles (must stay in series)
    hand: list[list[int]]  # hand tiles (may be laid)
    table_jokers: int
    hand_jokers: int
    cap: int
    floor: int | None = None
    pairs: bool = True  # pairs may be laid (then the melds must come to exactly ``cap``)
    budget: int | None = None  # give up (return None, set ``overflow``) past this much work
    overflow: bool = False
    work: int = 0  # states summed over the stages, when done
    # bias counts from the table melds taken part in the problem
    in_runs: list[list[int]] = field(default_factory=lambda: [[0] * 15 for _ in COLORS])
    in_sets: list[list[int]] = field(default_factory=lambda: [[0] * 15 for _ in COLORS])
    starts: list[list[int]] = field(default_factory=lambda: [[0] * 15 for _ in COLORS])
    ends: list[list[int]] = field(default_factory=lambda: [[0] * 15 for _ in COLORS])


@dataclass(slots=True)
class _Plan:
    """The solver's answer: total value and, per number, each colour's choice and the sets."""

    shed: int
    choices: list[list[_Choice]]  # [number-1][colour]
    sets: list[tuple[int, int]]  # [number-1] = (jokers in sets, number of sets)
    joker_pair: bool  # both hand jokers laid as a pair of their own


class _ColourMoves:
    """The moves of colour ``c`` at number ``n``, computed for a (lane, joker state) the first
    time a state asks: (key delta, value delta, choice index)."""

    __slots__ = ("by_state", "c", "choices", "n", "prob")

    def __init__(self, prob: _Problem, c: int, n: int) -> None:
        self.prob, self.c, self.n = prob, c, n
        self.choices: list[_Choice] = []
        self.by_state: dict[int, list[tuple[int, int, int]]] = {}

    def get(self, lane: int, j: int) -> list[tuple[int, int, int]]:
        """The moves from lane state ``lane`` and joker state ``j``."""
        found = self.by_state.get(lane * _JSTATES + j)
        if found is None:
            found = self.by_state[lane * _JSTATES + j] = self._make(lane, j)
        return found

    def _make(self, lane: int, j: int) -> list[tuple[int, int, int]]:
        prob, c, n = self.prob, self.c, self.n
        r, h = prob.req[c][n], prob.hand[c][n]
        jokers = prob.table_jokers + prob.hand_jokers
        js, jp, pf = _junpack(j)
        free = jokers - js - jp
        avail = [prob.req[c][k] + prob.hand[c][k] for k in range(15)]
        total_at_n = sum(prob.req[x][n] + prob.hand[x][n] for x in range(4)) + jokers
        sets_possible = total_at_n >= 3
        # at most this many runs can start here and reach length 3
        new_max = 0 if n > 11 else min(avail[n + 1] + free, avail[n + 2] + free, 4)
        starts, ends = prob.starts[c], prob.ends[c]
        in_runs, in_sets = prob.in_runs[c][n], prob.in_sets[c][n]
        x1, x2, x3 = _LANES[lane]
        out: list[tuple[int, int, int]] = []
        for ser in range(r, r + h + 1):
            left = r + h - ser
            for pair in (0, 1, 2) if prob.pairs else (0,):
                if pair > left:
                    break
                jq = 1 if pair == 1 else 0
                if jq > free:
                    continue
                for sets in range(ser + 1 if sets_possible else 1):
                    runs = ser - sets
                    for jk in range(free - jq + 1):
                        k = runs + jk
                        if k > 4 or x1 + x2 > k:
                            continue
                        for cont in range(min(x3, k - x1 - x2) + 1):
                            new = k - x1 - x2 - cont
                            if new > new_max or (new and cont < x3 and not prob.pairs):
                                continue
                            ended = x3 - cont
                            bias = (
                                min(runs, in_runs)
                                + min(sets, in_sets)
                                + 2 * min(new, starts[n])
                                + 2 * min(ended, ends[n - 1])
                            )
                            dv = (n * (ser - r + pair) + JOKER_HAND_VALUE * (jk + jq)) * _W
                            new_lane = _LANE_INDEX[(new, x1, x2 + cont)]
                            oi = len(self.choices)
                            self.choices.append(_Choice(ser, runs, jk, cont, new, sets, pair))
                            j2 = _jstate(js + jk, jp + jq, 1 if pair else pf)
                            delta = (new_lane - lane) * _P[c] + (j2 - j) * _LS + new * _MU
                            delta += sets * _RU + (_TU if sets == 2 else 0)
                            out.append((delta, dv + bias, oi))
        return out


def _pareto(layer: dict[int, int]) -> dict[int, int]:
    """Drop the states that another state with the same runs, jokers and set tiles beats
    with no more melds (only when no pair may be laid: then fewer melds never hurt)."""
    groups: dict[int, list[tuple[int, int, int]]] = {}
    for key, val in layer.items():
        m = key // _MU % 64
        groups.setdefault(key - m * _MU, []).append((m, -val, key))
    out: dict[int, int] = {}
    for entries in groups.values():
        if len(entries) == 1:
            _, neg, key = entries[0]
            out[key] = -neg
            continue
        entries.sort()
        best = _NEG
        for _, neg, key in entries:
            if -neg > best:
                best = -neg
                out[key] = best
    return out


def _solve(prob: _Problem) -> _Plan | None:
    """The best plan for ``prob`` (None when even the table as it is cannot be rebuilt)."""
    jokers = prob.table_jokers + prob.hand_jokers
    layer: dict[int, int] = {0: 0}
    backs: list[dict[int, tuple[int, int]]] = []
    all_choices: list[list[_Choice]] = []
    set_moves: list[list[tuple[int, int]]] = []
    cap = prob.cap
    work = 0
    for n in range(1, 14):
        for c in range(4):
            moves_of = _ColourMoves(prob, c, n)
            all_choices.append(moves_of.choices)
            place = _P[c]
            table = moves_of.get
            nxt: dict[int, int] = {}
            back: dict[int, tuple[int, int]] = {}
            get = nxt.get
            for key, val in layer.items():
                lane = key // place % _NL
                j = key // _LS % _JSTATES
                for delta, dv, oi in table(lane, j):
                    nk = key + delta
                    nv = val + dv
                    old = get(nk)
                    if old is None or nv > old:
                        nxt[nk] = nv
                        back[nk] = (key, oi)
            backs.append(back)
            layer = nxt
            if not prob.pairs:
                layer = _pareto(layer)
            work += len(layer)
            prob.work = work
            if prob.budget is not None and work > prob.budget:
                prob.overflow = True
                return None
        # sets at number n
        nxt = {}
        back = {}
        moves: list[tuple[int, int]] = []
        move_index: dict[tuple[int, int], int] = {}
        get = nxt.get
        for key, val in layer.items():
            lanes = key % _LS
            hi = key // _LS
            j = hi % _JSTATES
            m = hi // _JSTATES % 64
            real = hi // (_JSTATES * 64) % 9
            twos = hi // (_JSTATES * 64 * 9)
            js, jp, pf = _junpack(j)
            for jset in range(jokers - js - jp + 1):
                total = real + jset
                if total == 0:
                    options: Sequence[int] = (0,)
                else:
                    low = max(2 if twos else 1, -(-total // 4))
                    options = range(low, total // 3 + 1)
                for g in options:
                    if m + g > cap:
                        break
                    nk = lanes + _LS * (_jstate(js + jset, jp, pf) + _JSTATES * (m + g))
                    nv = val + JOKER_HAND_VALUE * _W * jset
                    old = get(nk)
                    if old is None or nv > old:
                        mi = move_index.setdefault((jset, g), len(moves))
                        if mi == len(moves):
                            moves.append((jset, g))
                        nxt[nk] = nv
                        back[nk] = (key, mi)
        if not prob.pairs:
            nxt = _pareto(nxt)
        backs.append(back)
        set_moves.append(moves)
        if prob.floor is not None:  # drop what can no longer reach the floor
            rest = sum(k * prob.hand[x][k] for x in range(4) for k in range(n + 1, 14))
            need = (prob.floor + JOKER_HAND_VALUE * prob.table_jokers - rest) * _W
            for key in list(nxt):
                js, jp, _ = _junpack(key // _LS % _JSTATES)
                if nxt[key] + JOKER_HAND_VALUE * _W * (jokers - js - jp) < need:
                    del nxt[key]
        layer = nxt
    best_key, best_val, best_pair = -1, _NEG, False
    for key, val in layer.items():
        lanes = key % _LS
        if any(lanes // _P[c] % _NL not in _FINAL_LANES for c in range(4)):
            continue
        hi = key // _LS
        js, jp, pf = _junpack(hi % _JSTATES)
        m = hi // _JSTATES
        if js < prob.table_jokers:
            continue
        if (not pf or m == cap) and val > best_val:
            best_key, best_val, best_pair = key, val, False
        left = jokers - js - jp
        if left == 2 and m == cap and val + 2 * JOKER_HAND_VALUE * _W > best_val:
            best_key, best_val, best_pair = key, val + 2 * JOKER_HAND_VALUE * _W, True
    if best_key < 0:
        return None
    # walk the back pointers
    choices: list[list[_Choice]] = [[] for _ in range(13)]
    sets: list[tuple[int, int]] = [(0, 0)] * 13
    key = best_key
    stage = len(backs) - 1
    for n in range(13, 0, -1):
        key, mi = backs[stage][key]
        sets[n - 1] = set_moves[n - 1][mi]
        stage -= 1
        picked: list[_Choice] = []
        for c in range(3, -1, -1):
            key, oi = backs[stage][key]
            picked.append(all_choices[(n - 1) * 4 + c][oi])
            stage -= 1
        choices[n - 1] = picked[::-1]
    shed = (best_val // _W) - JOKER_HAND_VALUE * prob.table_jokers
    return _Plan(shed, choices, sets, best_pair)


# --- from a table to a problem, and from a plan back to melds ------------------------------

_Face = tuple[int, int]  # (colour index, number)


def _face(tid: int) -> _Face:
    tile = KASTET_TILES[tid]
    assert tile.number is not None
    return COLORS.index(tile.color), tile.number


def _is_run(meld: Sequence[Placed]) -> bool:
    faces = {_placed_face(p) for p in meld}
    return len({c for c, _ in faces}) == 1


def _placed_face(p: Placed) -> _Face:
    if KASTET_TILES[p.id].joker:
        assert isinstance(p.face, tuple)
        return COLORS.index(p.face[0]), p.face[1]
    return _face(p.id)


def _signature(meld: Sequence[Placed]) -> tuple[tuple[bool, int, int], ...]:
    """What makes two melds the same to a player: faces in order, jokers where they are
    (a set's order does not matter)."""
    sig = [(KASTET_TILES[p.id].joker, *_placed_face(p)) for p in meld]
    return tuple(sig) if _is_run(meld) else tuple(sorted(sig))


def _problem(released: Sequence[Sequence[Placed]], hand: Sequence[int], cap: int) -> _Problem:
    prob = _Problem([[0] * 15 for _ in COLORS], [[0] * 15 for _ in COLORS], 0, 0, cap)
    for meld in released:
        run = _is_run(meld)
        for p in meld:
            c, n = _placed_face(p)
            if KASTET_TILES[p.id].joker:
                prob.table_jokers += 1
            else:
                prob.req[c][n] += 1
            (prob.in_runs if run else prob.in_sets)[c][n] += 1
        if run:
            c, lo = _placed_face(meld[0])
            prob.starts[c][lo] += 1
            prob.ends[c][lo + len(meld) - 1] += 1
    for t in hand:
        if KASTET_TILES[t].joker:
            prob.hand_jokers += 1
        else:
            c, n = _face(t)
            prob.hand[c][n] += 1
    return prob


_Slot = tuple[bool, int, int]  # (is a joker, colour, number)


def _face_melds(plan: _Plan) -> tuple[list[list[_Slot]], list[list[_Slot]]]:
    """The plan as melds of slots, and its pairs (slots too)."""
    melds: list[list[_Slot]] = []
    pairs: list[list[_Slot]] = []
    open_runs: list[list[list[_Slot]]] = [[] for _ in COLORS]
    for n in range(1, 14):
        set_reals: list[int] = []
        for c in range(4):
            ch = plan.choices[n - 1][c]
            runs = open_runs[c]
            short = [r for r in runs if len(r) < 3]
            done = [r for r in runs if len(r) >= 3]
            going = short + done[: ch.cont]
            melds.extend(done[ch.cont :])
            going += [[] for _ in range(ch.new)]
            for i, run in enumerate(going):
                run.append((i >= ch.runs, c, n))
            open_runs[c] = going
            set_reals.append(ch.sets)
            if ch.pair == 2:
                pairs.append([(False, c, n), (False, c, n)])
            elif ch.pair == 1:
                pairs.append([(False, c, n), (True, c, n)])
        jset, g = plan.sets[n - 1]
        if g:
            groups: list[list[_Slot]] = [[] for _ in range(g)]
            for c in sorted(range(4), key=lambda x: -set_reals[x]):
                for grp in sorted(groups, key=len)[: set_reals[c]]:
                    grp.append((False, c, n))
            for _ in range(jset):
                grp = min(groups, key=len)
                missing = next(c for c in range(4) if all(s[1] != c for s in grp))
                grp.append((True, missing, n))
            melds.extend(sorted(grp, key=lambda s: s[1]) for grp in groups)
    for runs in open_runs:
        melds.extend(runs)
    if plan.joker_pair:
        pairs.append([(True, 0, 1), (True, 0, 1)])
    return melds, pairs


def _lay(
    table: Table, hand: Sequence[int], released: list[int], plan: _Plan
) -> tuple[list[list[Placed]], list[list[Placed]], list[int]]:
    """Melds with real tile ids: released table melds rebuilt identically keep their tiles
    and place. Returns the series area, the new pairs and the hand tiles laid."""
    melds, pair_slots = _face_melds(plan)
    by_sig: dict[tuple[_Slot, ...], list[int]] = {}
    for i in released:
        by_sig.setdefault(_signature(table.series[i]), []).append(i)
    kept: dict[int, list[Placed]] = {}
    fresh: list[list[_Slot]] = []
    for meld in melds:
        sig = tuple(meld) if len({s[1] for s in meld}) == 1 else tuple(sorted(meld))
        same = by_sig.get(sig)
        if same:
            i = same.pop(0)
            kept[i] = list(table.series[i])
        else:
            fresh.append(meld)
    used = {p.id for m in kept.values() for p in m}
    table_ids: dict[_Face, list[int]] = {}
    table_jokers: list[int] = []
    for i in released:
        for p in table.series[i]:
            if p.id in used:
                continue
            if KASTET_TILES[p.id].joker:
                table_jokers.append(p.id)
            else:
                table_ids.setdefault(_face(p.id), []).append(p.id)
    hand_ids: dict[_Face, list[int]] = {}
    hand_jokers: list[int] = []
    for t in sorted(hand):
        if KASTET_TILES[t].joker:
            hand_jokers.append(t)
        else:
            hand_ids.setdefault(_face(t), []).append(t)
    laid: list[int] = []

    def real(face: _Face, from_table: bool) -> int:
        ids = table_ids.get(face) if from_table else None
        if ids:
            return ids.pop()
        t = hand_ids[face].pop()
        laid.append(t)
        return t

    def joker(from_table: bool) -> int:
        if from_table and table_jokers:
            return table_jokers.pop()
        t = hand_jokers.pop()
        laid.append(t)
        return t

    def place(slots: list[_Slot], from_table: bool) -> list[Placed]:
        out = []
        for is_joker, c, n in slots:
            if is_joker:
                out.append(Placed(joker(from_table), (COLORS[c], n)))
            else:
                out.append(Placed(real((c, n), from_table)))
        return out

    built = [place(m, True) for m in fresh]
    assert not table_jokers and not any(table_ids.values()), "a table tile was left out"
    pairs = [place(p, False) for p in pair_slots]
    series: list[list[Placed]] = []
    released_set = set(released)
    queue = iter(built)
    for i, meld in enumerate(table.series):
        if i not in released_set or i in kept:
            series.append(list(meld) if i not in kept else kept[i])
        else:
            nxt = next(queue, None)
            if nxt is not None:
                series.append(nxt)
    series.extend(queue)
    return series, pairs, laid


def _hand_value(ids: Sequence[int]) -> int:
    return sum(JOKER_HAND_VALUE if KASTET_TILES[t].joker else KASTET_TILES[t].value for t in ids)


def _touching(table: Table, hand: Sequence[int], reach: int, most: int | None = None) -> list[int]:
    """The table melds a hand tile could join or help rebuild: runs of its colour within
    ``reach`` numbers of it, sets of its number; with ``most``, only that many of those that
    the most hand tiles touch (in table order)."""
    faces = [_face(t) for t in hand if not KASTET_TILES[t].joker]
    hits: list[tuple[int, int]] = []
    for i, meld in enumerate(table.series):
        mf = [_placed_face(p) for p in meld]
        if _is_run(meld):
            c, lo, hi = mf[0][0], mf[0][1], mf[-1][1]
            hit = sum(fc == c and lo - reach <= fn <= hi + reach for fc, fn in faces)
        else:
            hit = sum(fn == mf[0][1] for _, fn in faces)
        if hit:
            hits.append((-hit, i))
    if most is not None:
        hits = sorted(hits)[:most]
    return sorted(i for _, i in hits)


@dataclass(frozen=True, slots=True)
class Search:
    """``best_lay``'s answer with how it was found: ``exact`` when the whole series area was
    searched; ``released`` = the table melds the lay may change (a small table: all; else the
    ones it changed)."""

    proposal: Proposal | None
    exact: bool
    released: tuple[int, ...]


# Work budgets, in states summed over the sweep's stages (deterministic, not a clock; about
# 15 µs a state here): one decision's ladder, a local search, a small table searched whole.
DECISION_BUDGET = 4_000
LOCAL_BUDGET = 1_200
WHOLE_BUDGET = 1_200
LOCAL_MELDS = 6  # the first local search frees this many table melds at most
SMALL_BUDGET = 8_000
MAX_STEPS = 6  # lays built on each other in one search
SMALL_TABLE = 8  # melds: search the whole series area first


class _Budget:
    """Work left for one decision (states summed over every attempt's stages)."""

    def __init__(self, total: int) -> None:
        self.left = total


def _attempt(
    table: Table,
    hand: Sequence[int],
    released: list[int],
    floor: int | None,
    budget: int | _Budget,
    most: int | None = None,
) -> tuple[_Plan | None, bool]:
    """The best plan reaching ``floor`` with only ``released`` melds changing, and whether
    the search ran out of budget (then None proves nothing)."""
    frozen = len(table.series) - len(released)
    prob = _problem([table.series[i] for i in released], hand, MAX_SERIES - frozen)
    prob.floor = floor
    prob.budget = budget.left if isinstance(budget, _Budget) else budget
    if most is not None:
        prob.budget = min(prob.budget, most)
    tiles = prob.table_jokers + prob.hand_jokers
    tiles += sum(map(sum, prob.req)) + sum(map(sum, prob.hand))
    pairable = prob.hand_jokers > 0 or any(v >= 2 for row in prob.hand for v in row)
    prob.pairs = pairable and tiles >= 3 * prob.cap  # pairs need exactly ``cap`` melds
    plan = _solve(prob)
    if isinstance(budget, _Budget):
        budget.left -= prob.work
    return plan, prob.overflow


def _proposal(
    table: Table, hand: Sequence[int], released: list[int], plan: _Plan
) -> Proposal | None:
    series, pairs, laid = _lay(table, hand, released, plan)
    if not laid:
        return None
    lay = Lay(tuple(tuple(m) for m in series), tuple(tuple(p) for p in pairs))
    return Proposal(lay, _hand_value(laid), tuple(sorted(laid)))


def _ladder(
    table: Table, tiles: list[int], budget: _Budget, whole: bool
) -> tuple[tuple[_Plan, list[int]] | None, bool]:
    """One step of ``search``: the best plan found and the melds it released, and whether it
    is proven best (only when ``whole``: the whole series area is tried last)."""
    everything = list(range(len(table.series)))
    best: tuple[_Plan, list[int]] | None = None
    floor = 1
    overflow = False
    for reach, most in ((None, None), (1, LOCAL_MELDS), (1, None), (2, None)):
        released = [] if reach is None else _touching(table, tiles, reach, most)
        if best is not None and released == best[1]:
            continue
        plan, overflow = _attempt(table, tiles, released, floor, budget, LOCAL_BUDGET)
        if overflow:
            break  # too big: a wider search would be bigger still
        if plan is not None and (best is None or plan.shed > best[0].shed):
            best, floor = (plan, released), plan.shed
    exact = best is not None and best[1] == everything
    if whole and not exact and not overflow:
        plan, overflow = _attempt(table, tiles, everything, floor, budget, WHOLE_BUDGET)
        exact = not overflow  # searched it all: nothing beats the floor, or this is best
        if plan is not None and (best is None or plan.shed > best[0].shed):
            best = (plan, everything)
    return best, exact


def search(table: Table, seat: int, *, hand: Sequence[int] | None = None) -> Search:
    """The best lay for ``seat`` (from ``hand``, a part of its hand, when given) and whether
    it is proven best (see ``Search``). A small table is searched whole. Otherwise: the
    hand alone, then with the table melds near its tiles released, then the whole series
    area; when that is not proven best, the lay is applied to a copy of the table and the
    search goes on from there (a lay may be built in steps), all within ``DECISION_BUDGET``."""
    tiles = list(table.seats[seat].hand if hand is None else hand)
    everything = list(range(len(table.series)))
    if not tiles:
        return Search(None, True, ())
    if len(everything) <= SMALL_TABLE:  # small enough to search whole at once
        plan, overflow = _attempt(table, tiles, everything, 1, SMALL_BUDGET)
        if not overflow:
            proposal = None if plan is None else _proposal(table, tiles, everything, plan)
            return Search(proposal, True, tuple(everything))
    budget = _Budget(DECISION_BUDGET)
    current = table
    laid: list[int] = []
    pairs: list[list[Placed]] = []
    exact = False
    for step in range(MAX_STEPS):
        best, exact = _ladder(current, tiles, budget, whole=step == 0)
        if best is None:
            break
        series, new_pairs, more = _lay(current, tiles, best[1], best[0])
        if not more or ((pairs or new_pairs) and len(series) != MAX_SERIES):
            break
        current = current.clone()
        current.series = series
        current.pairs = [*current.pairs, *new_pairs]
        pairs += new_pairs
        laid += more
        tiles = [t for t in tiles if t not in set(more)]
        if exact or not tiles or budget.left <= 0:
            break
    if not laid:
        return Search(None, exact, tuple(everything))
    final = {tuple(m) for m in current.series}
    changed = tuple(i for i, m in enumerate(table.series) if tuple(m) not in final)
    lay = Lay(tuple(tuple(m) for m in current.series), tuple(tuple(p) for p in pairs))
    return Search(Proposal(lay, _hand_value(laid), tuple(sorted(laid))), exact, changed)


def lay_within(
    table: Table, seat: int, released: Sequence[int], hand: Sequence[int]
) -> Proposal | None:
    """The best lay of ``hand`` (part of ``seat``'s hand) when only the ``released`` table
    melds may change (None also when that search runs out of budget)."""
    plan, _ = _attempt(table, list(hand), list(released), 1, LOCAL_BUDGET)
    return None if plan is None else _proposal(table, hand, list(released), plan)


def local_lay(
    table: Table, seat: int, reach: int | None, most: int | None = None
) -> Proposal | None:
    """The best lay when only the table melds near the hand's tiles (``reach``, see
    ``_touching``) may change, or none (``reach`` None: new melds from the hand alone)."""
    hand = list(table.seats[seat].hand)
    if not hand:
        return None
    released = [] if reach is None else _touching(table, hand, reach, most)
    plan, overflow = _attempt(table, hand, released, 1, LOCAL_BUDGET)
    if overflow and released:
        released = []
        plan, _ = _attempt(table, hand, released, 1, LOCAL_BUDGET)
    return None if plan is None else _proposal(table, hand, released, plan)


def best_lay(table: Table, seat: int) -> Proposal | None:
    """The lay that sheds the most hand value for ``seat`` (a joker counting 50); among
    equally good ones, one that changes few table melds. None when no lay adds a tile."""
    return search(table, seat).proposal
