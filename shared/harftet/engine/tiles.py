"""The 106 physical tiles of each game, by stable id (0..105), and their JSON shape."""

from __future__ import annotations

from dataclasses import dataclass

from harftet.engine.words import LETTER_VALUES

from .state import Face

COLORS = ("red", "yellow", "blue", "black")
TILE_COUNT = 106
JOKER_IDS = (104, 105)
JOKER_HAND_VALUE = 50

# Harftet single letters in the order of RULES.md §1: (letter, count); values live with the
# letters in ``harftet.words`` (one home for each fact).
HARFTET_LETTERS: tuple[tuple[str, int], ...] = (
    ("A", 8), ("E", 7), ("İ", 8), ("K", 5), ("L", 5), ("N", 4), ("R", 6), ("T", 4),
    ("I", 4), ("M", 5), ("O", 3), ("S", 4), ("U", 3),
    ("B", 3), ("D", 3), ("Ü", 2), ("Y", 4),
    ("C", 1), ("Ç", 1), ("Ş", 2), ("Z", 2),
    ("G", 2), ("H", 2), ("P", 1),
    ("F", 1), ("Ö", 1), ("V", 1),
    ("Ğ", 1), ("J", 1),
)  # fmt: skip
HARFTET_DOUBLES = ("AR", "ER", "AN", "EN", "LA", "LE", "DA", "DE", "İN", "IN")
# The 29 letters of the Turkish alphabet: the only faces a Harftet joker may take.
ALPHABET = frozenset(LETTER_VALUES)


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile. ``value`` is what it costs in hand (50 for a joker)."""

    id: int
    color: str
    value: int
    number: int | None = None
    letter: str | None = None
    joker: bool = False


def _jokers() -> list[Tile]:
    return [Tile(id=i, color=COLORS[i % 4], value=JOKER_HAND_VALUE, joker=True) for i in JOKER_IDS]


def _kastet_tiles() -> tuple[Tile, ...]:
    tiles = [
        Tile(id=copy * 52 + c * 13 + (n - 1), color=color, value=n, number=n)
        for copy in range(2)
        for c, color in enumerate(COLORS)
        for n in range(1, 14)
    ]
    return (*tiles, *_jokers())


def _harftet_tiles() -> tuple[Tile, ...]:
    letters = [letter for letter, count in HARFTET_LETTERS for _ in range(count)]
    letters += HARFTET_DOUBLES
    tiles = [
        Tile(id=i, color=COLORS[i % 4], value=sum(LETTER_VALUES[c] for c in s), letter=s)
        for i, s in enumerate(letters)
    ]
    return (*tiles, *_jokers())


KASTET_TILES: tuple[Tile, ...] = _kastet_tiles()
HARFTET_TILES: tuple[Tile, ...] = _harftet_tiles()


def tiles_for(game: str) -> tuple[Tile, ...]:
    """The 106 tiles of ``game`` ("kastet" or "harftet"), indexed by id."""
    if game == "kastet":
        return KASTET_TILES
    if game == "harftet":
        return HARFTET_TILES
    raise ValueError(f"unknown game {game!r}")


def hand_value(tile: Tile) -> int:
    """What the tile costs when left in a hand at the end of a hand: 50 for a joker."""
    return JOKER_HAND_VALUE if tile.joker else tile.value


def tile_json(tile: Tile, face: Face | None = None) -> dict[str, object]:
    """The API shape of a tile; ``face`` is a joker's declared face on the table."""
    if tile.joker:
        shown: object = None
        if isinstance(face, tuple):
            shown = {"color": face[0], "number": face[1]}
        elif face is not None:
            shown = face
        return {"id": tile.id, "joker": True, "as": shown}
    if tile.letter is not None:
        return {"id": tile.id, "letter": tile.letter, "value": tile.value, "color": tile.color}
    return {"id": tile.id, "color": tile.color, "number": tile.number}
