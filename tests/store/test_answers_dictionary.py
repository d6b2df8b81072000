"""Kept move answers (harftet.store.answers) deflated with a preset dictionary of every tile's
JSON (issue 40): a retry within 24 h still gets the first answer byte for byte, answers kept
before the dictionary (no ``dict`` on the item) still read, and a typical answer takes fewer
bytes than plain deflate (a write unit is 1 KB). Format 2 (dictionary 2, the hands played
before left to the table) keeps nearly every answer in one write unit, and a store told to
write format 1 (AnswerWriteFormat, the canary's first deploy) writes what the release before
reads."""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from pathlib import Path

import pytest
from testkit import with_mail

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ (as test_scale_model)

from bench.whole_games import versions
from harftet.api.views import stored_view
from harftet.store.answers import (
    AnswerStore,
    answer_key,
    dictionary,
    encode,
    filled,
    pack,
    unpack,
)
from harftet.store.table_items import StoredTable

NOW = 1_800_000_000.0
PINNED = "1d195f388d2bdd99"  # sha256 of dictionary 1: never to change
PINNED_2 = "bed16a43911550b3"  # and of dictionary 2
WRITE_UNIT = 1024


def _answers(game: str, hands: int = 1) -> list[str]:
    """The seat-0 player's view at every playing version of a medium-player game."""
    return [
        json.dumps(
            stored_view(StoredTable(t, n + 1), "p0"), ensure_ascii=False, separators=(",", ":")
        )
        for n, t in enumerate(versions(game, 4, hands, 7))
        if t.status == "playing"
    ]


def test_the_dictionaries_never_change_while_answers_written_with_them_may_be_read():
    assert hashlib.sha256(dictionary(1)).hexdigest()[:16] == PINNED
    assert hashlib.sha256(dictionary(2)).hexdigest()[:16] == PINNED_2
    with pytest.raises(ValueError):
        dictionary(3)


@pytest.mark.parametrize("game", ["harftet", "kastet"])
def test_every_answer_comes_back_byte_for_byte_in_fewer_bytes(game):
    bodies = _answers(game)
    assert all(unpack(pack(b), 1) == b for b in bodies)
    plain = sum(len(zlib.compress(b.encode(), 6)) for b in bodies)
    with_dictionary = sum(len(pack(b)) for b in bodies)
    assert with_dictionary < 0.85 * plain


def test_an_answer_kept_before_the_dictionary_still_reads(dynamodb):
    name = with_mail(dynamodb, {})["MailTable"]
    body = '{"tableId":"t1","hand":[{"id":3,"letter":"Ş"}]}'
    dynamodb.put_item(
        TableName=name,
        Item={
            "playerId": {"S": "p0"},
            "sk": {"S": answer_key("t1", "m1")},
            "body": {"B": zlib.compress(body.encode(), 6)},  # as answers were kept before
            "expiresAt": {"N": str(int(NOW + 3600))},
        },
    )
    store = AnswerStore(dynamodb, name)
    assert store.get("p0", "t1", "m1", NOW) == body
    store.put("p0", "t1", "m2", body, NOW)
    assert store.get("p0", "t1", "m2", NOW) == body


def _item_bytes(item: dict) -> int:
    """An item's size as DynamoDB bills a write: names and values (numbers taken as text)."""
    return sum(len(k) + len(next(iter(v.values()))) for k, v in item.items())


@pytest.mark.parametrize("game", ["harftet", "kastet"])
def test_format_two_gives_every_answer_back_and_keeps_nearly_all_in_one_write_unit(dynamodb, game):
    name = with_mail(dynamodb, {})["MailTable"]
    store = AnswerStore(dynamodb, name)  # format 2: the template's default
    bodies = _answers(game, hands=3)
    table_id, move_id = "k2xYz4Ab9QrT", "0b7c8d1e-5f60-4a1b-9c2d-3e4f5a6b7c8d"  # ids' real lengths
    sizes: list[int] = []
    format_1: list[int] = []  # the same items in format 1
    for n, body in enumerate(bodies):
        store.put("4cbc29f13b6445f39457691b0eba012c", table_id, f"{move_id}{n}", body, NOW)
        item = dynamodb.get_item(
            TableName=name,
            Key={
                "playerId": {"S": "4cbc29f13b6445f39457691b0eba012c"},
                "sk": {"S": answer_key(table_id, f"{move_id}{n}")},
            },
        )["Item"]
        sizes.append(_item_bytes(item))
        format_1.append(sizes[-1] - len(item["body"]["B"]) + len(encode(body, 1)[0]))
        kept = store.get("4cbc29f13b6445f39457691b0eba012c", table_id, f"{move_id}{n}", NOW)
        last = json.loads(bodies[-1])  # the table later: every hand result it had then
        again = filled(kept, lambda last=last: last["handResults"])
        assert again is not None
        assert json.dumps(again, ensure_ascii=False, separators=(",", ":")) == body
    one_unit = sum(s <= WRITE_UNIT for s in sizes) / len(sizes)
    assert one_unit >= 0.95
    assert sum(sizes) < 0.8 * sum(format_1)
    assert sum(s <= WRITE_UNIT for s in format_1) < sum(s <= WRITE_UNIT for s in sizes)


def test_format_two_hands_that_no_longer_hash_as_kept_are_no_answer_rather_than_a_wrong_one():
    body = _answers("kastet", hands=2)[-1]
    first = json.loads(body)
    assert first["handResults"], "the game's second hand: the first one's results are shown"
    data, number = encode(body, 2)
    kept = unpack(data, number)
    assert "penalties" not in json.dumps(json.loads(kept)["handResults"])  # left to the table
    assert filled(kept, lambda: first["handResults"]) == first
    changed = [dict(first["handResults"][0], finisher=None)]
    assert filled(kept, lambda: changed) is None
    assert filled(kept, lambda: []) is None  # not the table it was kept for


def test_a_store_told_to_write_format_one_writes_what_the_release_before_reads(dynamodb):
    name = with_mail(dynamodb, {})["MailTable"]
    new = AnswerStore(dynamodb, name, write_format=1)
    body = _answers("harftet", hands=2)[-1]
    new.put("p0", "t1", "m1", body, NOW)
    item = dynamodb.get_item(
        TableName=name, Key={"playerId": {"S": "p0"}, "sk": {"S": answer_key("t1", "m1")}}
    )["Item"]
    assert item["dict"] == {"N": "1"}
    assert unpack(item["body"]["B"], 1) == body  # the release before: dictionary 1, whole
    assert AnswerStore(dynamodb, name).get("p0", "t1", "m1", NOW) == body  # this one too
    with pytest.raises(ValueError):
        AnswerStore(dynamodb, name, write_format=3)
