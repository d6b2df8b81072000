"""Phrases at the table (RULES §7): a fixed set, sent by id, never free text.

``POST /tables/{id}/phrases`` ``{"phrase": "<id>"}``: a seated player only (spectators
cannot), at most one every `GAP_SECONDS` and `PER_HAND` per hand per player (429
``rate_limited`` with Retry-After beyond). The table's connections get ``{"type": "phrase",
"seat", "phrase"}``; each client may mute a seat for itself. The limits are rules of the game,
not an operator setting: they hold whatever LIMITS says, counted in one conditional write.
"""

from __future__ import annotations

import math
from typing import Any

from botocore.exceptions import ClientError

from harftet.bounds import PHRASE_GAP_SECONDS, PHRASES_PER_HAND
from harftet.engine.errors import NotSeatedError, WrongStatusError
from harftet.errors import NotFoundError, RateLimitedError
from harftet.identity import Caller
from harftet.store.limits import KEY_PREFIX

GAP_SECONDS = PHRASE_GAP_SECONDS
PER_HAND = PHRASES_PER_HAND
KEPT_SECONDS = 6 * 3600  # the counter of a hand outlives any hand

# id → (Turkish, English). Ids are stable: clients show their own text from them.
PHRASES: dict[str, tuple[str, str]] = {
    "selam": ("Selam", "Hello"),
    "iyi-oyunlar": ("İyi oyunlar", "Have a good game"),
    "tebrikler": ("Tebrikler", "Congratulations"),
    "hadi-ama": ("Hadi ama!", "Come on!"),
    "bir-dakika": ("Bir dakika", "One moment"),
    "tesekkurler": ("Teşekkürler", "Thank you"),
    "sansina-kus": ("Şansına küs…", "Tough luck…"),
    "guzel-hamle": ("Güzel hamle", "Nice move"),
    "pardon": ("Pardon", "Sorry"),
    "hayirli-olsun": ("Hayırlı olsun", "Well deserved"),
    "ellerine-saglik": ("Ellerine sağlık", "Well played"),
    "acele-etme": ("Acele etme", "Take your time"),
    "cabuk-ol": ("Biraz çabuk lütfen", "A bit quicker, please"),
    "bir-daha": ("Bir el daha?", "Another game?"),
    "gorusuruz": ("Görüşürüz", "See you"),
    "wow": ("😮", "😮"),
    "gulmek": ("😂", "😂"),
    "alkis": ("👏", "👏"),
    "uzgun": ("😢", "😢"),
    "kalp": ("❤️", "❤️"),
}


def catalogue() -> dict[str, Any]:
    """``{"phrases": [{"id", "tr", "en"}]}`` — the whole set, in a stable order."""
    return {"phrases": [{"id": k, "tr": tr, "en": en} for k, (tr, en) in PHRASES.items()]}


def _count(client: Any, table_name: str, key: str, now: float) -> None:
    """One phrase against ``key`` (a player's hand at a table): refused (nothing counted)
    within GAP_SECONDS of the last one or past PER_HAND."""
    try:
        client.update_item(
            TableName=table_name,
            Key={"connectionId": {"S": KEY_PREFIX + key}},
            UpdateExpression="ADD hits :one SET lastAt = :now, expiresAt = :exp",
            ConditionExpression="attribute_not_exists(hits) OR (hits < :most AND lastAt <= :gap)",
            ExpressionAttributeValues={
                ":one": {"N": "1"},
                ":now": {"N": repr(float(now))},
                ":gap": {"N": repr(float(now) - GAP_SECONDS)},
                ":most": {"N": str(PER_HAND)},
                ":exp": {"N": str(int(now) + KEPT_SECONDS)},
            },
            ReturnValuesOnConditionCheckFailure="ALL_OLD",
        )
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
            raise
        old: dict[str, Any] = dict(error.response.get("Item") or {})  # type: ignore[call-overload]
        hits = int(old.get("hits", {}).get("N", "0"))
        if hits >= PER_HAND:
            raise RateLimitedError(f"phrase ({PER_HAND} a hand)", 60) from error
        last = float(old.get("lastAt", {}).get("N", "0"))
        raise RateLimitedError(
            f"phrase (one every {GAP_SECONDS} s)", max(1, math.ceil(last + GAP_SECONDS - now))
        ) from error


class Phrases:
    """Sends a phrase from a seated player to everyone connected to the table."""

    def __init__(
        self,
        service: Any,
        client: Any,
        connections_table: str,
        blocked_by: Any = lambda player_id: set(),
    ) -> None:
        self.service = service
        self._client = client
        self._table = connections_table
        self._blocked_by = blocked_by  # who blocked a player: their phrases reach none of them

    def send(self, caller: Caller, table_id: str, phrase: str) -> dict[str, Any]:
        if phrase not in PHRASES:
            from harftet.errors import BadRequestError

            raise BadRequestError(
                f"phrase must be one of the set's ids (GET /phrases), not '{phrase[:32]}'"
            )
        stored = self.service.tables.get(table_id)
        table = stored.table
        seat = table.seat_of(caller.player_id)
        if seat is None:
            raise NotSeatedError("you do not sit at this table: phrases are for players")
        if table.status == "finished":
            raise WrongStatusError("the game is over: phrases are for the game")
        now = self.service.clock()
        _count(
            self._client,
            self._table,
            f"phrase#{table_id}#{table.hand_number}#{caller.player_id}",
            now,
        )
        message = {"type": "phrase", "seat": seat, "phrase": phrase}
        send = self.service.send
        if send is not None:
            deaf = self._blocked_by(caller.player_id)
            for connection in self.service.connections.for_table(table_id):
                if connection.get("playerId") in deaf:
                    continue
                try:
                    send(str(connection["connectionId"]), message)
                except Exception:  # a gone connection misses a phrase: nothing more
                    continue
        return {"seat": seat, "phrase": phrase}


__all__ = ["GAP_SECONDS", "PER_HAND", "PHRASES", "NotFoundError", "Phrases", "catalogue"]
