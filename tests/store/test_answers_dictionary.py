"""Kept move answers (harftet.store.answers) deflated with a preset dictionary of every tile's
JSON (issue 40): a retry within 24 h still gets the first answer byte for byte, answers kept
before the dictionary (no ``dict`` on the item) still read, and a typical answer takes fewer
bytes than plain deflate (a write unit is 1 KB)."""

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
from harftet.store.answers import AnswerStore, answer_key, dictionary, pack, unpack
from harftet.store.table_items import StoredTable

NOW = 1_800_000_000.0
PINNED = "1d195f388d2bdd99"  # sha256 of dictionary 1: never to change


def _answers(game: str) -> list[str]:
    """The seat-0 player's view at every playing version of a medium-player game."""
    return [
        json.dumps(
            stored_view(StoredTable(t, n + 1), "p0"), ensure_ascii=False, separators=(",", ":")
        )
        for n, t in enumerate(versions(game, 4, 1, 7))
        if t.status == "playing"
    ]


def test_dictionary_one_never_changes_while_answers_written_with_it_may_be_read():
    assert hashlib.sha256(dictionary(1)).hexdigest()[:16] == PINNED
    with pytest.raises(ValueError):
        dictionary(2)


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
