"""What differs between the two games: tile set, joker faces, meld checks, multiplier.

Built like python-chess's variants: ``Rules`` holds the shared behaviour and each game
overrides only what differs. All checks work on *faces*: a plain tile's own face, or the
face a joker was declared as (Kastet ``("red", 7)``, Harftet ``"Ş"``).
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from functools import cache
from itertools import pairwise

from harftet.engine.words import turkish_upper

from .errors import IllegalMoveError, Refusal
from .state import Face, Placed
from .tiles import ALPHABET, COLORS, HARFTET_TILES, KASTET_TILES, Tile

MAX_SERIES = 26
MAX_HAND = 22
DEAL_SIZE = 14


class Rules:
    """The rules both games share; subclasses say what a face and a valid meld are."""

    name: str = ""
    multiplier: int = 1
    tiles: tuple[Tile, ...] = ()

    def normalize_face(self, raw: object) -> Face:
        """Turn a client's declared joker face into a Face, or raise IllegalMoveError."""
        raise NotImplementedError

    def tile_face(self, tile: Tile) -> Face:
        """The face a plain (non-joker) tile shows."""
        raise NotImplementedError

    def faces(self, meld: Sequence[Placed]) -> list[Face]:
        """The faces of a meld's tiles, jokers as declared (their face must be set)."""
        tiles = self.tiles
        out: list[Face] = []
        for p in meld:
            tile = tiles[p.id]
            if tile.joker:
                if p.face is None:
                    raise IllegalMoveError(
                        f"joker {p.id} needs a declared face",
                        reason="joker_face_missing",
                        params={"tile": p.id},
                    )
                out.append(p.face)
            else:
                out.append(self.tile_face(tile))
        return out

    def check_series(self, faces: Sequence[Face]) -> str | None:
        """None when ``faces`` make a valid series meld, else the reason why not."""
        raise NotImplementedError

    def check_pair(self, faces: Sequence[Face]) -> str | None:
        """None when ``faces`` make a valid pair, else the reason why not."""
        raise NotImplementedError


def _show(face: Face) -> str:
    return f"{face[0]} {face[1]}" if isinstance(face, tuple) else face


class KastetRules(Rules):
    """Okey tiles: runs and sets of 3+, pairs of identical tiles."""

    name = "kastet"
    multiplier = 1
    tiles = KASTET_TILES

    def normalize_face(self, raw: object) -> Face:
        """A Kastet face is ``{"color": "red", "number": 7}`` (or the tuple it becomes)."""
        if isinstance(raw, dict) and set(raw) == {"color", "number"}:
            color, number = raw["color"], raw["number"]
        elif isinstance(raw, tuple) and len(raw) == 2:
            color, number = raw
        else:
            raise IllegalMoveError(
                'a Kastet joker is declared as {"color": <red|yellow|blue|black>, "number": 1-13}',
                reason="bad_joker_face",
            )
        if color not in COLORS:
            raise IllegalMoveError(
                f"unknown colour {color!r}: use one of {', '.join(COLORS)}", reason="bad_joker_face"
            )
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 13:
            raise IllegalMoveError(
                f"a joker's number must be 1 to 13, not {number!r}", reason="bad_joker_face"
            )
        return (color, number)

    def tile_face(self, tile: Tile) -> Face:
        """A number tile's (colour, number)."""
        assert tile.number is not None
        return (tile.color, tile.number)

    def check_series(self, faces: Sequence[Face]) -> str | None:
        """A run (one colour, consecutive, 1 low only, 3–13) or a set (one number, 3–4 colours)."""
        pairs = [f for f in faces if isinstance(f, tuple)]
        if len(pairs) != len(faces):
            return Refusal("Kastet faces are (colour, number)", "bad_meld")
        if len(pairs) < 3:
            return Refusal("a series meld needs at least 3 tiles", "meld_too_short")
        colors = {c for c, _ in pairs}
        numbers = [n for _, n in pairs]
        shown = "-".join(_show(f) for f in pairs)
        if len(colors) == 1:
            if any(b != a + 1 for a, b in pairwise(numbers)):
                text = f"{shown} is not a run: numbers must rise by one, and 1 is low only"
                return Refusal(text, "bad_meld", kind="run")
            return None
        if len(set(numbers)) == 1:
            if len(colors) != len(pairs):
                text = f"{shown} is not a set: each colour may appear once"
                return Refusal(text, "bad_meld", kind="set")
            return None
        text = f"{shown} is neither a run (one colour) nor a set (one number)"
        return Refusal(text, "bad_meld", kind="mixed")

    def check_pair(self, faces: Sequence[Face]) -> str | None:
        """Two identical faces: two copies of a tile, or a joker declared as its partner."""
        if len(faces) != 2:
            return Refusal("a pair is exactly 2 tiles", "bad_pair", kind="size")
        if faces[0] != faces[1]:
            text = f"{_show(faces[0])} and {_show(faces[1])} are not identical tiles"
            return Refusal(text, "bad_pair", kind="different")
        return None


class HarftetRules(Rules):
    """Letter tiles: series are dictionary words of 3+ letters, pairs 2-tile words."""

    name = "harftet"
    multiplier = 2
    tiles = HARFTET_TILES

    def __init__(self, words: Container[str] | None = None) -> None:
        self._words = words

    @property
    def words(self) -> Container[str]:
        """The dictionary (upper-case Turkish words); the default one unless injected."""
        if self._words is None:
            from harftet.engine.words import default_words

            self._words = default_words()
        return self._words

    def normalize_face(self, raw: object) -> Face:
        """A Harftet face is one letter of the Turkish alphabet, any case ("ş" → "Ş")."""
        if not isinstance(raw, str):
            raise IllegalMoveError(
                'a Harftet joker is declared as one letter, e.g. "Ş"', reason="bad_joker_face"
            )
        letter = turkish_upper(raw.strip())
        if letter not in ALPHABET:
            raise IllegalMoveError(
                f"{raw!r} is not a letter of the Turkish alphabet: a joker stands for one letter",
                reason="bad_joker_face",
            )
        return letter

    def tile_face(self, tile: Tile) -> Face:
        """A letter tile's letters ("Ş" or a two-letter "AR")."""
        assert tile.letter is not None
        return tile.letter

    def _word(self, faces: Sequence[Face]) -> str:
        return "".join(f for f in faces if isinstance(f, str))

    def check_series(self, faces: Sequence[Face]) -> str | None:
        """A dictionary word of at least 3 letters, read left to right."""
        word = self._word(faces)
        if len(word) < 3:
            text = f'"{word}" is too short: a series word needs at least 3 letters'
            return Refusal(text, "meld_too_short", word=word, kind="word")
        if word not in self.words:
            return Refusal(f'"{word}" is not a word', "not_a_word", word=word)
        return None

    def check_pair(self, faces: Sequence[Face]) -> str | None:
        """A dictionary word made of exactly 2 tiles (2 to 4 letters)."""
        if len(faces) != 2:
            return Refusal("a pair is exactly 2 tiles", "bad_pair", kind="size")
        word = self._word(faces)
        if word not in self.words:
            return Refusal(f'"{word}" is not a word', "not_a_word", word=word)
        return None


@cache
def rules_for(game: str) -> Rules:
    """The shared Rules of ``game``; Harftet uses the default dictionary."""
    if game == "kastet":
        return KastetRules()
    if game == "harftet":
        return HarftetRules()
    raise ValueError(f"unknown game {game!r}")
