"""A profile's history in a compact form: the last 50 rating changes and the last 20 finished
games, as one binary attribute (``h``) of ``profile#<playerId>``.

The profile is rewritten whole at every game end in the table's own transaction, so its size
is its write cost (2 WCU per started KB). Each finished game is also a rating change (its
points), so one list of entries holds both: an entry is kept while it is among the last
`RATINGS_KEPT` entries or among the last `GAMES_KEPT` game entries (at most 70 entries; 50
in practice). An entry is 14 bytes for a table id of 16 hex digits (the store's own), where
the two string lists it replaces took about 40 bytes per change and 40 per game.

Layout: a version byte (1), then per entry a flags byte (harftet, a game, won, the table id
kind), the time (4 bytes, big-endian seconds), the delta (a zigzag varint) and the table id
(8 bytes of hex, or a length byte and UTF-8, or nothing for a leave).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from .profiles import GAMES_KEPT, RATINGS_KEPT

VERSION = 1
HARFTET, GAME, WON, HEX_ID, TEXT_ID = 1, 2, 4, 8, 16
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True, slots=True)
class Entry:
    """One rating change; ``table_id`` and ``won`` only for a finished game's."""

    at: int
    delta: int
    game: str
    table_id: str = ""
    won: bool = False

    @property
    def is_game(self) -> bool:
        return bool(self.table_id)


def _varint(n: int) -> bytes:
    z = (n << 1) ^ (n >> 63)  # zigzag: small negatives stay small
    out = bytearray()
    while True:
        byte, z = z & 0x7F, z >> 7
        out.append(byte | (0x80 if z else 0))
        if not z:
            return bytes(out)


def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    z = shift = 0
    while True:
        byte = data[i]
        i += 1
        z |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return (z >> 1) ^ -(z & 1), i


def pack(entries: list[Entry]) -> bytes:
    out = bytearray([VERSION])
    for e in entries:
        flags = (HARFTET if e.game == "harftet" else 0) | (WON if e.won else 0)
        tail = b""
        if e.table_id:
            flags |= GAME
            if len(e.table_id) == 16 and set(e.table_id) <= _HEX:
                flags |= HEX_ID
                tail = bytes.fromhex(e.table_id)
            else:
                raw = e.table_id.encode()[:255]
                flags |= TEXT_ID
                tail = bytes([len(raw)]) + raw
        out += bytes([flags]) + struct.pack(">I", e.at) + _varint(e.delta) + tail
    return bytes(out)


def unpack(data: bytes) -> list[Entry]:
    if not data or data[0] != VERSION:
        return []
    entries, i = [], 1
    while i < len(data):
        flags = data[i]
        (at,) = struct.unpack_from(">I", data, i + 1)
        delta, i = _read_varint(data, i + 5)
        table_id = ""
        if flags & HEX_ID:
            table_id, i = data[i : i + 8].hex(), i + 8
        elif flags & TEXT_ID:
            n = data[i]
            table_id, i = data[i + 1 : i + 1 + n].decode(), i + 1 + n
        game = "harftet" if flags & HARFTET else "kastet"
        entries.append(Entry(at, delta, game, table_id, bool(flags & WON)))
    return entries


def trimmed(entries: list[Entry]) -> list[Entry]:
    """The entries still kept: among the last RATINGS_KEPT, or the last GAMES_KEPT games."""
    games = [i for i, e in enumerate(entries) if e.is_game][-GAMES_KEPT:]
    keep = set(range(max(0, len(entries) - RATINGS_KEPT), len(entries))) | set(games)
    return [e for i, e in enumerate(entries) if i in keep]


def of_profile(profile: dict[str, Any] | None) -> list[Entry]:
    """The history of a stored profile (also the earlier two string lists, ``ratings`` and
    ``games``, which a profile keeps until its next game end rewrites it)."""
    profile = profile or {}
    if profile.get("h") is not None:
        return unpack(bytes(profile["h"]))
    won: dict[str, tuple[int, int, str, bool]] = {}
    for text in profile.get("games") or []:
        g_id, g_game, g_at, g_points, g_won = str(text).split(":", 4)
        won[g_id] = (int(g_at), int(g_points), g_game, g_won == "1")
    entries = []
    for text in profile.get("ratings") or []:
        at, delta, game, table_id = str(text).split(":", 3)
        known = won.pop(table_id, None) if table_id else None
        entries.append(Entry(int(at), int(delta), game, table_id, bool(known and known[3])))
    for tid, (when, points, kind, flag) in won.items():  # older than the 50 changes
        entries.append(Entry(when, points, kind, tid, flag))
    entries.sort(key=lambda e: e.at)
    return entries


LEGACY = ("ratings", "games")  # removed from a profile when it is rewritten
