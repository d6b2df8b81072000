"""The recipes of Harftet's search (see ``harftet``): generated from the table and the hand,
valued, and applied greedily to a working copy of the series area, the most valuable first
(a lazy priority queue: the hand only shrinks, so a recipe's value only falls)."""

from __future__ import annotations

import contextlib
import heapq
from dataclasses import dataclass, field

from harftet.engine.rules import MAX_SERIES
from harftet.engine.state import Placed
from harftet.engine.tiles import HARFTET_TILES
from harftet.engine.words.index import ORDER, RANK, alphagram

from .harftet_tiles import _face, _fixed_faces, _Hand, _letters, _ok, _sig
from .harftet_words import _GLUE, _LV, _ONES, _OutOfBudget, _Search, _Spelled

SUBWORDS = 4
"""Words that may stay of a split table word searched first (the longest)."""
DEEP_SUBWORDS = 64
"""... and in all, once the first passes are done and budget is left."""


@dataclass(order=True, slots=True)
class _Entry:
    """A queued recipe: ordered by value (high first), fewer changed melds, then age."""

    key: tuple[int, int, int]
    recipe: _Recipe = field(compare=False)


@dataclass(slots=True)
class _Recipe:
    kind: str  # new | ext | split | move
    word: str
    sources: tuple[tuple[int, ...], ...]  # signatures (sorted ids) of the table melds changed
    keep: list[Placed] = field(default_factory=list)  # split/move: the word that stays
    given: list[Placed] = field(default_factory=list)  # split/move: tiles given away
    other: str = ""  # recomb: the first word (spelled with ``keep``), ``word`` the second


@dataclass(slots=True)
class _State:
    melds: list[list[Placed]]
    hand: _Hand
    used: list[int] = field(default_factory=list)
    pairs: list[list[Placed]] = field(default_factory=list)

    def index_of(self, sig: tuple[int, ...]) -> int | None:
        for i, m in enumerate(self.melds):
            if len(m) == len(sig) and _sig(m) == sig:
                return i
        return None


class _Planner:
    """The greedy, lazily re-evaluated application of recipes to a working state."""

    def __init__(self, search: _Search, state: _State, moves: frozenset[str]) -> None:
        self.s = search
        self.state = state
        self.moves = moves
        self.queue: list[_Entry] = []
        self.seq = 0
        self.searched: set[tuple[object, ...]] = set()
        self.rebuilt = 0  # recombinations and merges applied
        self.applied = 0  # recipes applied
        self.steps: int | None = None  # at most this many recipes (a person's turn)
        self.tiles: int | None = None  # at most this many hand tiles laid (a person's look)
        self.slots: dict[int, int] = {}  # the best new word's value, by tiles used so far

    def push(self, recipe: _Recipe, value: int) -> None:
        self.seq += 1
        heapq.heappush(self.queue, _Entry((-value, len(recipe.sources), self.seq), recipe))

    # recipe generation ------------------------------------------------------------------

    def gen_new(self) -> None:
        st = self.state
        key = ("new", len(st.used))
        if "new" not in self.moves or key in self.searched or len(st.melds) >= MAX_SERIES:
            return
        self.searched.add(key)
        hand = st.hand
        for value, w in self.s.find(
            "", hand.counts(), len(hand.jokers), self.s.scorer({}, hand), self.s.top
        ):
            self.push(_Recipe("new", w, ()), value)

    def gen_ext(self, meld: list[Placed]) -> None:
        sig = _sig(meld)
        key = ("ext", sig, len(self.state.used))
        if "ext" not in self.moves or key in self.searched:
            return
        self.searched.add(key)
        hand = self.state.hand
        fixed = _fixed_faces(meld)
        for value, w in self.s.find(
            _letters(meld),
            hand.counts(),
            len(hand.jokers),
            self.s.scorer(fixed, hand),
            max(1, self.s.top // 2),
        ):
            self.push(_Recipe("ext", w, (sig,)), value)

    def _subwords(
        self, meld: list[Placed], most: int = SUBWORDS
    ) -> list[tuple[list[Placed], list[Placed]]]:
        """Words made of part of ``meld``'s tiles, longest first, with the tiles left over
        (the ``most`` longest)."""
        pieces = _Hand({}, [])
        by_id = {p.id: p for p in meld}
        for p in meld:
            tile = HARFTET_TILES[p.id]
            face = str(p.face) if tile.joker else str(tile.letter)
            pieces.faces.setdefault(face, []).append(p.id)
        total = len(_letters(meld))
        score = self.s.scorer({}, pieces)
        out = []
        with self.s.uncapped():
            found = self.s.find(
                "",
                pieces.counts(),
                0,
                lambda w: score(w) if len(w) < total else None,
                most,
                values=_ONES,
            )
            spelled = [(w, self.s.spell(w, {}, pieces)) for _, w in found]
        for _, got in spelled:
            assert got is not None
            keep = [by_id[p.id] for p in got.meld]
            kept = {p.id for p in keep}
            out.append((keep, [p for p in meld if p.id not in kept]))
        return out

    def gen_split(self, meld: list[Placed], deep: bool = False) -> None:
        """Splits of ``meld``: a part of it stays a word, the rest and hand tiles make
        another. First on its ``SUBWORDS`` longest words that stay; ``deep``: on every other
        word that may stay (TERKİN + R → ERK + RİNT keeps a short one), searched once the
        first passes are done, while budget is left."""
        sig = _sig(meld)
        st = self.state
        key = ("split", sig, len(st.used), deep)
        if "split" not in self.moves or key in self.searched or len(st.melds) >= MAX_SERIES:
            return
        self.searched.add(key)
        hand = st.hand
        subwords = self._subwords(meld)
        if deep:
            first = {_letters(keep) for keep, _ in subwords}
            subwords = [
                (keep, given)
                for keep, given in self._subwords(meld, DEEP_SUBWORDS)
                if _letters(keep) not in first
            ]
        for keep, given in subwords:
            for value, w in self.s.find(
                _letters(given),
                hand.counts(),
                len(hand.jokers),
                self.s.scorer(_fixed_faces(given), hand),
                2,
            ):
                self.push(_Recipe("split", w, (sig,), keep, given), value)

    def gen_move(self, meld: list[Placed]) -> None:
        sig = _sig(meld)
        st = self.state
        key = ("move", sig, len(st.used))
        if "move" not in self.moves or key in self.searched:
            return
        self.searched.add(key)
        hand = st.hand
        for keep, given in self._subwords(meld):
            if len(given) > 3:
                continue
            for other in st.melds:
                if other is meld:
                    continue
                for value, w in self.s.find(
                    _letters(given) + _letters(other),
                    hand.counts(),
                    len(hand.jokers),
                    self.s.scorer(_fixed_faces([*given, *other]), hand),
                    1,
                ):
                    self.push(_Recipe("move", w, (sig, _sig(other)), keep, given), value)

    def slot_value(self, hand: _Hand | None = None) -> int:
        """The value of the best new word from ``hand`` (the free hand by default): what a
        series place freed by a merge is worth."""
        st = self.state
        if hand is None:
            cached = self.slots.get(len(st.used))
            if cached is not None:
                return cached
        h = st.hand if hand is None else hand
        s = self.s
        best = s.find("", h.counts(), len(h.jokers), s.scorer({}, h), 1)
        value = best[0][0] if best else 0
        if hand is None:
            self.slots[len(st.used)] = value
        return value

    def gen_recomb(self) -> None:
        """Two table words and hand tiles rebuilt as two other words, or merged into one;
        pairs of short words first (their letters fall apart into words more often)."""
        if "recomb" not in self.moves:
            return
        melds = self.state.melds
        sizes = [len(_letters(m)) for m in melds]
        order = sorted(
            (sizes[i] + sizes[j], i, j) for i in range(len(melds)) for j in range(i + 1, len(melds))
        )
        with contextlib.suppress(_OutOfBudget):  # anytime: what was found so far
            for _, i, j in order:
                if self.s.exhausted:
                    break
                self._recomb(melds[i], melds[j])

    def _recomb(self, a: list[Placed], b: list[Placed]) -> None:
        """Recipes that rebuild table words ``a`` and ``b`` with hand tiles: as one word (a
        merge), or as two other words."""
        st = self.state
        sources = (_sig(a), _sig(b))
        key = ("recomb", *sources, len(st.used))
        if key in self.searched:
            return
        self.searched.add(key)
        both = [*a, *b]
        self._merge(both, sources)
        self._two_words(a, b, both, sources)

    def _merge(self, both: list[Placed], sources: tuple[tuple[int, ...], ...]) -> None:
        """One word: worth its hand tiles, and on a full table the series place it frees."""
        st = self.state
        s = self.s
        hand = st.hand
        slot = self.slot_value() if len(st.melds) >= MAX_SERIES else 0
        merged = s.find(
            _letters(both), hand.counts(), len(hand.jokers), s.scorer(_fixed_faces(both), hand), 1
        )
        if slot and not merged:
            merged = [(0, w) for w in s.ix.anagrams(_letters(both)) if _ok(s.accept, w)][:1]
        for value, w in merged:
            if value + slot > 0:
                self.push(_Recipe("merge", w, sources), value + slot)

    def _two_words(
        self,
        a: list[Placed],
        b: list[Placed],
        both: list[Placed],
        sources: tuple[tuple[int, ...], ...],
    ) -> None:
        """Two words: the first of single tiles of the two (and at most one hand letter), the
        second of every other tile of the two (two-letter tiles among them) and hand tiles."""
        s = self.s
        hand = self.state.hand
        pool, firsts = self._first_words(a, b, both)
        letters_only = _Hand({f: ids for f, ids in hand.faces.items()}, [])
        for taken, options in firsts.items():
            if s.exhausted:
                return
            left = {f: list(ps) for f, ps in pool.items()}
            first = [left[ORDER[r]].pop(0) for r in taken]
            chosen = {p.id for p in first}
            rest = [p for p in both if p.id not in chosen]
            if not rest:
                continue  # every tile in one word: a merge
            s.spend(_GLUE)
            seconds = self._second_words(rest, options)
            if not seconds:
                continue
            self._push_recombs(first, rest, options, seconds, sources, letters_only)

    def _first_words(
        self, a: list[Placed], b: list[Placed], both: list[Placed]
    ) -> tuple[dict[str, list[Placed]], dict[tuple[int, ...], list[tuple[int, int]]]]:
        """The single-letter tiles of ``a`` and ``b`` by face, and the first words they spell
        (with at most one hand letter): the table letters it takes → (hand letter, node)."""
        pool: dict[str, list[Placed]] = {}
        counts = [0] * len(ORDER)
        for p in sorted(both, key=lambda p: (HARFTET_TILES[p.id].joker, p.id)):
            face = _face(p)
            if len(face) == 1:
                pool.setdefault(face, []).append(p)
                counts[RANK[face]] += 1
        same = {tuple(alphagram(_letters(a))), tuple(alphagram(_letters(b)))}
        firsts: dict[tuple[int, ...], list[tuple[int, int]]] = {}  # table letters → (hand, node)
        for node, taken, extra in self.s.parts(counts, self.state.hand.counts(), 1, 2):
            if taken not in same:
                firsts.setdefault(taken, []).append((extra, node))
        return pool, firsts

    def _second_words(
        self, rest: list[Placed], options: list[tuple[int, int]]
    ) -> list[tuple[int, str]]:
        """The second words, with every hand tile free; the first takes at most one."""
        s = self.s
        hand = self.state.hand
        seconds = s.find(
            _letters(rest),
            hand.counts(),
            len(hand.jokers),
            s.scorer(_fixed_faces(rest), hand),
            2,
        )
        if len(_letters(rest)) >= 3 and any(extra >= 0 for extra, _ in options):
            seconds += [(0, w) for w in s.ix.anagrams(_letters(rest))[:1]]
        return seconds

    def _push_recombs(
        self,
        first: list[Placed],
        rest: list[Placed],
        options: list[tuple[int, int]],
        seconds: list[tuple[int, str]],
        sources: tuple[tuple[int, ...], ...],
        letters_only: _Hand,
    ) -> None:
        """The first word: the two most valuable hand letters it may take (the second word
        may need the first one), and a word it spells; queued with each second word."""
        s = self.s
        accept = s.accept
        options.sort(key=lambda o: (-(_LV[o[0]] if o[0] >= 0 else 0), o[1]))
        fixed = _fixed_faces(first)
        tried = 0
        for _, node in options:
            if tried >= 2:
                break
            s.spend(_GLUE)
            w1 = next((w for w in s.ix.words_at(node) if _ok(accept, w)), None)
            sp1 = None if w1 is None else s.spell(w1, fixed, letters_only, min_used=0)
            if w1 is None or sp1 is None:
                continue
            tried += 1
            for v2, w2 in seconds:
                if (sp1.value or v2) and _ok(accept, w2):
                    self.push(_Recipe("recomb", w2, sources, first, rest, w1), sp1.value + v2)

    # evaluation and application ---------------------------------------------------------

    def evaluate(self, r: _Recipe) -> tuple[list[int], list[list[Placed]], _Spelled] | None:
        """The melds a recipe removes and adds, and its spelling, on the current state."""
        st = self.state
        where = []
        for sig in r.sources:
            i = st.index_of(sig)
            if i is None:
                return None
            where.append(i)
        if r.kind == "new":
            if len(st.melds) >= MAX_SERIES:
                return None
            got = self.s.spell(r.word, {}, st.hand)
            return None if got is None else ([], [got.meld], got)
        if r.kind == "ext":
            got = self.s.spell(r.word, _fixed_faces(st.melds[where[0]]), st.hand)
            return None if got is None else (where, [got.meld], got)
        if r.kind == "split":
            if len(st.melds) >= MAX_SERIES:
                return None
            got = self.s.spell(r.word, _fixed_faces(r.given), st.hand)
            return None if got is None else (where, [r.keep, got.meld], got)
        if r.kind == "merge":
            both = [*st.melds[where[0]], *st.melds[where[1]]]
            got = self.s.spell(r.word, _fixed_faces(both), st.hand, min_used=0)
            if got is None:
                return None
            if len(st.melds) >= MAX_SERIES:  # the place it frees takes a new word next
                used = set(got.used)
                got.value += self.slot_value(_Hand.of([t for t in st.hand.ids() if t not in used]))
            return where, [got.meld], got
        if r.kind == "recomb":
            letters_only = _Hand({f: list(ids) for f, ids in st.hand.faces.items()}, [])
            first = self.s.spell(r.other, _fixed_faces(r.keep), letters_only, min_used=0)
            if first is None:
                return None
            used = set(first.used)
            hand2 = _Hand.of([t for t in st.hand.ids() if t not in used])
            second = self.s.spell(r.word, _fixed_faces(r.given), hand2, min_used=0)
            if second is None or not (first.used or second.used):
                return None
            got = _Spelled(first.value + second.value, second.meld, first.used + second.used)
            return where, [first.meld, second.meld], got
        other = st.melds[where[1]]
        got = self.s.spell(r.word, _fixed_faces([*r.given, *other]), st.hand)
        return None if got is None else (where, [r.keep, got.meld], got)

    def apply(self, where: list[int], add: list[list[Placed]], got: _Spelled) -> None:
        st = self.state
        drop = set(where)
        kept = [m for i, m in enumerate(st.melds) if i not in drop]
        # New words replace the first changed meld's place (players read the table in place).
        at = min(where) if where else len(kept)
        st.melds = kept[:at] + add + kept[at:]
        st.hand.remove(got.used)
        st.used += got.used
        for m in add:
            self.gen_ext(m)
            self.gen_split(m)

    def run(self, with_move: bool) -> None:
        st = self.state
        self.gen_new()
        for m in list(st.melds):
            self.gen_ext(m)
        for m in list(st.melds):
            self.gen_split(m)
        if with_move:
            for m in list(st.melds):
                self.gen_move(m)
        self.drain()

    def deepen(self) -> None:
        """Splits keeping the shorter words of each table word (see ``gen_split``)."""
        for m in list(self.state.melds):
            if self.s.exhausted:
                return
            self.gen_split(m, deep=True)
        self.drain()

    def polish(self) -> None:
        """Rebuild pairs of the words laid so far with the tiles still in hand. Run last, on
        the greedy plan, so that whatever it lays only adds to that plan."""
        if (self.state.hand.faces or self.state.hand.jokers) and not self.full():
            self.gen_recomb()
            self.drain()

    def full(self) -> bool:
        if self.tiles is not None and len(self.state.used) >= self.tiles:
            return True
        return self.steps is not None and self.applied >= self.steps

    def fits(self, got: _Spelled) -> bool:
        """Whether a recipe's hand tiles fit in what is left of the look."""
        return self.tiles is None or len(self.state.used) + len(got.used) <= self.tiles

    def cap(self) -> None:
        """The hand tiles a word may still take (the search prunes with it)."""
        if self.tiles is not None:
            self.s.max_tiles = max(0, self.tiles - len(self.state.used))

    def drain(self) -> None:
        st = self.state
        while self.queue and not self.full():
            entry = heapq.heappop(self.queue)
            got = self.evaluate(entry.recipe)
            if got is None:
                if entry.recipe.kind == "new":
                    self.gen_new()
                elif entry.recipe.kind == "ext":
                    i = st.index_of(entry.recipe.sources[0])
                    if i is not None:
                        self.gen_ext(st.melds[i])
                continue
            value = got[2].value
            if value <= 0 or not self.fits(got[2]):
                continue
            if value < -entry.key[0] and self.queue and value < -self.queue[0].key[0]:
                self.push(entry.recipe, value)  # it fell below the next one: look again later
                continue
            self.apply(*got)
            self.applied += 1
            self.cap()
            if entry.recipe.kind in ("recomb", "merge"):
                self.rebuilt += 1
            self.gen_new()
