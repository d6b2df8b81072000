"""State that migrates (docs/DEPLOY.md "State that migrates"): the codec reads format N and
N−1 and writes N. Stored items of format 1, kept as fixtures (tests/fixtures/
tables_format1.json, written by the format-1 codec), are decoded, upgraded and played to
the end; old and new writers take turns on one table without a failed move."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import WORDS, past_break, rules_of

from harftet.engine import codec
from harftet.engine.bot import choose_move
from harftet.engine.codec import decode, encode
from harftet.engine.hand import apply_move
from harftet.engine.state import Table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tables_format1.json"
STORED: list[dict[str, Any]] = json.loads(FIXTURES.read_text(encoding="utf-8"))["items"]


def stored(item: dict[str, Any]) -> bytes:
    return base64.b64decode(item["state"])


def play_to_the_end(table: Table, writes: list[int]) -> tuple[Table, int]:
    """Bots play ``table`` to its end; between moves it is stored and read back in the
    formats ``writes`` names in turn (one writer per deploy side). The moves made."""
    moves = 0
    now = float(table.created_at or 0) + 10_000
    while table.status == "playing":
        table = past_break(table)
        seat = table.turn_seat
        assert seat is not None
        now += 1
        move = choose_move(table, seat, WORDS)
        table = apply_move(table, seat, move, now, rules=rules_of(table.game)).table
        data = encode(table, writes[moves % len(writes)])
        assert decode(data) == table
        table = decode(data)
        moves += 1
        assert moves < 3000, "the game does not end"
    return table, moves


@pytest.mark.parametrize("item", STORED, ids=[i["name"] for i in STORED])
def test_a_stored_format_1_table_is_read_and_played_to_the_end(item: dict[str, Any]) -> None:
    data = stored(item)
    assert data[0] == 1  # really the old format
    table = decode(data)
    assert table.table_id == item["tableId"] and table.status == "playing"
    assert sum(len(s.hand) for s in table.seats) > 0
    # what the new code writes is format 2 and holds the same table
    again = encode(table)
    assert again[0] == codec.FORMAT == 2 and decode(again) == table
    finished, moves = play_to_the_end(table, [codec.FORMAT])
    assert finished.status == "finished" and finished.result is not None and moves > 0
    assert len(finished.hand_results) == finished.hands


@pytest.mark.parametrize("item", STORED, ids=[i["name"] for i in STORED])
def test_old_and_new_writers_side_by_side_play_a_table_with_no_failed_move(
    item: dict[str, Any],
) -> None:
    """A canary: every other change written by the release before (format 1)."""
    finished, moves = play_to_the_end(decode(stored(item)), [codec.FORMAT - 1, codec.FORMAT])
    assert finished.status == "finished" and moves > 1


def test_the_upgrade_function_keys_the_later_fields_by_id() -> None:
    data = stored(STORED[2])  # private, no hints, bot_seconds 0: not the defaults
    import zlib

    doc = json.loads(zlib.decompress(data[1:]))
    upgraded = codec.upgrade_1(doc)
    assert upgraded[: codec.CORE] == doc[: codec.CORE]
    named = upgraded[codec.CORE]
    assert [codec.LATER_FIELDS[int(k)] for k in list(named)[:3]] == [
        "hints", "private", "bot_seconds",
    ]  # fmt: skip
    assert (named["0"], named["1"], named["2"]) == (False, True, 0)
    assert decode(data).bot_seconds == 0


def test_a_format_newer_than_this_code_or_older_than_the_one_before_is_refused() -> None:
    table = decode(stored(STORED[0]))
    body = encode(table)[1:]
    for unknown in (0, codec.FORMAT + 1):
        with pytest.raises(ValueError, match="unknown table format"):
            decode(bytes([unknown]) + body)
    with pytest.raises(ValueError, match="cannot write"):
        encode(table, codec.FORMAT + 1)
