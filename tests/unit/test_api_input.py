"""Client input the API must refuse cleanly: names that hide or spoof (API.md, Identity), and
bodies built to break the parser (huge integers, deep nesting, long strings and lists)."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from harftet.api.body import MAX_DEPTH, MAX_INT_DIGITS, MAX_ITEMS, MAX_STRING, BodyError, parse_body
from harftet.api.errors import error_response
from harftet.api.models import CreatePlayer
from harftet.api.names import MAX_NAME, check_name

LIMIT = 64 * 1024

# --- names -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("Ayşe", "Ayşe"),
        ("  Mehmet Ali  ", "Mehmet Ali"),
        ("Ayşe   Nur", "Ayşe Nur"),  # one space between words
        ("Ayşe\u00a0Nur", "Ayşe Nur"),  # a no-break space is a space
        ("Ays\u0327e", "Ayşe"),  # decomposed ş is stored composed (NFC)
        ("Nguyễn Thị Ánh", "Nguyễn Thị Ánh"),  # two marks on one letter are fine
        ("Zoë 🎲", "Zoë 🎲"),
        ("İĞÜŞÖÇ ığüşöç", "İĞÜŞÖÇ ığüşöç"),
        ("李小龙", "李小龙"),
        ("x" * MAX_NAME, "x" * MAX_NAME),
        ("e\u0301" * MAX_NAME, "é" * MAX_NAME),  # marks do not count as characters
    ],
)
def test_a_name_of_visible_characters_is_accepted(raw: str, stored: str) -> None:
    assert check_name(raw) == stored
    assert CreatePlayer.model_validate({"name": raw}).name == stored


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("", "at least one visible"),
        ("   ", "at least one visible"),
        ("x" * (MAX_NAME + 1), "at most 24"),
        ("x" * 10_000, "at most 24"),
        ("Ayşe\u202eesyA", "formatting"),  # right-to-left override
        ("\u2066Ayşe\u2069", "formatting"),  # isolates
        ("\u202aAyşe", "formatting"),
        ("Ay\u200bşe", "formatting"),  # zero-width space
        ("Ay\u200dşe", "formatting"),  # zero-width joiner
        ("\ufeffAyşe", "formatting"),  # BOM
        ("Ayşe\U000e0041\U000e0042", "formatting"),  # tag characters
        ("Ayşe\x00", "control"),
        ("Ayşe\nYönetici", "control"),
        ("Ay\tşe", "control"),
        ("Ayşe\u2028Nur", "line separator"),
        ("Ayşe\ue000", "private-use"),
        ("Ayşe\U000f0000", "private-use"),
        ("Ayşe\u0378", "unassigned"),
        ("Ayşe\ud800", "surrogate"),
        ("\u3164", "blank"),
        ("Ayşe\u2800", "blank"),
        ("\u0301Ayşe", "start with a combining mark"),
        ("Z" + "\u0336" * 3, "at most 2 combining marks"),
        ("Zalgo" + "\u0300\u0301\u0302\u0303" * 20, "at most"),
    ],
)
def test_a_name_that_hides_spoofs_or_floods_is_refused(raw: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_name(raw)
    with pytest.raises(ValidationError) as caught:
        CreatePlayer.model_validate({"name": raw})
    status, body = error_response(caught.value)
    assert status == 400 and body["error"]["code"] == "bad_request"


# --- bodies ------------------------------------------------------------------------------------


def refused(body: str | bytes, match: str) -> None:
    with pytest.raises(BodyError, match=match) as caught:
        parse_body(body, limit=LIMIT)
    status, reply = error_response(caught.value)
    assert status == 400 and reply["error"]["code"] == "bad_request"


def test_an_ordinary_move_body_is_read_as_it_was_sent() -> None:
    move = {
        "version": 12,
        "moveId": "m-1",
        "type": "lay",
        "series": [[{"id": t} for t in range(13)] for _ in range(26)],
        "pairs": [[{"id": 1}, {"id": 104, "as": {"color": "red", "number": 7}}]],
    }
    assert parse_body(json.dumps(move), limit=LIMIT) == move
    assert parse_body(json.dumps(move).encode(), limit=LIMIT) == move
    assert parse_body(None, limit=LIMIT) == {} and parse_body("  ", limit=LIMIT) == {}
    assert parse_body('{"n": -12345678901234567890}', limit=LIMIT) == {"n": -12345678901234567890}


def test_an_integer_of_thousands_of_digits_is_refused_not_a_500() -> None:
    refused('{"version": ' + "9" * 5000 + "}", "more than 20 digits")
    refused('{"version": -' + "9" * 4301 + "}", "digits")
    refused('{"version": ' + "1" * (MAX_INT_DIGITS + 1) + "}", "digits")


def test_nan_and_infinity_are_not_json() -> None:
    for constant in ("NaN", "Infinity", "-Infinity"):
        refused('{"version": ' + constant + "}", "not a JSON number")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 10_000])
def test_deep_nesting_is_refused(depth: int) -> None:
    refused("[" * depth + "]" * depth, "nested more than")
    refused('{"a":' * depth + "1" + "}" * depth, "nested more than")
    refused("[" * 30_000 + "]" * 30_000, "nested more than")  # past the recursion limit


def test_long_strings_and_lists_are_refused() -> None:
    refused(json.dumps({"moveId": "x" * (MAX_STRING + 1)}), "longer than")
    refused(json.dumps({"x" * (MAX_STRING + 1): 1}), "longer than")
    refused(json.dumps({"series": [0] * (MAX_ITEMS + 1)}), "more than 1000 entries")
    refused(json.dumps({str(i): i for i in range(MAX_ITEMS + 1)}), "more than 1000 entries")


def test_oversized_malformed_and_non_utf8_bodies_are_refused() -> None:
    refused('{"a": "' + "x" * LIMIT + '"}', "larger than")
    refused(b'{"a": "' + b"x" * LIMIT + b'"}', "larger than")
    refused('{"a": "ş' + "ş" * (LIMIT // 2) + '"}', "larger than")  # counted in bytes
    refused('{"version": 1,', "not valid JSON")
    refused("{'version': 1}", "not valid JSON")
    refused(b'{"name": "\xff"}', "not UTF-8")
