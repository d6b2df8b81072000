"""Random Harftet positions for the search's tests and benchmarks: a hand of up to 22 tiles
against a series area of real words (up to all 26), jokers on the table, pairs when open.

Imported by name (``from harftet_positions import random_position``); bench/ puts this folder
on sys.path to use the same positions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from harftet.engine.rules import MAX_HAND, MAX_SERIES
from harftet.engine.state import Occupant, Placed, Seat, Table
from harftet.engine.tiles import HARFTET_TILES, JOKER_IDS, TILE_COUNT

_CANDIDATES: dict[int, tuple[list[str], list[str], list[str]]] = {}


def _candidates(words: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    """The 3-letter words, the 4–5-letter words and the 2-letter words, sorted."""
    key = id(words)
    if key not in _CANDIDATES:
        listed = sorted(words)
        threes = [w for w in listed if len(w) == 3]
        longer = [w for w in listed if 4 <= len(w) <= 5]
        two = [w for w in listed if len(w) == 2]
        _CANDIDATES[key] = (threes, longer, two)
    return _CANDIDATES[key]


class _Pool:
    """Free tiles by face (singles, two-letter tiles, jokers), for spelling words fast."""

    def __init__(self, ids: list[int]) -> None:
        self.faces: dict[str, list[int]] = {}
        for t in ids:
            tile = HARFTET_TILES[t]
            self.faces.setdefault("?" if tile.joker else str(tile.letter), []).append(t)

    def ids(self) -> list[int]:
        return sorted(t for group in self.faces.values() for t in group)

    def spell(self, word: str, rng: random.Random, joker_rate: float) -> list[Placed] | None:
        """Tiles spelling ``word`` (two-letter tiles where they fit, a joker now and then),
        taken from the pool; None (pool unchanged) when it cannot."""
        taken: list[Placed] = []
        faces = self.faces
        pos = 0
        while pos < len(word):
            two = word[pos : pos + 2]
            if len(two) == 2 and faces.get(two) and rng.random() < 0.7:
                taken.append(Placed(faces[two].pop()))
                pos += 2
                continue
            ch = word[pos]
            if faces.get("?") and (not faces.get(ch) or rng.random() < joker_rate):
                taken.append(Placed(faces["?"].pop(), ch))
            elif faces.get(ch):
                taken.append(Placed(faces[ch].pop()))
            else:
                self.give_back(taken)
                return None
            pos += 1
        return taken

    def give_back(self, placed: list[Placed]) -> None:
        for p in placed:
            tile = HARFTET_TILES[p.id]
            self.faces.setdefault("?" if tile.joker else str(tile.letter), []).append(p.id)


def random_position(
    rng: random.Random,
    words: Iterable[str],
    *,
    hand: int = MAX_HAND,
    melds: int = MAX_SERIES,
    players: int = 4,
    pairs: int = 2,
    joker_rate: float = 0.3,
    seat: int = 0,
) -> Table:
    """A playing table where it is ``seat``'s turn: ``hand`` random tiles in its hand, up to
    ``melds`` real words on the series area (jokers among them at ``joker_rate``), up to
    ``pairs`` pairs when all 26 places are filled, the rest dealt to the others (≤ 22 each)
    and to the pile."""
    all_threes, longer, two = _candidates(words)
    ids = list(range(TILE_COUNT))
    rng.shuffle(ids)
    mine, pool = ids[:hand], ids[hand:]
    if rng.random() < 0.5:  # a joker on the table more often than chance alone
        for j in JOKER_IDS:
            if j in mine:
                mine.remove(j)
                mine.append(pool.pop())
                pool.append(j)
                break
    if melds >= MAX_SERIES:  # the table first, or 26 words rarely fit beside 22 tiles
        pool, mine = ids, []
    free = _Pool(pool)
    series: list[list[Placed]] = []
    threes = list(all_threes)
    rng.shuffle(threes)
    step = 7919  # a prime: (start + i * step) % n visits every longer word once
    start = rng.randrange(len(longer)) if longer else 0
    picks = [longer[(start + i * step) % len(longer)] for i in range(min(60, len(longer)))]
    for w in [*picks[: rng.randrange(0, 8)], *threes, *picks]:
        if len(series) >= melds:
            break
        placed = free.spell(w, rng, joker_rate)
        if placed is not None:
            series.append(placed)
    pair_area: list[list[Placed]] = []
    if len(series) == MAX_SERIES and two:
        for _ in range(200):
            if len(pair_area) >= pairs:
                break
            w = two[rng.randrange(len(two))]
            placed = free.spell(w, rng, joker_rate)
            if placed is not None and len(placed) == 2:
                pair_area.append(placed)
            elif placed is not None:
                free.give_back(placed)
    pool = free.ids()
    if melds >= MAX_SERIES:
        rng.shuffle(pool)
        mine, pool = pool[:hand], pool[hand:]
    seats = [Seat(occupant=Occupant(f"p{i}", f"Oyuncu {i}")) for i in range(players)]
    seats[seat].hand = mine
    others = [i for i in range(players) if i != seat]
    rng.shuffle(pool)
    for i in others:
        n = min(MAX_HAND, rng.randrange(1, 15), len(pool))
        seats[i].hand, pool = pool[:n], pool[n:]
    return Table(
        table_id="pos",
        game="harftet",
        seed=rng.randrange(1 << 30),
        manager="p0",
        hands=1,
        status="playing",
        seats=seats,
        pile=pool,
        series=series,
        pairs=pair_area,
        hand_number=1,
        turn_seat=seat,
    )
