"""What a refused move says to a player, in Turkish or English: `illegal_message`.

The engine gives a stable ``reason`` (`harftet.engine.errors.REASONS`) and its ``params``;
this turns them into one short sentence in the games' own words (seri, çift, taş, el, deste,
joker). Clients may show their own text from ``reason`` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["LANGUAGES", "MESSAGES", "illegal_message", "pick_language"]

LANGUAGES = ("tr", "en")
"""The languages a message can be in; the first is the players', the last the default."""

DEFAULT_LANGUAGE = "en"

# reason → (Turkish, English); placeholders name params.
MESSAGES: dict[str, tuple[str, str]] = {
    "illegal_move": ("Bu hamle kurallara uymuyor", "This move breaks a rule of the game"),
    "banned_operator": (
        "Oyuncun yöneticiler tarafından engellendi: masaya oturamaz, masa açamazsın",
        "An operator has banned your player: you may not sit down or create tables",
    ),
    "unknown_move": ("Böyle bir hamle yok", "There is no such move"),
    "too_many_correspondence": (
        "Aynı anda en çok {max} yazışmalı masada oynayabilirsin: önce birini bitir ya da bırak",
        "You may play at most {max} correspondence tables at once: finish or leave one first",
    ),
    "rate_limited": (
        "Çok sık denedin: {seconds} saniye sonra yeniden dene",
        "Too many tries: try again in {seconds} s",
    ),
    "must_draw_or_lay": (
        "Taş çek ya da aç: açmadan pas ancak elde 22 taş varken ya da deste bitince olur",
        "Draw or lay: you may pass without laying only with 22 tiles or an empty pile",
    ),
    "already_laid": (
        "Bu sırada açtın: artık taş çekemezsin, pas geç",
        "You laid this turn: you may not draw now, pass instead",
    ),
    "hand_full": (
        "Elinde {max} taş var, daha çekemezsin: aç ya da pas geç",
        "You hold {max} tiles, the most allowed: lay or pass",
    ),
    "pile_empty": ("Deste bitti: aç ya da pas geç", "The pile is empty: lay or pass"),
    "too_many_series": (
        "Seri alanında en çok {max} seri olur, bu açışta {count} var",
        "The series area holds at most {max} melds, this lay has {count}",
    ),
    "table_tile_missing": (
        "{tile} numaralı taş masadaydı, eksik: masadaki taş ele dönmez",
        "Tile {tile} was on the table and is missing: table tiles never return to a hand",
    ),
    "nothing_added": (
        "Elinden en az bir taş eklemelisin",
        "A lay must add at least one tile from your hand",
    ),
    "pairs_closed": (
        "Çift alanı ancak {max} seri dolunca açılır, şimdi {count} seri var",
        "The pair area opens only when all {max} series places are filled; there are {count}",
    ),
    "unknown_tile": ("Böyle bir taş yok", "There is no such tile"),
    "duplicate_tile": (
        "{tile} numaralı taş iki kez kullanılmış",
        "Tile {tile} appears more than once",
    ),
    "pair_frozen": (
        "{tile} numaralı taş çift alanında: çiftler yerinden oynamaz",
        "Tile {tile} is in the pair area: pairs never move",
    ),
    "pair_from_series": (
        "{tile} numaralı taş seri alanında: çift elden açılır",
        "Tile {tile} is on the series area: pairs are laid from your hand",
    ),
    "not_in_hand": ("{tile} numaralı taş elinde yok", "Tile {tile} is not in your hand"),
    "joker_face_missing": (
        "Joker ({tile}) için yerine geçtiği taşı seç",
        "Joker {tile} needs a declared face",
    ),
    "bad_joker_face": (
        "Joker ({tile}) böyle bir taşın yerine geçemez",
        "Joker {tile} cannot stand for that",
    ),
    "not_a_joker": (
        "{tile} numaralı taş joker değil, başka bir taşın yerine geçemez",
        "Tile {tile} is not a joker and cannot stand for anything",
    ),
    "meld_too_short": ("Seride en az 3 taş olmalı", "A series meld needs at least 3 tiles"),
    "bad_meld": (
        "Geçersiz seri: aynı renkte sıralı sayılar ya da aynı sayının farklı renkleri olmalı",
        "Not a meld: a run (one colour, numbers rising by one) or a set (one number)",
    ),
    "not_a_word": ("{word} sözlükte yok", "{word} is not in the dictionary"),
    "bad_pair": (
        "Geçersiz çift: iki aynı taş ya da iki taşlık bir sözcük olmalı",
        "Not a pair: two identical tiles, or a word of exactly 2 tiles",
    ),
}

# Finer wording where a reason's `kind` param says more.
_KINDS: dict[tuple[str, str], tuple[str, str]] = {
    ("bad_meld", "run"): (
        "Sıralı seri değil: sayılar birer artmalı, 1 yalnız başta olur",
        "Not a run: numbers must rise by one, and 1 is low only",
    ),
    ("bad_meld", "set"): (
        "Grup değil: her renk bir kez olmalı",
        "Not a set: each colour may appear once",
    ),
    ("meld_too_short", "word"): (
        "{word} çok kısa: seri sözcüğü en az 3 harf olmalı",
        "{word} is too short: a series word needs at least 3 letters",
    ),
    ("bad_pair", "size"): ("Çift tam 2 taştır", "A pair is exactly 2 tiles"),
    ("bad_pair", "different"): (
        "Çift iki aynı taştan olur",
        "A pair is two identical tiles",
    ),
}


def _where(params: Mapping[str, Any], lang: str) -> str:
    """The meld or pair the message is about, as a prefix ("3. seri: ")."""
    places = (("meld", "{n}. seri: ", "Series meld {n}: "), ("pair", "{n}. çift: ", "Pair {n}: "))
    for key, tr, en in places:
        index = params.get(key)
        if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
            return (tr if lang == "tr" else en).format(n=index + 1)
    return ""


class _Params(dict[str, Any]):
    """Params for `str.format_map`; a missing one reads as "?" (never a KeyError)."""

    def __missing__(self, key: str) -> str:
        return "?"


def _fill(template: str, params: Mapping[str, Any]) -> str:
    """Fill a template's {tile}, {word}, {count}, {max} from ``params``."""
    return template.format_map(_Params(params))


def illegal_message(reason: str, params: Mapping[str, Any] | None, lang: str) -> str:
    """Say why a move was refused, in ``lang`` ("tr" or "en"; anything else gives English).

    >>> illegal_message("not_a_word", {"meld": 2, "word": "SDÜ"}, "tr")
    '3. seri: SDÜ sözlükte yok'
    """
    params = params or {}
    kind = params.get("kind")
    pair = _KINDS.get((reason, kind)) if isinstance(kind, str) else None
    tr, en = pair or MESSAGES.get(reason, MESSAGES["illegal_move"])
    text = _fill(tr if lang == "tr" else en, params)
    return _where(params, lang) + text


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
        tag = tag.strip().lower()
        q = 1.0
        for param in rest.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = -1.0
                if not 0.0 <= q <= 1.0:
                    q = -1.0
        if q <= 0.0:
            continue
        primary = tag.split("-", 1)[0]
        lang = DEFAULT_LANGUAGE if primary == "*" else primary
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best
