"""What the game knows of a word (`GET /words/{word}`): `look_up(raw)`.

`python -m harftet.words.build` writes `data/words.info.gz` beside the word list: one line per
word, `WORD<TAB>kind,kind<TAB>source,source` — the kinds as the source tags them, in Turkish
(isim, sıfat, fiil, zarf…), and the lists that hold the word (nlptoolkit-dictionary, zemberek,
hunspell-tr, allow.txt). It is made from the GPL-3.0 source at set-up, never committed.

Import is free (no I/O): the file is read on the first look-up, so the REST function's cold
start does not pay for it. A missing file is an error (`InfoMissingError`), never an empty
answer: a word card that says "no kind, no source" for every word would be a lie.

A word that is not in the list is refused with a `reason`: ``inflected`` when it looks like a
listed word plus a common suffix (the heuristic below), else ``not_in_list``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from harftet.engine.words import WordSource, default_words, is_game_word, turkish_upper

__all__ = [
    "INFO_PATH",
    "MAX_WORD_LETTERS",
    "InfoMissingError",
    "WordInputError",
    "encode_info",
    "infos",
    "look_up",
    "normalise_word",
    "stem_of",
]

INFO_PATH = os.path.join(os.path.dirname(__file__), "data", "words.info.gz")
"""Where the build writes each word's kinds and sources (generated, not committed)."""

MAX_WORD_LETTERS = 32
"""The longest word a look-up or report takes (the longest listed word has 25 letters)."""

WORD_LETTERS = "A-PR-VYZa-pr-vyzÇçĞğİıÖöŞşÜüÂâÎîÛû"
"""The letters a word may be written with: the 29 in either case, circumflexes (â → A)."""
WORD_PATTERN = re.compile(f"[{WORD_LETTERS}]+")


class InfoMissingError(FileNotFoundError):
    """The generated word info is missing: run `make dictionary`."""


class WordInputError(ValueError):
    """A path's word that is no word at all (too long, not letters): 400 `bad_request`."""


def encode_info(info: Mapping[str, tuple[list[str], list[str]]]) -> bytes:
    """The file's bytes: sorted `WORD\\tkinds\\tsources` lines, gzip -9, mtime 0 (reproducible)."""
    import gzip

    lines = "".join(f"{w}\t{','.join(k)}\t{','.join(s)}\n" for w, (k, s) in sorted(info.items()))
    return gzip.compress(lines.encode("utf-8"), compresslevel=9, mtime=0)


@cache
def infos(path: str | None = None) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Return {word: (kinds, sources)}, read once per process (about 100 ms)."""
    import zlib  # as in WordList.from_gzip: the gzip module costs a cold-start import

    path = path or INFO_PATH
    try:
        with open(path, "rb") as f:
            data = zlib.decompress(f.read(), 16 + zlib.MAX_WBITS)
    except FileNotFoundError:
        raise InfoMissingError(
            f"The word info {path} has not been generated. Run `make dictionary` "
            "(or `.venv/bin/python -m harftet.words.build --force`) once; it is built from "
            "a GPL-3.0 source at set-up and never committed."
        ) from None
    out: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for line in data.decode("utf-8").splitlines():
        word, kinds, sources = line.split("\t")
        out[word] = (tuple(filter(None, kinds.split(","))), tuple(filter(None, sources.split(","))))
    return out


def normalise_word(raw: str) -> str:
    """The game form of a path's word, or `WordInputError` naming the field `word`."""
    if "%" in raw:  # a path left percent-encoded (API Gateway gives it decoded): ŞARKI
        from urllib.parse import unquote

        decoded = unquote(raw)
        if not decoded.isascii():  # only encoded Turkish letters; "%41" stays no word
            raw = decoded
    if len(raw) > 4 * MAX_WORD_LETTERS:
        raise WordInputError(f"word: at most {MAX_WORD_LETTERS} letters")
    if not raw:
        raise WordInputError("word: must not be empty")
    if len(raw) > MAX_WORD_LETTERS:
        raise WordInputError(f"word: at most {MAX_WORD_LETTERS} letters, not {len(raw)}")
    word = turkish_upper(raw)
    if not WORD_PATTERN.fullmatch(raw) or not is_game_word(word, 1):
        raise WordInputError("word: only the 29 letters of the Turkish alphabet (no Q, W, X)")
    return word


# --- "looks inflected": a listed word plus common suffixes ----------------------------------
#
# Simple and honest: the endings below are the most common case, plural, possessive and tense
# suffixes in their harmonic variants. A word is called inflected when removing one of them
# leaves a listed word of at least 2 letters (or that word with its final consonant hardened
# back: KİTABI → KİTAP) and the suffix's first vowel agrees with the stem's last vowel
# (front/back). The shortest suffix wins (OKU-YOR, not OK-UYOR), and a stem as written wins
# over a hardened one (MASA-DA, not MASAT). It is not a morphological analysis: it never makes a
# word acceptable, it only says why the list does not hold it.

_BACK = frozenset("AIOU")
_FRONT = frozenset("EİÖÜ")
_CASES = (
    *("I", "İ", "U", "Ü", "YI", "Yİ", "YU", "YÜ", "NI", "Nİ", "NU", "NÜ"),  # accusative
    *("A", "E", "YA", "YE", "NA", "NE"),  # dative
    *("DA", "DE", "TA", "TE", "NDA", "NDE"),  # locative
    *("DAN", "DEN", "TAN", "TEN", "NDAN", "NDEN"),  # ablative
    *("IN", "İN", "UN", "ÜN", "NIN", "NİN", "NUN", "NÜN"),  # genitive
    *("LA", "LE", "YLA", "YLE"),  # with
)
_POSSESSIVES = (
    *("M", "IM", "İM", "UM", "ÜM", "N", "IN", "İN", "UN", "ÜN"),
    *("SI", "Sİ", "SU", "SÜ", "MIZ", "MİZ", "MUZ", "MÜZ", "IMIZ", "İMİZ", "UMUZ", "ÜMÜZ"),
)
_PLURALS = ("LAR", "LER", "LARI", "LERİ")
_VERBAL = (
    *("DI", "Dİ", "DU", "DÜ", "TI", "Tİ", "TU", "TÜ"),  # past
    *("MIŞ", "MİŞ", "MUŞ", "MÜŞ"),  # reported past
    *("IYOR", "İYOR", "UYOR", "ÜYOR", "YOR"),  # present
    *("MIYOR", "MİYOR", "MUYOR", "MÜYOR"),  # negative present
    *("ACAK", "ECEK", "YACAK", "YECEK"),  # future
    *("DIM", "DİM", "DUM", "DÜM", "TIM", "TİM", "TUM", "TÜM"),
    *("DIK", "DİK", "DUK", "DÜK", "TIK", "TİK", "TUK", "TÜK"),
    *("MA", "ME", "MAZ", "MEZ"),  # negation
)


def _suffixes() -> list[str]:
    endings = {*_CASES, *_POSSESSIVES, *_PLURALS, *_VERBAL}
    endings |= {p + c for p in _PLURALS for c in _CASES}  # KİTAPLARDA, EVLERDEN
    endings |= {p + c for p in _POSSESSIVES for c in _CASES if p[-1] not in _BACK | _FRONT}
    return sorted(endings, key=lambda e: (len(e), e))  # the shortest first: the longest stem


SUFFIXES = tuple(_suffixes())
_HARDEN = {"B": "P", "C": "Ç", "D": "T", "Ğ": "K"}


def _harmonises(stem: str, suffix: str) -> bool:
    last = next((ch for ch in reversed(stem) if ch in _BACK or ch in _FRONT), None)
    first = next((ch for ch in suffix if ch in _BACK or ch in _FRONT), None)
    if last is None or first is None:
        return True
    return (last in _BACK) == (first in _BACK)


def _splits(word: str) -> Iterator[str]:
    """The stems left by removing each suffix, the shortest suffix first."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            stem = word[: -len(suffix)]
            if _harmonises(stem, suffix):
                yield stem


def stem_of(word: str, words: WordSource) -> str | None:
    """The listed word `word` looks like an inflection of, if any (see above)."""
    for stem in _splits(word):
        if stem in words:
            return stem
    for stem in _splits(word):
        hard = _HARDEN.get(stem[-1])
        if hard is not None and stem[:-1] + hard in words:
            return stem[:-1] + hard
        if stem[-1] == "Ğ" and stem[:-1] + "G" in words:
            return stem[:-1] + "G"
    return None


# reason → (Turkish, English); {word} and {stem} are filled in.
MESSAGES: dict[str, tuple[str, str]] = {
    "not_in_list": (
        "{word} oyunun sözlüğünde yok",
        "{word} is not in the game's dictionary",
    ),
    "inflected": (
        "{word} çekimli bir söz gibi görünüyor: sözlükte yalın hâli {stem} var, "
        "oyunda yalnız yalın hâl geçer",
        "{word} looks inflected: the dictionary holds its bare form {stem}, "
        "and only bare forms count in the game",
    ),
}


def look_up(
    raw: str,
    lang: str = "tr",
    words: WordSource | None = None,
    info: Mapping[str, tuple[Iterable[str], Iterable[str]]] | None = None,
) -> dict[str, Any]:
    """The answer of `GET /words/{word}`; `WordInputError` for a word that is no word."""
    word = normalise_word(raw)
    words = default_words() if words is None else words
    if word in words:
        table = infos() if info is None else info
        kinds, sources = table.get(word, ((), ()))
        return {"word": word, "known": True, "kinds": list(kinds), "sources": list(sources)}
    stem = stem_of(word, words)
    reason = "not_in_list" if stem is None else "inflected"
    turkish, english = MESSAGES[reason]
    message = (turkish if lang == "tr" else english).format(word=word, stem=stem)
    answer: dict[str, Any] = {"word": word, "known": False, "kinds": [], "sources": []}
    answer |= {"reason": reason, "message": message}
    if stem is not None:
        answer["stem"] = stem
    return answer
