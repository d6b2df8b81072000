"""What a player's name may hold (API.md, Identity): `check_name`.

A name is 1–24 visible characters after trimming. Refused, so that no name can hide, spoof
or overrun another in the lobby and the seat list:
* control characters (Cc) and line or paragraph separators (Zl, Zp);
* format characters (Cf): zero-width spaces and joiners, bidi embeddings and overrides
  (U+202A–202E), isolates (U+2066–2069), the BOM, and tag characters (U+E0000–E007F);
* private-use (Co), surrogate (Cs) and unassigned (Cn) code points;
* blank "letters" that render as nothing (Hangul fillers, the braille blank);
* combining-mark floods: more than `MAX_MARKS` marks on one character, or a mark first.

Spaces other than U+0020 become U+0020; the name is NFC-normalised, then counted in visible
characters (a character with its combining marks counts once).
"""

from __future__ import annotations

import unicodedata

from harftet.bounds import NAME_MAX

__all__ = ["MAX_MARKS", "MAX_NAME", "MAX_RAW", "NAME_SCHEMA", "check_name"]

MAX_NAME = NAME_MAX
"""The most visible characters a name may have."""

MAX_MARKS = 2
"""The most combining marks one character may carry (Vietnamese needs 2: ệ = e + ̣ + ̂)."""

MAX_RAW = 96
"""The most code points a name may be sent with, spaces and marks included (24 × 3 + 24)."""

# What a schema can say of `check_name`: no control, separator, zero-width, bidi, BOM,
# interlinear or private-use character (and no lone surrogate).
NAME_PATTERN = (
    r"^[^\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u180e"
    r"\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ue000-\uf8ff\ud800-\udfff"
    r"\u115f\u1160\u3164\uffa0\u2800]+$"
)

NAME_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_RAW,
    "pattern": NAME_PATTERN,
    "description": (
        f"1–{MAX_NAME} visible characters after trimming; control, format (zero-width, bidi),"
        " private-use and unassigned characters and combining-mark floods are refused"
    ),
}
"""The name's JSON schema (OpenAPI): what a schema can say; `check_name` says the rest."""

_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character (zero-width, bidi or tag)",
    "Co": "a private-use character",
    "Cs": "a lone surrogate",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # Hangul fillers, braille blank


def check_name(raw: str) -> str:
    """Return the name as stored (trimmed, NFC, plain spaces), or raise ValueError saying why."""
    if len(raw) > MAX_RAW:  # don't scan what is too long anyway
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    name = unicodedata.normalize("NFC", raw)
    chars = []
    for ch in name:
        category = unicodedata.category(ch)
        if category in _REFUSED_CATEGORIES:
            raise ValueError(
                f"a name may not contain {_REFUSED_CATEGORIES[category]} (U+{ord(ch):04X})"
            )
        if ch in _BLANK_LETTERS:
            raise ValueError(f"a name may not contain a blank character (U+{ord(ch):04X})")
        chars.append(" " if category == "Zs" else ch)
    name = " ".join("".join(chars).split())  # trim, and one space between words
    visible, marks = 0, 0
    for ch in name:
        if unicodedata.category(ch).startswith("M"):
            marks += 1
            if visible == 0:
                raise ValueError("a name may not start with a combining mark")
            if marks > MAX_MARKS:
                raise ValueError(f"a character may carry at most {MAX_MARKS} combining marks")
        else:
            visible, marks = visible + 1, 0
    if visible == 0:
        raise ValueError("a name needs at least one visible character")
    if visible > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    return name
