"""The computer players: ``choose_move(table, seat, level)`` for both games (RULES §4a).

Harftet's levels live in ``engine.bots.harftet``, Kastet's in ``engine.bots.kastet``; until
that module is there, every Kastet level plays the simple player below (it extends melds on
the table, lays new melds from its hand, and pairs once the 26 series places are full).
Each call proposes one legal move: a lay, else a draw if allowed, else a pass; after a lay,
the next call lays again or passes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable

from harftet.engine.words import WordList
from harftet.engine.words.search import find_pairs, find_words

from .hand import legal_to_draw
from .moves import Draw, Lay, Move, Pass
from .rules import MAX_SERIES, KastetRules, Rules, rules_for
from .search.harftet import word_list
from .state import BOT_LEVELS, DEFAULT_BOT_LEVEL, BotLevel, Placed, Table
from .tiles import ALPHABET, COLORS, HARFTET_TILES, KASTET_TILES

_KASTET = KastetRules()


def choose_move(
    table: Table,
    seat: int,
    level: BotLevel | Collection[str] = DEFAULT_BOT_LEVEL,
    words: Collection[str] | None = None,
) -> Move:
    """The ``level`` computer player's move for ``seat`` (whose turn it is); ``words``
    overrides the dictionary (it must then be the one the table's rules check words with).
    ``choose_move(table, seat, words)`` (the older call) still works: a medium player."""
    if not isinstance(level, str):
        level, words = DEFAULT_BOT_LEVEL, level
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(BOT_LEVELS)}")
    if table.game == "kastet":
        try:
            from harftet.engine.bots import kastet  # search-kastet's players
        except ImportError:
            return simple_move(table, seat)
        return kastet.choose_move(table, seat, level)  # type: ignore[no-any-return,unused-ignore]
    from harftet.engine.bots import harftet

    return harftet.choose_move(table, seat, level, words)


def simple_move(table: Table, seat: int, words: Collection[str] | None = None) -> Move:
    """The simple player: one pass of extensions and new melds (the greedy baseline)."""
    hand = table.seats[seat].hand
    if table.game == "kastet":
        lay = _kastet_lay(table, hand)
    else:
        lay = _harftet_lay(table, hand, word_list(words))
    if lay is not None:
        return lay
    return Draw() if legal_to_draw(table, seat) else Pass()


def _finish(table: Table, series: list[list[Placed]], pairs: list[list[Placed]]) -> Lay | None:
    if series == table.series and not pairs:
        return None
    return Lay(tuple(tuple(m) for m in series), tuple(tuple(p) for p in pairs))


# --- Kastet -----------------------------------------------------------------------------


def _kastet_lay(table: Table, hand: list[int]) -> Lay | None:
    avail: dict[tuple[str, int], list[int]] = defaultdict(list)
    jokers: list[int] = []
    for t in hand:
        tile = KASTET_TILES[t]
        if tile.joker:
            jokers.append(t)
        else:
            assert tile.number is not None
            avail[(tile.color, tile.number)].append(t)

    def take(face: tuple[str, int]) -> Placed | None:
        ids = avail.get(face)
        return Placed(ids.pop()) if ids else None

    series = [_kastet_extend(list(m), take) for m in table.series]
    for meld in _kastet_new_melds(avail, jokers):
        if len(series) >= MAX_SERIES:
            break
        series.append(meld)
    pairs: list[list[Placed]] = []
    if len(series) == MAX_SERIES:
        for face, ids in sorted(avail.items()):
            while len(ids) >= 2:
                pairs.append([Placed(ids.pop()), Placed(ids.pop())])
            if ids and jokers:
                pairs.append([Placed(ids.pop()), Placed(jokers.pop(), face)])
        if len(jokers) == 2:
            pairs.append([Placed(j, ("red", 1)) for j in jokers])
    return _finish(table, series, pairs)


def _kastet_extend(
    meld: list[Placed], take: Callable[[tuple[str, int]], Placed | None]
) -> list[Placed]:
    """Add matching hand tiles to the ends of a run, or a missing colour to a set."""
    faces = _KASTET.faces(meld)
    colors = {f[0] for f in faces if isinstance(f, tuple)}
    if len(colors) == 1:
        (color,) = colors
        while True:
            lo, hi = faces[0], faces[-1]
            assert isinstance(lo, tuple) and isinstance(hi, tuple)
            if lo[1] > 1 and (p := take((color, lo[1] - 1))) is not None:
                meld.insert(0, p)
                faces.insert(0, (color, lo[1] - 1))
            elif hi[1] < 13 and (p := take((color, hi[1] + 1))) is not None:
                meld.append(p)
                faces.append((color, hi[1] + 1))
            else:
                return meld
    number = faces[0][1] if isinstance(faces[0], tuple) else 0
    for color in COLORS:
        if len(meld) < 4 and color not in colors and (p := take((color, number))) is not None:
            meld.append(p)
    return meld


def _kastet_new_melds(
    avail: dict[tuple[str, int], list[int]], jokers: list[int]
) -> Iterable[list[Placed]]:
    """Runs, then sets, then melds completed by jokers, taken greedily from ``avail``."""

    def has(color: str, n: int) -> bool:
        return 1 <= n <= 13 and bool(avail.get((color, n)))

    def tile(color: str, n: int) -> Placed:
        return Placed(avail[(color, n)].pop())

    for color in COLORS:
        n = 1
        while n <= 13:
            end = n
            while has(color, end):
                end += 1
            if end - n >= 3:
                yield [tile(color, k) for k in range(n, end)]
                continue  # a second copy may make another run from the same start
            n = max(end, n + 1)
    for n in range(1, 14):
        while sum(has(c, n) for c in COLORS) >= 3:
            yield [tile(c, n) for c in COLORS if has(c, n)]
    for color in COLORS:
        for n in range(1, 14):
            while jokers and has(color, n) and (has(color, n + 1) or has(color, n + 2)):
                if has(color, n + 1):
                    jn = n + 2 if n + 2 <= 13 else n - 1
                    run = [tile(color, n), tile(color, n + 1)]
                    j = Placed(jokers.pop(), (color, jn))
                    yield [j, *run] if jn < n else [*run, j]
                else:
                    a, b = tile(color, n), tile(color, n + 2)
                    yield [a, Placed(jokers.pop(), (color, n + 1)), b]
    for n in range(1, 14):
        while jokers and sum(has(c, n) for c in COLORS) == 2:
            present = [c for c in COLORS if has(c, n)]
            missing = next(c for c in COLORS if c not in present)
            yield [tile(c, n) for c in present] + [Placed(jokers.pop(), (missing, n))]
    if len(jokers) == 2:
        for (color, n), ids in sorted(avail.items()):
            if ids:
                start = min(n, 11)
                js = iter(jokers[:])
                jokers.clear()
                yield [
                    Placed(ids.pop()) if k == n else Placed(next(js), (color, k))
                    for k in range(start, start + 3)
                ]
                break


# --- Harftet ----------------------------------------------------------------------------


def _placed(spelled: list[tuple[int, str | None]]) -> list[Placed]:
    return [Placed(t, letter) for t, letter in spelled]


def _harftet_lay(table: Table, hand: list[int], words: WordList) -> Lay | None:
    rules: Rules = rules_for("harftet")  # faces only: no dictionary needed
    free = list(hand)
    series = [list(m) for m in table.series]
    for meld in series:  # one tile added to each word that takes one in front or behind
        word = "".join(str(f) for f in rules.faces(meld))
        for t in free:
            tile = HARFTET_TILES[t]
            letters = sorted(ALPHABET) if tile.joker else [str(tile.letter)]
            face = next((x for x in letters if x + word in words or word + x in words), None)
            if face is not None:
                placed = Placed(t, face if tile.joker else None)
                if face + word in words:
                    meld.insert(0, placed)
                else:
                    meld.append(placed)
                free.remove(t)
                break
    rack = [(t, HARFTET_TILES[t].letter) for t in free]
    if len(series) < MAX_SERIES:
        found = find_words(words, rack, max_results=1)
        if found:
            series.append(_placed(found[0][1]))
    pairs: list[list[Placed]] = []
    if len(series) == MAX_SERIES:
        laid = {p.id for m in series for p in m}
        pair = find_pairs(words, [r for r in rack if r[0] not in laid], max_results=1)
        if pair:
            pairs.append(_placed(pair[0][1]))
    return _finish(table, series, pairs)
