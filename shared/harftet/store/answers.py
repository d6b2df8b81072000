"""The first answer of each applied move (API.md v4 "Retries": a move or ready sent again with
the same ``moveId`` by the same player within 24 h gets the same status and body as its first
answer), in the mail table's partition of the player: ``sk = "answer#<tableId>#<moveId>"``,
``body`` (the answer's JSON deflated with a preset dictionary, ``dict`` naming it) and ``expiresAt``
(TTL, 24 h). In the player's own partition, a deletion takes them with everything else.

Why not powertools' idempotency utility: it writes an in-progress record before the move and
completes it after (two writes more per move, and a lock a retry must wait out), while the
table item already decides exactly once whether a move was applied (its ``moves``, in the
same conditional write as the move). What is missing is only the first answer's bytes: one
put after the commit. A retry that finds no record (the first request died between its
commit and this put) and a table that moved on since gets the table as it is now.
"""

from __future__ import annotations

import functools
import json
import zlib
from typing import Any

ANSWER = "answer#"
ANSWER_KEPT_SECONDS = 24 * 3600
# The answer's bytes are deflated with a preset dictionary: every tile of both games in the
# views' JSON, the objects an answer repeats most (issue 40: a kept answer of a 22-tile hand was
# 2-3 KB deflated, 2-3 write units; with it, about a fifth less). ``dict`` names the dictionary
# on the item; an item without it was deflated plainly. A dictionary, once written, never
# changes (answers are read back for 24 h): a new one takes the next number.
DICTIONARY = 1


@functools.cache
def dictionary(number: int = DICTIONARY) -> bytes:
    """Preset dictionary ``number`` (1: each tile of Kastet and Harftet as ``tile_json`` gives
    it in compact JSON, comma-separated; tests/store/test_answers_dictionary.py pins its hash)."""
    if number != 1:
        raise ValueError(f"no answer dictionary {number}")
    from harftet.engine.tiles import tile_json, tiles_for

    tiles = [tile_json(t) for game in ("kastet", "harftet") for t in tiles_for(game)]
    return ",".join(
        json.dumps(t, ensure_ascii=False, separators=(",", ":")) for t in tiles
    ).encode()


def pack(body: str) -> bytes:
    """``body`` deflated with the current dictionary."""
    deflate = zlib.compressobj(9, zdict=dictionary(DICTIONARY))
    return deflate.compress(body.encode()) + deflate.flush()


def unpack(data: bytes, number: int | None) -> str:
    """A kept answer's text: deflated with dictionary ``number``, or plainly (None)."""
    if number is None:
        return zlib.decompress(data).decode()
    inflate = zlib.decompressobj(zdict=dictionary(number))
    return (inflate.decompress(data) + inflate.flush()).decode()


def answer_key(table_id: str, move_id: str) -> str:
    return f"{ANSWER}{table_id}#{move_id}"


class AnswerStore:
    """Move answers in the mail table (a boto3 low-level DynamoDB client)."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._name = table_name

    def put(self, player_id: str, table_id: str, move_id: str, body: str, now: float) -> None:
        """Keep ``body`` as the answer to the player's ``move_id`` at ``table_id``."""
        self._client.put_item(
            TableName=self._name,
            Item={
                "playerId": {"S": player_id},
                "sk": {"S": answer_key(table_id, move_id)},
                "body": {"B": pack(body)},
                "dict": {"N": str(DICTIONARY)},
                "expiresAt": {"N": str(int(now + ANSWER_KEPT_SECONDS))},
            },
        )

    def get(self, player_id: str, table_id: str, move_id: str, now: float) -> str | None:
        """The kept answer (None: none, or older than 24 h), read consistently."""
        item = self._client.get_item(
            TableName=self._name,
            Key={"playerId": {"S": player_id}, "sk": {"S": answer_key(table_id, move_id)}},
            ConsistentRead=True,
        ).get("Item")
        if item is None or int(item["expiresAt"]["N"]) <= now:
            return None
        number = item.get("dict", {}).get("N")
        return unpack(item["body"]["B"], None if number is None else int(number))
