"""The Turkish dictionary: game-form normalisation, word sources and the default word list.

Words are stored in *game form*: NFC, circumflex folded (â→A, î→İ, û→U), Turkish upper case
(i→İ, ı→I), letters of the 29-letter alphabet only. Membership tests expect game form, so
normalise player input with `turkish_upper` first.

Import stays cheap (no gzip, no I/O): the list is read on the first `default_words()` call.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any, Protocol, TypeVar, runtime_checkable
from unicodedata import normalize

__all__ = [
    "ALPHABET",
    "DEFAULT_WORDS_PATH",
    "LETTER_VALUES",
    "AnySource",
    "DictionaryMissingError",
    "WordList",
    "WordSource",
    "default_words",
    "is_game_word",
    "turkish_upper",
]

ALPHABET = "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ"
"""The 29 letters of the Turkish alphabet, in order (no Q, W or X)."""

LETTER_VALUES: dict[str, int] = {
    "A": 1, "E": 1, "İ": 1, "K": 1, "L": 1, "N": 1, "R": 1, "T": 1,
    "I": 2, "M": 2, "O": 2, "S": 2, "U": 2,
    "B": 3, "D": 3, "Ü": 3, "Y": 3,
    "C": 4, "Ç": 4, "Ş": 4, "Z": 4,
    "G": 5, "H": 5, "P": 5,
    "F": 7, "Ö": 7, "V": 7,
    "Ğ": 8, "J": 10,
}  # fmt: skip
"""Each letter's value (RULES.md §1, the Turkish Scrabble values): the one home of this fact."""

# A str, not a pathlib.Path: importing pathlib would cost ~6 ms of cold start.
# The word list is built at set-up (`make dictionary`: harftet.words.build) into harftet/words/data.
DATA_DIR = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "words", "data"
)
DEFAULT_WORDS_PATH = os.path.join(DATA_DIR, "words.txt.gz")
"""Where `python -m harftet.words.build` writes the default list (generated, not committed)."""

_ALPHABET_SET = frozenset(ALPHABET)

T = TypeVar("T")


def turkish_upper(s: str) -> str:
    """Return `s` in game form: NFC, circumflexes folded, Turkish upper case (i→İ, ı→I)."""
    # Chained str.replace is ~3× faster than str.translate with a dict on non-ASCII text.
    s = normalize("NFC", s).replace("i", "İ").replace("ı", "I").upper()
    if s.isascii():
        return s
    s = s.replace("Â", "A").replace("Î", "İ").replace("Û", "U")
    # "İ".lower() gives "i" + U+0307; upper-casing that back leaves a stray combining dot.
    return s.replace("İ\u0307", "İ") if "\u0307" in s else s


def is_game_word(word: str, min_len: int = 2) -> bool:
    """Tell whether an already upper-cased `word` uses only the 29 letters and is long enough."""
    return len(word) >= min_len and _ALPHABET_SET.issuperset(word)


@runtime_checkable
class WordSource(Protocol):
    """Anything that can say whether a game-form word is accepted (a list, an analyser, …)."""

    def __contains__(self, word: str) -> bool:
        """Tell whether the game-form `word` is an accepted word."""
        ...


class WordList:
    """An immutable set of game-form words; the default, list-backed `WordSource`."""

    __slots__ = ("_derived", "_words")

    def __init__(self, words: Iterable[str]) -> None:
        """Wrap `words`, which must already be in game form."""
        self._words: frozenset[str] = words if isinstance(words, frozenset) else frozenset(words)
        self._derived: dict[str, Any] = {}

    def __contains__(self, word: object) -> bool:
        """Tell whether the game-form `word` is in the list (no normalisation here)."""
        return word in self._words

    def __len__(self) -> int:
        """Return the number of words."""
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        """Iterate over the words in no particular order."""
        return iter(self._words)

    def __repr__(self) -> str:
        """Show the size, not the words."""
        return f"WordList({len(self._words)} words)"

    @property
    def words(self) -> frozenset[str]:
        """Return the underlying frozenset."""
        return self._words

    def derived(self, key: str, factory: Callable[[WordList], T]) -> T:
        """Return data computed once from this list (e.g. a search index), building it lazily."""
        try:
            value: T = self._derived[key]
        except KeyError:
            value = self._derived[key] = factory(self)
        return value

    @classmethod
    def from_gzip(cls, path: str | os.PathLike[str]) -> WordList:
        """Load a gzipped UTF-8 file of one game-form word per line."""
        import zlib  # zlib alone: the gzip module would cost an extra import on cold start

        with open(path, "rb") as f:
            data = zlib.decompress(f.read(), 16 + zlib.MAX_WBITS)
        return cls(frozenset(data.decode("utf-8").split()))


class AnySource:
    """Accepts a word when any of its sources does: e.g. the list plus an inflection table."""

    __slots__ = ("sources",)

    def __init__(self, *sources: WordSource) -> None:
        """Combine `sources`, asked in order."""
        self.sources = sources

    def __contains__(self, word: str) -> bool:
        """Tell whether any source accepts the game-form `word`."""
        return any(word in source for source in self.sources)


class DictionaryMissingError(FileNotFoundError):
    """The generated word list is missing: run `make dictionary`."""


@cache
def default_words() -> WordList:
    """Return the default Turkish word list, loaded once per process."""
    try:
        return WordList.from_gzip(DEFAULT_WORDS_PATH)
    except FileNotFoundError:
        raise DictionaryMissingError(
            f"The Turkish word list {DEFAULT_WORDS_PATH} has not been generated. "
            "Run `make dictionary` (or `.venv/bin/python -m harftet.words.build`) once; "
            "it is built from a GPL-3.0 source at set-up and never committed."
        ) from None
