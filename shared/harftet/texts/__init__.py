"""The one catalogue of what a player reads (API.md v4 `GET /texts`): every sentence the
server or a client shows, Turkish first and English on a switch, one file per language.

Keys: ``error.<code>`` for each code of `harftet.errors.ERROR_CODES`, ``reason.<reason>``
(and ``reason.<reason>.<kind>``) for each illegal move's reason, ``phrase.<id>`` for the
table phrases, ``notify.<kind>.title|body`` for notifications, and the client's own labels.
Placeholders are ``{name}``, filled from a refusal's parameters (``meld``, ``word``,
``tile``, ``field``…) or from the rules' constants (``max``, ``min``, ``hand``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final

LANGUAGES: Final = ("tr", "en")
"""The languages of the catalogue; the first is the players' own."""

_HERE = Path(__file__).resolve().parent
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """Every sentence in ``lang`` ("tr" or "en"), by key."""
    if lang not in LANGUAGES:
        raise KeyError(f"no catalogue in {lang!r}")
    texts: dict[str, str] = json.loads((_HERE / f"{lang}.json").read_text(encoding="utf-8"))
    return texts


@cache
def version() -> str:
    """A short digest of every language's catalogue: it changes whenever a sentence does."""
    digest = hashlib.sha256()
    for lang in LANGUAGES:
        digest.update((_HERE / f"{lang}.json").read_bytes())
    return digest.hexdigest()[:16]


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a sentence."""
    return set(_PLACEHOLDER.findall(text))


def fill(text: str, params: Mapping[str, Any]) -> str:
    """A sentence with its placeholders filled from ``params`` (a missing one reads "?")."""
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), "?")), text)


def say(key: str, lang: str, params: Mapping[str, Any] | None = None) -> str | None:
    """The sentence ``key`` in ``lang`` with ``params`` filled in; None if there is none."""
    text = catalogue(lang if lang in LANGUAGES else LANGUAGES[0]).get(key)
    return None if text is None else fill(text, params or {})


__all__ = ["LANGUAGES", "catalogue", "fill", "placeholders", "say", "version"]
