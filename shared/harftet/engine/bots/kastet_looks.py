"""What a person sees in one look at a Kastet table: the lays a computer player can find.

Each look is a step of a level's turn (``bots.kastet``), from the simplest up:

- ``HandMelds``: new runs and sets (and pairs, once the pair area is open) from the hand
  alone — the exact search on the hand (a few thousand states on a 22-tile hand), of which a
  person may see only the ``most`` most valuable melds; past its budget, the melds the hand
  shows at a glance (``_plain_melds``).
- ``Extensions``: hand tiles added to table melds with no table tile moved: at the ends of a
  run, a missing colour of a set (to the ``most`` melds that take the most).
- ``OneMeld``: one table meld rebuilt with the hand (split, shortened, its tiles in new runs
  and sets), each meld the hand could touch tried alone.
- ``Near``: the table melds near the hand's tiles reworked together.
- ``Whole``: the whole series area reworked, the melds holding a joker left as they are.

Each search runs on its own budget of states (deterministic, not a clock). A look that runs
out of it falls back to a simpler one it can finish (the hand first), never to nothing while
a simpler look would lay: a person who cannot work out the whole table still lays what their
own hand shows. ``exactly`` gives a look without budgets: what the level could have laid by
its own rules, which the benches and tests hold its play against.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from harftet.engine.moves import Lay
from harftet.engine.rules import MAX_SERIES
from harftet.engine.search import Proposal
from harftet.engine.search.kastet import within
from harftet.engine.search.kastet_melds import _face, _hand_value, _is_run, _placed_face
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import COLORS, KASTET_TILES

HAND_BUDGET = 20_000  # states: the hand alone (a 22-tile hand takes at most ~5,000)
MELD_BUDGET = 4_000  # states for each table meld rebuilt alone with the hand
NEAR_BUDGET = 20_000  # states for the melds near the hand's tiles together
WHOLE_BUDGET = 30_000  # states for the whole series area (about 150 ms here)
EXACT = 10**9  # "no budget": the look as the level's rules define it

_Faces = dict[tuple[int, int], list[int]]  # (colour index, number) -> hand tile ids


class Look(Protocol):
    """One look at the table: the best lay it finds for ``seat`` (None: none)."""

    def __call__(self, table: Table, seat: int) -> Proposal | None: ...


def exactly(look: Look) -> Look:
    """``look`` without a budget: every lay its rules allow is found."""
    if isinstance(look, Best):
        return look.exactly()
    if not hasattr(look, "budget"):
        return look
    more = {k: EXACT for k in ("fixed", "keep") if hasattr(look, k)}
    return replace(look, budget=EXACT, **more)  # type: ignore[type-var]


def _joker(t: int) -> bool:
    return KASTET_TILES[t].joker


def _proposal(
    table: Table, series: Sequence[Sequence[Placed]], pairs: Sequence[Sequence[Placed]]
) -> Proposal:
    """The lay of ``series`` (the whole new series area) and new ``pairs``, as a proposal."""
    before = {p.id for m in table.series for p in m}
    laid = sorted({p.id for m in [*series, *pairs] for p in m} - before)
    lay = Lay(tuple(tuple(m) for m in series), tuple(tuple(p) for p in pairs))
    return Proposal(lay, _hand_value(laid), tuple(laid))


# --- from the hand alone --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandMelds:
    """New melds and pairs from the hand: the ``most`` most valuable of the best such lay
    (None: all of it)."""

    most: int | None = None
    budget: int = HAND_BUDGET

    def __call__(self, table: Table, seat: int) -> Proposal | None:
        hand = table.seats[seat].hand
        if not hand:
            return None
        found = within(table, hand, [], self.budget)
        if found.proposal is None:
            return None if found.proven else _plain(table, hand)
        lay = found.proposal.lay
        new = list(lay.series[len(table.series) :])
        pairs = list(lay.pairs)
        if self.most is None or len(new) + len(pairs) <= self.most:
            return found.proposal
        by_value = sorted(new or pairs, key=lambda m: -_hand_value([p.id for p in m]))
        kept = by_value[: self.most]
        return _proposal(table, [*table.series, *(kept if new else [])], [] if new else kept)


def _plain(table: Table, hand: Sequence[int]) -> Proposal | None:
    """The melds the hand shows at a glance (where the exact search ran out of budget)."""
    room = MAX_SERIES - len(table.series)
    melds = _plain_melds(hand)[:room]
    return _proposal(table, [*table.series, *melds], []) if melds else None


def _plain_melds(hand: Sequence[int]) -> list[list[Placed]]:
    """Runs of three, sets, and two tiles a joker completes, taken greedily from ``hand``."""
    faces: _Faces = {}
    for t in sorted(hand):
        if not _joker(t):
            faces.setdefault(_face(t), []).append(t)
    jokers = sorted(t for t in hand if _joker(t))

    def has(c: int, n: int) -> bool:
        return 1 <= n <= 13 and bool(faces.get((c, n)))

    def take(c: int, n: int) -> Placed:
        return Placed(faces[(c, n)].pop())

    def joker(c: int, n: int) -> Placed:
        return Placed(jokers.pop(), (COLORS[c], n))

    melds: list[list[Placed]] = []
    for c in range(4):
        for n in range(1, 12):
            while has(c, n) and has(c, n + 1) and has(c, n + 2):
                melds.append([take(c, k) for k in (n, n + 1, n + 2)])
    for n in range(1, 14):
        while len(colours := [c for c in range(4) if has(c, n)]) >= 3:
            melds.append([take(c, n) for c in colours])
    for c in range(4):
        for n in range(1, 13):
            while jokers and has(c, n) and has(c, n + 1):
                pair = [take(c, n), take(c, n + 1)]
                melds.append([*pair, joker(c, n + 2)] if n < 12 else [joker(c, n - 1), *pair])
    for n in range(1, 14):
        while jokers and len(colours := [c for c in range(4) if has(c, n)]) == 2:
            missing = next(c for c in range(4) if c not in colours)
            melds.append([*(take(c, n) for c in colours), joker(missing, n)])
    return melds


# --- hand tiles added to table melds ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Extensions:
    """Hand tiles (not jokers) added to table melds, no table tile moved: to the ``most``
    melds that take the most value (None: every meld that takes any)."""

    most: int | None = None

    def __call__(self, table: Table, seat: int) -> Proposal | None:
        free = _faces(table.seats[seat].hand)
        series = [list(m) for m in table.series]
        for _ in range(len(series) if self.most is None else self.most):
            gains = [(_gain(m, _copy(free)), -i) for i, m in enumerate(series)]
            gain, i = max(gains, default=(0, 0))
            if gain <= 0:
                break
            series[-i] = _grown(series[-i], free)
        if series == table.series:
            return None
        return _proposal(table, series, [])


def _gain(meld: list[Placed], free: _Faces) -> int:
    """The hand value ``meld`` would take from ``free`` (which loses those tiles)."""
    old = {p.id for p in meld}
    return _hand_value([p.id for p in _grown(meld, free) if p.id not in old])


def _faces(hand: Sequence[int]) -> _Faces:
    out: _Faces = {}
    for t in sorted(hand):
        if not _joker(t):
            out.setdefault(_face(t), []).append(t)
    return out


def _copy(free: _Faces) -> _Faces:
    return {f: list(ids) for f, ids in free.items()}


def _grown(meld: list[Placed], free: _Faces) -> list[Placed]:
    """``meld`` with the tiles of ``free`` (taken out of it) that extend it."""
    faces = [_placed_face(p) for p in meld]
    if _is_run(meld):
        c, lo, hi = faces[0][0], faces[0][1], faces[-1][1]
        front: list[Placed] = []
        back: list[Placed] = []
        while lo > 1 and free.get((c, lo - 1)):
            lo -= 1
            front.insert(0, Placed(free[(c, lo)].pop()))
        while hi < 13 and free.get((c, hi + 1)):
            hi += 1
            back.append(Placed(free[(c, hi)].pop()))
        return [*front, *meld, *back]
    n, have = faces[0][1], {c for c, _ in faces}
    grown = list(meld)
    for c in range(4):
        if len(grown) < 4 and c not in have and free.get((c, n)):
            grown.append(Placed(free[(c, n)].pop()))
    return grown


# --- table melds reworked ---------------------------------------------------------------------


def reaches(
    table: Table, hand: Sequence[int], reach: int, jokers: bool = True, table_jokers: bool = False
) -> list[int]:
    """The table melds without a joker (a person leaves the table's jokers where they are:
    freeing one is the expert's move) that a hand tile could join or help rebuild: a run,
    tiles of its colour within ``reach`` of its ends and tiles of a number it holds; a set,
    tiles of its number and tiles of its colours within ``reach`` of it. Every such meld when
    the hand holds a joker (unless ``jokers`` is False: the jokers go where the other tiles
    lead)."""
    faces = [_face(t) for t in hand if not _joker(t)]
    anywhere = jokers and len(faces) < len(hand)
    out = []
    for i, meld in enumerate(table.series):
        if not table_jokers and any(_joker(p.id) for p in meld):
            continue
        mf = [_placed_face(p) for p in meld]
        if anywhere:
            hit = True
        elif _is_run(meld):
            c, lo, hi = mf[0][0], mf[0][1], mf[-1][1]
            hit = any(lo <= n <= hi or (d == c and lo - reach <= n <= hi + reach) for d, n in faces)
        else:
            k, colours = mf[0][1], {c for c, _ in mf}
            hit = any(n == k or (d in colours and abs(n - k) <= reach) for d, n in faces)
        if hit:
            out.append(i)
    return out


@dataclass(frozen=True, slots=True)
class OneMeld:
    """One table meld rebuilt with the hand: each meld its tiles could touch, tried alone (on
    ``budget`` states each); the lay that sheds the most."""

    budget: int = MELD_BUDGET
    table_jokers: bool = False  # melds holding a joker may be rebuilt too

    def __call__(self, table: Table, seat: int) -> Proposal | None:
        hand = table.seats[seat].hand
        best: Proposal | None = None
        for i in reaches(table, hand, 1, table_jokers=self.table_jokers) if hand else []:
            found = within(table, hand, [i], self.budget).proposal
            if found is not None and (best is None or found.shed > best.shed):
                best = found
        return best


@dataclass(frozen=True, slots=True)
class Near:
    """The table melds near the hand's tiles (``reach`` numbers) reworked together; past its
    budget, the simpler looks (``simpler``: the hand first)."""

    reach: int = 2
    budget: int = NEAR_BUDGET

    def __call__(self, table: Table, seat: int) -> Proposal | None:
        hand = table.seats[seat].hand
        if not hand:
            return None
        found = within(table, hand, reaches(table, hand, self.reach, jokers=False), self.budget)
        if found.proposal is None and not found.proven:
            return simpler(table, seat)
        return found.proposal


@dataclass(frozen=True, slots=True)
class Whole:
    """The whole series area reworked, but for the melds holding a joker (a person leaves the
    table's jokers where they are); past its budget, the simpler looks (``simpler``)."""

    budget: int = WHOLE_BUDGET
    table_jokers: bool = False  # the melds holding a joker may be reworked too

    def __call__(self, table: Table, seat: int) -> Proposal | None:
        hand = table.seats[seat].hand
        if not hand:
            return None
        free = [
            i
            for i, m in enumerate(table.series)
            if self.table_jokers or not any(_joker(p.id) for p in m)
        ]
        found = within(table, hand, free, self.budget)
        if found.proposal is None and not found.proven:
            return simpler(table, seat)
        return found.proposal


@dataclass(frozen=True, slots=True)
class Best:
    """Several looks, and the lay of the one that sheds the most (a person who weighs what
    each look shows and makes one of them)."""

    looks: tuple[Look, ...]

    def __call__(self, table: Table, seat: int) -> Proposal | None:
        found = [p for p in (look(table, seat) for look in self.looks) if p is not None]
        return max(found, key=lambda p: p.shed, default=None)

    def exactly(self) -> Best:
        return Best(tuple(exactly(look) for look in self.looks))


def simpler(table: Table, seat: int) -> Proposal | None:
    """What a person lays when the table is too much to work out: the hand's melds, else its
    tiles added to table melds, else one table meld rebuilt with them."""
    for look in (HandMelds(), Extensions(), OneMeld()):
        found = look(table, seat)
        if found is not None:
            return found
    return None
