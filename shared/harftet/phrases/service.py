"""Phrases at the table (RULES §7): a fixed set, sent by id, never free text.

``POST /tables/{id}/phrases`` ``{"phrase": "<id>"}``: a seated player only (spectators
cannot), at most one every `GAP_SECONDS` and `PER_HAND` per hand per player (429
``rate_limited`` with Retry-After beyond). The table's connections get ``{"type": "phrase",
"seat", "phrase"}``; each client may mute a seat for itself. The limits are rules of the game,
not an operator setting: they hold whatever LIMITS says, counted in one conditional write.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harftet.bounds import PHRASE_GAP_SECONDS, PHRASES_PER_HAND
from harftet.engine.errors import NotSeatedError, WrongStatusError
from harftet.errors import BadRequestError, RateLimitedError
from harftet.identity import Caller
from harftet.push import Sender
from harftet.store.ports import ConnectionStorePort, LimitStorePort, TableStorePort
from harftet.texts import catalogue as texts

GAP_SECONDS = PHRASE_GAP_SECONDS
PER_HAND = PHRASES_PER_HAND
KEPT_SECONDS = 6 * 3600  # the counter of a hand outlives any hand

# The set, in its order: stable ids, each said by the catalogue's ``phrase.<id>``.
PHRASES: tuple[str, ...] = (
    "selam", "iyi-oyunlar", "tebrikler", "hadi-ama", "bir-dakika", "tesekkurler",
    "sansina-kus", "guzel-hamle", "pardon", "hayirli-olsun", "ellerine-saglik", "acele-etme",
    "cabuk-ol", "bir-daha", "gorusuruz", "wow", "gulmek", "alkis", "uzgun", "kalp",
)  # fmt: skip


def catalogue() -> dict[str, Any]:
    """``{"phrases": [{"id", "tr", "en"}]}`` — the whole set, in a stable order."""
    tr, en = texts("tr"), texts("en")
    return {
        "phrases": [{"id": k, "tr": tr[f"phrase.{k}"], "en": en[f"phrase.{k}"]} for k in PHRASES]
    }


def _nobody(player_id: str) -> set[str]:
    return set()


@dataclass(eq=False)
class Phrases:
    """Sends a phrase from a seated player to everyone connected to the table; nobody who
    blocked its sender (``blocked_by``) hears it."""

    tables: TableStorePort
    connections: ConnectionStorePort
    counter: LimitStorePort
    sender: Sender | None
    clock: Callable[[], float]
    blocked_by: Callable[[str], set[str]] = _nobody

    def send(self, caller: Caller, table_id: str, phrase: str) -> dict[str, Any]:
        if phrase not in PHRASES:
            raise BadRequestError(
                f"phrase must be one of the set's ids (GET /phrases), not '{phrase[:32]}'",
                field="phrase",
            )
        stored = self.tables.get(table_id)
        table = stored.table
        seat = table.seat_of(caller.player_id)
        if seat is None:
            raise NotSeatedError("you do not sit at this table: phrases are for players")
        if table.status == "finished":
            raise WrongStatusError("the game is over: phrases are for the game")
        self._count(f"phrase#{table_id}#{table.hand_number}#{caller.player_id}", self.clock())
        message = {"type": "phrase", "seat": seat, "phrase": phrase}
        send = self.sender
        if send is not None:
            deaf = self.blocked_by(caller.player_id)
            for connection in self.connections.for_table(table_id):
                if connection.get("playerId") in deaf:
                    continue
                try:
                    send(str(connection["connectionId"]), message)
                except Exception:  # a gone connection misses a phrase: nothing more
                    continue
        return {"seat": seat, "phrase": phrase}

    def _count(self, key: str, now: float) -> None:
        """One phrase against ``key`` (a player's hand at a table): refused (nothing counted)
        within GAP_SECONDS of the last one or past PER_HAND."""
        refused = self.counter.hit_spaced(key, PER_HAND, GAP_SECONDS, now, KEPT_SECONDS)
        if refused is None:
            return
        hits, last = refused
        if hits >= PER_HAND:
            raise RateLimitedError(f"phrase ({PER_HAND} a hand)", 60)
        raise RateLimitedError(
            f"phrase (one every {GAP_SECONDS} s)", max(1, math.ceil(last + GAP_SECONDS - now))
        )
