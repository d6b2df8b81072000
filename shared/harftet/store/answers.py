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

Formats (``dict`` on the item names the one; every release reads all of them):

- none: the answer's JSON deflated plainly (the first kept answers);
- 1: deflated with dictionary 1 (every tile's JSON);
- 2 (issue 40: a kept answer in one write unit, 1 KB, where format 1 took 1.76 on the
  reference game): deflated with dictionary 2 (dictionary 1 after a table view's keys and
  both games' rule limits), and the answer's ``handResults`` — the hands played before, which
  grow to most of a late answer — given as ``{"kept": n, "hash": h}``: the table's first ``n``
  hand results, which it keeps for the rest of its life and never changes (only appended), and
  the hash of their JSON, checked when a retry fills them back in from the table (`filled`).

A release that writes format 2 is deployed first with ``write_format=1`` (the template's
``AnswerWriteFormat``): the release before reads formats none and 1 only, and a canary runs
both side by side on the same players (docs/DEPLOY.md "State that migrates").
"""

from __future__ import annotations

import functools
import hashlib
import json
import zlib
from collections.abc import Callable
from typing import Any

ANSWER = "answer#"
ANSWER_KEPT_SECONDS = 24 * 3600
# The answer's bytes are deflated with a preset dictionary: every tile of both games in the
# views' JSON, the objects an answer repeats most (issue 40: a kept answer of a 22-tile hand was
# 2-3 KB deflated, 2-3 write units; with it, about a fifth less). ``dict`` names the dictionary
# on the item; an item without it was deflated plainly. A dictionary, once written, never
# changes (answers are read back for 24 h): a new one takes the next number.
DICTIONARY = 1
FORMAT = 2  # the format written unless told otherwise (the newest)
FORMATS = (1, 2)  # the formats a store may be told to write

# Dictionary 2's own part, before dictionary 1: a seated player's table view with its keys in
# the order harftet.engine.view writes them, a seat, and both games' rule limits. A literal (not
# built from the view code) so that it never changes with that code:
# tests/store/test_answers_dictionary.py pins its hash.
_VIEW_WORDS = (
    '{"tableId":"","game":"harftet","version":0,"status":"playing","manager":"","hands":11,'
    '"handNumber":1,"partners":false,"turnSeconds":45,"createdAt":0.0,"seats":[{"seat":0,'
    '"playerId":"","name":"","connected":true,"bot":false,"vacant":false,"tiles":14,'
    '"penalty":0},{"seat":1,"playerId":"","name":"","connected":false,"bot":true,'
    '"vacant":false,"tiles":14,"penalty":0}],"turn":{"seat":1,"laid":false,"deadline":0.0},'
    '"pile":50,"series":[],"pairs":[],"handResults":{"kept":1,"hash":""},"result":null,'
    '"hints":3,"private":false,"botSeconds":1,"practice":false,"limits":{"maxSeries":26,'
    '"handLimit":22,"dealSize":14,"minSeries":3,"pairTiles":2,"pairsOpenAt":26,"colors":["red",'
    '"yellow","blue","black"],"numbers":[1,13],"maxSet":4},"limits":{"maxSeries":26,'
    '"handLimit":22,"dealSize":14,"minSeries":3,"pairTiles":2,"pairsOpenAt":26,"colors":["red",'
    '"yellow","blue","black"],"alphabet":"ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ"},"rated":true,'
    '"breakSeconds":20,"graceSeconds":120,"waitSeconds":120,"pace":"live","hintsLeft":3,'
    '"dealProof":"","last":{"seq":0,"at":0.0,"hand":1,"seat":0,"type":"lay","version":0},'
    '"seat":0,"hand":[{"id":0,"joker":true,"as":null}],"penalties":[0,0,0,0],"points":[0,0],'
    '"ratings":{}}'
)


@functools.cache
def dictionary(number: int = DICTIONARY) -> bytes:
    """Preset dictionary ``number`` (1: each tile of Kastet and Harftet as ``tile_json`` gives
    it in compact JSON, comma-separated; 2: `_VIEW_WORDS` then dictionary 1;
    tests/store/test_answers_dictionary.py pins their hashes)."""
    if number == 2:
        return _VIEW_WORDS.encode() + dictionary(1)
    if number != 1:
        raise ValueError(f"no answer dictionary {number}")
    from harftet.engine.tiles import tile_json, tiles_for

    tiles = [tile_json(t) for game in ("kastet", "harftet") for t in tiles_for(game)]
    return ",".join(
        json.dumps(t, ensure_ascii=False, separators=(",", ":")) for t in tiles
    ).encode()


def pack(body: str, number: int = DICTIONARY) -> bytes:
    """``body`` deflated with dictionary ``number``."""
    deflate = zlib.compressobj(9, zdict=dictionary(number))
    return deflate.compress(body.encode()) + deflate.flush()


def unpack(data: bytes, number: int | None) -> str:
    """A kept answer's text: deflated with dictionary ``number``, or plainly (None)."""
    if number is None:
        return zlib.decompress(data).decode()
    inflate = zlib.decompressobj(zdict=dictionary(number))
    return (inflate.decompress(data) + inflate.flush()).decode()


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def hands_hash(hand_results: list[Any]) -> str:
    """The hash format 2 keeps of the hand results it leaves to the table."""
    return hashlib.blake2b(_compact(hand_results).encode(), digest_size=8).hexdigest()


def encode(body: str, write_format: int) -> tuple[bytes, int]:
    """``body`` (an answer's compact JSON) as ``write_format`` keeps it: the bytes and the
    dictionary's number, which names the format on the item."""
    if write_format == 1:
        return pack(body, 1), 1
    answer = json.loads(body)
    played = answer.get("handResults")
    if isinstance(played, list):
        answer["handResults"] = {"kept": len(played), "hash": hands_hash(played)}
    return pack(_compact(answer), 2), 2


def filled(kept: str, hand_results: Callable[[], list[Any]]) -> dict[str, Any] | None:
    """A kept answer as first given: format 2's ``handResults`` filled back in from
    ``hand_results()`` (the table's now, as the caller's view gives them). None when they do not
    hash as kept (the view's code changed since, or the table is not the one): the answer is not
    known then, as if none was kept."""
    answer: dict[str, Any] = json.loads(kept)
    played = answer.get("handResults")
    if not isinstance(played, dict):
        return answer
    now = hand_results()[: int(played["kept"])]
    if len(now) != played["kept"] or hands_hash(now) != played["hash"]:
        return None
    answer["handResults"] = now  # in its place: the answer's keys keep their order
    return answer


def answer_key(table_id: str, move_id: str) -> str:
    return f"{ANSWER}{table_id}#{move_id}"


class AnswerStore:
    """Move answers in the mail table (a boto3 low-level DynamoDB client); ``write_format``:
    the format written (`FORMATS`; every one is read)."""

    def __init__(self, client: Any, table_name: str, write_format: int = FORMAT) -> None:
        if write_format not in FORMATS:
            raise ValueError(f"no kept answer format {write_format}")
        self._client = client
        self._name = table_name
        self.write_format = write_format

    def put(self, player_id: str, table_id: str, move_id: str, body: str, now: float) -> None:
        """Keep ``body`` as the answer to the player's ``move_id`` at ``table_id``."""
        data, number = encode(body, self.write_format)
        self._client.put_item(
            TableName=self._name,
            Item={
                "playerId": {"S": player_id},
                "sk": {"S": answer_key(table_id, move_id)},
                "body": {"B": data},
                "dict": {"N": str(number)},
                "expiresAt": {"N": str(int(now + ANSWER_KEPT_SECONDS))},
            },
        )

    def get(self, player_id: str, table_id: str, move_id: str, now: float) -> str | None:
        """The kept answer as stored (None: none, or older than 24 h), read consistently;
        `filled` makes it the first answer."""
        item = self._client.get_item(
            TableName=self._name,
            Key={"playerId": {"S": player_id}, "sk": {"S": answer_key(table_id, move_id)}},
            ConsistentRead=True,
        ).get("Item")
        if item is None or int(item["expiresAt"]["N"]) <= now:
            return None
        number = item.get("dict", {}).get("N")
        return unpack(item["body"]["B"], None if number is None else int(number))
