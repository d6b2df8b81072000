"""The lemma-aware ranking (how common a word is, not its spelling) and the blocked list:
the build step on a tiny analyser's readings, and the generated ranking itself."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import arrange, letter_ids, make_table

from harftet.engine import bot
from harftet.engine.bots import harftet as harftet_bots
from harftet.engine.moves import Draw
from harftet.engine.words import default_words, frequency
from harftet.engine.words.blocked import BLOCKED_PATH, blocked, parse_blocked
from harftet.words.build_lemmas import lemma_ranking


def analysis(lemma: str, pos: str, *tags: str, root: str = "", prop: bool = False) -> Any:
    return {
        "lemma": lemma,
        "root": root or lemma,
        "primary_pos": pos,
        "secondary_pos": "Prop" if prop else "",
        "morphemes": [pos, *tags],
    }


# A corpus in miniature: İŞ is common and İŞE is mostly its dative; KALEM is common in its
# own right though KALE + "my" is spelled the same; ARDA is mostly a name.
ANALYSES = {
    "iş": [analysis("iş", "Noun", "A3sg", "Nom")],
    "işler": [analysis("iş", "Noun", "A3pl")],
    "işi": [analysis("iş", "Noun", "Acc")],
    "işte": [analysis("iş", "Noun", "Loc")],
    "işe": [
        analysis("iş", "Noun", "Dat"),
        analysis("işemek", "Verb", "Imp", "A2sg", root="işe"),
    ],
    "kale": [analysis("kale", "Noun", "A3sg", "Nom")],
    "kaleler": [analysis("kale", "Noun", "A3pl")],
    "kalem": [analysis("kalem", "Noun", "A3sg", "Nom"), analysis("kale", "Noun", "P1sg")],
    "kalemler": [analysis("kalem", "Noun", "A3pl")],
    "kalemi": [analysis("kalem", "Noun", "Acc")],
    "arda": [analysis("arda", "Noun", "A3sg", "Nom"), analysis("art", "Noun", "Dat")],
    "arda'nın": [analysis("arda", "Noun", "Gen")],
    "ardından": [analysis("art", "Noun", "P3sg", "Abl")],
}
FREQUENCIES = {
    "iş": 50.0,
    "işler": 20.0,
    "işi": 20.0,
    "işte": 30.0,
    "işe": 25.0,
    "kale": 6.0,
    "kaleler": 2.0,
    "kalem": 4.0,
    "kalemler": 1.0,
    "kalemi": 1.0,
    "arda": 5.0,
    "arda'nın": 2.0,
    "ardından": 20.0,
}
LISTED = {"İŞ", "İŞE", "İŞEMEK", "KALE", "KALEM", "ARDA", "ART"}


def rank_tiny() -> tuple[list[str], dict[str, float]]:
    return lemma_ranking(FREQUENCIES, lambda raw: ANALYSES.get(raw, []), LISTED, {"İŞE"})


def test_a_word_whose_spelling_is_mostly_another_words_form_is_left_unranked() -> None:
    ranked, own = rank_tiny()
    assert "İŞE" not in ranked and own["İŞE"] < 0.1  # read as İŞ + dative
    assert "İŞ" in ranked


def test_a_common_word_keeps_its_spelling_and_counts_its_own_forms() -> None:
    ranked, own = rank_tiny()
    assert own["KALEM"] > 0.8  # a bare noun, not KALE + "my"
    assert ranked.index("İŞ") < ranked.index("KALE")
    assert "KALEM" in ranked


def test_a_spelling_met_with_a_names_apostrophe_is_read_as_the_name() -> None:
    ranked, own = rank_tiny()
    assert "ARDA" not in ranked and own["ARDA"] < 0.6
    assert "ART" in ranked  # ardından: art + possessive + ablative


def test_the_generated_ranking_counts_words_not_spellings() -> None:
    for word in ("İŞE", "ADAMI", "TOZU", "YAPIN", "EDER", "BİLİR", "ARDA"):
        assert word in default_words()  # the rules accept them from a person
        assert frequency.rank(word) is None, word  # no computer player lays them
    for word in ("EV", "KİTAP", "KALEM", "ŞARKI", "OKUMAK", "İÇİN"):
        assert frequency.is_common(word), word


def test_the_experts_words_are_words_a_cultured_reader_knows() -> None:
    knows = harftet_bots.vocabulary("expert")
    rare = ["ARTROZ", "BREŞ", "CANYELEĞİ", "DÜBEŞ", "ERKANIHARP", "FİNGİRDEK", "JUPON"]
    rare += ["LİKEN", "MÜRT", "ZAMK", "DÜGAH", "ANYON"]
    assert [w for w in rare if knows(w)] == []
    assert all(knows(w) for w in ("KALEM", "KİTAP", "ŞARKI", "ZALİM", "GÖZLÜK"))


# --- the blocked list -------------------------------------------------------------------------


def test_the_blocked_list_reads_one_word_a_line_in_game_form() -> None:
    assert parse_blocked("# rude\nlan\n  bok  # a comment\n\nsiç\n") == {"LAN", "BOK", "SİÇ"}


def test_blocked_words_are_in_no_ranking_and_no_levels_vocabulary() -> None:
    words = blocked()
    assert {"LAN", "BOK", "MENİ", "SEKS"} <= words
    assert BLOCKED_PATH.endswith("words/blocked.txt")
    assert not words & set(frequency.ranks())
    for level in harftet_bots.PEOPLE:
        knows = harftet_bots.vocabulary(level)
        assert [w for w in sorted(words) if knows(w)] == [], level


def test_without_a_ranking_computer_players_still_refuse_blocked_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing() -> dict[str, int]:
        raise frequency.FrequencyMissingError("no ranking")

    monkeypatch.setattr(frequency, "ranks", missing)
    with pytest.warns(UserWarning, match="unblocked"):
        knows = harftet_bots.known_words.__wrapped__(10)
    assert knows("KALEM") and not knows("LAN") and not knows("SEKS")


@pytest.mark.parametrize("level", harftet_bots.PEOPLE)
def test_a_hand_that_spells_only_a_blocked_word_is_drawn_on_at_every_level(level: str) -> None:
    hand = letter_ids(["L", "AN", "Ğ", "J"])  # LAN, and nothing else
    table = arrange(make_table("harftet", 2), {0: hand})
    assert "LAN" in default_words()  # a person may lay it
    assert bot.choose_move(table, 0, level) == Draw()  # type: ignore[arg-type]
