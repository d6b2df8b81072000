"""The word work of Harftet's search, within its budget of work units (see ``harftet``):
spelling a word with actual tiles (two-letter tiles where its letters allow, the table tiles
it must keep, hand letters and jokers, the most valuable first), and finding words in the
alphagram trie of ``harftet.engine.words.index``."""

from __future__ import annotations

import contextlib
import heapq
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass

from harftet.engine.state import Placed
from harftet.engine.words import LETTER_VALUES, WordList
from harftet.engine.words.index import ORDER, RANK, Index

from .harftet_tiles import _Hand

_LV = [LETTER_VALUES[ch] for ch in ORDER]  # letter value by rank
_GLUE = 12  # work units charged for setting up one query (measured against trie nodes)
_ONES = [1] * len(ORDER)
_NO_MORE = len(ORDER)  # a rank after every letter


class _OutOfBudget(Exception):
    pass


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
        self.cut = False  # a capped part ran out (its share of the budget) at some point
        self.max_tiles: int | None = None  # hand tiles one word may still take (a turn's look)

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
            self.cut = self.cut or self.exhausted
            self.limit = saved
            self.exhausted = self.units > saved

    @contextlib.contextmanager
    def uncapped(self) -> Iterator[None]:
        """Words of table tiles alone (what stays of a split word): no hand tiles to count."""
        saved = self.max_tiles
        self.max_tiles = None
        try:
            yield
        finally:
            self.max_tiles = saved

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
            v = self._singles(word, q, (), 0)
            return None if v is None else (v, {})
        n = len(word)
        fixed_doubles = dict(q.fixed_doubles)
        hand_doubles = dict(q.hand_doubles)
        best: list[tuple[int, dict[int, str]]] = []
        chosen: dict[int, str] = {}

        def go(pos: int, fixed_left: int, value: int, hand_tiles: int) -> None:
            self.units += 1
            while pos < n - 1:
                face = word[pos : pos + 2]
                if fixed_doubles.get(face) or hand_doubles.get(face):
                    break
                pos += 1
            if pos >= n - 1:
                if fixed_left == 0:
                    v = self._singles(word, q, chosen, hand_tiles)
                    if v is not None and (not best or value + v > best[0][0]):
                        best[:] = [(value + v, dict(chosen))]
                return
            face = word[pos : pos + 2]
            if fixed_doubles.get(face):
                fixed_doubles[face] -= 1
                chosen[pos] = "f"
                go(pos + 2, fixed_left - 1, value, hand_tiles)
                del chosen[pos]
                fixed_doubles[face] += 1
            if hand_doubles.get(face):
                hand_doubles[face] -= 1
                chosen[pos] = "h"
                v2 = value + LETTER_VALUES[face[0]] + LETTER_VALUES[face[1]]
                go(pos + 2, fixed_left, v2, hand_tiles + 1)
                del chosen[pos]
                hand_doubles[face] += 1
            go(pos + 1, fixed_left, value, hand_tiles)

        go(0, sum(fixed_doubles.values()), 0, 0)
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

    def _singles(
        self, word: str, q: _Query, doubles: Collection[int], hand_doubles: int
    ) -> int | None:
        """The value of the hand's single letters and jokers in ``word`` (None: they cannot
        spell it, or the word would take more hand tiles than ``max_tiles``)."""
        plan = self._plan_singles(word, q, doubles)
        if plan is None:
            return None
        from_hand, jokers, gains = plan
        cap = self.max_tiles
        if cap is not None and hand_doubles + jokers + sum(from_hand.values()) > cap:
            return None
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
        starts, letters, children, below = ix.starts, ix.letters, ix.children, ix.below
        terminal = ix.terminal
        req = sorted(RANK[ch] for ch in need)
        nreq, needmask = len(req), _need_masks(req)
        lv, jv = (_LV, max(self.jv, 1)) if values is None else (values, 1)
        suf = _suffix_values(have, lv)
        found: list[tuple[int, int, str]] = []  # a min-heap of at most ``top`` (``_offer``)
        seen: set[str] = set()
        accept, floor, limit = self.accept, 0, self.limit
        most = self._most_letters()

        def visit(node: int, ptr: int, jk: int, val: int, depth: int, last: int) -> None:
            nonlocal floor
            self.units += 1
            if self.units > limit:
                self.exhausted = True
                raise _OutOfBudget
            if ptr == nreq:
                if depth >= min_len and terminal[node] >= 0:
                    floor = _offer(ix.words_at(node), seen, accept, score, found, top, floor)
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
                elif depth - ptr >= most:
                    continue  # a letter more than the look's tiles can hold
                elif have[c]:
                    have[c] -= 1
                    visit(children[e], ptr, jk, val + lv[c], depth + 1, c)
                    have[c] += 1
                elif jk:
                    visit(children[e], ptr, jk - 1, val + jv, depth + 1, c)

        with contextlib.suppress(_OutOfBudget):  # anytime: what was found so far
            visit(0, 0, jokers, 0, 0, 0)
        return sorted(((f[0], f[2]) for f in found), key=lambda f: (-f[0], f[1]))

    def _most_letters(self) -> int:
        """The hand letters a word may take: a hand tile gives at most two."""
        return 99 if self.max_tiles is None else 2 * self.max_tiles

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


def _need_masks(req: list[int]) -> list[int]:
    """For each place in ``req`` (ranks, ascending), the letters still needed from there on,
    as a bit mask of ranks."""
    needmask = [0] * (len(req) + 1)
    for i in range(len(req) - 1, -1, -1):
        needmask[i] = needmask[i + 1] | (1 << req[i])
    return needmask


def _suffix_values(have: list[int], lv: list[int]) -> list[int]:
    """For each rank, the value of the ``have`` letters of that rank and after it."""
    suf = [0] * (_NO_MORE + 1)
    for r in range(_NO_MORE - 1, -1, -1):
        suf[r] = suf[r + 1] + have[r] * lv[r]
    return suf


def _offer(
    words: Iterable[str],
    seen: set[str],
    accept: Callable[[str], bool] | None,
    score: Callable[[str], int | None],
    found: list[tuple[int, int, str]],
    top: int,
    floor: int,
) -> int:
    """Score the words a trie node ends into ``found``, a min-heap of at most ``top`` (on
    value, then fewer letters: among equal values, the word that lays fewer tiles, a joker
    that adds nothing staying in hand; then the word); returns the new floor, the least
    value kept once ``top`` are."""
    for w in words:
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
    return floor
