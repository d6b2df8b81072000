"""What a refusal says to a player, from the one catalogue (`harftet.texts`): `refusal_text`;
and which language a request asks for: `pick_language`.

A refusal's sentence is ``reason.<reason>.<kind>``, ``reason.<reason>`` or ``error.<code>``
(the first the catalogue has), prefixed by the meld or pair it is about (``where.meld``),
its placeholders filled from the refusal's params — a tile named as players see it ("K",
"mavi 7"), the rules' constants where the refusal gives none. Clients say the same sentence
from the same catalogue (API.md v4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harftet.engine.rules import MAX_HAND, MAX_SERIES
from harftet.engine.tiles import tiles_for
from harftet.engine.view import MIN_SERIES
from harftet.texts import LANGUAGES, catalogue, fill

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "pick_language", "refusal_text", "tile_name"]

DEFAULT_LANGUAGE = "en"
"""An answer's language when the request names none (API.md: English)."""

# What a sentence quotes from the rules when the refusal itself does not say it.
RULE_PARAMS: dict[str, int] = {"min": MIN_SERIES, "hand": MAX_HAND, "max": MAX_SERIES}


def tile_name(tile_id: Any, game: str | None, lang: str) -> str:
    """A tile as players see it: its letter, "mavi 7", "joker" (``#id`` without a game)."""
    if game not in ("kastet", "harftet") or not isinstance(tile_id, int):
        return f"#{tile_id}"
    tiles = tiles_for(game)
    if not 0 <= tile_id < len(tiles):
        return f"#{tile_id}"
    tile, texts = tiles[tile_id], catalogue(lang)
    if tile.joker:
        return texts["tile.joker"]
    if tile.letter is not None:
        return tile.letter
    return f"{texts[f'color.{tile.color}']} {tile.number}"


def _where(params: Mapping[str, Any], texts: Mapping[str, str]) -> str:
    """The meld or pair a refusal is about, as a prefix ("3. seri: ")."""
    for key in ("meld", "pair"):
        index = params.get(key)
        if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
            return fill(texts[f"where.{key}"], {key: index + 1})
    return ""


def refusal_text(
    code: str,
    reason: str | None,
    params: Mapping[str, Any] | None,
    lang: str,
    game: str | None = None,
) -> str:
    """The sentence of a refusal in ``lang``: its reason's if the catalogue has one, else
    its code's.

    >>> refusal_text("illegal_move", "not_a_word", {"meld": 2, "word": "SDÜ"}, "tr")
    '3. seri: SDÜ sözlükte yok'
    """
    texts = catalogue(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    given = dict(params or {})
    kind = given.get("kind")
    keys = [f"reason.{reason}.{kind}", f"reason.{reason}"] if reason else []
    keys.append(f"error.{code}")
    text = next((texts[k] for k in keys if k in texts), texts["error.illegal_move"])
    values = {**RULE_PARAMS, **given}
    if "tile" in given:
        values["tile"] = tile_name(given["tile"], game, lang)
    return _where(given, texts) + fill(text, values)


def pick_language(header: str | None) -> str:
    """The best of `LANGUAGES` for an ``Accept-Language`` header; English when none fits.

    Follows RFC 9110: ``tr-TR,tr;q=0.9,en;q=0.8`` → "tr"; ``en, tr;q=0.5`` → "en"; a range
    with ``q=0`` is refused; ``*`` stands for any language (English). Ties go to the range
    listed first. Malformed parts are skipped, never an error.
    """
    if not header:
        return DEFAULT_LANGUAGE
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for part in header[:4096].split(",")[:64]:  # a long header costs no more than this
        tag, _, rest = part.strip().partition(";")
        q = _quality(rest)
        if q <= 0.0:
            continue
        primary = tag.strip().lower().split("-", 1)[0]
        lang = DEFAULT_LANGUAGE if primary == "*" else primary
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


def _quality(params: str) -> float:
    """A language range's ``q`` (1 when absent; -1 when malformed or out of 0–1)."""
    q = 1.0
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value)
            except ValueError:
                return -1.0
            if not 0.0 <= q <= 1.0:
                return -1.0
    return q
