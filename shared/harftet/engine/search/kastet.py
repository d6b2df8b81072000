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

``search`` walks these states depth first (``_Tree``), a branch and bound that remembers
each state's value (exact, or a bound above it) so a state reached twice is searched once.
A state is cut when what it has shed plus what could still come (the hand tiles of later
faces that could be laid at all, and the jokers not used yet) cannot reach the aim; the aim
starts at that bound for the whole hand and steps down by growing steps, and the first try
that reaches its aim has the exact best. Moves that lay more are tried first. Series melds
only first, at most 26; then, when pairs could shed more, with pairs (every plan then has
exactly 26 melds). Work is counted in states (``TREE_BUDGET``, deterministic, not a clock);
``Search.exact`` says whether the search finished. Measured (bench/bench_search_kastet.py):
every full 26-meld table with a 22-tile hand is proven in about 20 ms; on the turns of real
hands about 98 % are, the rest (blocked 22-tile hands on mid-size tables) fall back to the
budgeted ladder (``_steps``: the hand alone, then the melds near its tiles, then the whole
area with a floor, applied step by step).

Among equally good lays, one that changes few table melds (``_tidy``): the hand alone and
then the melds nearest its tiles are searched for a lay that sheds as much with the biased
sweep (``_solve``), whose values are ``shed * _W + bias``: the bias (far below ``_W``)
rewards keeping tiles in the kind of meld they were in and runs starting and ending where
table runs do. The melds that come out identical to a table meld are given that meld's own
tiles and place (``_lay``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from harftet.engine.moves import Lay
from harftet.engine.rules import MAX_SERIES
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import COLORS, JOKER_HAND_VALUE, KASTET_TILES

from .proposal import Proposal

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


def _set_counts(total: int, twos: int) -> Sequence[int]:
    """The numbers of sets (3 or 4 tiles each) that ``total`` tiles of one number may form:
    none without tiles; at least one, or two when ``twos`` is set."""
    if total == 0:
        return (0,)
    return range(max(2 if twos else 1, -(-total // 4)), total // 3 + 1)


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
    melds: bool = True  # count the melds (False: the cap is not checked, see ``_solve``)
    bias: bool = True  # values in shed * _W + bias (False: the shed alone, for ``_Tree``)
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

    __slots__ = ("by_state", "c", "choices", "n", "need", "prob")

    def __init__(self, prob: _Problem, c: int, n: int, need: list[int] | None) -> None:
        self.prob, self.c, self.n = prob, c, n
        self.need = need  # by joker state: the least value a state needs to be kept
        self.choices: list[_Choice] = []
        self.by_state: dict[int, list[tuple[int, int, int, int]]] = {}

    def get(self, lane: int, j: int) -> list[tuple[int, int, int, int]]:
        """The moves from lane state ``lane`` and joker state ``j``: (key delta, value
        delta, choice index, the least value before the move that keeps the state)."""
        found = self.by_state.get(lane * _JSTATES + j)
        if found is None:
            found = self.by_state[lane * _JSTATES + j] = self._make(lane, j)
        return found

    def _make(self, lane: int, j: int) -> list[tuple[int, int, int, int]]:
        prob, c, n, need = self.prob, self.c, self.n, self.need
        r, h = prob.req[c][n], prob.hand[c][n]
        jokers = prob.table_jokers + prob.hand_jokers
        js, jp, pf = _junpack(j)
        free = jokers - js - jp
        req, hand = prob.req, prob.hand
        total_at_n = req[0][n] + req[1][n] + req[2][n] + req[3][n] + jokers
        total_at_n += hand[0][n] + hand[1][n] + hand[2][n] + hand[3][n]
        sets_possible = total_at_n >= 3
        # at most this many runs can start here and reach length 3
        new_max = (
            0
            if n > 11
            else min(
                req[c][n + 1] + hand[c][n + 1] + free, req[c][n + 2] + hand[c][n + 2] + free, 4
            )
        )
        starts, ends = prob.starts[c], prob.ends[c]
        in_runs, in_sets = prob.in_runs[c][n], prob.in_sets[c][n]
        x1, x2, x3 = _LANES[lane]
        out: list[tuple[int, int, int, int]] = []
        mu = _MU if prob.melds else 0
        w = _W if prob.bias else 1
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
                                if prob.bias
                                else 0
                            )
                            dv = (n * (ser - r + pair) + JOKER_HAND_VALUE * (jk + jq)) * w
                            new_lane = _LANE_INDEX[(new, x1, x2 + cont)]
                            oi = len(self.choices)
                            self.choices.append(_Choice(ser, runs, jk, cont, new, sets, pair))
                            j2 = _jstate(js + jk, jp + jq, 1 if pair else pf)
                            delta = (new_lane - lane) * _P[c] + (j2 - j) * _LS + new * mu
                            delta += sets * _RU + (_TU if sets == 2 else 0)
                            low = _NEG if need is None else need[j2] - dv - bias
                            out.append((delta, dv + bias, oi, low))
        if not prob.bias:  # the tree search: lay most first, then go on with runs
            chosen = self.choices
            out.sort(
                key=lambda mv: (
                    -mv[1],
                    chosen[mv[2]].pair,
                    -chosen[mv[2]].cont,
                    chosen[mv[2]].new,
                )
            )
        return out


def _pareto(layer: dict[int, int]) -> dict[int, int]:
    """Drop the states that another state with the same runs, jokers and set tiles beats
    with no more melds (only when no pair may be laid: then fewer melds never hurt)."""
    seen: set[int] = set()
    for key in layer:
        base = key - key // _MU % 64 * _MU
        if base in seen:
            return _pareto_groups(layer)
        seen.add(base)
    return layer  # no two states differ in their melds alone: nothing to drop


def _pareto_groups(layer: dict[int, int]) -> dict[int, int]:
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


def _layable(prob: _Problem) -> list[list[bool]]:
    """Whether a hand tile of each face could be laid at all: some three-number window of
    its colour, or a set of its number, or (pairs allowed) a pair, with the tiles there."""
    jokers = prob.table_jokers + prob.hand_jokers
    avail = [[prob.req[c][k] + prob.hand[c][k] for k in range(15)] for c in range(4)]
    out = [[False] * 15 for _ in range(4)]
    for c in range(4):
        for n in range(1, 14):
            if not prob.hand[c][n]:
                continue
            window = any(
                sum(avail[c][k] == 0 for k in range(a, a + 3) if k != n) <= jokers
                for a in range(max(1, n - 2), min(n, 11) + 1)
            )
            group = sum(avail[x][n] > 0 for x in range(4) if x != c) + jokers >= 2
            pair = prob.pairs and (prob.hand[c][n] == 2 or prob.hand_jokers > 0)
            out[c][n] = window or group or pair
    return out


def upper_bound(prob: _Problem) -> int:
    """A quick bound on the shed: the hand tiles that could be laid at all, and its jokers."""
    layable = _layable(prob)
    value = sum(n * prob.hand[c][n] for c in range(4) for n in range(1, 14) if layable[c][n])
    return value + JOKER_HAND_VALUE * prob.hand_jokers


def _solve(prob: _Problem) -> _Plan | None:
    """The best plan for ``prob`` (None when even the table as it is cannot be rebuilt, or
    when no plan sheds ``prob.floor``: states that cannot reach it are dropped as soon as
    they are made). With ``prob.melds`` False the melds are not counted (the 26-meld cap is
    left out, and no pair may be laid): the caller checks the plan's melds."""
    jokers = prob.table_jokers + prob.hand_jokers
    layable = _layable(prob)
    # the hand value that can still come after each stage (number n, colour c)
    after: list[list[int]] = [[0] * 4 for _ in range(14)]
    acc = 0
    for n in range(13, 0, -1):
        for c in range(3, -1, -1):
            after[n][c] = acc
            if layable[c][n]:
                acc += n * prob.hand[c][n]

    # per joker state: (goal - what its unused jokers could still shed) * _W, where goal is
    # the floor plus the table's jokers (the plan's value counts them as shed)
    reach = (
        None
        if prob.floor is None
        else [
            (
                prob.floor
                + JOKER_HAND_VALUE * prob.table_jokers
                - JOKER_HAND_VALUE * max(0, jokers - j % 3 - j // 3 % 3)
            )
            * _W
            for j in range(_JSTATES)
        ]
    )

    def needs(pot: int) -> list[int] | None:
        """By joker state, the least value a state needs to be kept when ``pot`` more could
        still come from the hand."""
        if reach is None:
            return None
        drop = pot * _W
        return [r - drop for r in reach]

    layer: dict[int, int] = {0: 0}
    backs: list[dict[int, tuple[int, int]]] = []
    all_choices: list[list[_Choice]] = []
    set_moves: list[list[tuple[int, int]]] = []
    cap = prob.cap if prob.melds else 1 << 20
    mj = _JSTATES if prob.melds else 0
    work = 0
    for n in range(1, 14):
        for c in range(4):
            moves_of = _ColourMoves(prob, c, n, needs(after[n][c]))
            all_choices.append(moves_of.choices)
            place = _P[c]
            known = moves_of.by_state  # moves_of.get, inlined: the innermost loop
            make = moves_of._make
            nxt: dict[int, int] = {}
            back: dict[int, tuple[int, int]] = {}
            get = nxt.get
            for key, val in layer.items():
                lane = key // place % _NL
                j = key // _LS % _JSTATES
                row = known.get(lane * _JSTATES + j)
                if row is None:
                    row = known[lane * _JSTATES + j] = make(lane, j)
                for delta, dv, oi, low in row:
                    if val < low:
                        continue
                    nk = key + delta
                    nv = val + dv
                    old = get(nk)
                    if old is None or nv > old:
                        nxt[nk] = nv
                        back[nk] = (key, oi)
            backs.append(back)
            layer = nxt
            if prob.melds and not prob.pairs:
                layer = _pareto(layer)
            work += len(layer)
            prob.work = work
            if prob.budget is not None and work > prob.budget:
                prob.overflow = True
                return None
        # sets at number n
        need = needs(after[n][3])
        nxt = {}
        back = {}
        moves: list[tuple[int, int]] = []
        move_index: dict[tuple[int, int], int] = {}
        get = nxt.get
        for key, val in layer.items():
            lanes = key % _LS
            hi = key // _LS
            j = hi % _JSTATES
            m = hi // _JSTATES % 64 if prob.melds else 0
            real = hi // (_JSTATES * 64) % 9
            twos = hi // (_JSTATES * 64 * 9)
            js, jp, pf = _junpack(j)
            for jset in range(jokers - js - jp + 1):
                total = real + jset
                options = _set_counts(total, twos)
                j2 = _jstate(js + jset, jp, pf)
                nv = val + JOKER_HAND_VALUE * _W * jset
                if need is not None and nv < need[j2]:
                    continue
                for g in options:
                    if m + g > cap:
                        break
                    nk = lanes + _LS * (j2 + mj * (m + g))
                    old = get(nk)
                    if old is None or nv > old:
                        mi = move_index.setdefault((jset, g), len(moves))
                        if mi == len(moves):
                            moves.append((jset, g))
                        nxt[nk] = nv
                        back[nk] = (key, mi)
        if prob.melds and not prob.pairs:
            nxt = _pareto(nxt)
        backs.append(back)
        set_moves.append(moves)
        layer = nxt
    best_key, best_val, best_pair = -1, _NEG, False
    for key, val in layer.items():
        lanes = key % _LS
        if any(lanes // _P[c] % _NL not in _FINAL_LANES for c in range(4)):
            continue
        hi = key // _LS
        js, jp, pf = _junpack(hi % _JSTATES)
        m = hi // _JSTATES if prob.melds else 0
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


JOKERS_FIXED_BUDGET = 20_000  # states for the lay that leaves the table's jokers in place
TREE_BUDGET = 120_000  # states the exact tree search may visit in one decision (~5 µs each)


def _tidy(table: Table, tiles: list[int], plan: _Plan) -> tuple[list[int], _Plan]:
    """Among lays as good as ``plan``, one that changes few table melds: the hand alone, then
    the melds nearest the hand's tiles, each searched (with the bias toward keeping melds)
    for a lay shedding as much; else ``plan`` over the whole series area."""
    everything = list(range(len(table.series)))
    tried: list[list[int]] = []
    for reach, most in ((None, None), (1, LOCAL_MELDS), (1, None)):
        released = [] if reach is None else _touching(table, tiles, reach, most)
        if released in tried or released == everything:
            continue
        tried.append(released)
        local, _ = _attempt(table, tiles, released, plan.shed, LOCAL_BUDGET)
        if local is not None and local.shed >= plan.shed:
            return released, local
    return everything, plan


def search(
    table: Table,
    seat: int,
    *,
    hand: Sequence[int] | None = None,
    tree_budget: int = TREE_BUDGET,
    decision_budget: int = DECISION_BUDGET,
) -> Search:
    """The best lay for ``seat`` (from ``hand``, a part of its hand, when given) and whether
    it is proven best (see ``Search``): the exact tree search over the whole series area
    (``_exact``), then, among lays as good, one that changes few melds (``_tidy``). When
    the tree search runs out of budget: the better of what it proved (a lay without pairs)
    and the local-first ladder (``_steps``). The budgets (in states) are the computer
    players' knob for how long they look; the defaults are the search's own."""
    tiles = list(table.seats[seat].hand if hand is None else hand)
    everything = list(range(len(table.series)))
    if not tiles:
        return Search(None, True, ())
    plan, exact = _exact(table, tiles, everything, _Budget(tree_budget))
    if exact:
        if plan is None:
            return Search(None, True, tuple(everything))
        released, plan = _tidy(table, tiles, plan)
        return Search(_proposal(table, tiles, released, plan), True, tuple(everything))
    found = _steps(table, tiles, decision_budget)
    fixed = _jokers_fixed(table, tiles)
    if fixed is not None and (found.proposal is None or fixed.shed > found.proposal.shed):
        found = Search(fixed, False, tuple(everything))
    if plan is not None and (found.proposal is None or plan.shed > found.proposal.shed):
        return Search(_proposal(table, tiles, everything, plan), False, tuple(everything))
    return found


def _jokers_fixed(table: Table, tiles: list[int]) -> Proposal | None:
    """The best lay leaving the table melds that hold a joker as they are: exact on its
    own (small) problem where the whole one ran out of budget — the table's jokers are
    what makes the whole problem large (they may stand for any tile anywhere)."""
    released = [
        i for i, m in enumerate(table.series) if not any(KASTET_TILES[p.id].joker for p in m)
    ]
    if len(released) == len(table.series):
        return None  # no joker on the table: the same problem
    plan, exact = _exact(table, tiles, released, _Budget(JOKERS_FIXED_BUDGET))
    return None if plan is None or not exact else _proposal(table, tiles, released, plan)


def _steps(table: Table, tiles: list[int], decision_budget: int = DECISION_BUDGET) -> Search:
    """The budgeted ladder: a small table whole, else the hand alone, then with the table
    melds near its tiles released, then the whole series area; when that is not proven
    best, the lay is applied to a copy of the table and the search goes on from there (a
    lay may be built in steps), all within ``DECISION_BUDGET``."""
    everything = list(range(len(table.series)))
    if len(everything) <= SMALL_TABLE:  # small enough to search whole at once
        plan, overflow = _attempt(table, tiles, everything, 1, SMALL_BUDGET)
        if not overflow:
            proposal = None if plan is None else _proposal(table, tiles, everything, plan)
            return Search(proposal, True, tuple(everything))
    budget = _Budget(decision_budget)
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
    melds may change: exact within ``TREE_BUDGET``, else the budgeted sweep's (None also
    when that runs out of budget)."""
    plan, exact = _exact(table, list(hand), list(released), _Budget(TREE_BUDGET))
    if not exact:
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


# --- exact search with floors ---------------------------------------------------------------


def _exact(
    table: Table, hand: Sequence[int], released: list[int], budget: _Budget
) -> tuple[_Plan | None, bool]:
    """The best plan when the ``released`` table melds may change (None: no lay sheds
    anything), and whether it is proven (False: the budget ran out first, and the plan is
    the best found by then, or None). First series melds only; then, when pairs may be laid
    and could shed more, with pairs (the series melds must then be exactly 26)."""
    frozen = len(table.series) - len(released)
    prob = _problem([table.series[i] for i in released], hand, MAX_SERIES - frozen)
    tiles = prob.table_jokers + prob.hand_jokers
    tiles += sum(map(sum, prob.req)) + sum(map(sum, prob.hand))
    pairable = prob.hand_jokers > 0 or any(v >= 2 for row in prob.hand for v in row)
    prob.pairs = False
    # Fewer tiles than 3 melds a free place: the cap can never bind, so the melds need not
    # be counted (states that differ only in their meld count are one; ~30 % fewer states
    # on mid-game tables with jokers).
    prob.melds = tiles >= 3 * (prob.cap + 1)
    best: _Plan | None = None
    if upper_bound(prob) >= 1:
        tree = _Tree(prob, budget.left)
        try:
            best = tree.plan()
        except _OutOfWork:
            budget.left = 0
            return None, False
        budget.left = tree.left
    if pairable and tiles >= 3 * prob.cap:
        prob = _problem([table.series[i] for i in released], hand, MAX_SERIES - frozen)
        prob.pairs = True
        floor = 1 if best is None else best.shed + 1
        if upper_bound(prob) >= floor:
            prob.floor = floor
            tree = _Tree(prob, budget.left)
            try:
                plan = tree.plan()
            except _OutOfWork:
                budget.left = 0
                return best, False
            budget.left = tree.left
            if plan is not None and plan.shed >= floor:
                best = plan
    return best, True


# --- exact branch and bound over the same states ----------------------------------------------


class _OutOfWork(Exception):
    """The tree search used its budget."""


class _Owed(dict[int, int]):
    """Lanes part of a key -> the tiles its short runs still need (2 a run of one, 1 of two)."""

    def __missing__(self, lanes: int) -> int:
        owed = 0
        for c in range(4):
            x1, x2, _ = _LANES[lanes // _P[c] % _NL]
            owed += 2 * x1 + x2
        self[lanes] = owed
        return owed


class _Tree:
    """Depth-first branch and bound over the sweep's states (stage s = 5 * (n - 1) + c for
    colour c at number n, c = 4 for the sets at n), remembering each state's value: exact
    when it was found, else an upper bound. Values are the shed alone (no bias), jokers
    counting 50 wherever they go (the table's are taken off at the end). A state is cut when
    what it has plus what could still come (the layable hand tiles of later faces and the
    jokers not used yet) cannot beat the best found; moves that lay more are tried first, so
    the first lays found are good ones."""

    def __init__(self, prob: _Problem, budget: int) -> None:
        prob.bias = False
        self.prob = prob
        self.jokers = prob.table_jokers + prob.hand_jokers
        layable = _layable(prob)
        self.after = [0] * 66  # hand value that can still come after stage s
        acc = 0
        for s in range(64, -1, -1):
            n, c = s // 5 + 1, s % 5
            self.after[s] = acc
            if c < 4 and layable[c][n]:
                acc += n * prob.hand[c][n]
        self.top = acc + JOKER_HAND_VALUE * self.jokers  # no plan is worth more
        # tiles of the faces from each stage on: with pairs, the melds must reach the cap
        self.tiles_from = [0] * 66
        count = 0
        for s in range(64, -1, -1):
            n, c = s // 5 + 1, s % 5
            if c < 4:
                count += prob.req[c][n] + prob.hand[c][n]
            self.tiles_from[s] = count
        self.moves = [
            _ColourMoves(prob, s % 5, s // 5 + 1, None) if s % 5 < 4 else None for s in range(65)
        ]
        self.owed = _Owed()
        self.exact: list[dict[int, tuple[int, int]]] = [{} for _ in range(66)]
        self.bound: list[dict[int, int]] = [{} for _ in range(66)]
        self.set_moves: dict[tuple[int, int], int] = {}  # (jokers in sets, sets) -> index
        self.set_list: list[tuple[int, int]] = []
        self.left = budget
        self.cap = prob.cap if prob.melds else 1 << 20
        self.pot = [
            JOKER_HAND_VALUE * max(0, self.jokers - js - jp)
            for js, jp, _ in map(_junpack, range(_JSTATES))
        ]

    def _set_index(self, move: tuple[int, int]) -> int:
        i = self.set_moves.get(move)
        if i is None:
            i = self.set_moves[move] = len(self.set_list)
            self.set_list.append(move)
        return i

    def _final(self, key: int) -> tuple[int, int]:
        """The value at the end of the sweep (-inf when the state is not a valid end) and
        whether the hand's two jokers are laid as a pair of their own (1) or not (0)."""
        prob = self.prob
        lanes = key % _LS
        if any(lanes // _P[c] % _NL not in _FINAL_LANES for c in range(4)):
            return _NEG, 0
        hi = key // _LS
        js, jp, _ = _junpack(hi % _JSTATES)
        m = hi // _JSTATES if prob.melds else 0
        if js < prob.table_jokers:
            return _NEG, 0
        # with pairs allowed every plan has exactly ``cap`` melds (``_exact`` looks for the
        # others without pairs)
        best, pair = (_NEG, 0) if prob.pairs and m != self.cap else (0, 0)
        if prob.pairs and self.jokers - js - jp == 2 and m == self.cap:
            best, pair = 2 * JOKER_HAND_VALUE, 1
        return best, pair

    def value(self, s: int, key: int, need: int) -> int:
        """The best value from stage ``s`` on (exact when at least ``need``; else a bound
        above it)."""
        if s == 65:
            return self._final(key)[0]
        found = self.exact[s].get(key)
        if found is not None:
            return found[0]
        known = self.bound[s].get(key)
        if known is not None and known < need:
            return known
        self.left -= 1
        if self.left < 0:
            raise _OutOfWork
        j = key // _LS % _JSTATES
        if self.prob.pairs:  # pairs need exactly ``cap`` melds: can the rest make enough?
            hi = key // _LS
            js, jp, _ = _junpack(j)
            more = self.tiles_from[s] + hi // (_JSTATES * 64) % 9 + self.jokers - js - jp
            more -= self.owed[key % _LS]  # tiles that only finish short runs
            if hi // _JSTATES % 64 + more // 3 < self.cap:
                self.bound[s][key] = _NEG
                return _NEG
        best, best_move, bound = _NEG, -1, _NEG
        after = self.after[s]
        pot = self.pot
        if s % 5 < 4:
            moves = self.moves[s]
            assert moves is not None
            lane = key // _P[s % 5] % _NL
            for delta, dv, oi, _ in moves.get(lane, j):
                nk = key + delta
                goal = need if need > best else best + 1
                hope = dv + after + pot[nk // _LS % _JSTATES]
                if hope < goal:
                    if hope > bound:
                        bound = hope
                    continue
                v = dv + self.value(s + 1, nk, goal - dv)
                if v > best:
                    best, best_move = v, oi
        else:
            prob = self.prob
            lanes = key % _LS
            hi = key // _LS
            m = hi // _JSTATES % 64 if prob.melds else 0
            real = hi // (_JSTATES * 64) % 9
            twos = hi // (_JSTATES * 64 * 9)
            js, jp, pf = _junpack(j)
            mj = _JSTATES if prob.melds else 0
            for jset in range(self.jokers - js - jp, -1, -1):
                total = real + jset
                options = _set_counts(total, twos)
                j2 = _jstate(js + jset, jp, pf)
                dv = JOKER_HAND_VALUE * jset
                for g in options:
                    if m + g > self.cap:
                        break
                    goal = need if need > best else best + 1
                    hope = dv + after + pot[j2]
                    if hope < goal:
                        if hope > bound:
                            bound = hope
                        continue
                    nk = lanes + _LS * (j2 + mj * (m + g))
                    v = dv + self.value(s + 1, nk, goal - dv)
                    if v > best:
                        best, best_move = v, self._set_index((jset, g))
        if best >= need:
            self.exact[s][key] = (best, best_move)
            return best
        best = max(best, bound)
        self.bound[s][key] = best
        return best

    def plan(self) -> _Plan | None:
        """The best plan (None: even the table as it is cannot be rebuilt, or no lay sheds
        anything); raises ``_OutOfWork`` past the budget."""
        prob = self.prob
        base = JOKER_HAND_VALUE * prob.table_jokers
        low = base + max(1, prob.floor or 1)
        # Aim high first (a high aim cuts nearly every state), then lower the aim below the
        # bound each failed try gives, by steps that grow: the first try whose value reaches
        # its aim has the exact best (what every try learned stays valid for the next).
        top, gap = self.top, 0
        while True:
            aim = max(low, top - gap)
            v = self.value(0, 0, aim)
            if v >= aim or aim == low:
                break
            top, gap = min(top, v), 2 * gap + 1
        if v < low or 0 not in self.exact[0]:
            return None
        choices: list[list[_Choice]] = [[] for _ in range(13)]
        sets: list[tuple[int, int]] = [(0, 0)] * 13
        key = 0
        for s in range(65):
            _, move = self.exact[s][key]
            n, c = s // 5 + 1, s % 5
            if c < 4:
                moves = self.moves[s]
                assert moves is not None
                choice = moves.choices[move]
                choices[n - 1].append(choice)
                lane = key // _P[c] % _NL
                j = key // _LS % _JSTATES
                key += next(d for d, _, oi, _ in moves.get(lane, j) if oi == move)
            else:
                jset, g = sets[n - 1] = self.set_list[move]
                hi = key // _LS
                js, jp, pf = _junpack(hi % _JSTATES)
                m = hi // _JSTATES % 64 if prob.melds else 0
                mj = _JSTATES if prob.melds else 0
                key = key % _LS + _LS * (_jstate(js + jset, jp, pf) + mj * (m + g))
        return _Plan(v - base, choices, sets, self._final(key)[1] == 1)
