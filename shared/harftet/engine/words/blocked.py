"""Words no computer player lays (RULES §4a): `blocked()`, read from `blocked.txt` beside the
dictionary's build (vulgar, sexual and slang words, insults). The dictionary keeps them — a
person may lay them — but the frequency ranking leaves them out, and the computer players
refuse them even where the ranking is missing.

Import is free (no I/O); the file is read on the first call.
"""

from __future__ import annotations

import os
from functools import cache

from harftet.engine.words import DATA_DIR, turkish_upper

__all__ = ["BLOCKED_PATH", "blocked", "parse_blocked"]

BLOCKED_PATH = os.path.join(os.path.dirname(DATA_DIR), "blocked.txt")
"""The list, kept in the repository beside allow.txt and deny.txt."""


def parse_blocked(text: str) -> frozenset[str]:
    """The words of a blocked list (one a line, `#` starts a comment), in game form."""
    words = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return frozenset(turkish_upper(w) for w in words if w)


@cache
def blocked() -> frozenset[str]:
    """The blocked words in game form, read once per process."""
    with open(BLOCKED_PATH, encoding="utf-8") as f:
        return parse_blocked(f.read())
