"""A table as compact bytes (one DynamoDB attribute) and back: ``decode(encode(t)) == t``.

Formats (the first byte): this codec reads format N (``FORMAT``) and N−1 and writes N, or
N−1 when asked (``encode(t, fmt=...)``: the first deploy of a new format writes the old one
until no function of the release before is left, docs/DEPLOY.md "State that migrates").
Reading N−1 is its upgrade function (``upgrade_1``) followed by N's decoding; the stored
items of N−1 kept in tests/fixtures/ are decoded and played to the end by the tests.

Format 2 (now): the byte 0x02, then zlib-compressed compact JSON: the 23 core fields of
``Table`` positionally, then one object of the later fields by id (``"0"`` hints ...
``"14"`` salt: the index in ``LATER_FIELDS``, never reused), those at their defaults left
out: a field added later is one more id, and an item pays only for what differs.
Format 1 (before): the byte 0x01, then the same JSON with the later fields positionally.

Within a format, every
field of ``Table``, ``Seat``, ``Occupant`` and ``HandResult`` is listed explicitly below
(a test fails when a field is added without being listed here). Fields added later sit at
the end of their array, so an item written before them still decodes (with the defaults).

Compact forms (each used only when it decodes back to exactly the same value, else the
plain value is stored):
- a hand result's ``left`` is one integer: tile t's base-(seats+1) digit is 0 when t is in
  no hand, s+1 when seat s held it (≈31 bytes for any 4-seat hand, however full the racks);
  its ``penalties`` are then left out when they follow from ``left`` (−50 for the finisher);
- the ``recent`` events share one ``at`` and consecutive ``seq`` numbers ending at
  ``Table.seq``; a lay's series (and new pairs), a handEnd's results and a gameEnd's points
  are left out when they are the table's own.
"""

from __future__ import annotations

import functools
import json
import zlib
from typing import Any

from .effects import placed_json
from .state import DEFAULT_BREAK_SECONDS, Event, Face, HandResult, Occupant, Placed, Seat, Table
from .tiles import TILE_COUNT, hand_value, tiles_for

FORMAT = 2  # what encode writes; decode reads it and FORMAT - 1 (through ``upgrade_1``)
CORE = 23  # the fields every format stores by position (table_id ... result)
FINISH_PENALTY = -50  # as in hand.py (not imported: hand imports far more than the codec)

TABLE_FIELDS = (
    "table_id", "game", "seed", "manager", "hands", "partners", "turn_seconds",
    "grace_seconds", "wait_seconds", "status", "created_at", "seats", "pile", "series",
    "pairs", "hand_number", "first_seat", "turn_seat", "laid", "passes", "deadline",
    "hand_results", "result", "hints", "private", "bot_seconds", "practice", "held",
    "former", "paid", "seq", "recent", "rated", "break_seconds", "pace", "break_until",
    "ready", "salt",
)  # fmt: skip
SEAT_FIELDS = (
    "occupant", "original", "original_fate", "hand", "penalty", "connected", "timeouts",
    "disconnected_at", "vacant_since", "hints_used", "hint_shown", "hint_mark",
)  # fmt: skip
OCCUPANT_FIELDS = ("player_id", "name", "bot", "rating", "level")
HAND_RESULT_FIELDS = ("hand", "finisher", "penalties", "left")


def _occupant(o: Occupant | None) -> list[Any] | None:
    if o is None:
        return None
    out: list[Any] = [o.player_id, o.name, o.bot, o.rating]
    if o.level is not None:
        out.append(o.level)
    return out


def _placed(p: Placed) -> Any:
    if p.face is None:
        return p.id
    return [p.id, list(p.face) if isinstance(p.face, tuple) else p.face]


# --- hand results ---------------------------------------------------------------------------


def _left_number(left: dict[int, list[int]], seats: int) -> int | None:
    """``left`` as one integer, or None when it is not in the canonical form (every seat
    0..seats-1 in order, sorted distinct tile ids, no tile in two hands)."""
    if list(left) != list(range(seats)) or seats > 9:
        return None
    if not all(set(map(type, ids)) <= {int} for ids in left.values()):
        return None  # (bools too: True would hash as 1 in the cache)
    return _number_of(tuple(map(tuple, left.values())))


@functools.lru_cache(maxsize=512)
def _number_of(racks: tuple[tuple[int, ...], ...]) -> int | None:
    """The integer of canonical racks (cached: a past hand's racks never change, and every
    write of the table encodes them again)."""
    seats = len(racks)
    digits = ["0"] * TILE_COUNT
    count = 0
    for seat, rack in enumerate(racks):
        ids = list(rack)
        if ids != sorted(set(ids)):
            return None
        if ids and not (ids[0] >= 0 and ids[-1] < TILE_COUNT):
            return None
        mark = str(seat + 1)
        for t in ids:
            digits[t] = mark
        count += len(ids)
    if digits.count("0") != TILE_COUNT - count:  # a tile in two hands
        return None
    return int("".join(reversed(digits)), seats + 1)


def _left_from_number(number: int, seats: int) -> dict[int, list[int]]:
    return {s: list(ids) for s, ids in enumerate(_racks_of(number, seats))}


@functools.lru_cache(maxsize=512)
def _racks_of(number: int, seats: int) -> tuple[tuple[int, ...], ...]:
    base = seats + 1
    chunk = 20  # digits per machine-sized piece
    big = base**chunk
    digits: list[int] = []
    while len(digits) < TILE_COUNT:
        number, piece = divmod(number, big)
        for _ in range(chunk):
            piece, digit = divmod(piece, base)
            digits.append(digit)
    left: list[list[int]] = [[] for _ in range(seats)]
    for t in range(TILE_COUNT):
        if digits[t]:
            left[digits[t] - 1].append(t)
    return tuple(map(tuple, left))


_VALUES: dict[str, list[int]] = {}


def _penalties_of(game: str, finisher: int | None, left: dict[int, list[int]]) -> list[int]:
    values = _VALUES.get(game)
    if values is None:
        values = _VALUES[game] = [hand_value(t) for t in tiles_for(game)]
    return [
        FINISH_PENALTY if s == finisher else sum(map(values.__getitem__, ids))
        for s, ids in left.items()
    ]


def _racks(seats: list[Seat]) -> dict[int, list[int]]:
    return {i: sorted(s.hand) for i, s in enumerate(seats)}


def _result(table: Table, r: HandResult, racks: dict[int, list[int]] | None) -> list[Any]:
    seats = len(table.seats)
    number: int | str | None = _left_number(r.left, seats)
    if number is None:
        return [r.hand, r.finisher, r.penalties, [[s, ids] for s, ids in r.left.items()]]
    if r.left == racks:  # a finished game's last hand: the racks still stand
        number = "="
    derived = _penalties_of(table.game, r.finisher, r.left)
    return [r.hand, r.finisher, None if derived == r.penalties else r.penalties, number]


def _decode_result(game: str, seats: list[Seat], v: list[Any]) -> HandResult:
    hand, finisher, penalties = v[0], v[1], v[2]
    raw = v[3] if len(v) > 3 else []
    if isinstance(raw, int | str):
        left = _racks(seats) if raw == "=" else _left_from_number(int(raw), len(seats))
        if penalties is None:
            penalties = _penalties_of(game, finisher, left)
    else:
        left = {int(s): ids for s, ids in raw}
    return HandResult(hand, finisher, penalties, left)


# --- the latest change's events ----------------------------------------------------------


def _series_json(table: Table) -> list[list[dict[str, Any]]]:
    return [[placed_json(p) for p in m] for m in table.series]


def _hand_end_fields(table: Table, hand: Any) -> dict[str, Any] | None:
    for r in table.hand_results:
        if r.hand == hand:
            return {
                "finisher": r.finisher,
                "penalties": list(r.penalties),
                "left": {str(s): list(ids) for s, ids in r.left.items()},
            }
    return None


def _game_end_fields(table: Table) -> dict[str, Any] | None:
    if table.result is None:
        return None
    return {"penalties": table.result.get("penalties"), "points": table.result.get("points")}


def _expand(table: Table, event: dict[str, Any]) -> dict[str, Any]:
    """An event stored without what the table itself holds, made whole again."""
    out = dict(event)
    if out.pop("S", None):
        out["series"] = _series_json(table)
    count = out.pop("P", None)
    if count:
        out["pairs"] = [[placed_json(p) for p in m] for m in table.pairs[-count:]]
    if out.pop("H", None):
        out.update(_hand_end_fields(table, out.get("hand")) or {})
    if out.pop("G", None):
        out.update(_game_end_fields(table) or {})
    return out


def _shrink(table: Table, event: dict[str, Any]) -> dict[str, Any]:
    """``event`` without what ``_expand`` can take from the table (when it can)."""
    out = dict(event)
    kind = out.get("type")
    if kind == "lay":
        if "series" in out and out["series"] == _series_json(table):
            del out["series"]
            out["S"] = 1
        pairs = out.get("pairs")
        if (
            isinstance(pairs, list)
            and 0 < len(pairs) <= len(table.pairs)
            and pairs == [[placed_json(p) for p in m] for m in table.pairs[-len(pairs) :]]
        ):
            del out["pairs"]
            out["P"] = len(pairs)
    elif kind == "handEnd":
        fields = _hand_end_fields(table, out.get("hand"))
        if fields is not None and all(out.get(k, object()) == v for k, v in fields.items()):
            for key in fields:
                del out[key]
            out["H"] = 1
    elif kind == "gameEnd":
        fields = _game_end_fields(table)
        if fields is not None and all(out.get(k, object()) == v for k, v in fields.items()):
            for key in fields:
                del out[key]
            out["G"] = 1
    return out if _expand(table, out) == event else event


def _recent(table: Table) -> Any:
    """The latest change's events: [at, event...] (seq and at left out) when they share
    one ``at`` and end at ``table.seq``; else {"raw": [...]}."""
    events = table.recent
    if not events:
        return None
    first = table.seq - len(events) + 1
    at = events[0].get("at")
    if all(
        isinstance(e, dict) and e.get("seq") == first + i and e.get("at") == at and
        isinstance(at, int | float) and not isinstance(at, bool) and
        list(e)[:2] == ["seq", "at"]
        for i, e in enumerate(events)
    ):  # fmt: skip
        stripped = [{k: v for k, v in e.items() if k not in ("seq", "at")} for e in events]
        compact = [at, *(_shrink(table, e) for e in stripped)]
        if _decode_recent(table, compact) == events:
            return compact
    return {"raw": events}


def _decode_recent(table: Table, value: Any) -> list[Event]:
    if value is None:
        return []
    if isinstance(value, dict):
        return list(value["raw"])
    at, *events = value
    first = table.seq - len(events) + 1
    return [{"seq": first + i, "at": at, **_expand(table, e)} for i, e in enumerate(events)]


# --- the table --------------------------------------------------------------------------


def encode(table: Table, fmt: int = FORMAT) -> bytes:
    """The table as compact bytes, in format ``fmt`` (``FORMAT`` or the one before)."""
    racks = _racks(table.seats) if table.status == "finished" else None
    seats = [
        [
            _occupant(s.occupant), _occupant(s.original), s.original_fate, s.hand,
            s.penalty, s.connected, s.timeouts, s.disconnected_at, s.vacant_since,
            *_hint_fields(s),
        ]
        for s in table.seats
    ]  # fmt: skip
    doc = [
        table.table_id, table.game, table.seed, table.manager, table.hands, table.partners,
        table.turn_seconds, table.grace_seconds, table.wait_seconds, table.status,
        table.created_at, seats, table.pile,
        [[_placed(p) for p in meld] for meld in table.series],
        [[_placed(p) for p in pair] for pair in table.pairs],
        table.hand_number, table.first_seat, table.turn_seat, table.laid, table.passes,
        table.deadline, [_result(table, r, racks) for r in table.hand_results],
        table.result,
    ]  # fmt: skip
    later = [
        table.hints, table.private, table.bot_seconds, table.practice, table.held,
        table.former, table.paid, table.seq, _recent(table), *_later_fields(table),
    ]  # fmt: skip
    if fmt == FORMAT:
        doc.append(_named(later))
    elif fmt == FORMAT - 1:
        doc += later
    else:
        raise ValueError(f"cannot write table format {fmt}")
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return bytes([fmt]) + zlib.compress(text.encode("utf-8", "surrogatepass"), 9)


LATER_FIELDS = TABLE_FIELDS[CORE:]
_LATER_DEFAULTS: dict[str, Any] = {
    "hints": True, "private": False, "bot_seconds": 1, "practice": False, "held": False,
    "former": {}, "paid": [], "seq": 0, "recent": None, "rated": True,
    "break_seconds": DEFAULT_BREAK_SECONDS, "pace": "live", "break_until": None,
    "ready": [], "salt": "",
}  # fmt: skip


def _named(later: list[Any]) -> dict[str, Any]:
    """The later fields by id, those at their default left out (same type and value:
    1 is not True)."""
    out = {}
    for i, (name, value) in enumerate(zip(LATER_FIELDS, later, strict=False)):
        default = _LATER_DEFAULTS[name]
        if not (type(value) is type(default) and value == default):
            out[str(i)] = value
    return out


def upgrade_1(doc: list[Any]) -> list[Any]:
    """A format-1 document as format 2: the later fields, positional in format 1 (trailing
    ones missing in items written before they existed), become one object by id."""
    core, later = doc[:CORE], doc[CORE:]
    return [*core, {str(i): v for i, v in enumerate(later[: len(LATER_FIELDS)]) if v is not None}]


def _hint_fields(seat: Seat) -> list[int]:
    """A seat's hint counters, left out while all are 0 (most seats, most of the time)."""
    fields = [seat.hints_used, seat.hint_shown, seat.hint_mark]
    return fields if any(fields) else []


def _later_fields(table: Table) -> list[Any]:
    """The fields added after ``recent``, trailing defaults left out (an item of a table
    that uses none of them is as small as before)."""
    fields = [
        table.rated,
        table.break_seconds,
        table.pace,
        table.break_until,
        table.ready,
        table.salt,
    ]
    defaults = [True, DEFAULT_BREAK_SECONDS, "live", None, [], ""]
    while fields and fields[-1] == defaults[len(fields) - 1]:
        fields.pop()
    return fields


def _at(values: list[Any], index: int, default: Any) -> Any:
    return values[index] if len(values) > index else default


def _decode_occupant(v: list[Any] | None) -> Occupant | None:
    if v is None:
        return None
    return Occupant(v[0], v[1], v[2], v[3], v[4] if len(v) > 4 else None)


def _decode_placed(v: Any) -> Placed:
    if isinstance(v, int):
        return Placed(v)
    face: Face = tuple(v[1]) if isinstance(v[1], list) else v[1]
    return Placed(v[0], face)


def decode(data: bytes) -> Table:
    """The table that ``encode`` turned into ``data``."""
    if not data or data[0] not in (FORMAT, FORMAT - 1):
        raise ValueError(f"unknown table format {data[:1]!r}")
    doc = json.loads(zlib.decompress(data[1:]).decode("utf-8", "surrogatepass"))
    if data[0] == FORMAT - 1:
        doc = upgrade_1(doc)
    (table_id, game, seed, manager, hands, partners, turn_seconds, grace_seconds,
     wait_seconds, status, created_at, seats, pile, series, pairs, hand_number, first_seat,
     turn_seat, laid, passes, deadline, hand_results, result) = doc[:CORE]  # fmt: skip
    named = doc[CORE] if len(doc) > CORE else {}
    hints, private, bot_seconds, practice, held, former, paid, seq, recent = (
        named.get(str(i)) for i in range(9)
    )
    rated, break_seconds, pace, break_until, ready, salt = (
        named.get(str(i)) for i in range(9, len(LATER_FIELDS))
    )
    chairs = [
        Seat(
            occupant=_decode_occupant(s[0]), original=_decode_occupant(s[1]),
            original_fate=s[2], hand=s[3], penalty=s[4], connected=s[5],
            timeouts=s[6], disconnected_at=s[7], vacant_since=s[8],
            hints_used=_at(s, 9, 0), hint_shown=_at(s, 10, 0), hint_mark=_at(s, 11, 0),
        )
        for s in seats
    ]  # fmt: skip
    table = Table(
        table_id=table_id, game=game, seed=seed, manager=manager, hands=hands,
        partners=partners, turn_seconds=turn_seconds, grace_seconds=grace_seconds,
        wait_seconds=wait_seconds, status=status, created_at=created_at,
        seats=chairs,
        pile=pile,
        series=[[_decode_placed(p) for p in meld] for meld in series],
        pairs=[[_decode_placed(p) for p in pair] for pair in pairs],
        hand_number=hand_number, first_seat=first_seat, turn_seat=turn_seat, laid=laid,
        passes=passes, deadline=deadline,
        hand_results=[_decode_result(game, chairs, r) for r in hand_results],
        result=result,
        hints=True if hints is None else hints,
        private=bool(private),
        bot_seconds=1 if bot_seconds is None else bot_seconds,
        practice=bool(practice), held=bool(held),
        former=former or {}, paid=paid or [], seq=seq or 0,
        rated=True if rated is None else rated,
        break_seconds=DEFAULT_BREAK_SECONDS if break_seconds is None else break_seconds,
        pace=pace or "live", break_until=break_until, ready=ready or [], salt=salt or "",
    )  # fmt: skip
    table.recent = _decode_recent(table, recent)
    return table
