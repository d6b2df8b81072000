"""A table as compact bytes (one DynamoDB attribute) and back: ``decode(encode(t)) == t``.

Format 1: the byte 0x01, then zlib-compressed compact JSON of positional arrays. Every
field of ``Table``, ``Seat``, ``Occupant`` and ``HandResult`` is listed explicitly below
(a test fails when a field is added without being listed here).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from .state import Face, HandResult, Occupant, Placed, Seat, Table

FORMAT = 1

TABLE_FIELDS = (
    "table_id", "game", "seed", "manager", "hands", "partners", "turn_seconds",
    "grace_seconds", "wait_seconds", "status", "created_at", "seats", "pile", "series",
    "pairs", "hand_number", "first_seat", "turn_seat", "laid", "passes", "deadline",
    "hand_results", "result",
)  # fmt: skip
SEAT_FIELDS = (
    "occupant", "original", "original_fate", "hand", "penalty", "connected", "timeouts",
    "disconnected_at", "vacant_since",
)  # fmt: skip
OCCUPANT_FIELDS = ("player_id", "name", "bot", "rating")
HAND_RESULT_FIELDS = ("hand", "finisher", "penalties")


def _occupant(o: Occupant | None) -> list[Any] | None:
    return None if o is None else [o.player_id, o.name, o.bot, o.rating]


def _placed(p: Placed) -> Any:
    if p.face is None:
        return p.id
    return [p.id, list(p.face) if isinstance(p.face, tuple) else p.face]


def encode(table: Table) -> bytes:
    """The table as compact bytes."""
    seats = [
        [
            _occupant(s.occupant), _occupant(s.original), s.original_fate, s.hand,
            s.penalty, s.connected, s.timeouts, s.disconnected_at, s.vacant_since,
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
        table.deadline, [[r.hand, r.finisher, r.penalties] for r in table.hand_results],
        table.result,
    ]  # fmt: skip
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return bytes([FORMAT]) + zlib.compress(text.encode("utf-8", "surrogatepass"), 9)


def _decode_occupant(v: list[Any] | None) -> Occupant | None:
    return None if v is None else Occupant(v[0], v[1], v[2], v[3])


def _decode_placed(v: Any) -> Placed:
    if isinstance(v, int):
        return Placed(v)
    face: Face = tuple(v[1]) if isinstance(v[1], list) else v[1]
    return Placed(v[0], face)


def decode(data: bytes) -> Table:
    """The table that ``encode`` turned into ``data``."""
    if not data or data[0] != FORMAT:
        raise ValueError(f"unknown table format {data[:1]!r}")
    doc = json.loads(zlib.decompress(data[1:]).decode("utf-8", "surrogatepass"))
    (table_id, game, seed, manager, hands, partners, turn_seconds, grace_seconds,
     wait_seconds, status, created_at, seats, pile, series, pairs, hand_number, first_seat,
     turn_seat, laid, passes, deadline, hand_results, result) = doc  # fmt: skip
    return Table(
        table_id=table_id, game=game, seed=seed, manager=manager, hands=hands,
        partners=partners, turn_seconds=turn_seconds, grace_seconds=grace_seconds,
        wait_seconds=wait_seconds, status=status, created_at=created_at,
        seats=[
            Seat(
                occupant=_decode_occupant(s[0]), original=_decode_occupant(s[1]),
                original_fate=s[2], hand=s[3], penalty=s[4], connected=s[5],
                timeouts=s[6], disconnected_at=s[7], vacant_since=s[8],
            )
            for s in seats
        ],
        pile=pile,
        series=[[_decode_placed(p) for p in meld] for meld in series],
        pairs=[[_decode_placed(p) for p in pair] for pair in pairs],
        hand_number=hand_number, first_seat=first_seat, turn_seat=turn_seat, laid=laid,
        passes=passes, deadline=deadline,
        hand_results=[HandResult(r[0], r[1], r[2]) for r in hand_results],
        result=result,
    )  # fmt: skip
