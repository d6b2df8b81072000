"""The one map from a refusal to an answer: ``{"error": {"code", "message", ...}}`` with the
status `harftet.errors.STATUS` gives its code.

``message`` follows the request's language: Turkish from the catalogue (`harftet.texts`,
the sentence clients show too); English is the refusal's own sentence, which names what was
wrong for a developer ("series meld 2 (index 1): "ŞIKR" is not a word"), as is a malformed
request's in either language. A refusal's params
(``reason``, ``meld``, ``word``, ``tile``, ``field``, ``max``…) travel beside it, so a client
says it in its own language from the catalogue.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

from harftet.api.body import BodyError, parse_body
from harftet.api.messages import pick_language, refusal_text
from harftet.errors import (
    STATUS,
    BadRequestError,
    BannedError,
    EngineError,
    HarftetError,
    IllegalMoveError,
    RateLimitedError,
    StaleVersionError,
)
from harftet.store.transient import is_transient

__all__ = ["BodyError", "error_response", "language", "parse_json"]

if TYPE_CHECKING:
    from pydantic import ValidationError

RESERVED = ("code", "message", "reason")
# A malformed request's message names the field and what was wrong in the request's own terms
# (for the developer who sent it); a client shows the catalogue's sentence for its code.
UNTRANSLATED = ("bad_request", "internal")


def _is_validation_error(error: Exception) -> TypeGuard[ValidationError]:
    """Whether ``error`` is pydantic's ValidationError, without importing pydantic: a handler
    imports it with the request models, only on the routes that take a body (harftet.api.models),
    and no ValidationError exists before it is imported."""
    core = sys.modules.get("pydantic_core")  # pydantic.ValidationError is pydantic_core's
    return core is not None and isinstance(error, core.ValidationError)


def _validation_message(error: ValidationError) -> tuple[str, str | None]:
    """What a pydantic refusal says, and the first field it names."""
    parts, fields = [], []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"] if p not in ("body",)) or "body"
        fields.append(where)
        if item["type"] == "extra_forbidden":
            parts.append(f"unknown field '{where}'")
        else:
            parts.append(f"'{where}': {item['msg']}")
    more = len(error.errors()) - len(parts)
    message = "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")
    return message, fields[0] if fields else None


def _refusal(error: Exception) -> tuple[str, str, str | None, dict[str, Any]]:
    """(code, English sentence, reason, params) of an expected refusal; code "internal" for
    anything else (a bug or an outage: never the client's fault)."""
    if _is_validation_error(error):
        message, field = _validation_message(error)
        return "bad_request", message, None, {"field": field} if field else {}
    if isinstance(error, BodyError):
        return "bad_request", str(error), None, {}
    if isinstance(error, EngineError):
        params = dict(getattr(error, "params", {}) or {})
        if error.meld is not None:
            params["meld"] = error.meld
        return error.code, error.message, getattr(error, "reason", None), params
    if isinstance(error, HarftetError):
        params = dict(getattr(error, "params", {}) or {})
        if isinstance(error, BadRequestError) and error.field:
            params["field"] = error.field
        if isinstance(error, RateLimitedError):
            params["seconds"] = error.retry_after
        return error.code, str(error), getattr(error, "reason", None), params
    if is_transient(error):  # DynamoDB: "try again later", after the SDK's retries
        return "busy", "the table is too busy right now: try again", None, {}
    return "internal", "something went wrong on our side", None, {}


def error_response(error: Exception, lang: str = "en") -> tuple[int, dict[str, Any]]:
    """The status and body for ``error`` in ``lang`` (`language` reads it from a request's
    headers); anything unexpected is a plain 500 ``internal``."""
    code, message, reason, params = _refusal(error)
    if lang == "tr" and code not in UNTRANSLATED:
        message = refusal_text(code, reason, params, lang, getattr(error, "game", None))
    extra = {k: v for k, v in params.items() if k not in RESERVED and k != "seconds"}
    if reason is not None:
        extra["reason"] = reason
    if isinstance(error, IllegalMoveError) and "reason" not in extra:
        extra["reason"] = error.reason
    if isinstance(error, BannedError):
        extra["bannedUntil"] = None if error.until is None else int(error.until)
    if isinstance(error, RateLimitedError):
        extra["retryAfter"] = error.retry_after
    body: dict[str, Any] = {"error": {"code": code, "message": message, **extra}}
    if isinstance(error, StaleVersionError):  # API.md: the body also carries the current view
        body["view"] = error.view
    return STATUS[code], body


def language(headers: Any) -> str:
    """The reply language ("tr" or "en") for request ``headers`` (any case of Accept-Language)."""
    if not headers:
        return "en"
    try:
        items = headers.items()
    except AttributeError:
        return "en"
    for name, value in items:
        if isinstance(name, str) and name.lower() == "accept-language" and isinstance(value, str):
            return pick_language(value)
    return "en"


def parse_json(body: str | None, *, limit: int) -> Any:
    """The JSON value of a request body, or BodyError saying what is wrong with it.

    Kept for the handlers; `harftet.api.body.parse_body` enforces every input limit.
    """
    return parse_body(body, limit=limit)
