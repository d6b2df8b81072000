"""The rules a lay must pass, in the order they are checked (RULES §2).

``validate_lay`` reads as the list of rules, the way python-chess builds ``Board.is_legal``
from named predicates: each check below has one rule to enforce and raises the one
``IllegalMoveError`` (reason and params) that breaking it gives. The tile checks run per tile,
series melds first, then the new pairs, so the first tile that breaks a rule names it; the
whole-lay checks follow. A check takes linear time in the lay's tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import IllegalMoveError
from .moves import Lay
from .rules import MAX_SERIES, Rules
from .state import Face, Placed, Table
from .tiles import TILE_COUNT

Melds = list[list[Placed]]


def validate_lay(table: Table, seat: int, lay: Lay, rules: Rules) -> tuple[Melds, Melds, set[int]]:
    """Check a lay in time linear in its tiles; returns (series, new pairs, added ids).

    Errors about a series meld carry ``meld`` = its 0-based index in ``lay.series`` and say
    "series meld i+1 (index i)"; errors about a new pair say "pair j+1 (index j)" and carry
    no index. A joker already on the series area may be declared anew; sent without a
    face, it keeps the one it had.
    """
    _check_series_count(lay)
    tiles = _LayTiles(table, seat, rules)
    series = [tiles.meld(m, _Where("series meld", i)) for i, m in enumerate(lay.series)]
    pairs = [tiles.meld(p, _Where("pair", j, in_pair=True)) for j, p in enumerate(lay.pairs)]
    _check_table_tiles_stay(tiles.on_series, tiles.seen)
    _check_something_added(tiles.added)
    _check_pair_area_open(series, pairs)
    _check_series_melds(series, rules)
    _check_pairs(pairs, rules)
    return series, pairs, tiles.added


def _meld_label(kind: str, i: int) -> str:
    """How a refusal names meld ``i`` of ``kind`` ("series meld" or "pair"): 1-based, with
    its index."""
    return f"{kind} {i + 1} (index {i})"


class _Where:
    """The meld a tile is checked in, and the refusal that names it."""

    __slots__ = ("in_pair", "index", "label")

    def __init__(self, kind: str, index: int, *, in_pair: bool = False) -> None:
        self.label = _meld_label(kind, index)
        self.index = index  # the meld's, or for a new pair the pair's (which carries no meld)
        self.in_pair = in_pair

    def refusal(
        self, text: str, reason: str, tile: int | None = None, more: dict[str, Any] | None = None
    ) -> IllegalMoveError:
        """The refusal of a tile here (or of the whole meld): the meld (or pair), the tile and
        ``more`` in its params."""
        params: dict[str, Any] = {"pair" if self.in_pair else "meld": self.index}
        params |= {} if tile is None else {"tile": tile}
        params |= more or {}
        meld = None if self.in_pair else self.index
        return IllegalMoveError(f"{self.label}: {text}", meld=meld, reason=reason, params=params)


class _LayTiles:
    """The tiles of a lay, checked one by one against where they come from: the series area,
    the pair area and the player's hand; ``added`` the hand tiles the lay puts down."""

    def __init__(self, table: Table, seat: int, rules: Rules) -> None:
        self.on_series: dict[int, Face | None] = {p.id: p.face for m in table.series for p in m}
        self.on_pairs = {p.id for pair in table.pairs for p in pair}
        self.hand = set(table.seats[seat].hand)
        self.rules = rules
        self.seen: set[int] = set()
        self.added: set[int] = set()

    def meld(self, meld: Sequence[Placed], where: _Where) -> list[Placed]:
        """The tiles of one meld (or new pair), each through the tile rules."""
        return [self.place(p, where) for p in meld]

    def place(self, raw: Placed, where: _Where) -> Placed:
        """One tile of the lay through the tile rules, in order; returns it as placed."""
        tid = raw.id
        _check_tile_exists(tid, where)
        self._check_once(tid, where)
        self._check_not_in_pair_area(tid, where)
        self._check_comes_from_series_or_hand(tid, where)
        if self.rules.tiles[tid].joker:
            return self._declared_joker(raw, where)
        _check_only_jokers_declared(raw, where)
        return raw

    def _check_once(self, tid: int, where: _Where) -> None:
        """A tile appears once in a lay."""
        if tid in self.seen:
            raise where.refusal(f"tile {tid} appears more than once", "duplicate_tile", tid)
        self.seen.add(tid)

    def _check_not_in_pair_area(self, tid: int, where: _Where) -> None:
        """Pairs are frozen: no tile of the pair area moves."""
        if tid in self.on_pairs:
            text = f"tile {tid} is in the pair area: pairs are frozen"
            raise where.refusal(text, "pair_frozen", tid)

    def _check_comes_from_series_or_hand(self, tid: int, where: _Where) -> None:
        """A tile comes from the series area (never into a new pair) or from the hand."""
        if tid in self.on_series:
            if where.in_pair:
                text = f"tile {tid} is on the series area: pairs are laid from your hand"
                raise where.refusal(text, "pair_from_series", tid)
        elif tid in self.hand:
            self.added.add(tid)
        else:
            raise where.refusal(f"tile {tid} is not in your hand", "not_in_hand", tid)

    def _declared_joker(self, raw: Placed, where: _Where) -> Placed:
        """A joker shows a face of the game: the one declared, or (moved on the series area,
        sent without one) the one it had."""
        tid = raw.id
        if raw.face is None:
            if self.on_series.get(tid) is not None and not where.in_pair:
                return Placed(tid, self.on_series[tid])  # a joker moved on keeps its face
            text = f'joker {tid} needs a declared face ("as")'
            raise where.refusal(text, "joker_face_missing", tid)
        try:
            return Placed(tid, self.rules.normalize_face(raw.face))
        except IllegalMoveError as e:
            raise where.refusal(f"joker {tid}: {e.message}", e.reason, tid) from None


def _check_series_count(lay: Lay) -> None:
    """The series area holds at most 26 melds."""
    if len(lay.series) > MAX_SERIES:
        raise IllegalMoveError(
            f"the series area holds at most {MAX_SERIES} melds, this lay has {len(lay.series)}",
            meld=MAX_SERIES,
            reason="too_many_series",
            params={"count": len(lay.series), "max": MAX_SERIES},
        )


def _check_tile_exists(tid: object, where: _Where) -> None:
    """A tile is one of the game's 106, by id."""
    if isinstance(tid, bool) or not isinstance(tid, int) or not 0 <= tid < TILE_COUNT:
        raise where.refusal(f"unknown tile id {tid!r}", "unknown_tile")


def _check_only_jokers_declared(raw: Placed, where: _Where) -> None:
    """Only a joker is declared as something."""
    if raw.face is not None:
        text = f"tile {raw.id} is not a joker and cannot be declared as anything"
        raise where.refusal(text, "not_a_joker", raw.id)


def _check_table_tiles_stay(on_series: dict[int, Face | None], seen: set[int]) -> None:
    """Tiles on the table never return to a hand: every one is in the lay."""
    missing = on_series.keys() - seen
    if missing:
        raise IllegalMoveError(
            f"tile {min(missing)} was on the table and is missing: "
            "tiles on the table never return to a hand",
            reason="table_tile_missing",
            params={"tile": min(missing)},
        )


def _check_something_added(added: set[int]) -> None:
    """A lay adds at least one tile from the hand."""
    if not added:
        raise IllegalMoveError(
            "a lay must add at least one tile from your hand", reason="nothing_added"
        )


def _check_pair_area_open(series: Melds, pairs: Melds) -> None:
    """New pairs only once all 26 series places are filled."""
    if pairs and len(series) != MAX_SERIES:
        raise IllegalMoveError(
            f"the pair area opens only when all {MAX_SERIES} series places are filled "
            f"(this lay has {len(series)} series melds)",
            reason="pairs_closed",
            params={"count": len(series), "max": MAX_SERIES},
        )


def _check_series_melds(series: Melds, rules: Rules) -> None:
    """Every series meld is valid in this game (a run or a set; a word)."""
    for i, meld in enumerate(series):
        _refuse(rules.check_series(rules.faces(meld)), _Where("series meld", i), "bad_meld")


def _check_pairs(pairs: Melds, rules: Rules) -> None:
    """Every new pair is valid in this game."""
    for j, pair in enumerate(pairs):
        _refuse(rules.check_pair(rules.faces(pair)), _Where("pair", j, in_pair=True), "bad_pair")


def _refuse(refused: str | None, where: _Where, reason: str) -> None:
    """Raise the refusal of a whole meld (or pair), if the rules refused it: theirs
    (a `Refusal` with its reason and params), or ``reason``."""
    if refused:
        more = getattr(refused, "params", {})
        raise where.refusal(refused, getattr(refused, "reason", reason), more=more)
