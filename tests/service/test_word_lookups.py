"""Word look-ups (`harftet.words.info`) over the generated dictionary and its info file, and
word reports (`harftet.words.reports`) over the in-memory stores: counts, the budget (API.md v3
"Words"); what the players table keeps of a report, and of a refused one, is in
tests/store/test_word_reports.py."""

from __future__ import annotations

from typing import Any

import pytest
from testkit import Clock

from harftet.engine.words import WordList
from harftet.errors import RateLimitedError
from harftet.words.info import InfoMissingError, WordInputError, infos, look_up, stem_of
from harftet.words.reports import REPORT_BUDGET, WordReports


def test_a_known_word_says_its_kinds_and_sources() -> None:
    answer = look_up("şarkı")
    assert answer == {
        "word": "ŞARKI",
        "known": True,
        "kinds": ["isim"],
        "sources": ["nlptoolkit-dictionary", "zemberek", "hunspell-tr"],
    }
    verb = look_up("Okumak")
    assert verb["known"] and verb["kinds"] == ["fiil"]
    assert "nlptoolkit-dictionary" in verb["sources"]
    assert look_up("güzel")["kinds"] == ["sıfat"]
    # A causative the build takes from hunspell alone names that source only.
    assert look_up("eğlendirmek")["sources"] == ["hunspell-tr"]


def test_every_listed_word_has_a_source() -> None:
    table = infos()
    from harftet.engine.words import default_words

    words = default_words()
    assert set(table) == set(words)
    assert all(sources for _, sources in table.values())
    assert sum(1 for kinds, _ in table.values() if kinds) > 0.99 * len(table)


@pytest.mark.parametrize(
    ("raw", "stem"),
    [
        ("kitaplar", "KİTAP"),
        ("kitabı", "KİTAP"),  # the final consonant softened
        ("evlerde", "EV"),
        ("geldim", "GEL"),
        ("okuyor", "OKU"),  # not OK + UYOR
        ("masada", "MASA"),  # not MASAT (the hardened MASAD)
        ("kalemimizden", "KALEM"),
    ],
)
def test_an_inflected_word_names_its_listed_stem(raw: str, stem: str) -> None:
    answer = look_up(raw, "en")
    assert answer["known"] is False and answer["kinds"] == [] and answer["sources"] == []
    assert (answer["reason"], answer["stem"]) == ("inflected", stem)
    assert stem in answer["message"] and "inflected" in answer["message"]


def test_a_word_not_in_the_list_says_so_in_turkish_first() -> None:
    answer = look_up("zıcvbn")
    assert answer["known"] is False and answer["reason"] == "not_in_list"
    assert "stem" not in answer
    assert answer["message"] == "ZICVBN oyunun sözlüğünde yok"
    assert look_up("zıcvbn", "en")["message"] == "ZICVBN is not in the game's dictionary"


def test_the_suffix_heuristic_needs_harmony_and_a_listed_stem() -> None:
    words = WordList(["KİTAP", "EV"])
    assert stem_of("KİTAPLAR", words) == "KİTAP"
    assert stem_of("KİTAPLER", words) is None  # front suffix on a back stem
    assert stem_of("EVLAR", words) is None
    assert stem_of("KALEMLER", words) is None  # KALEM is not in this list


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("", "must not be empty"),
        ("a" * 33, "at most 32 letters"),
        ("kitap1", "29 letters"),
        ("wow", "29 letters"),  # W is no Turkish letter
        ("ki tap", "29 letters"),
        (" kitap", "29 letters"),  # what the OpenAPI pattern refuses, the server refuses
        ("%41", "29 letters"),  # only percent-encoded Turkish letters are decoded
    ],
)
def test_no_word_at_all_is_a_bad_request_naming_the_field(raw: str, says: str) -> None:
    with pytest.raises(WordInputError, match=says) as caught:
        look_up(raw)
    assert str(caught.value).startswith("word:")


def test_a_missing_info_file_fails_loudly(tmp_path: Any) -> None:
    with pytest.raises(InfoMissingError, match="make dictionary"):
        infos(str(tmp_path / "none.info.gz"))


@pytest.fixture
def reports(app: Any) -> WordReports:
    return app.word_reports


def test_reports_count_once_per_player_word_and_kind(reports: WordReports, clock: Clock) -> None:
    assert reports.report("p1", "kitap", "wrong") == {"word": "KİTAP", "kind": "wrong"}
    reports.report("p2", "KİTAP", "wrong")
    reports.report("p2", "kitap", "missing")
    reports.report("p1", "kitap", "wrong")  # a retry or a second tap: counted once
    assert reports.counts("kitap") == {"wrong": 2, "missing": 1, "reports": 3}
    assert reports.counts("kalem") == {"wrong": 0, "missing": 0, "reports": 0}


def test_reports_past_the_budget_are_refused_until_the_window_ends(
    reports: WordReports, clock: Clock
) -> None:
    words = [f"KELİME{'A' * i}" for i in range(REPORT_BUDGET.limit + 1)]
    for word in words[:-1]:
        reports.report("p1", word, "missing")
    with pytest.raises(RateLimitedError) as caught:
        reports.report("p1", words[-1], "missing")
    assert 0 < caught.value.retry_after <= REPORT_BUDGET.window
    assert reports.counts(words[-1])["reports"] == 0
    reports.report("p2", words[-1], "missing")  # another player's budget is whole
    clock.advance(caught.value.retry_after)
    reports.report("p1", words[-1], "missing")
    assert reports.counts(words[-1])["missing"] == 2
