"""Word search for computer players: which words can a hand's letter tiles spell?

A tile is `(tile_id, letters)`: letters is one letter ("A"), a two-letter tile ("AR") or None
for a joker. A found word comes with its tiles in reading order, each as
`(tile_id, declared_letter_or_None)`; only a joker declares a letter.

The search is a linear scan (research §8.4) over an index built lazily once per `WordList`:
words sorted longest and most valuable first, each with a 29-bit letter mask and its letter
counts packed into one integer (6 bits a letter, the top bit a guard, so a single subtraction
tells whether the rack has enough of every letter).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import or_

from harftet.engine.words import ALPHABET, LETTER_VALUES, WordList, turkish_upper

__all__ = ["LETTER_VALUES", "Found", "find_pairs", "find_words", "word_value"]

Found = tuple[str, list[tuple[int, str | None]]]
"""A word and the tiles that spell it, in order: (tile_id, letter a joker stands for)."""

# The tile values of RULES.md §1 rank the words found (the engine owns the tile set).

_POS = {ch: i for i, ch in enumerate(ALPHABET)}
_BITS = 6  # per letter: 5 bits of count (≤ 31) and a guard bit
_GUARDS = sum(1 << (_BITS * i + _BITS - 1) for i in range(len(ALPHABET)))
_FULL_MASK = (1 << len(ALPHABET)) - 1
_MAX_COUNT = (1 << (_BITS - 1)) - 1
_BIT = {ch: 1 << i for i, ch in enumerate(ALPHABET)}
_UNIT = {ch: 1 << (_BITS * i) for i, ch in enumerate(ALPHABET)}  # one of this letter, packed
_AS_VALUE = str.maketrans({ch: chr(v) for ch, v in LETTER_VALUES.items()})


def word_value(word: str) -> int:
    """Return the sum of the letter values of a game-form word (a joker counts as its letter)."""
    return sum(word.translate(_AS_VALUE).encode("latin-1"))


def _mask(letters: Iterable[str]) -> int:
    return reduce(or_, map(_BIT.__getitem__, letters), 0)


def _packed(letters: Iterable[str]) -> int:
    return sum(map(_UNIT.__getitem__, letters))


@dataclass(frozen=True, slots=True)
class _Index:
    """Parallel columns over the words, in rank order (longest, most valuable, alphabetical)."""

    words: list[str]
    neg_lengths: list[int]  # ascending, for bisect: the words of ≤ n letters start at -n
    masks: list[int]
    packed: list[int]

    def first_with_at_most(self, n: int) -> int:
        """Return the index of the first word of at most `n` letters."""
        return bisect_left(self.neg_lengths, -n)


def _build_index(words: WordList) -> _Index:
    # Alphabetical, then a stable sort by length and value: the rank order of the results.
    # Words over 31 letters cannot overflow a packed count, and no rack spells them anyway.
    ranked = sorted(w for w in words if len(w) <= _MAX_COUNT)
    ranked.sort(key=lambda w: len(w) * 1000 + word_value(w), reverse=True)
    return _Index(
        words=ranked,
        neg_lengths=[-len(w) for w in ranked],
        masks=[_mask(w) for w in ranked],
        packed=[_packed(w) for w in ranked],
    )


def _index(words: WordList) -> _Index:
    return words.derived("harftet.engine.words.search", _build_index)


@dataclass(slots=True)
class _Rack:
    """The hand grouped by face; ids keep the caller's order so results are deterministic."""

    faces: list[tuple[int, str | None]] = field(default_factory=list)  # normalised, in order
    singles: dict[str, list[int]] = field(default_factory=dict)
    doubles: dict[str, list[int]] = field(default_factory=dict)
    jokers: list[int] = field(default_factory=list)
    ids: dict[str, list[int]] = field(default_factory=dict)  # singles and doubles by face
    single_counts: dict[str, int] = field(default_factory=dict)
    doubles_in: re.Pattern[str] | None = None  # finds a two-letter face of the rack in a word

    @classmethod
    def parse(cls, tiles: Sequence[tuple[int, str | None]]) -> _Rack:
        """Group and validate the tiles; a face is 1 or 2 alphabet letters, or None (joker)."""
        rack = cls()
        seen: set[int] = set()
        for tile_id, letters in tiles:
            if tile_id in seen:
                raise ValueError(f"tile {tile_id} appears twice")
            seen.add(tile_id)
            if letters is None:
                rack.faces.append((tile_id, None))
                rack.jokers.append(tile_id)
                continue
            face = turkish_upper(letters)
            if not 1 <= len(face) <= 2 or any(ch not in _POS for ch in face):
                raise ValueError(f"tile {tile_id}: {letters!r} is not a letter tile")
            rack.faces.append((tile_id, face))
            group = rack.singles if len(face) == 1 else rack.doubles
            group.setdefault(face, []).append(tile_id)
        rack.ids = {**rack.singles, **rack.doubles}
        rack.single_counts = {ch: len(ids) for ch, ids in rack.singles.items()}
        if rack.doubles:
            rack.doubles_in = re.compile("|".join(rack.doubles))
        return rack

    def capacity(self) -> dict[str, int]:
        """Count every letter on the rack's lettered tiles, two-letter tiles included."""
        counts = self.single_counts.copy()
        for face, ids in self.doubles.items():
            for ch in face:
                counts[ch] = counts.get(ch, 0) + len(ids)
        return counts

    @property
    def letters(self) -> int:
        """Return the most letters the rack can spell (a joker is one letter)."""
        n_singles = sum(len(ids) for ids in self.singles.values())
        n_doubles = sum(len(ids) for ids in self.doubles.values())
        return n_singles + 2 * n_doubles + len(self.jokers)


def _shortfall(rest: int) -> int:
    """Return how many letters are missing, given `available|guards - needed` per letter."""
    missing = _GUARDS & ~rest
    total = 0
    while missing:
        low = missing & -missing
        shift = low.bit_length() - _BITS
        total += (1 << (_BITS - 1)) - ((rest >> shift) & _MAX_COUNT)
        missing ^= low
    return total


def _pieces(word: str, rack: _Rack) -> list[str] | None:
    """Split `word` into faces ("A", "AR", "?A" = joker): fewest jokers, most two-letter tiles."""
    singles = rack.single_counts.copy()
    jokers = len(rack.jokers)
    if rack.doubles_in is None or not rack.doubles_in.search(word):  # letter by letter
        pieces = []
        for ch in word:
            if singles.get(ch):
                singles[ch] -= 1
                pieces.append(ch)
            elif jokers:
                jokers -= 1
                pieces.append("?" + ch)
            else:
                return None
        return pieces

    n = len(word)
    doubles = {face: len(ids) for face, ids in rack.doubles.items()}
    best: list[tuple[int, int, list[str]]] = []  # [(jokers used, -doubles used, pieces)]
    pieces = []

    def go(pos: int, used_jokers: int, used_doubles: int) -> None:
        if best and used_jokers > best[0][0]:
            return
        if pos == n:
            key = (used_jokers, -used_doubles)
            if not best or key < best[0][:2]:
                best[:] = [(*key, pieces.copy())]
            return
        face = word[pos : pos + 2]
        if doubles.get(face):
            doubles[face] -= 1
            pieces.append(face)
            go(pos + 2, used_jokers, used_doubles + 1)
            pieces.pop()
            doubles[face] += 1
        ch = word[pos]
        if singles.get(ch):  # a single beats a joker for the same letter (exchange argument)
            singles[ch] -= 1
            pieces.append(ch)
            go(pos + 1, used_jokers, used_doubles)
            pieces.pop()
            singles[ch] += 1
        elif used_jokers < jokers:
            pieces.append("?" + ch)
            go(pos + 1, used_jokers + 1, used_doubles)
            pieces.pop()

    go(0, 0, 0)
    return best[0][2] if best else None


def _spell(word: str, rack: _Rack) -> list[tuple[int, str | None]] | None:
    """Return the tiles that spell `word`, in order, each with the letter a joker declares."""
    pieces = _pieces(word, rack)
    if pieces is None:
        return None
    taken: dict[str, int] = {}  # face → how many of its tiles are used so far
    spelled: list[tuple[int, str | None]] = []
    for piece in pieces:
        joker = piece[0] == "?"
        face = "?" if joker else piece
        k = taken[face] = taken.get(face, -1) + 1
        spelled.append((rack.jokers[k], piece[1]) if joker else (rack.ids[face][k], None))
    return spelled


def find_words(
    words: WordList,
    tiles: Sequence[tuple[int, str | None]],
    *,
    min_letters: int = 3,
    max_results: int = 50,
) -> list[Found]:
    """Return up to `max_results` words that subsets of `tiles` spell, best first."""
    found: list[Found] = []
    rack = _Rack.parse(tiles)
    if max_results <= 0:
        return found
    index = _index(words)
    n_jokers = len(rack.jokers)
    capacity = rack.capacity()
    outside = _FULL_MASK & ~_mask("".join(capacity))
    available = sum(min(n, _MAX_COUNT) * _UNIT[ch] for ch, n in capacity.items()) | _GUARDS
    start = index.first_with_at_most(rack.letters)
    stop = index.first_with_at_most(min_letters - 1)
    masks, packed, all_words = index.masks, index.packed, index.words
    for i in range(start, stop):
        lacking = masks[i] & outside
        if lacking and (not n_jokers or lacking.bit_count() > n_jokers):
            continue
        rest = available - packed[i]
        if rest & _GUARDS != _GUARDS and (not n_jokers or _shortfall(rest) > n_jokers):
            continue
        spelled = _spell(all_words[i], rack)
        if spelled is not None:
            found.append((all_words[i], spelled))
            if len(found) >= max_results:
                break
    return found


def find_pairs(
    words: WordList, tiles: Sequence[tuple[int, str | None]], *, max_results: int = 50
) -> list[Found]:
    """Return words made of exactly two of `tiles` (2–4 letters), longest/most valuable first."""
    hand = _Rack.parse(tiles).faces
    index = _index(words)
    two_letter_words = index.words[index.first_with_at_most(2) : index.first_with_at_most(1)]
    best: dict[str, tuple[int, list[tuple[int, str | None]]]] = {}

    def offer(word: str, spelled: list[tuple[int, str | None]]) -> None:
        if word in words:
            jokers = sum(letter is not None for _, letter in spelled)
            if word not in best or jokers < best[word][0]:
                best[word] = (jokers, spelled)

    for a, (id_a, face_a) in enumerate(hand):
        for b, (id_b, face_b) in enumerate(hand):
            if a == b:
                continue
            if face_a and face_b:
                offer(face_a + face_b, [(id_a, None), (id_b, None)])
            elif face_a:
                for ch in ALPHABET:
                    offer(face_a + ch, [(id_a, None), (id_b, ch)])
            elif face_b:
                for ch in ALPHABET:
                    offer(ch + face_b, [(id_a, ch), (id_b, None)])
            elif a < b:
                for w in two_letter_words:
                    offer(w, [(id_a, w[0]), (id_b, w[1])])
    ranked = sorted(best.items(), key=lambda kv: (-len(kv[0]), -word_value(kv[0]), kv[0]))
    return [(word, spelled) for word, (_, spelled) in ranked[: max(0, max_results)]]
