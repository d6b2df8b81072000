"""Harftet tiles as the search sees them: the free hand by face, a meld's letters, table
tiles by the face they show, a meld's signature (see ``harftet``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from harftet.engine.state import Placed
from harftet.engine.tiles import HARFTET_TILES
from harftet.engine.words.index import ORDER, RANK


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


def _sig(meld: Sequence[Placed]) -> tuple[int, ...]:
    return tuple(sorted(p.id for p in meld))
