"""Refused moves: a stable reason code and its params at every refusal, said in Turkish and
English from the one catalogue (harftet.texts, harftet.api.messages), and the reply
language picked from Accept-Language."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import (
    LENIENT,
    arrange,
    k,
    lay,
    letter_ids,
    make_table,
    meld,
    rejected,
    twenty_six_runs,
)

from harftet.api.errors import error_response, language
from harftet.api.messages import pick_language, refusal_text, tile_name
from harftet.engine.errors import REASONS, IllegalMoveError
from harftet.engine.moves import Draw, Move, Pass
from harftet.engine.state import Placed, Table
from harftet.texts import catalogue

RED, YELLOW, BLUE, BLACK = "red", "yellow", "blue", "black"


def kastet(hand: list[int], **kw: Any) -> Table:
    return arrange(make_table("kastet", 2), {0: hand}, **kw)


def sarki() -> tuple[Table, list[int], int, int]:
    """ŞARKI on the table; seat 0 holds a K and an R."""
    word = letter_ids("ŞARKI")
    k2, r2 = letter_ids("KR", avoid=set(word))
    return arrange(make_table("harftet", 2), {0: [k2, r2]}, [meld(word)]), word, k2, r2


def refusal(table: Table, move: Move, **kw: Any) -> IllegalMoveError:
    error = rejected(table, 0, move, ".", **kw)
    assert isinstance(error, IllegalMoveError)
    return error


Case = tuple[IllegalMoveError, dict[str, Any]]
CASES: dict[str, Any] = {}


def case(reason: str) -> Any:
    """Register a function giving a refusal with ``reason`` and the params it must carry."""

    def register(fn: Any) -> Any:
        CASES[reason] = fn
        return fn

    return register


@case("must_draw_or_lay")
def _() -> Case:
    return refusal(make_table("kastet"), Pass()), {}


@case("already_laid")
def _() -> Case:
    table = kastet([k(RED, 1), k(RED, 2), k(RED, 3), k(RED, 9)])
    table.laid = True
    return refusal(table, Draw()), {}


@case("hand_full")
def _() -> Case:
    return refusal(kastet(list(range(22))), Draw()), {"max": 22}


@case("pile_empty")
def _() -> Case:
    return refusal(kastet([k(RED, 5)], pile=0), Draw()), {}


@case("unknown_move")
def _() -> Case:
    return refusal(make_table("kastet"), "jump"), {}  # type: ignore[arg-type]


@case("too_many_series")
def _() -> Case:
    extra = [k(BLACK, 13, 1), k(BLUE, 13, 1), k(RED, 13, 1)]
    table = kastet(extra, series=twenty_six_runs())
    return refusal(table, lay(*twenty_six_runs(), meld(extra))), {"count": 27, "max": 26}


@case("table_tile_missing")
def _() -> Case:
    table, (s, a, _r, _kk, i), k2, _ = sarki()
    return refusal(table, lay(meld([s, i, k2]))), {"tile": a}


@case("nothing_added")
def _() -> Case:
    table, word, _, _ = sarki()
    return refusal(table, lay(meld(word))), {}


@case("pairs_closed")
def _() -> Case:
    twins = [k(RED, 13), k(RED, 13, 1)]
    table = kastet(twins, series=twenty_six_runs()[:25])
    move = lay(*twenty_six_runs()[:25], pairs=[meld(twins)])
    return refusal(table, move), {"count": 25, "max": 26}


@case("unknown_tile")
def _() -> Case:
    table, word, k2, _ = sarki()
    return refusal(table, lay(meld(word), meld([k2, 106]))), {"meld": 1}


@case("duplicate_tile")
def _() -> Case:
    table, word, k2, _ = sarki()
    return refusal(table, lay(meld([*word, k2]), meld([k2]))), {"meld": 1, "tile": k2}


@case("pair_frozen")
def _() -> Case:
    twins = meld([k(RED, 13), k(RED, 13, 1)])
    table = kastet([k(BLUE, 13), 104], series=twenty_six_runs(), pairs=[twins])
    again = [Placed(k(RED, 13)), Placed(104, (RED, 13))]
    move = lay(*twenty_six_runs(), pairs=[again])
    return refusal(table, move), {"pair": 0, "tile": k(RED, 13)}


@case("pair_from_series")
def _() -> Case:
    runs = twenty_six_runs()
    table = kastet([k(RED, 1, 1)], series=runs)
    move = lay(runs[0][1:], *runs[1:], pairs=[meld([k(RED, 1), k(RED, 1, 1)])])
    return refusal(table, move), {"pair": 0, "tile": k(RED, 1)}


@case("not_in_hand")
def _() -> Case:
    table, word, _, _ = sarki()
    other = table.seats[1].hand[0]
    return refusal(table, lay(meld([*word, other]))), {"meld": 0, "tile": other}


@case("joker_face_missing")
def _() -> Case:
    ids = [k(RED, 1), k(RED, 2), 104]
    return refusal(kastet(ids), lay(meld(ids))), {"meld": 0, "tile": 104}


@case("bad_joker_face")
def _() -> Case:
    pink: Any = {"color": "pink", "number": 3}
    table = kastet([k(RED, 1), k(RED, 2), 105])
    move = lay([Placed(k(RED, 1)), Placed(k(RED, 2)), Placed(105, pink)])
    return refusal(table, move), {"meld": 0, "tile": 105}


@case("not_a_joker")
def _() -> Case:
    table = kastet([k(RED, 1), k(RED, 2), k(RED, 3)])
    move = lay([Placed(k(RED, 1)), Placed(k(RED, 2)), Placed(k(RED, 3), (RED, 3))])
    return refusal(table, move), {"meld": 0, "tile": k(RED, 3)}


@case("meld_too_short")
def _() -> Case:
    table, (s, a, r, kk, i), k2, _ = sarki()
    return refusal(table, lay(meld([a, r]), meld([s, i, k2, kk]))), {"meld": 0, "word": "AR"}


@case("bad_meld")
def _() -> Case:
    ids = [k(RED, 1), k(RED, 2), k(RED, 4)]
    return refusal(kastet(ids), lay(meld(ids))), {"meld": 0, "kind": "run"}


@case("not_a_word")
def _() -> Case:
    table, (s, a, r, kk, i), k2, r2 = sarki()
    move = lay(meld([a, r, kk]), meld([s, i, k2, r2]))
    return refusal(table, move), {"meld": 1, "word": "ŞIKR"}


@case("bad_pair")
def _() -> Case:
    table = kastet([k(BLACK, 13), 104], series=twenty_six_runs())
    bad = [Placed(k(BLACK, 13)), Placed(104, (BLUE, 13))]
    move = lay(*twenty_six_runs(), pairs=[bad])
    return refusal(table, move), {"pair": 0, "kind": "different"}


def pair_not_a_word() -> Case:
    e, v, z = letter_ids("EVZ")
    pool = [t for t in range(104) if t not in (e, v, z)]
    series = [meld(pool[3 * i : 3 * i + 3]) for i in range(26)]
    table = arrange(make_table("harftet", 2), {0: [e, v, z]}, series)
    move = lay(*series, pairs=[meld([v, z])])
    return refusal(table, move, rules=LENIENT), {"pair": 0, "word": "VZ"}


# --- the engine ------------------------------------------------------------------------------


def test_every_reason_the_engine_gives_has_a_case_here() -> None:
    assert sorted(CASES) == sorted(REASONS)


@pytest.mark.parametrize("reason", sorted(CASES))
def test_each_refusal_carries_its_reason_and_params(reason: str) -> None:
    error, params = CASES[reason]()
    assert error.reason == reason
    assert {key: error.params.get(key) for key in params} == params
    if "meld" in params:
        assert error.meld == params["meld"]


def test_a_pair_that_is_no_word_names_the_pair_and_the_word() -> None:
    error, params = pair_not_a_word()
    assert error.reason == "not_a_word" and error.params == params and error.meld is None


# --- the messages ------------------------------------------------------------------------------


def illegal_message(reason: str, params: dict[str, Any], lang: str, game: str = "kastet") -> str:
    return refusal_text("illegal_move", reason, params, lang, game)


@pytest.mark.parametrize("reason", sorted(REASONS))
def test_every_reason_has_a_turkish_and_an_english_sentence_in_the_catalogue(reason: str) -> None:
    error, _ = CASES[reason]()
    assert f"reason.{reason}" in catalogue("tr") and f"reason.{reason}" in catalogue("en")
    for game in ("kastet", "harftet"):
        tr = illegal_message(reason, error.params, "tr", game)
        en = illegal_message(reason, error.params, "en", game)
        assert tr and en and tr != en
        assert "{" not in tr + en and "?" not in tr + en  # no placeholder left unfilled
        for key in ("word", "count", "max"):
            if key in error.params:
                assert str(error.params[key]) in tr and str(error.params[key]) in en
        for lang, said in (("tr", tr), ("en", en)):  # a tile named as players see it
            if "{tile}" in catalogue(lang)[f"reason.{reason}"]:
                assert tile_name(error.params["tile"], game, lang) in said


def test_the_turkish_says_which_meld_and_word_in_the_games_own_words() -> None:
    assert (
        illegal_message("not_a_word", {"meld": 2, "word": "SDÜ"}, "tr")
        == "3. seri: SDÜ sözlükte yok"
    )
    assert (
        illegal_message("not_a_word", {"pair": 0, "word": "VZ"}, "tr") == "1. çift: VZ sözlükte yok"
    )
    # tile 17 of Kastet is the first yellow 5; of Harftet, a letter
    assert illegal_message("not_in_hand", {"meld": 0, "tile": 17}, "tr") == (
        "1. seri: sarı 5 elinde yok"
    )
    assert illegal_message("not_in_hand", {"meld": 0, "tile": 17}, "en") == (
        "Series 1: yellow 5 is not in your hand"
    )
    harftet = tile_name(17, "harftet", "tr")
    assert harftet.isalpha() and harftet.isupper()
    assert illegal_message("not_in_hand", {"tile": 17}, "tr", "harftet") == f"{harftet} elinde yok"
    assert illegal_message("pile_empty", {}, "tr") == "Deste bitti: aç ya da pas geç"
    assert illegal_message("not_a_word", {"meld": 2, "word": "SDÜ"}, "en") == (
        "Series 3: SDÜ is not in the dictionary"
    )


def test_the_rules_constants_fill_a_sentence_that_quotes_them() -> None:
    assert illegal_message("meld_too_short", {}, "tr") == "Seride en az 3 taş olmalı"
    assert "22" in illegal_message("must_draw_or_lay", {}, "en")


def test_an_unknown_reason_or_language_still_says_something() -> None:
    assert illegal_message("no_such_reason", {}, "tr") == "Bu hamle kurallara uymuyor"
    assert illegal_message("not_a_word", {}, "de") == "? is not in the dictionary"


# --- the reply language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("tr", "tr"),
        ("tr-TR", "tr"),
        ("TR-tr,tr;q=0.9,en-US;q=0.8,en;q=0.7", "tr"),
        ("en-US,en;q=0.9,tr;q=0.8", "en"),
        ("de-DE, tr;q=0.5", "tr"),  # German is not offered: the next best is
        ("fr, de", "en"),
        ("tr;q=0, en", "en"),  # q=0 means "not this one"
        ("tr;q=0", "en"),
        ("*", "en"),
        ("en;q=0.3, tr;q=0.7", "tr"),
        ("en;q=0.5, tr;q=0.5", "en"),  # a tie goes to the first listed
        ("tr;q=2, en;q=0.1", "en"),  # an out-of-range q is ignored
        ("tr;q=yes", "en"),
        (";;;,,,=", "en"),
        ("tr" + ",x" * 10_000, "tr"),
    ],
)
def test_the_reply_language_follows_accept_language(header: str | None, lang: str) -> None:
    assert pick_language(header) == lang


def test_the_header_is_found_in_any_case() -> None:
    assert language({"Accept-Language": "tr"}) == "tr"
    assert language({"accept-language": "tr-TR"}) == "tr"
    assert language({"Host": "x"}) == "en"
    assert language(None) == "en"


def test_an_illegal_move_body_carries_the_reason_params_and_a_message_in_the_language() -> None:
    error, _ = CASES["not_a_word"]()
    status, body = error_response(error, "tr")
    assert status == 422
    assert body == {
        "error": {
            "code": "illegal_move",
            "message": "2. seri: ŞIKR sözlükte yok",
            "reason": "not_a_word",
            "meld": 1,
            "word": "ŞIKR",
        }
    }
    _, english = error_response(error)
    assert english["error"]["message"] == 'series meld 2 (index 1): "ŞIKR" is not a word'
    assert english["error"]["reason"] == "not_a_word"
