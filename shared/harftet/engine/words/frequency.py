"""How common a dictionary word is: `rank(word)` and `is_common(word)`.

The ranking is generated at set-up by `python -m harftet.words.build` from wordfreq's Turkish
list (wordfreq 3.1.1, `small_tr`: Wikipedia, subtitles, web text and Twitter; data CC-BY-SA-4.0,
so it is generated, never committed). Only words of the default list are ranked: wordfreq's own
entries are mostly inflected forms and names, which are no game words. Entries that fold to the
same game form (âlim, alim) add up. The file, `data/frequency.txt.gz` beside the word list,
holds the ranked words, most common first, one a line.

Import is free (no I/O); the file is read on the first call (a few milliseconds).
"""

from __future__ import annotations

import os
from functools import cache

from harftet.engine.words import DATA_DIR

__all__ = ["COMMON_RANK", "FREQUENCY_PATH", "FrequencyMissingError", "is_common", "rank", "ranks"]

FREQUENCY_PATH = os.path.join(DATA_DIR, "frequency.txt.gz")
"""Where the build writes the ranking (generated, not committed)."""

COMMON_RANK = 4000
"""`is_common` is true for the 4,000 most frequent dictionary words.

Why 4,000: that is where wordfreq's Turkish frequency falls to 10 per million words (zipf 4;
rank 4,000 was zipf 4.0 when measured, rank 1,000 zipf 4.8, rank 8,000 zipf 3.4): words met
every day (EV, KİTAP, ŞARKI, GÜZEL, OKUMAK, ŞIK); below come words players know but rarely
use (ARK, ÇIĞIR, HORTUM, KRAMP) and after rank ~12,000 none is listed (KALEMLİK). A random
14-tile Harftet hand still spells on average ~46 common words of ≥ 3 letters (300 seeded
hands: every one spelled at least one), so an easy player is never short of a word.
"""


class FrequencyMissingError(FileNotFoundError):
    """The generated ranking is missing: run `make dictionary`."""


@cache
def ranks() -> dict[str, int]:
    """Return {game-form word: rank}, rank 1 the most common; loaded once per process."""
    import zlib  # zlib alone, as in `WordList.from_gzip`: the gzip module costs a cold import

    try:
        with open(FREQUENCY_PATH, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise FrequencyMissingError(
            f"The word-frequency ranking {FREQUENCY_PATH} has not been generated. "
            "Run `make dictionary` (or `.venv/bin/python -m harftet.words.build`) once; "
            "it is made from CC-BY-SA data at set-up and never committed."
        ) from None
    words = zlib.decompress(data, 16 + zlib.MAX_WBITS).decode("utf-8").split()
    return {word: n for n, word in enumerate(words, 1)}


def rank(word: str) -> int | None:
    """Return the frequency rank of the game-form `word` (1 = most common), None if unranked.

    Unranked are words outside the default list and rare words wordfreq does not list.
    """
    return ranks().get(word)


def is_common(word: str) -> bool:
    """Tell whether the game-form `word` is an everyday word (rank ≤ `COMMON_RANK`)."""
    n = ranks().get(word)
    return n is not None and n <= COMMON_RANK
