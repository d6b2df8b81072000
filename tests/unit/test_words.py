"""The Turkish dictionary: normalisation, the generated list, its build step and word search."""

from __future__ import annotations

import gzip
import io
import random
import tarfile
from collections.abc import Sequence
from pathlib import Path

import pytest

import harftet.engine.words as words_module
from harftet.engine.words import (
    ALPHABET,
    AnySource,
    DictionaryMissingError,
    WordList,
    WordSource,
    default_words,
    turkish_upper,
)
from harftet.engine.words.search import find_pairs, find_words
from harftet.words.build import (
    Zemberek,
    apply_overlays,
    encode_words,
    infinitive,
    is_up_to_date,
    parse_hunspell,
    parse_nlptoolkit,
    parse_zemberek,
    read_deb_member,
    read_overlay,
    select_words,
    write_words,
)

Tiles = Sequence[tuple[int, str | None]]

BRIEF_WORDS = ["ŞARKI", "ARK", "ŞIK", "ALİM", "ZALİM", "KALEM", "KİTAP", "EV", "OKUL", "ÇİÇEK"]
BRIEF_WORDS += ["AĞAÇ", "GÖZLÜK"]
DERIVED_WORDS = ["ŞARKICI", "KİTAPÇI", "GÖZLÜKÇÜ", "KALEMLİK", "ÇİÇEKÇİ", "GÜZELLİK", "ÖĞRETMEN"]
NOT_WORDS = ["ANKARA", "AHMET", "İSTANBUL", "TDK", "NATO", "KİTAPLAR", "ŞARKILAR"]
NOT_WORDS += ["GÖZLÜKLERİMİZDEN"]


@pytest.fixture(scope="module")
def words() -> WordList:
    """The generated default list (run `make dictionary` first)."""
    return default_words()


def spells(found_word: str, tiles: Tiles, spelled: list[tuple[int, str | None]]) -> bool:
    """Check that the tiles, read in order, really spell the word, each used at most once."""
    faces = dict(tiles)
    ids = [tile_id for tile_id, _ in spelled]
    if len(set(ids)) != len(ids) or not set(ids) <= faces.keys():
        return False
    text = ""
    for tile_id, declared in spelled:
        face = faces[tile_id]
        if face is None:  # a joker declares exactly one letter
            if declared is None or len(declared) != 1 or declared not in ALPHABET:
                return False
            text += declared
        else:
            if declared is not None:
                return False
            text += turkish_upper(face)
    return text == found_word


# --- normalisation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "game_form"),
    [
        ("şık", "ŞIK"),
        ("ılık", "ILIK"),
        ("âlim", "ALİM"),
        ("a\u0302lim", "ALİM"),  # decomposed circumflex
        ("kitap", "KİTAP"),
        ("îman", "İMAN"),
        ("rûh", "RUH"),
        ("İstanbul".lower(), "İSTANBUL"),  # Python's lower() leaves i + U+0307
        ("GÖZLÜK", "GÖZLÜK"),
    ],
)
def test_player_input_is_compared_in_turkish_upper_case(raw: str, game_form: str) -> None:
    assert turkish_upper(raw) == game_form


# --- the generated default list --------------------------------------------------------------


def test_the_brief_words_and_derived_words_are_accepted(words: WordList) -> None:
    missing = [w for w in BRIEF_WORDS + DERIVED_WORDS if w not in words]
    assert missing == []


def test_verbs_are_accepted_as_infinitive_and_as_stem(words: WordList) -> None:
    assert {"OKUMAK", "OKU", "GELMEK", "GEL", "GÖRMEK", "GÖR"} <= words.words


def test_proper_nouns_abbreviations_and_inflected_forms_are_rejected(words: WordList) -> None:
    assert [w for w in NOT_WORDS if w in words] == []


def test_untagged_names_abbreviations_and_latin_taxa_are_rejected(words: WordList) -> None:
    assert [w for w in ("TÜRKÇE", "KM", "TL", "PHASİANİDAE", "CHAT", "Şİİ") if w in words] == []


def test_the_list_has_about_49k_words_all_in_game_form(words: WordList) -> None:
    assert 45_000 < len(words) < 55_000
    alphabet = set(ALPHABET)
    assert all(len(w) >= 2 and set(w) <= alphabet for w in words)
    assert {"EV", "AR", "AN"} <= words.words  # two-letter words stay: pairs need them


def test_a_lookup_normalises_player_input_first(words: WordList) -> None:
    assert turkish_upper("şarkı") in words
    assert "şarkı" not in words  # membership itself expects game form


def test_the_list_is_loaded_once_and_is_immutable(words: WordList) -> None:
    assert default_words() is words
    assert isinstance(words.words, frozenset)
    assert isinstance(words, WordSource)
    with pytest.raises(AttributeError):
        words.extra = 1


def test_word_sources_are_pluggable(words: WordList) -> None:
    inflections = frozenset({"KİTAPLAR"})  # stands in for a future table of inflected forms
    lenient = AnySource(words, inflections)
    assert isinstance(lenient, WordSource)
    assert "KİTAP" in lenient and "KİTAPLAR" in lenient
    assert "ANKARA" not in lenient


def test_a_missing_list_tells_the_developer_to_run_make_dictionary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(words_module, "DEFAULT_WORDS_PATH", str(tmp_path / "none.txt.gz"))
    with pytest.raises(DictionaryMissingError, match="make dictionary"):
        default_words.__wrapped__()


# --- the build step, on tiny inputs ----------------------------------------------------------

NLPTOOLKIT_SAMPLE = """\
<doc> IS_HEADER
ankara IS_OA
ahmet IS_OA
tdk IS_KIS IS_OA
alim CL_ISIM IS_ADJ IS_OA
âlim CL_ISIM
çiçek CL_ISIM IS_OA IS_SD
yemen CL_ISIM IS_OA
şarkıcı CL_ISIM
oku CL_FIIL F4PW-NO-REF
gel CL_FIIL F5PL F_DIR
türk CL_ISIM
phasianidae CL_ISIM
km CL_ISIM
ev CL_ISIM
a.ş. IS_OA IS_UU
quiz CL_ISIM
cubur IS_DUP
"""

ZEMBEREK_SAMPLE = """\
## comment line
. [P:Punc]
çiçek
alim [P:Adj]
okumak
gelmek
ev
Türk
KM [P:Abbrv]
Yemen [P:Noun, Prop]
"""


def test_the_filter_keeps_common_words_and_drops_names() -> None:
    zemberek = parse_zemberek([ZEMBEREK_SAMPLE])
    selected = select_words(parse_nlptoolkit(NLPTOOLKIT_SAMPLE), zemberek)
    assert selected == {"ALİM", "ÇİÇEK", "ŞARKICI", "OKU", "OKUMAK", "GEL", "GELMEK", "EV"}


def test_zemberek_lemmas_are_split_into_common_words_and_names() -> None:
    z = parse_zemberek([ZEMBEREK_SAMPLE])
    assert z.common == {"ÇİÇEK", "ALİM", "OKUMAK", "GELMEK", "EV"}
    assert z.proper == {"TÜRK", "KM", "YEMEN"}


def test_an_unconfirmed_proper_noun_tag_drops_the_word() -> None:
    selected = select_words(parse_nlptoolkit("şık CL_ISIM IS_ADJ IS_OA"), Zemberek())
    assert selected == set()


HUNSPELL_SAMPLE = """\
12
önemli/10,11
akıllı/1,2
varış/0,3
Varış/213
demirci/10
Demirci
eğlendir/75
eğlendirmek/26
çıkarmak/14
tanrıça/1
adanalı/3
Adana
Ahmet
"""


def test_hunspell_entries_are_split_by_case() -> None:
    h = parse_hunspell(HUNSPELL_SAMPLE)
    assert h.lower == {
        *("ÖNEMLİ", "AKILLI", "VARIŞ", "DEMİRCİ", "EĞLENDİR", "EĞLENDİRMEK", "ÇIKARMAK"),
        *("TANRIÇA", "ADANALI"),
    }
    assert h.capital == {"VARIŞ", "DEMİRCİ", "ADANA", "AHMET"}


def test_a_proper_noun_tag_is_overruled_when_a_second_source_says_common_word() -> None:
    entries = """\
önemli IS_ADJ IS_OA
akıllı IS_ADJ IS_OA
demirci CL_ISIM IS_OA
varış IS_OA
var CL_FIIL
tanrıça IS_OA
eğlen CL_FIIL
çık CL_FIIL
adana IS_OA
adanalı CL_ISIM IS_OA
yıldıran IS_OA
ahmet IS_OA
km IS_KIS IS_OA
"""
    zemberek = parse_zemberek(["tanrıça\nDemirci [P:Noun, Prop]\nAhmet\n"])
    hunspell = parse_hunspell(HUNSPELL_SAMPLE)
    selected = select_words(parse_nlptoolkit(entries), zemberek, None, hunspell)
    assert selected == {
        # POS-tagged, and hunspell writes them in lower case (zemberek: Demirci, a place)
        *("ÖNEMLİ", "AKILLI", "DEMİRCİ"),
        # tagged only as names: an action noun of VAR-, and a zemberek common word (TANRIÇA),
        # each also lower case in hunspell
        *("VARIŞ", "TANRIÇA"),
        *("VAR", "VARMAK", "EĞLEN", "EĞLENMEK", "ÇIK", "ÇIKMAK"),
        # causatives of listed verbs whose infinitive hunspell lists
        *("EĞLENDİR", "EĞLENDİRMEK", "ÇIKAR", "ÇIKARMAK"),
    }  # out: ADANALI (a name + -lI), YILDIRAN (a participle), AHMET, ADANA, KM


def test_without_a_second_source_a_proper_noun_tag_still_drops_the_word() -> None:
    selected = select_words(parse_nlptoolkit("önemli IS_ADJ IS_OA\nvarış IS_OA"), Zemberek())
    assert selected == set()


def test_a_file_is_read_out_of_a_debian_package() -> None:
    payload = "12\nönemli/10\n".encode()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        info = tarfile.TarInfo("./usr/share/hunspell/tr_TR.dic")
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))
    data = buf.getvalue()

    def member(name: str, body: bytes) -> bytes:
        header = f"{name:<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(body):<10}`\n".encode()
        return header + body + (b"\n" if len(body) % 2 else b"")

    deb = b"!<arch>\n" + member("debian-binary", b"2.0\n") + member("data.tar.xz", data)
    assert read_deb_member(deb, "usr/share/hunspell/tr_TR.dic") == payload
    with pytest.raises(ValueError, match=r"no usr/share/hunspell/xx\.dic"):
        read_deb_member(deb, "usr/share/hunspell/xx.dic")
    with pytest.raises(ValueError, match="ar header"):
        read_deb_member(b"PK\3\4", "x")


@pytest.mark.parametrize(
    ("stem", "verb"),
    [("OKU", "OKUMAK"), ("GEL", "GELMEK"), ("GÖR", "GÖRMEK"), ("PLANLA", "PLANLAMAK")],
)
def test_infinitives_follow_vowel_harmony(stem: str, verb: str) -> None:
    assert infinitive(stem) == verb


def test_overlay_files_are_normalised_and_allow_they_add_deny_removes() -> None:
    allow = read_overlay("# comment\nşık   # trailing comment\n\nâlim\n")
    deny = read_overlay("nato\n")
    assert allow == {"ŞIK", "ALİM"}
    assert apply_overlays({"NATO", "EV"}, allow, deny) == {"EV", "ŞIK", "ALİM"}


def test_an_overlay_rejects_non_words_and_contradictions() -> None:
    with pytest.raises(ValueError, match=r"deny\.txt:2"):
        read_overlay("ev\nquiz\n", "deny.txt")
    with pytest.raises(ValueError, match="both"):
        apply_overlays(set(), {"EV"}, {"EV"})


def test_the_written_list_is_reproducible_byte_for_byte(tmp_path: Path) -> None:
    first = encode_words(["ŞIK", "ARK", "EV", "ARK"])
    assert first == encode_words({"EV", "ŞIK", "ARK"})
    assert first[4:8] == b"\0\0\0\0"  # gzip mtime 0
    assert gzip.decompress(first).decode() == "ARK\nEV\nŞIK\n"
    a, b = tmp_path / "a.txt.gz", tmp_path / "b.txt.gz"
    write_words(["EV", "ARK"], a)
    write_words(["ARK", "EV"], b)
    assert a.read_bytes() == b.read_bytes()
    assert set(WordList.from_gzip(a)) == {"ARK", "EV"}


def test_the_build_is_skipped_while_the_output_is_newer_than_its_inputs(tmp_path: Path) -> None:
    source, output = tmp_path / "in.txt", tmp_path / "out.txt.gz"
    source.write_text("x")
    assert not is_up_to_date(output, [source])
    output.write_bytes(b"")
    assert is_up_to_date(output, [source, tmp_path / "missing"])


# --- word search -----------------------------------------------------------------------------

SMALL = WordList(["ŞARKI", "ARK", "ŞIK", "KIŞ", "ARI", "KAR", "EV", "VAR", "AR", "KARŞI"])


def found_words(results: list[tuple[str, list[tuple[int, str | None]]]]) -> list[str]:
    """Return just the words."""
    return [w for w, _ in results]


def test_search_uses_a_two_letter_tile_for_its_letters() -> None:
    tiles = [(1, "Ş"), (2, "AR"), (3, "K"), (4, "I")]
    results = find_words(SMALL, tiles)
    assert set(found_words(results)) == {"ŞARKI", "KARŞI", "ARK", "ŞIK", "KIŞ", "ARI", "KAR"}
    assert dict(results)["ŞARKI"] == [(1, None), (2, None), (3, None), (4, None)]
    assert all(spells(w, tiles, spelled) for w, spelled in results)


def test_a_word_with_ar_is_spelled_with_single_a_and_r_when_there_is_no_ar_tile() -> None:
    tiles = [(1, "A"), (2, "R"), (3, "K")]
    assert dict(find_words(SMALL, tiles))["ARK"] == [(1, None), (2, None), (3, None)]


def test_the_two_letter_tile_is_preferred_over_singles() -> None:
    tiles = [(1, "A"), (2, "R"), (3, "AR"), (4, "K")]
    assert dict(find_words(SMALL, tiles))["ARK"] == [(3, None), (4, None)]


def test_a_joker_declares_the_letter_it_stands_for_and_only_when_needed() -> None:
    tiles = [(7, None), (8, "Ş"), (9, "I")]
    assert dict(find_words(SMALL, tiles))["ŞIK"] == [(8, None), (9, None), (7, "K")]
    with_k = [(7, None), (8, "Ş"), (9, "I"), (10, "K")]
    assert dict(find_words(SMALL, with_k))["ŞIK"] == [(8, None), (9, None), (10, None)]


def test_results_are_longest_first_and_limited() -> None:
    tiles = [(1, "Ş"), (2, "AR"), (3, "K"), (4, "I")]
    results = found_words(find_words(SMALL, tiles, max_results=3))
    assert len(results) == 3
    assert [len(w) for w in results] == sorted((len(w) for w in results), reverse=True)
    assert results[0] in {"ŞARKI", "KARŞI"}


def test_two_letter_words_need_min_letters_2() -> None:
    tiles = [(1, "E"), (2, "V")]
    assert find_words(SMALL, tiles) == []
    assert find_words(SMALL, tiles, min_letters=2) == [("EV", [(1, None), (2, None)])]


def test_tiles_are_normalised_and_validated() -> None:
    assert set(found_words(find_words(SMALL, [(1, "ş"), (2, "ı"), (3, "k")]))) == {"ŞIK", "KIŞ"}
    for bad in ([(1, "ARK")], [(1, "Q")], [(1, "A"), (1, "R")]):
        with pytest.raises(ValueError):
            find_words(SMALL, bad)


def test_pairs_are_words_of_exactly_two_tiles() -> None:
    tiles = [(1, "E"), (2, "V"), (3, "AR"), (4, "K")]
    pairs = dict(find_pairs(SMALL, tiles))
    assert pairs == {
        "EV": [(1, None), (2, None)],
        "VAR": [(2, None), (3, None)],
        "ARK": [(3, None), (4, None)],
        "KAR": [(4, None), (3, None)],
    }
    with_joker = dict(find_pairs(SMALL, [(3, "AR"), (9, None)]))
    assert with_joker == {
        "KAR": [(9, "K"), (3, None)],
        "VAR": [(9, "V"), (3, None)],
        "ARK": [(3, None), (9, "K")],
        "ARI": [(3, None), (9, "I")],
    }


def reference_spells(word: str, tiles: Tiles) -> bool:
    """Brute force: can some unused tile (or joker) spell the next letters, recursively?"""

    def go(rest: str, left: tuple[tuple[int, str | None], ...]) -> bool:
        if not rest:
            return True
        for i, (_, face) in enumerate(left):
            others = left[:i] + left[i + 1 :]
            matches = face is None or rest.startswith(face)
            if matches and go(rest[1 if face is None else len(face) :], others):
                return True
        return False

    return go(word, tuple(tiles))


def test_search_finds_exactly_the_words_a_brute_force_finds(words: WordList) -> None:
    bag = [*"AAAEEEİİKKLLNNRRTTIMMOSSUBDÜYCÇŞZGHP", "AR", "ER", "AN", "LA", "İN", None, None]
    rng = random.Random(7)
    sample = WordList(rng.sample(sorted(w for w in words if len(w) <= 7), 3000))
    for _ in range(15):
        tiles = list(enumerate(rng.sample(bag, 7)))
        results = find_words(sample, tiles, min_letters=2, max_results=10_000)
        assert all(spells(w, tiles, spelled) for w, spelled in results)
        expected = {w for w in sample if reference_spells(w, tiles)}
        assert set(found_words(results)) == expected


def test_search_on_the_default_list_finds_arks_and_siks(words: WordList) -> None:
    tiles = [(0, "Ş"), (1, "AR"), (2, "K"), (3, "I"), (4, None)]
    results = find_words(words, tiles, max_results=1000)
    assert {"ŞARKI", "ARK", "ŞIK"} <= set(found_words(results))
    assert all(spells(w, tiles, spelled) and w in words for w, spelled in results)
