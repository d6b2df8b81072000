"""`GET /texts`: the catalogue of one language, with the bounds a client shows, cacheable
by an ETag that changes whenever a sentence or a bound does."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from harftet.bounds import client_bounds
from harftet.errors import BadRequestError
from harftet.texts import LANGUAGES, catalogue, version

CACHE_CONTROL = "public, max-age=300, must-revalidate"


def texts_reply(lang: str, if_none_match: str | None) -> tuple[int, Any, dict[str, str]]:
    """(status, body, headers): 200 with ``{"lang", "version", "texts", "bounds"}``, or 304
    when the client's copy is the current one."""
    if lang not in LANGUAGES:
        raise BadRequestError(f"lang must be one of {', '.join(LANGUAGES)}", field="lang")
    bounds = client_bounds()
    shown = json.dumps(bounds, sort_keys=True).encode()
    current = hashlib.sha256(version().encode() + shown).hexdigest()[:16]
    etag = f'"{current}-{lang}"'
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Language"}
    if if_none_match and etag in [t.strip() for t in if_none_match.split(",")]:
        return 304, "", headers
    body = {
        "lang": lang,
        "version": version(),
        "texts": dict(catalogue(lang)),
        "bounds": client_bounds(),
    }
    return 200, body, headers


def shell_copy(lang: str) -> bytes:
    """The catalogue of `lang` as the web client's shell carries it (`texts.{lang}.json` beside
    index.html): the body of `GET /texts` with its ETag inside, the form the client keeps. The
    first screen draws from it without waiting for config.json and the API; the client then
    asks `GET /texts` with that ETag (a 304 while the two agree)."""
    _, body, headers = texts_reply(lang, None)
    kept = {**body, "etag": headers["ETag"]}
    return json.dumps(kept, ensure_ascii=False, sort_keys=True).encode()
