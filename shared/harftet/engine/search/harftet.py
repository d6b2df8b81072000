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

Words are found in the alphagram trie of ``harftet.engine.words.index`` (built at set-up beside the
dictionary): a depth-first walk with the hand's letter counts, the letters a word must
contain (the table tiles it keeps) and the jokers, pruned by an upper bound on the value it
can still add. A found word is then *spelled* with actual tiles: two-letter tiles where its
letters allow, the table tiles it must keep, hand letters and jokers.

The recipes are applied greedily, most valuable first (a lazy priority queue: the hand only
shrinks, so a recipe's value only falls). The search is anytime and deterministic: it counts
work units (trie nodes visited, spellings tried), never the clock; ``UNITS_PER_MS`` turns a
budget in milliseconds into units, calibrated on the development machine (bench/).

The parts, each in its own module: the tiles as the search sees them (``harftet_tiles``),
spelling and finding words within the budget (``harftet_words._Search``), and the recipes
and their greedy application (``harftet_recipes._Planner``); here, what the search is asked:
``best_lay``, and the pairs laid last.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection

from harftet.engine.moves import Lay
from harftet.engine.rules import MAX_SERIES
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import HARFTET_TILES, hand_value
from harftet.engine.words import ALPHABET, WordList, default_words
from harftet.engine.words.index import for_words

from .harftet_recipes import _Planner, _State
from .harftet_tiles import _Hand
from .harftet_words import _OutOfBudget, _Search
from .proposal import Proposal

__all__ = ["ALL_MOVES", "UNITS_PER_MS", "best_lay", "word_list"]

UNITS_PER_MS = 300
"""Work units per millisecond of budget (one unit ≈ one trie node visited), calibrated with
bench/bench_search_harftet.py on the 2-core development machine."""

RECOMB_SHARE = 0.1
"""The share of the budget kept from extensions and splits for recombining two table words."""


ALL_MOVES = frozenset({"new", "ext", "split", "move", "recomb", "pairs"})

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
    room = 99 if search.max_tiles is None else search.max_tiles
    for value, _, tiles in options:
        ids = [p.id for p in tiles]
        if value <= 0 or taken.intersection(ids) or len(taken) + len(ids) > room:
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
    max_tiles: int | None = None,
) -> Proposal | None:
    """The most valuable lay found for ``seat`` within ``budget_ms`` of work (anytime and
    deterministic: work is counted, not timed), or None when no lay adds a tile.

    Only ``seat``'s hand and the table are read. ``words`` overrides the dictionary (it must be
    the one the table's rules check words with). The other keywords are the computer players'
    knobs: ``moves`` (subset of ``ALL_MOVES``), ``joker_value`` (what laying a joker is worth
    to the search; the proposal's ``shed`` always counts it 50), ``accept`` (a filter on the
    words it may lay) and ``top`` (candidates kept per search). ``stats``, when given, gets
    the work done (``units``), whether the budget ran out (``exhausted``, also when only the
    share before the recombinations did) and how many pairs of table words it rebuilt
    (``rebuilt``). ``steps`` caps the recipes applied (words laid,
    extended, split or rebuilt; the pairs count as one): how much a person does in a turn;
    ``max_tiles`` caps the hand tiles laid (how many a person finds in one look).
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
    planner.tiles = max_tiles
    planner.cap()
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
        stats["exhausted"] = int(search.exhausted or search.cut)  # also a part's share
        stats["rebuilt"] = planner.rebuilt
    if not state.used:
        return None
    lay = Lay(tuple(tuple(m) for m in state.melds), tuple(tuple(p) for p in state.pairs))
    shed = sum(hand_value(HARFTET_TILES[t]) for t in state.used)
    return Proposal(lay, shed, tuple(sorted(state.used)))
