"""The one map from exceptions to API errors: ``{"error": {"code", "message", ...}}``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

from harftet.api.body import BodyError, parse_body
from harftet.api.messages import illegal_message, pick_language
from harftet.engine.errors import EngineError, IllegalMoveError
from harftet.identity import UnauthorizedError
from harftet.limits import RateLimitedError
from harftet.service import BadRequestError, BannedError, BusyError, StaleVersionError, is_transient
from harftet.store.errors import NotFoundError

__all__ = ["BodyError", "error_response", "language", "parse_json"]

if TYPE_CHECKING:
    from pydantic import ValidationError


def _is_validation_error(error: Exception) -> TypeGuard[ValidationError]:
    """Whether ``error`` is pydantic's ValidationError, without importing pydantic: a handler
    imports it with the request models, only on the routes that take a body (harftet.api.models),
    and no ValidationError exists before it is imported."""
    core = sys.modules.get("pydantic_core")  # pydantic.ValidationError is pydantic_core's
    return core is not None and isinstance(error, core.ValidationError)


def _validation_message(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"] if p not in ("body",)) or "body"
        if item["type"] == "extra_forbidden":
            parts.append(f"unknown field '{where}'")
        else:
            parts.append(f"'{where}': {item['msg']}")
    more = len(error.errors()) - len(parts)
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def error_response(error: Exception, lang: str = "en") -> tuple[int, dict[str, Any]]:
    """The status and body for ``error``; unexpected errors are a plain 500.

    An ``illegal_move`` carries its ``reason`` and params (``meld``, ``pair``, ``word``,
    ``tile`` …) and, for ``lang`` "tr", a Turkish ``message`` (English: the engine's own
    wording). Use `language` to get ``lang`` from an ``Accept-Language`` header.
    """
    extra: dict[str, Any] = {}
    if _is_validation_error(error):
        status, code, message = 400, "bad_request", _validation_message(error)
    elif isinstance(error, BodyError | BadRequestError):
        status, code, message = 400, "bad_request", str(error)
    elif isinstance(error, UnauthorizedError):
        status, code, message = 401, "unauthorized", str(error)
    elif isinstance(error, BannedError):
        status, code, message = 403, "banned", str(error)
        reason = getattr(error, "reason", None)  # an operator's ban: no end (harftet.people)
        if reason is not None:
            message = illegal_message(reason, {}, lang)
        extra["bannedUntil"] = int(error.until) if reason is None else None
    elif isinstance(error, NotFoundError):
        status, code, message = 404, "not_found", str(error)
    elif isinstance(error, StaleVersionError):
        status, code, message = 409, "stale_version", str(error)
    elif isinstance(error, EngineError):
        status, code, message = error.status, error.code, error.message
        if error.meld is not None:
            extra["meld"] = error.meld
        if isinstance(error, IllegalMoveError):
            reserved = ("code", "message", "reason")
            extra |= {k: v for k, v in error.params.items() if k not in reserved}
            extra["reason"] = error.reason
            if lang == "tr":
                message = illegal_message(error.reason, error.params, lang)
        elif getattr(error, "reason", None) is not None:  # which limit: too_many_correspondence
            params = getattr(error, "params", {})
            extra |= {**params, "reason": error.reason}
            if lang == "tr":
                message = illegal_message(error.reason, params, lang)
    elif isinstance(error, RateLimitedError):  # the REST reply also says Retry-After
        status, code, message = 429, "rate_limited", str(error)
        if lang == "tr":
            message = illegal_message("rate_limited", {"seconds": error.retry_after}, lang)
        extra["retryAfter"] = error.retry_after
    elif isinstance(error, BusyError) or is_transient(error):  # DynamoDB: "try again later"
        status, code, message = 503, "busy", str(error)
    else:
        status, code, message = 500, "internal", "something went wrong on our side"
    body: dict[str, Any] = {"error": {"code": code, "message": message, **extra}}
    if isinstance(error, StaleVersionError):  # API.md: the body also carries the current view
        body["view"] = error.view
    return status, body


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
