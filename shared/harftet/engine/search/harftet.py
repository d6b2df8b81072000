"""Harftet's search: the lay that sheds the most hand value found within a work budget.

Moves it makes, each a *recipe* applied to a working copy of the series area:

- ``new``: a word from the hand alone (needs a free series place);
- ``ext``: a table word plus hand tiles, rearranged into one word (Z + ALİM → ZALİM, at
  either end or inside, or any anagram of the lot);
- ``split``: a table word gives up tiles while what stays is still a word, and the tiles it
  gave plus hand tiles make a new word (ŞARKI + K → ARK + ŞIK; KASAPHANE + D → KASAP + HANDE);
- ``move``: the same, but the tiles given go into another table word;
- ``recomb``: two table words and hand tiles rebuilt as two wholly new words (HÜR + PAŞA + S →
  AHŞAP + SÜR), or merged into one, which on a full table frees a place for a new word. It
  runs last, on the greedy plan and the tiles it left in hand, with ``RECOMB_SHARE`` of the
  budget kept for it: whatever it lays adds to that plan;
- pairs from the hand once the 26 series places are full (RULES §2: exactly 2 tiles, 2–4
  letters).

Words are found in the alphagram trie of ``harftet.words.index`` (built at set-up beside the
dictionary): a depth-first walk with the hand's letter counts, the letters a word must
contain (the table tiles it keeps) and the jokers, pruned by an upper bound on the value it
can still add. A found word is then *spelled* with actual tiles: two-letter tiles where its
letters allow, the table tiles it must keep, hand letters and jokers.

The recipes are applied greedily, most valuable first (a lazy priority queue: the hand only
shrinks, so a recipe's value only falls). The search is anytime and deterministic: it counts
work units (trie nodes visited, spellings tried), never the clock; ``UNITS_PER_MS`` turns a
budget in milliseconds into units, calibrated on the development machine (bench/).
"""

from __future__ import annotations

import contextlib
import heapq
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from harftet.engine.moves import Lay
from harftet.engine.rules import MAX_SERIES
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import HARFTET_TILES, hand_value
from harftet.words import ALPHABET, LETTER_VALUES, WordList, default_words
from harftet.words.index import ORDER, RANK, Index, alphagram, for_words

from .proposal import Proposal

__all__ = ["ALL_MOVES", "UNITS_PER_MS", "best_lay", "word_list"]

UNITS_PER_MS = 300
"""Work units per millisecond of budget (one unit ≈ one trie node visited), calibrated with
bench/bench_search_harftet.py on the 2-core development machine."""

RECOMB_SHARE = 0.1
"""The share of the budget kept from extensions and splits for recombining two table words."""

SUBWORDS = 4
"""Words that may stay of a split table word searched first (the longest)."""
DEEP_SUBWORDS = 64
"""... and in all, once the first passes are done and budget is left."""

ALL_MOVES = frozenset({"new", "ext", "split", "move", "recomb", "pairs"})

_LV = [LETTER_VALUES[ch] for ch in ORDER]  # letter value by rank
_GLUE = 12  # work units charged for setting up one query (measured against trie nodes)
_ONES = [1] * len(ORDER)
_NO_MORE = len(ORDER)  # a rank after every letter

_WORD_LISTS: dict[int, tuple[Collection[str], WordList]] = {}


def word_list(words: Collection[str] | None) -> WordList:
    """``words`` as a WordList (whose index is built once), cached per object; the default
    dictionary for None."""
    if words is None:
        return default_words()
    if isinstance(words, WordList):
        return words
    hit = _WORD_LISTS.get(id(words))
    if hit is None or hit[0] is not words:
        if len(_WORD_LISTS) >= 8:
            _WORD_LISTS.clear()
        hit = (words, WordList(frozenset(words)))
        _WORD_LISTS[id(words)] = hit
    return hit[1]


class _OutOfBudget(Exception):
    pass


@dataclass(slots=True)
class _Hand:
    """The hand tiles still free, grouped by face, in a fixed order (deterministic ids)."""

    faces: dict[str, list[int]]  # "A" / "AR" → ids
    jokers: list[int]

    @classmethod
    def of(cls, ids: Iterable[int]) -> _Hand:
        faces: dict[str, list[int]] = {}
        jokers: list[int] = []
        for t in sorted(ids):
            tile = HARFTET_TILES[t]
            if tile.joker:
                jokers.append(t)
            else:
                assert tile.letter is not None
                faces.setdefault(tile.letter, []).append(t)
        return cls(faces, jokers)

    def remove(self, ids: Iterable[int]) -> None:
        for t in ids:
            tile = HARFTET_TILES[t]
            if tile.joker:
                self.jokers.remove(t)
            else:
                assert tile.letter is not None
                group = self.faces[tile.letter]
                group.remove(t)
                if not group:
                    del self.faces[tile.letter]

    def ids(self) -> list[int]:
        return sorted([t for g in self.faces.values() for t in g] + self.jokers)

    def counts(self) -> list[int]:
        """Letters by rank, two-letter tiles counted as their two letters."""
        have = [0] * len(ORDER)
        for face, ids in self.faces.items():
            for ch in face:
                have[RANK[ch]] += len(ids)
        return have


def _letters(meld: Sequence[Placed]) -> str:
    out = []
    for p in meld:
        tile = HARFTET_TILES[p.id]
        out.append(str(p.face) if tile.joker else str(tile.letter))
    return "".join(out)


def _ok(accept: Callable[[str], bool] | None, word: str) -> bool:
    return accept is None or accept(word)


def _face(p: Placed) -> str:
    tile = HARFTET_TILES[p.id]
    return str(p.face) if tile.joker else str(tile.letter)


def _fixed_faces(pieces: Iterable[Placed]) -> dict[str, list[Placed]]:
    """Table tiles by the face they show (a table joker keeps its declared letter)."""
    out: dict[str, list[Placed]] = {}
    for p in pieces:
        tile = HARFTET_TILES[p.id]
        face = str(p.face) if tile.joker else str(tile.letter)
        out.setdefault(face, []).append(p)
    return out


@dataclass(frozen=True, slots=True)
class _Query:
    fixed: dict[str, list[Placed]]
    hand: _Hand
    fixed_single: dict[str, int]
    fixed_doubles: dict[str, int]
    hand_single: dict[str, int]
    hand_doubles: dict[str, int]
    faces: tuple[str, ...]  # the two-letter faces among them
    jokers: int


@dataclass(slots=True)
class _Spelled:
    value: int  # objective value of the hand tiles used
    meld: list[Placed]
    used: list[int]  # hand tile ids


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


def _sig(meld: Sequence[Placed]) -> tuple[int, ...]:
    return tuple(sorted(p.id for p in meld))


class _Search:
    def __init__(
        self,
        words: WordList,
        index: Index,
        limit: int,
        joker_value: int,
        accept: Callable[[str], bool] | None,
        top: int,
    ) -> None:
        self.words = words
        self.ix = index
        self.limit = limit
        self.units = 0
        self.jv = joker_value
        self.accept = accept
        self.top = top
        self.exhausted = False  # the budget ran out: no more searching, only applying

    def spend(self, n: int) -> None:
        self.units += n
        if self.units > self.limit:
            self.exhausted = True
            raise _OutOfBudget

    @contextlib.contextmanager
    def capped(self, limit: int) -> Iterator[None]:
        """Search within at most ``limit`` units in total here, keeping the rest for later."""
        saved = self.limit
        self.limit = min(saved, limit)
        try:
            yield
        finally:
            self.limit = saved
            self.exhausted = self.units > saved

    # --- spelling a word with tiles -------------------------------------------------------

    def query(self, fixed: dict[str, list[Placed]], hand: _Hand) -> _Query:
        """What spelling words with these tiles needs, computed once per search."""
        fixed_doubles = {f: len(ps) for f, ps in fixed.items() if len(f) == 2}
        hand_doubles = {f: len(ids) for f, ids in hand.faces.items() if len(f) == 2}
        return _Query(
            fixed=fixed,
            hand=hand,
            fixed_single={f: len(ps) for f, ps in fixed.items() if len(f) == 1},
            fixed_doubles=fixed_doubles,
            hand_single={f: len(ids) for f, ids in hand.faces.items() if len(f) == 1},
            hand_doubles=hand_doubles,
            faces=tuple(sorted(set(fixed_doubles) | set(hand_doubles))),
            jokers=len(hand.jokers),
        )

    def value(self, word: str, q: _Query) -> tuple[int, dict[int, str]] | None:
        """The best objective value of tiling ``word`` with every fixed tile of ``q`` and its
        hand tiles, and where two-letter tiles go (position → "f"ixed or "h"and)."""
        self.units += 1  # counted, never interrupted: applying found recipes always finishes
        if not q.faces or not any(f in word for f in q.faces):
            if q.fixed_doubles:
                return None
            v = self._singles(word, q, ())
            return None if v is None else (v, {})
        n = len(word)
        fixed_doubles = dict(q.fixed_doubles)
        hand_doubles = dict(q.hand_doubles)
        best: list[tuple[int, dict[int, str]]] = []
        chosen: dict[int, str] = {}

        def go(pos: int, fixed_left: int, value: int) -> None:
            self.units += 1
            while pos < n - 1:
                face = word[pos : pos + 2]
                if fixed_doubles.get(face) or hand_doubles.get(face):
                    break
                pos += 1
            if pos >= n - 1:
                if fixed_left == 0:
                    v = self._singles(word, q, chosen)
                    if v is not None and (not best or value + v > best[0][0]):
                        best[:] = [(value + v, dict(chosen))]
                return
            face = word[pos : pos + 2]
            if fixed_doubles.get(face):
                fixed_doubles[face] -= 1
                chosen[pos] = "f"
                go(pos + 2, fixed_left - 1, value)
                del chosen[pos]
                fixed_doubles[face] += 1
            if hand_doubles.get(face):
                hand_doubles[face] -= 1
                chosen[pos] = "h"
                go(pos + 2, fixed_left, value + LETTER_VALUES[face[0]] + LETTER_VALUES[face[1]])
                del chosen[pos]
                hand_doubles[face] += 1
            go(pos + 1, fixed_left, value)

        go(0, sum(fixed_doubles.values()), 0)
        return best[0] if best else None

    def _plan_singles(
        self, word: str, q: _Query, doubles: Collection[int]
    ) -> tuple[dict[str, int], int, list[tuple[int, str]]] | None:
        """Per letter outside two-letter tiles: how many come from the hand, the jokers
        needed, and the (gain, letter) of each hand letter a spare joker could replace."""
        if doubles:
            chars = [
                ch for pos, ch in enumerate(word) if pos not in doubles and pos - 1 not in doubles
            ]
            need = Counter(chars)
        else:
            need = Counter(word)
        fixed_single = q.fixed_single
        for ch, f in fixed_single.items():
            if need.get(ch, 0) < f:
                return None
        from_hand: dict[str, int] = {}
        jokers = 0
        gains: list[tuple[int, str]] = []
        jv = self.jv
        hand_single = q.hand_single
        for ch, cnt in need.items():
            rest = cnt - fixed_single.get(ch, 0)
            h = hand_single.get(ch, 0)
            if h > rest:
                h = rest
            from_hand[ch] = h
            jokers += rest - h
            if h and jv > LETTER_VALUES[ch]:
                gains += [(jv - LETTER_VALUES[ch], ch)] * h
        if jokers > q.jokers:
            return None
        return from_hand, jokers, gains

    def _singles(self, word: str, q: _Query, doubles: Collection[int]) -> int | None:
        plan = self._plan_singles(word, q, doubles)
        if plan is None:
            return None
        from_hand, jokers, gains = plan
        value = sum(LETTER_VALUES[ch] * h for ch, h in from_hand.items()) + jokers * self.jv
        spare = q.jokers - jokers
        if spare and gains:
            gains.sort(key=lambda g: (-g[0], g[1]))
            value += sum(g for g, _ in gains[:spare])
        return value

    def spell(
        self, word: str, fixed: dict[str, list[Placed]], hand: _Hand, min_used: int = 1
    ) -> _Spelled | None:
        """Tile ``word`` using every ``fixed`` tile and the most valuable hand tiles."""
        q = self.query(fixed, hand)
        got = self.value(word, q)
        if got is None:
            return None
        value, doubles = got
        plan = self._plan_singles(word, q, doubles)
        assert plan is not None
        from_hand, jokers_needed, gains = plan
        spare = q.jokers - jokers_needed
        gains.sort(key=lambda g: (-g[0], g[1]))
        for _, ch in gains[: max(0, spare)]:
            from_hand[ch] -= 1
        fixed_left = {f: list(ps) for f, ps in fixed.items()}
        hand_left = {f: list(ids) for f, ids in hand.faces.items()}
        jokers = list(hand.jokers)
        meld: list[Placed] = []
        used: list[int] = []
        pos = 0
        while pos < len(word):
            src = doubles.get(pos)
            if src is not None:
                face = word[pos : pos + 2]
                if src == "f":
                    meld.append(fixed_left[face].pop(0))
                else:
                    t = hand_left[face].pop(0)
                    meld.append(Placed(t))
                    used.append(t)
                pos += 2
                continue
            ch = word[pos]
            if fixed_left.get(ch):
                meld.append(fixed_left[ch].pop(0))
            elif from_hand.get(ch):
                from_hand[ch] -= 1
                t = hand_left[ch].pop(0)
                meld.append(Placed(t))
                used.append(t)
            else:
                j = jokers.pop(0)
                meld.append(Placed(j, ch))
                used.append(j)
            pos += 1
        if len(used) < min_used:
            return None
        return _Spelled(value, meld, used)

    # --- finding words in the trie ----------------------------------------------------------

    def find(
        self,
        need: str,
        have: list[int],
        jokers: int,
        score: Callable[[str], int | None],
        top: int,
        values: list[int] | None = None,
        min_len: int = 3,
    ) -> list[tuple[int, str]]:
        """The ``top`` most valuable words (value, word) containing every letter of ``need``
        plus letters of ``have`` (counts by rank) and at most ``jokers`` jokers, valued by
        ``score`` (None: the tiles cannot spell it). Anytime: stops when the budget is spent."""
        if self.exhausted:
            return []
        ix = self.ix
        starts, letters, children, terminal = ix.starts, ix.letters, ix.children, ix.terminal
        below = ix.below
        req = sorted(RANK[ch] for ch in need)
        nreq = len(req)
        needmask = [0] * (nreq + 1)
        for i in range(nreq - 1, -1, -1):
            needmask[i] = needmask[i + 1] | (1 << req[i])
        lv = _LV if values is None else values
        jv = max(self.jv, 1) if values is None else 1
        suf = [0] * (_NO_MORE + 1)
        for r in range(_NO_MORE - 1, -1, -1):
            suf[r] = suf[r + 1] + have[r] * lv[r]
        # A min-heap of at most `top`: on value, then fewer letters (among equal values, the
        # word that lays fewer tiles: a joker that adds nothing stays in hand), then the word.
        found: list[tuple[int, int, str]] = []
        seen: set[str] = set()
        accept = self.accept
        floor = 0
        limit = self.limit

        def visit(node: int, ptr: int, jk: int, val: int, depth: int, last: int) -> None:
            nonlocal floor
            self.units += 1
            if self.units > limit:
                self.exhausted = True
                raise _OutOfBudget
            if ptr == nreq:
                if depth >= min_len and terminal[node] >= 0:
                    for w in ix.words_at(node):
                        if w in seen or (accept is not None and not accept(w)):
                            continue
                        seen.add(w)
                        got = score(w)
                        if got is None or got <= 0 or (got < floor and len(found) >= top):
                            continue
                        entry = (got, -len(w), w)
                        if len(found) >= top and entry <= found[0]:
                            continue
                        heapq.heappush(found, entry)
                        if len(found) > top:
                            heapq.heappop(found)
                        if len(found) >= top:
                            floor = found[0][0]
            elif needmask[ptr] & ~below[node]:
                return  # a letter the word must hold cannot come any more
            if len(found) >= top and val + suf[last] + jk * jv <= floor:
                return
            nxt = req[ptr] if ptr < nreq else _NO_MORE
            for e in range(starts[node], starts[node + 1]):
                c = letters[e]
                if c > nxt:
                    break
                if c == nxt:
                    visit(children[e], ptr + 1, jk, val, depth + 1, c)
                elif have[c]:
                    have[c] -= 1
                    visit(children[e], ptr, jk, val + lv[c], depth + 1, c)
                    have[c] += 1
                elif jk:
                    visit(children[e], ptr, jk - 1, val + jv, depth + 1, c)

        with contextlib.suppress(_OutOfBudget):  # anytime: what was found so far
            visit(0, 0, jokers, 0, 0, 0)
        return sorted(((f[0], f[2]) for f in found), key=lambda f: (-f[0], f[1]))

    def parts(
        self, table: list[int], hand: list[int], extra: int, min_table: int
    ) -> list[tuple[int, tuple[int, ...], int]]:
        """Words of at least 3 letters spelled by ``min_table`` or more of ``table``'s letters
        and at most one of ``hand``'s (both counts by rank; ``extra`` 0 or 1): per word's trie
        node, the ranks of the table letters it takes (ascending) and the rank of the hand
        letter (-1: none). Anytime, like `find`."""
        if self.exhausted:
            return []
        ix = self.ix
        starts, letters, children, terminal = ix.starts, ix.letters, ix.children, ix.terminal
        out: list[tuple[int, tuple[int, ...], int]] = []
        taken: list[int] = []
        limit = self.limit

        def visit(node: int, depth: int, left: int, hx: int) -> None:
            self.units += 1
            if self.units > limit:
                self.exhausted = True
                raise _OutOfBudget
            if depth >= 3 and terminal[node] >= 0 and len(taken) >= min_table:
                out.append((node, tuple(taken), hx))
            if not left and (hx >= 0 or not extra):
                return
            for e in range(starts[node], starts[node + 1]):
                c = letters[e]
                if table[c]:
                    table[c] -= 1
                    taken.append(c)
                    visit(children[e], depth + 1, left - 1, hx)
                    taken.pop()
                    table[c] += 1
                if extra and hx < 0 and hand[c]:
                    visit(children[e], depth + 1, left, c)

        with contextlib.suppress(_OutOfBudget):
            visit(0, 0, sum(table), -1)
        return out

    def scorer(self, fixed: dict[str, list[Placed]], hand: _Hand) -> Callable[[str], int | None]:
        """``score`` for `find`: a word's value spelled with ``fixed`` and ``hand``."""
        q = self.query(fixed, hand)

        def score(word: str) -> int | None:
            got = self.value(word, q)
            return None if got is None else got[0]

        return score


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
        for _, w in self.s.find(
            "",
            pieces.counts(),
            0,
            lambda w: score(w) if len(w) < total else None,
            most,
            values=_ONES,
        ):
            got = self.s.spell(w, {}, pieces)
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
        st = self.state
        s = self.s
        sources = (_sig(a), _sig(b))
        key = ("recomb", *sources, len(st.used))
        if key in self.searched:
            return
        self.searched.add(key)
        hand = st.hand
        both = [*a, *b]
        # One word: worth its hand tiles, and on a full table the series place it frees.
        slot = self.slot_value() if len(st.melds) >= MAX_SERIES else 0
        merged = s.find(
            _letters(both), hand.counts(), len(hand.jokers), s.scorer(_fixed_faces(both), hand), 1
        )
        if slot and not merged:
            merged = [(0, w) for w in s.ix.anagrams(_letters(both)) if _ok(s.accept, w)][:1]
        for value, w in merged:
            if value + slot > 0:
                self.push(_Recipe("merge", w, sources), value + slot)
        # Two words: the first of single tiles of the two (and at most one hand letter), the
        # second of every other tile of the two (two-letter tiles among them) and hand tiles.
        pool: dict[str, list[Placed]] = {}
        counts = [0] * len(ORDER)
        for p in sorted(both, key=lambda p: (HARFTET_TILES[p.id].joker, p.id)):
            face = _face(p)
            if len(face) == 1:
                pool.setdefault(face, []).append(p)
                counts[RANK[face]] += 1
        same = {tuple(alphagram(_letters(a))), tuple(alphagram(_letters(b)))}
        firsts: dict[tuple[int, ...], list[tuple[int, int]]] = {}  # table letters → (hand, node)
        for node, taken, extra in s.parts(counts, hand.counts(), 1, 2):
            if taken not in same:
                firsts.setdefault(taken, []).append((extra, node))
        letters_only = _Hand({f: ids for f, ids in hand.faces.items()}, [])
        accept = s.accept
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
            # The second words, with every hand tile free; the first takes at most one.
            seconds = s.find(
                _letters(rest),
                hand.counts(),
                len(hand.jokers),
                s.scorer(_fixed_faces(rest), hand),
                2,
            )
            if len(_letters(rest)) >= 3 and any(extra >= 0 for extra, _ in options):
                seconds += [(0, w) for w in s.ix.anagrams(_letters(rest))[:1]]
            if not seconds:
                continue
            # The first word: the two most valuable hand letters it may take (the second word
            # may need the first one), and a word it spells.
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
        return self.steps is not None and self.applied >= self.steps

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
            if value <= 0:
                continue
            if value < -entry.key[0] and self.queue and value < -self.queue[0].key[0]:
                self.push(entry.recipe, value)  # it fell below the next one: look again later
                continue
            self.apply(*got)
            self.applied += 1
            if entry.recipe.kind in ("recomb", "merge"):
                self.rebuilt += 1
            self.gen_new()


def _pairs(search: _Search, state: _State) -> None:
    """Add the most valuable 2-tile words from the hand to the pair area, greedily."""
    words = search.words
    hand = state.hand
    lettered = [(t, f) for f, ids in hand.faces.items() for t in ids]
    jokers = hand.jokers
    jv = search.jv
    accept = search.accept
    options: list[tuple[int, str, list[Placed]]] = []

    def offer(word: str, value: int, tiles: list[Placed]) -> None:
        search.spend(1)
        if 2 <= len(word) <= 4 and word in words and (accept is None or accept(word)):
            options.append((value, word, tiles))

    for a, fa in lettered:
        va = hand_value(HARFTET_TILES[a])
        for b, fb in lettered:
            if a != b:
                offer(fa + fb, va + hand_value(HARFTET_TILES[b]), [Placed(a), Placed(b)])
        for j in jokers[:1]:
            for ch in ALPHABET:
                offer(fa + ch, va + jv, [Placed(a), Placed(j, ch)])
                offer(ch + fa, va + jv, [Placed(j, ch), Placed(a)])
    if len(jokers) >= 2:  # rare: a scan of the list for its 2-letter words
        search.spend(len(words) // 20)
        for w in sorted(w for w in words if len(w) == 2)[:1]:
            offer(w, 2 * jv, [Placed(jokers[0], w[0]), Placed(jokers[1], w[1])])
    options.sort(key=lambda o: (-o[0], o[1], [p.id for p in o[2]]))
    taken: set[int] = set()
    for value, _, tiles in options:
        ids = [p.id for p in tiles]
        if value <= 0 or taken.intersection(ids):
            continue
        taken.update(ids)
        state.pairs.append(tiles)
        state.hand.remove(ids)
        state.used += ids


def best_lay(
    table: Table,
    seat: int,
    *,
    budget_ms: float = 80.0,
    words: Collection[str] | None = None,
    moves: Collection[str] = ALL_MOVES,
    joker_value: int = 50,
    accept: Callable[[str], bool] | None = None,
    top: int = 2,
    stats: dict[str, int] | None = None,
    steps: int | None = None,
) -> Proposal | None:
    """The most valuable lay found for ``seat`` within ``budget_ms`` of work (anytime and
    deterministic: work is counted, not timed), or None when no lay adds a tile.

    Only ``seat``'s hand and the table are read. ``words`` overrides the dictionary (it must be
    the one the table's rules check words with). The other keywords are the computer players'
    knobs: ``moves`` (subset of ``ALL_MOVES``), ``joker_value`` (what laying a joker is worth
    to the search; the proposal's ``shed`` always counts it 50), ``accept`` (a filter on the
    words it may lay) and ``top`` (candidates kept per search). ``stats``, when given, gets
    the work done (``units``), whether the budget ran out (``exhausted``) and how many pairs
    of table words it rebuilt (``rebuilt``). ``steps`` caps the recipes applied (words laid,
    extended, split or rebuilt; the pairs count as one): how much a person does in a turn.
    """
    wl = word_list(words)
    search = _Search(
        wl, for_words(wl), int(budget_ms * UNITS_PER_MS), joker_value, accept, max(1, top)
    )
    hand_ids = table.seats[seat].hand
    state = _State([list(m) for m in table.series], _Hand.of(hand_ids))
    move_set = frozenset(moves)
    planner = _Planner(search, state, move_set)
    planner.steps = steps
    reserve = int(search.limit * RECOMB_SHARE) if "recomb" in move_set else 0
    with search.capped(search.limit - reserve):
        planner.run(with_move=False)
        if "move" in move_set:
            planner.run(with_move=True)
        planner.deepen()
    if "recomb" in move_set:
        planner.polish()
    if "pairs" in move_set and len(state.melds) == MAX_SERIES and not planner.full():
        search.limit = max(search.limit, search.units + 5_000)  # pairs: cheap, always tried
        with contextlib.suppress(_OutOfBudget):
            _pairs(search, state)
    if stats is not None:
        stats["units"] = search.units
        stats["exhausted"] = int(search.exhausted)
        stats["rebuilt"] = planner.rebuilt
    if not state.used:
        return None
    lay = Lay(tuple(tuple(m) for m in state.melds), tuple(tuple(p) for p in state.pairs))
    shed = sum(hand_value(HARFTET_TILES[t]) for t in state.used)
    return Proposal(lay, shed, tuple(sorted(state.used)))
