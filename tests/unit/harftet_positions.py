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

_CANDIDATES: dict[int, tuple[list[str], list[str]]] = {}


def _candidates(words: Iterable[str]) -> tuple[list[str], list[str]]:
    """Short words (3–5 letters, short ones first in weight) and the 2-letter words."""
    key = id(words)
    if key not in _CANDIDATES:
        listed = sorted(words)
        short = [w for w in listed if 3 <= len(w) <= 5]
        two = [w for w in listed if len(w) == 2]
        _CANDIDATES[key] = (short, two)
    return _CANDIDATES[key]


def _spell(
    word: str, pool: list[int], rng: random.Random, joker_rate: float
) -> list[Placed] | None:
    """Tiles of ``pool`` spelling ``word`` (two-letter tiles where they fit, a joker now and
    then), removed from the pool; None (pool unchanged) when it cannot."""
    taken: list[Placed] = []
    left = list(pool)
    pos = 0
    while pos < len(word):
        two = word[pos : pos + 2]
        double = next((t for t in left if HARFTET_TILES[t].letter == two), None)
        if len(two) == 2 and double is not None and rng.random() < 0.7:
            taken.append(Placed(double))
            left.remove(double)
            pos += 2
            continue
        single = next((t for t in left if HARFTET_TILES[t].letter == word[pos]), None)
        joker = next((t for t in left if HARFTET_TILES[t].joker), None)
        if joker is not None and (single is None or rng.random() < joker_rate):
            taken.append(Placed(joker, word[pos]))
            left.remove(joker)
        elif single is not None:
            taken.append(Placed(single))
            left.remove(single)
        else:
            return None
        pos += 1
    pool[:] = left
    return taken


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
    short, two = _candidates(words)
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
    series: list[list[Placed]] = []
    tries = 0
    while len(series) < melds and tries < 4000 and pool:
        tries += 1
        w = short[rng.randrange(len(short))]
        if len(w) > 3 and rng.random() < 0.6:
            continue  # mostly 3-letter words: 26 of them fit beside a 22-tile hand
        placed = _spell(w, pool, rng, joker_rate)
        if placed is not None:
            series.append(placed)
    pair_area: list[list[Placed]] = []
    if len(series) == MAX_SERIES and two:
        for _ in range(200):
            if len(pair_area) >= pairs:
                break
            w = two[rng.randrange(len(two))]
            placed = _spell(w, pool, rng, joker_rate)
            if placed is not None and len(placed) == 2:
                pair_area.append(placed)
            elif placed is not None:
                pool.extend(p.id for p in placed)
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
