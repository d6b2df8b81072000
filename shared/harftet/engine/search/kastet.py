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

The parts, each in its own module: the states and the moves between them
(``kastet_states``), the sweep (``kastet_sweep._solve``), the tree (``kastet_tree._Tree``),
and the way from a table to a problem and from a plan back to melds (``kastet_melds``). This
module chooses among them: ``search`` and the budgeted ladder, for hints and computer players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from harftet.engine.moves import Lay
from harftet.engine.rules import MAX_SERIES
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import KASTET_TILES

from .kastet_melds import _hand_value, _lay, _problem, _touching
from .kastet_states import _Plan, _Problem, upper_bound
from .kastet_sweep import _solve
from .kastet_tree import _OutOfWork, _Tree
from .proposal import Proposal


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
    fixed_budget: int = JOKERS_FIXED_BUDGET,
) -> Search:
    """The best lay for ``seat`` (from ``hand``, a part of its hand, when given) and whether
    it is proven best (see ``Search``): the exact tree search over the whole series area
    (``_exact``), then, among lays as good, one that changes few melds (``_tidy``). When
    the tree search runs out of budget: the better of what it proved (a lay without pairs)
    and the local-first ladder (``_steps``), and the lay leaving the table's jokers in place
    (``_jokers_fixed``). The budgets (in states) are the computer players' knob for how long
    they look; the defaults are the search's own."""
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
    fixed = _jokers_fixed(table, tiles, fixed_budget)
    if fixed is not None and (found.proposal is None or fixed.shed > found.proposal.shed):
        found = Search(fixed, False, tuple(everything))
    if plan is not None and (found.proposal is None or plan.shed > found.proposal.shed):
        return Search(_proposal(table, tiles, everything, plan), False, tuple(everything))
    return found


def _jokers_fixed(
    table: Table, tiles: list[int], budget: int = JOKERS_FIXED_BUDGET
) -> Proposal | None:
    """The best lay leaving the table melds that hold a joker as they are: exact on its
    own (small) problem where the whole one ran out of budget — the table's jokers are
    what makes the whole problem large (they may stand for any tile anywhere)."""
    released = [
        i for i, m in enumerate(table.series) if not any(KASTET_TILES[p.id].joker for p in m)
    ]
    if len(released) == len(table.series):
        return None  # no joker on the table: the same problem
    plan, exact = _exact(table, tiles, released, _Budget(budget))
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


@dataclass(frozen=True, slots=True)
class Within:
    """``within``'s answer: the best lay found, whether the search finished (then it is the
    best there is, and None means no lay), and the states it left of its budget."""

    proposal: Proposal | None
    proven: bool
    left: int


def within(table: Table, hand: Sequence[int], released: Sequence[int], budget: int) -> Within:
    """The best lay of ``hand`` (tiles of the seat in turn) when only the ``released`` table
    melds may change, searched exactly within ``budget`` states (the computer players'
    looks, each on its own budget)."""
    box = _Budget(budget)
    plan, proven = _exact(table, list(hand), list(released), box)
    proposal = None if plan is None else _proposal(table, hand, list(released), plan)
    return Within(proposal, proven, box.left)


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
        best, finished = _search(prob, budget)
        if not finished:
            return None, False
    if pairable and tiles >= 3 * prob.cap:
        prob = _problem([table.series[i] for i in released], hand, MAX_SERIES - frozen)
        prob.pairs = True
        floor = 1 if best is None else best.shed + 1
        if upper_bound(prob) >= floor:
            prob.floor = floor
            plan, finished = _search(prob, budget)
            if not finished:
                return best, False
            if plan is not None and plan.shed >= floor:
                best = plan
    return best, True


def _search(prob: _Problem, budget: _Budget) -> tuple[_Plan | None, bool]:
    """The best plan of ``prob`` (None: none sheds enough) and whether the search finished
    (False: it ran out of the budget, which it spends either way)."""
    tree = _Tree(prob, budget.left)
    try:
        plan = tree.plan()
    except _OutOfWork:
        budget.left = 0
        return None, False
    budget.left = tree.left
    return plan, True
