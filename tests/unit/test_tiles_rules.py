"""The tile sets and the meld rules of both games."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_helpers import HARFTET, KASTET

from harftet.engine.errors import IllegalMoveError
from harftet.engine.rules import HarftetRules, KastetRules, rules_for
from harftet.engine.tiles import (
    COLORS,
    HARFTET_TILES,
    KASTET_TILES,
    hand_value,
    tile_json,
    tiles_for,
)


def test_each_game_has_106_tiles_whose_id_is_their_index() -> None:
    for game in ("kastet", "harftet"):
        tiles = tiles_for(game)
        assert len(tiles) == 106
        assert [t.id for t in tiles] == list(range(106))
        assert [t.id for t in tiles if t.joker] == [104, 105]


def test_kastet_has_two_copies_of_every_colour_and_number() -> None:
    counts = Counter((t.color, t.number) for t in KASTET_TILES if not t.joker)
    assert counts == {(c, n): 2 for c in COLORS for n in range(1, 14)}
    assert all(t.value == t.number for t in KASTET_TILES if not t.joker)


def test_harftet_letter_counts_and_values_follow_the_rules() -> None:
    letters = Counter(t.letter for t in HARFTET_TILES if t.letter and len(t.letter) == 1)
    assert sum(letters.values()) == 94
    assert letters["A"] == 8 and letters["İ"] == 8 and letters["I"] == 4 and letters["J"] == 1
    assert len(letters) == 29
    value = {t.letter: t.value for t in HARFTET_TILES if t.letter}
    assert value["A"] == 1 and value["Ş"] == 4 and value["Ğ"] == 8 and value["J"] == 10


def test_harftet_two_letter_tiles_are_worth_the_sum_of_their_letters() -> None:
    doubles = {t.letter: t.value for t in HARFTET_TILES if t.letter and len(t.letter) == 2}
    assert list(doubles) == ["AR", "ER", "AN", "EN", "LA", "LE", "DA", "DE", "İN", "IN"]
    assert doubles["AR"] == 2 and doubles["DA"] == 4 and doubles["IN"] == 3


def test_every_tile_has_a_display_colour() -> None:
    assert all(t.color in COLORS for t in (*HARFTET_TILES, *KASTET_TILES))


def test_a_joker_in_hand_costs_50() -> None:
    assert hand_value(KASTET_TILES[104]) == 50
    assert hand_value(HARFTET_TILES[105]) == 50
    assert hand_value(KASTET_TILES[12]) == 13


def test_tiles_have_the_api_json_shape() -> None:
    assert tile_json(KASTET_TILES[0]) == {"id": 0, "color": "red", "number": 1}
    assert tile_json(HARFTET_TILES[0]) == {"id": 0, "letter": "A", "value": 1, "color": "red"}
    assert tile_json(KASTET_TILES[104]) == {"id": 104, "joker": True, "as": None}
    assert tile_json(KASTET_TILES[104], ("blue", 7)) == {
        "id": 104,
        "joker": True,
        "as": {"color": "blue", "number": 7},
    }
    assert tile_json(HARFTET_TILES[105], "Ş") == {"id": 105, "joker": True, "as": "Ş"}


@pytest.mark.parametrize(
    ("raw", "face"), [("ş", "Ş"), ("i", "İ"), ("ı", "I"), ("Ğ", "Ğ"), ("â", "A")]
)
def test_a_harftet_joker_is_declared_as_one_turkish_letter(raw: str, face: str) -> None:
    assert HARFTET.normalize_face(raw) == face


@pytest.mark.parametrize("raw", ["AR", "", "Q", "W", "X", "1", 5, None, ["A"]])
def test_a_harftet_joker_cannot_be_declared_as_anything_else(raw: object) -> None:
    with pytest.raises(IllegalMoveError):
        HARFTET.normalize_face(raw)


def test_a_kastet_joker_is_declared_as_colour_and_number() -> None:
    assert KASTET.normalize_face({"color": "red", "number": 7}) == ("red", 7)
    assert KASTET.normalize_face(("black", 13)) == ("black", 13)


@pytest.mark.parametrize(
    "raw",
    [
        {"color": "green", "number": 7},
        {"color": "red", "number": 0},
        {"color": "red", "number": 14},
        {"color": "red", "number": True},
        {"color": "red", "number": "7"},
        {"color": "red"},
        {"color": "red", "number": 7, "extra": 1},
        "red 7",
        ["red", 7],
    ],
)
def test_a_kastet_joker_face_must_be_a_real_tile(raw: object) -> None:
    with pytest.raises(IllegalMoveError):
        KASTET.normalize_face(raw)


def run(color: str, *numbers: int) -> list[tuple[str, int]]:
    return [(color, n) for n in numbers]


@pytest.mark.parametrize(
    "faces",
    [
        run("red", 1, 2, 3),
        run("blue", 11, 12, 13),
        run("black", *range(1, 14)),
        [("red", 5), ("blue", 5), ("black", 5)],
        [("red", 5), ("blue", 5), ("black", 5), ("yellow", 5)],
    ],
)
def test_kastet_runs_and_sets_are_valid_series(faces: list[tuple[str, int]]) -> None:
    assert KASTET.check_series(faces) is None


@pytest.mark.parametrize(
    ("faces", "reason"),
    [
        (run("red", 12, 13, 1), "1 is low only"),
        (run("red", 1, 2, 4), "not a run"),
        (run("red", 3, 2, 1), "not a run"),
        (run("red", 1, 2), "at least 3"),
        ([("red", 5), ("red", 5), ("blue", 5)], "not a set"),
        ([("red", 5), ("blue", 6), ("black", 7)], "neither a run"),
        ([("red", 5), ("blue", 5)], "at least 3"),
    ],
)
def test_kastet_rejects_broken_runs_and_sets(faces: list[tuple[str, int]], reason: str) -> None:
    problem = KASTET.check_series(faces)
    assert problem is not None and reason in problem


def test_a_kastet_pair_is_two_identical_tiles() -> None:
    assert KASTET.check_pair([("red", 5), ("red", 5)]) is None
    assert KASTET.check_pair([("red", 5), ("blue", 5)]) is not None
    assert KASTET.check_pair([("red", 5), ("red", 5), ("red", 5)]) is not None


def test_harftet_series_are_words_of_three_letters_or_more() -> None:
    assert HARFTET.check_series(["Ş", "A", "R", "K", "I"]) is None
    assert HARFTET.check_series(["AR", "I"]) is None  # a two-letter tile gives two letters
    assert HARFTET.check_series(["Ş", "I", "K", "R"]) == '"ŞIKR" is not a word'
    problem = HARFTET.check_series(["E", "V"])
    assert problem is not None and "at least 3 letters" in problem


def test_harftet_pairs_are_words_of_exactly_two_tiles() -> None:
    assert HARFTET.check_pair(["E", "V"]) is None
    assert HARFTET.check_pair(["LA", "LE"]) is None  # 4 letters from 2 tiles
    assert HARFTET.check_pair(["V", "Z"]) == '"VZ" is not a word'
    assert HARFTET.check_pair(["A", "R", "I"]) == "a pair is exactly 2 tiles"


def test_rules_are_shared_per_game_with_their_multiplier() -> None:
    assert rules_for("kastet") is rules_for("kastet")
    assert isinstance(rules_for("kastet"), KastetRules)
    assert isinstance(rules_for("harftet"), HarftetRules)
    assert rules_for("kastet").multiplier == 1
    assert rules_for("harftet").multiplier == 2
    with pytest.raises(ValueError):
        rules_for("tavla")
