"""Kastet's sweep: van Rijn's dynamic programme over the states of ``kastet_states``.

Number by number, colour by colour, then the sets of the number, every state reached is kept
with its best value (``shed * _W + bias`` by default, the bias preferring lays that keep the
table's melds) and where it came from; the best valid end state is walked back into a plan.
With a floor, states that cannot reach it any more are dropped as soon as they are made;
with a budget (states summed over the stages), the sweep gives up past it.
"""

from __future__ import annotations

from harftet.engine.tiles import JOKER_HAND_VALUE

from .kastet_states import (
    _FINAL_LANES,
    _JSTATES,
    _LS,
    _MU,
    _NEG,
    _NL,
    _P,
    _W,
    _Choice,
    _ColourMoves,
    _jstate,
    _junpack,
    _layable,
    _Plan,
    _Problem,
    _set_counts,
)

_Back = dict[int, tuple[int, int]]  # a stage's new state -> (the state it came from, the move)


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


def _solve(prob: _Problem) -> _Plan | None:
    """The best plan for ``prob`` (None when even the table as it is cannot be rebuilt, or
    when no plan sheds ``prob.floor``: states that cannot reach it are dropped as soon as
    they are made). With ``prob.melds`` False the melds are not counted (the 26-meld cap is
    left out, and no pair may be laid): the caller checks the plan's melds."""
    after = _still_to_come(prob)
    reach = _reach(prob)
    layer: dict[int, int] = {0: 0}
    backs: list[_Back] = []
    all_choices: list[list[_Choice]] = []
    set_moves: list[list[tuple[int, int]]] = []
    cap = prob.cap if prob.melds else 1 << 20
    work = 0
    for n in range(1, 14):
        for c in range(4):
            moves_of = _ColourMoves(prob, c, n, _needs(reach, after[n][c]))
            all_choices.append(moves_of.choices)
            layer, back = _colour_stage(layer, moves_of)
            backs.append(back)
            if prob.melds and not prob.pairs:
                layer = _pareto(layer)
            work += len(layer)
            prob.work = work
            if prob.budget is not None and work > prob.budget:
                prob.overflow = True
                return None
        layer, back, moves = _sets_stage(prob, layer, _needs(reach, after[n][3]), cap)
        if prob.melds and not prob.pairs:
            layer = _pareto(layer)
        backs.append(back)
        set_moves.append(moves)
    best_key, best_val, best_pair = _best_end(prob, layer, cap)
    if best_key < 0:
        return None
    choices, sets = _walk_back(backs, all_choices, set_moves, best_key)
    shed = (best_val // _W) - JOKER_HAND_VALUE * prob.table_jokers
    return _Plan(shed, choices, sets, best_pair)


def _still_to_come(prob: _Problem) -> list[list[int]]:
    """The hand value that can still come after each stage (number n, colour c)."""
    layable = _layable(prob)
    after: list[list[int]] = [[0] * 4 for _ in range(14)]
    acc = 0
    for n in range(13, 0, -1):
        for c in range(3, -1, -1):
            after[n][c] = acc
            if layable[c][n]:
                acc += n * prob.hand[c][n]
    return after


def _reach(prob: _Problem) -> list[int] | None:
    """Per joker state: (goal - what its unused jokers could still shed) * _W, where goal is
    the floor plus the table's jokers (the plan's value counts them as shed); None without
    a floor."""
    if prob.floor is None:
        return None
    jokers = prob.table_jokers + prob.hand_jokers
    return [
        (
            prob.floor
            + JOKER_HAND_VALUE * prob.table_jokers
            - JOKER_HAND_VALUE * max(0, jokers - j % 3 - j // 3 % 3)
        )
        * _W
        for j in range(_JSTATES)
    ]


def _needs(reach: list[int] | None, pot: int) -> list[int] | None:
    """By joker state, the least value a state needs to be kept when ``pot`` more could
    still come from the hand."""
    if reach is None:
        return None
    drop = pot * _W
    return [r - drop for r in reach]


def _colour_stage(layer: dict[int, int], moves_of: _ColourMoves) -> tuple[dict[int, int], _Back]:
    """One colour at one number: every state's moves, each new state with its best value and
    where that came from."""
    place = _P[moves_of.c]
    known = moves_of.by_state  # moves_of.get, inlined: the innermost loop
    make = moves_of._make
    nxt: dict[int, int] = {}
    back: _Back = {}
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
    return nxt, back


def _sets_stage(
    prob: _Problem, layer: dict[int, int], need: list[int] | None, cap: int
) -> tuple[dict[int, int], _Back, list[tuple[int, int]]]:
    """The sets at the number just swept: from each state, every count of jokers and of sets
    its set tiles allow; with the moves, as (jokers in sets, sets)."""
    jokers = prob.table_jokers + prob.hand_jokers
    mj = _JSTATES if prob.melds else 0
    nxt: dict[int, int] = {}
    back: _Back = {}
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
    return nxt, back, moves


def _best_end(prob: _Problem, layer: dict[int, int], cap: int) -> tuple[int, int, bool]:
    """The best valid end state (key, value, whether the hand's two jokers make a pair of
    their own); key -1 when there is none."""
    jokers = prob.table_jokers + prob.hand_jokers
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
    return best_key, best_val, best_pair


def _walk_back(
    backs: list[_Back],
    all_choices: list[list[_Choice]],
    set_moves: list[list[tuple[int, int]]],
    key: int,
) -> tuple[list[list[_Choice]], list[tuple[int, int]]]:
    """From the end state ``key`` back through every stage: each colour's choice and the
    sets at each number."""
    choices: list[list[_Choice]] = [[] for _ in range(13)]
    sets: list[tuple[int, int]] = [(0, 0)] * 13
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
    return choices, sets
