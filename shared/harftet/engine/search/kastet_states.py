"""The states both Kastet searches walk (see ``kastet``): a problem as counts per face, a
plan as each colour's choice at each number, and the moves between states.

A state is one integer key. Sweeping the numbers 1..13, colour by colour, it holds per colour
the runs that are open (how many of length 1, 2 and 3+), the jokers used (in series, in
pairs, and whether a pair was laid), the melds standing, and at a number's sets stage the real
tiles given to sets there. ``_ColourMoves`` makes the moves of one colour at one number, once
per state that asks; the sweep (``kastet_sweep``) and the tree (``kastet_tree``) share them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from harftet.engine.tiles import COLORS, JOKER_HAND_VALUE

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
    """What one colour does at one number (see ``_ColourMoves``)."""

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
        """The moves from (``lane``, ``j``), made once: every split of this face's tiles
        between runs, sets and pairs, with jokers, that leaves the lanes valid."""
        prob, c, n, need = self.prob, self.c, self.n, self.need
        r, h = prob.req[c][n], prob.hand[c][n]
        js, jp, pf = _junpack(j)
        free = prob.table_jokers + prob.hand_jokers - js - jp
        sets_possible = _tiles_at(prob, n) >= 3
        new_max = _new_runs_most(prob, c, n, free)
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
            _lay_most_first(out, self.choices)
        return out


def _tiles_at(prob: _Problem, n: int) -> int:
    """The tiles of number ``n`` (table and hand, every colour) and every joker."""
    req, hand = prob.req, prob.hand
    total_at_n = req[0][n] + req[1][n] + req[2][n] + req[3][n]
    total_at_n += prob.table_jokers + prob.hand_jokers
    return total_at_n + hand[0][n] + hand[1][n] + hand[2][n] + hand[3][n]


def _new_runs_most(prob: _Problem, c: int, n: int, free: int) -> int:
    """At most this many runs of colour ``c`` can start at ``n`` and reach length 3."""
    if n > 11:
        return 0
    req, hand = prob.req[c], prob.hand[c]
    return min(req[n + 1] + hand[n + 1] + free, req[n + 2] + hand[n + 2] + free, 4)


def _lay_most_first(moves: list[tuple[int, int, int, int]], chosen: list[_Choice]) -> None:
    """Order the tree search's moves: the most value first, then no pair before a pair, runs
    going on before runs ending, fewer new runs first."""
    moves.sort(
        key=lambda mv: (
            -mv[1],
            chosen[mv[2]].pair,
            -chosen[mv[2]].cont,
            chosen[mv[2]].new,
        )
    )


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
