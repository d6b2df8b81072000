"""Word frequencies: the generated ranking, what easy players call common, and its build step."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from harftet.engine.words import default_words, frequency
from harftet.words.build import encode_lines, parse_wordfreq, rank_words, unpack_msgpack

# --- the generated ranking -------------------------------------------------------------------


def test_the_most_common_words_rank_first() -> None:
    assert frequency.rank("BİR") == 1  # "one, a"
    top = {w for w, n in frequency.ranks().items() if n <= 20}
    assert "VE" in top  # "and"
    assert {"BİR", "BU", "İÇİN", "ÇOK"} <= top


def test_everyday_words_are_common_and_rare_ones_are_not() -> None:
    everyday = ["EV", "KİTAP", "ŞARKI", "GÜZEL", "OKUMAK", "GEL", "SU", "ARABA", "KAPI", "OKUL"]
    assert [w for w in everyday if not frequency.is_common(w)] == []
    rare = ["KALEMLİK", "GÖZLÜKÇÜ", "ZIMPARALAMAK"]  # dictionary words, not everyday ones
    assert all(w in default_words() for w in rare)
    assert [w for w in rare if frequency.is_common(w)] == []


def test_only_dictionary_words_are_ranked() -> None:
    # wordfreq lists inflected forms and names; the game never plays them
    for word in ("KİTAPLAR", "ANKARA", "AHMET", "YAPTI", "TÜRKİYE"):
        assert frequency.rank(word) is None
        assert not frequency.is_common(word)
    words = default_words()
    assert all(w in words for w in frequency.ranks())


def test_ranks_run_from_one_without_gaps_and_the_common_words_are_enough() -> None:
    ranks = frequency.ranks()
    assert sorted(ranks.values()) == list(range(1, len(ranks) + 1))
    assert 8_000 < len(ranks) < 20_000
    common = [w for w, n in ranks.items() if n <= frequency.COMMON_RANK]
    assert len(common) == frequency.COMMON_RANK
    assert sum(len(w) >= 3 for w in common) > 3_500


def test_rank_expects_game_form() -> None:
    assert frequency.rank("ev") is None
    assert frequency.rank("EV") is not None


def test_importing_reads_nothing_and_a_missing_file_tells_what_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = (
        "import sys, harftet.engine.words.frequency as f; "
        "sys.exit(0 if f.ranks.cache_info().currsize == 0 and 'zlib' not in sys.modules else 1)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
    monkeypatch.setattr(frequency, "FREQUENCY_PATH", str(tmp_path / "none.txt.gz"))
    with pytest.raises(frequency.FrequencyMissingError, match="make dictionary"):
        frequency.ranks.__wrapped__()


# --- the build step, on tiny inputs ----------------------------------------------------------


def msgpack_str(s: str) -> bytes:
    raw = s.encode()
    assert len(raw) < 32
    return bytes([0xA0 | len(raw)]) + raw


def msgpack_array(items: list[bytes], wide: bool = False) -> bytes:
    head = bytes([0xDC]) + len(items).to_bytes(2, "big") if wide else bytes([0x90 | len(items)])
    return head + b"".join(items)


def wordfreq_sample(buckets: list[list[str]]) -> bytes:
    header = b"\x82" + msgpack_str("format") + msgpack_str("cB")
    header += msgpack_str("version") + b"\x01"
    body = [msgpack_array([msgpack_str(w) for w in bucket]) for bucket in buckets]
    return gzip.compress(msgpack_array([header, *body], wide=True))


def test_the_msgpack_reader_decodes_what_wordfreq_writes() -> None:
    data = b"\x93\xa2ev\xcd\x01\x00\x92\xc0\xc3"  # ["ev", 256, [None, True]]
    assert unpack_msgpack(data) == ["ev", 256, [None, True]]
    assert unpack_msgpack(b"\xd9\x03abc") == "abc"
    assert unpack_msgpack(b"\xff") == -1
    with pytest.raises(ValueError, match="truncated"):
        unpack_msgpack(b"\x92\xa2ev")
    with pytest.raises(ValueError, match="trailing"):
        unpack_msgpack(b"\x01\x02")
    with pytest.raises(ValueError, match="unsupported"):
        unpack_msgpack(b"\xc1")


def test_wordfreq_buckets_become_game_form_frequencies() -> None:
    # bucket i holds words of frequency 10^(-i/100)
    buckets = [["ve"], [], ["şık", "ılık"], ["âlim", "alim", "q1", "x", "ankara'da"]]
    packed = wordfreq_sample(buckets)
    freqs = parse_wordfreq(packed)
    assert set(freqs) == {"VE", "ŞIK", "ILIK", "ALİM"}
    assert freqs["VE"] == 1.0
    assert freqs["ŞIK"] == pytest.approx(10 ** (-2 / 100))
    assert freqs["ALİM"] == pytest.approx(2 * 10 ** (-3 / 100))  # âlim and alim add up


def test_an_unknown_list_format_is_refused() -> None:
    bad = gzip.compress(msgpack_array([b"\x81" + msgpack_str("format") + msgpack_str("zz")]))
    with pytest.raises(ValueError, match="format"):
        parse_wordfreq(bad)


def test_ranking_keeps_dictionary_words_most_frequent_first_ties_alphabetical() -> None:
    freqs = {"VE": 1.0, "ŞIK": 0.5, "ARK": 0.5, "YAPTI": 0.9, "ALİM": 0.1}
    ranked = rank_words(freqs, ["ALİM", "ŞIK", "ARK", "VE", "KALEMLİK"])
    assert ranked == ["VE", "ARK", "ŞIK", "ALİM"]


def test_the_ranking_file_is_reproducible_and_keeps_its_order() -> None:
    data = encode_lines(["VE", "BİR", "ARK"])
    assert data == encode_lines(["VE", "BİR", "ARK"])
    assert data[4:8] == b"\0\0\0\0"  # gzip mtime 0
    assert gzip.decompress(data).decode() == "VE\nBİR\nARK\n"
