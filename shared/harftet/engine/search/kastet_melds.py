"""From a Kastet table to a search problem, and from a plan back to melds of real tiles.

The searches work on counts per face (``kastet_states._Problem``); a plan says what each
colour does at each number. Here the released table melds and the hand become those counts,
and a plan becomes melds again: the ones rebuilt exactly as they were keep their own tiles and
place, the rest take the table's tiles first, then the hand's.
"""

from __future__ import annotations

from collections.abc import Sequence

from harftet.engine.state import Placed, Table
from harftet.engine.tiles import COLORS, JOKER_HAND_VALUE, KASTET_TILES

from .kastet_states import _Plan, _Problem

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
    kept, fresh = _kept_as_they_were(table, released, melds)
    tiles = _Tiles(table, hand, released, kept)
    built = [tiles.place(m, True) for m in fresh]
    assert not tiles.table_jokers and not any(tiles.table_ids.values()), "a table tile was left out"
    pairs = [tiles.place(p, False) for p in pair_slots]
    return _in_place(table, released, kept, built), pairs, tiles.laid


def _kept_as_they_were(
    table: Table, released: list[int], melds: list[list[_Slot]]
) -> tuple[dict[int, list[Placed]], list[list[_Slot]]]:
    """The released table melds the plan rebuilds exactly (by index, with their own tiles),
    and the plan's other melds."""
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
    return kept, fresh


class _Tiles:
    """The tiles a plan's new melds are made of, by face: the released table tiles not kept
    in place (used first, they must all be used) and the hand's; ``laid`` the hand tiles
    used, in order."""

    def __init__(
        self,
        table: Table,
        hand: Sequence[int],
        released: list[int],
        kept: dict[int, list[Placed]],
    ) -> None:
        used = {p.id for m in kept.values() for p in m}
        self.table_ids: dict[_Face, list[int]] = {}
        self.table_jokers: list[int] = []
        for i in released:
            for p in table.series[i]:
                if p.id in used:
                    continue
                if KASTET_TILES[p.id].joker:
                    self.table_jokers.append(p.id)
                else:
                    self.table_ids.setdefault(_face(p.id), []).append(p.id)
        self.hand_ids: dict[_Face, list[int]] = {}
        self.hand_jokers: list[int] = []
        for t in sorted(hand):
            if KASTET_TILES[t].joker:
                self.hand_jokers.append(t)
            else:
                self.hand_ids.setdefault(_face(t), []).append(t)
        self.laid: list[int] = []

    def real(self, face: _Face, from_table: bool) -> int:
        """A tile of ``face``: the table's when ``from_table`` and one is left, else the hand's."""
        ids = self.table_ids.get(face) if from_table else None
        if ids:
            return ids.pop()
        t = self.hand_ids[face].pop()
        self.laid.append(t)
        return t

    def joker(self, from_table: bool) -> int:
        """A joker: the table's when ``from_table`` and one is left, else the hand's."""
        if from_table and self.table_jokers:
            return self.table_jokers.pop()
        t = self.hand_jokers.pop()
        self.laid.append(t)
        return t

    def place(self, slots: list[_Slot], from_table: bool) -> list[Placed]:
        """The meld of ``slots`` in real tiles (jokers declared as their slot's face)."""
        out = []
        for is_joker, c, n in slots:
            if is_joker:
                out.append(Placed(self.joker(from_table), (COLORS[c], n)))
            else:
                out.append(Placed(self.real((c, n), from_table)))
        return out


def _in_place(
    table: Table,
    released: list[int],
    kept: dict[int, list[Placed]],
    built: list[list[Placed]],
) -> list[list[Placed]]:
    """The new series area: melds not released or kept stay where they were, new melds take
    the places of the released ones in order, and the rest come at the end."""
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
    return series


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
