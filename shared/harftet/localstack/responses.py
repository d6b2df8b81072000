"""HTTP answers as API Gateway makes them: a handler's proxy-integration result turned into a
response, payload compression, a `{"message": ...}` body, and the one access-log line a
request gets.
"""

from __future__ import annotations

import base64
import gzip
import logging
import time
from typing import Any

from starlette.responses import JSONResponse, Response

log = logging.getLogger("harftet.localstack")

# Hop-by-hop or recomputed here; a handler's values would contradict the real body.
_DROPPED_RESPONSE_HEADERS = {"content-length", "transfer-encoding", "connection"}


def message(status: int, text: str, **headers: str) -> JSONResponse:
    """A JSON `{"message": text}` answer, as API Gateway words its own refusals."""
    return JSONResponse({"message": text}, status_code=status, headers=headers or None)


def status_of(result: Any) -> int | None:
    """The statusCode of a proxy-integration result, or None when there is none."""
    if not isinstance(result, dict):
        return None
    status = result.get("statusCode")
    if isinstance(status, int):
        return status
    if isinstance(status, str) and status.isdigit():
        return int(status)
    return None


def proxy_response(result: Any) -> Response | None:
    """Translate a REST proxy-integration result into an HTTP response; None if malformed."""
    status = status_of(result)
    if status is None:
        log.error("REST handler returned a malformed proxy response: %r", result)
        return None
    body = result.get("body") or ""
    if not isinstance(body, str):
        log.error("REST handler returned a non-string body: %r", type(body))
        return None
    content = base64.b64decode(body) if result.get("isBase64Encoded") else body.encode()
    response = Response(content, status_code=status)
    # Where a name is in both, API Gateway keeps only the multi-value list.
    multi = {k: v for k, v in (result.get("multiValueHeaders") or {}).items() if v is not None}
    single = {k: [v] for k, v in (result.get("headers") or {}).items() if k not in multi}
    for name, values in {**single, **multi}.items():
        if name.lower() not in _DROPPED_RESPONSE_HEADERS:
            for value in values:
                response.headers.append(name, str(value))
    return response


def compressed(response: Response, accept: str, minimum: int | None) -> Response:
    """API Gateway's payload compression (the REST API's MinimumCompressionSize): an answer of
    at least ``minimum`` bytes is gzipped when the request accepts gzip."""
    body = bytes(response.body)
    if (
        minimum is None
        or len(body) < minimum
        or "gzip" not in accept.lower()
        or "content-encoding" in response.headers
    ):
        return response
    packed = gzip.compress(body, compresslevel=6, mtime=0)
    headers = [(k, v) for k, v in response.headers.items() if k.lower() != "content-length"]
    zipped = Response(packed, status_code=response.status_code)
    for name, value in headers:
        zipped.headers.append(name, value)
    zipped.headers["content-encoding"] = "gzip"
    return zipped


def log_access(method: str, path: str, status: int, began: float) -> None:
    """One line per request: what, the answer, how long (errors at a level that stands out)."""
    level = logging.ERROR if status >= 500 else logging.INFO
    shown = path if len(path) <= 120 else path[:117] + "..."
    ms = (time.perf_counter() - began) * 1000
    log.log(level, "%s %s → %d (%.0f ms)", method, shown, status, ms)
