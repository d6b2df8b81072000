"""Kastet's exact search: a depth-first branch and bound over the states of ``kastet_states``.

Each state's value is remembered, exact or as a bound above it, so a state reached twice is
searched once; moves that lay more come first; a state is cut when what it has plus what could
still come cannot reach the aim. Work is counted in states visited: past the budget the search
raises ``_OutOfWork``.
"""

from __future__ import annotations

from harftet.engine.tiles import JOKER_HAND_VALUE

from .kastet_states import (
    _FINAL_LANES,
    _JSTATES,
    _LANES,
    _LS,
    _NEG,
    _NL,
    _P,
    _Choice,
    _ColourMoves,
    _jstate,
    _junpack,
    _layable,
    _Plan,
    _Problem,
    _set_counts,
)


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
        if s % 5 == 4:
            best, best_move, bound = self._sets_value(s, key, need)
        else:
            best, best_move, bound = _NEG, -1, _NEG
            after = self.after[s]
            pot = self.pot
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
        if best >= need:
            self.exact[s][key] = (best, best_move)
            return best
        best = max(best, bound)
        self.bound[s][key] = best
        return best

    def _sets_value(self, s: int, key: int, need: int) -> tuple[int, int, int]:
        """``value`` at a number's sets stage (``s % 5 == 4``): the best over every count of
        jokers and of sets, its move, and the best bound of the moves cut."""
        best, best_move, bound = _NEG, -1, _NEG
        after = self.after[s]
        pot = self.pot
        prob = self.prob
        lanes = key % _LS
        hi = key // _LS
        m = hi // _JSTATES % 64 if prob.melds else 0
        real = hi // (_JSTATES * 64) % 9
        twos = hi // (_JSTATES * 64 * 9)
        js, jp, pf = _junpack(hi % _JSTATES)
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
        return best, best_move, bound

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
