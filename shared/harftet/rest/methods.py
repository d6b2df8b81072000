"""405 `method_not_allowed` (API.md v3): a known path asked with a method it does not take is
answered with the methods it does take (`Allow`), the same in the REST handler and the local
API Gateway. The paths and methods are those of the OpenAPI document."""

from __future__ import annotations

import re
from functools import cache
from typing import Any


@cache
def _routes() -> list[tuple[re.Pattern[str], str, int]]:
    from harftet.contract.openapi import document  # only on this rare path: its models cost a start

    found = [
        (path, method.upper())
        for path, operations in document()["paths"].items()
        for method in operations
    ]
    return [
        (
            re.compile("^" + re.sub(r"\\\{[^}/]+\\\}", "[^/]+", re.escape(path)) + "$"),
            method,
            path.count("{"),
        )
        for path, method in found
    ]


def allowed_methods(path: str) -> list[str]:
    """The methods the API takes on ``path`` (sorted; empty for a path it does not know)."""
    path = path.rstrip("/") or "/"
    matches = [(params, method) for pattern, method, params in _routes() if pattern.match(path)]
    # A literal path wins over a template that also matches it, as in API Gateway: the methods
    # of /players/me/passkeys/options are not those of /players/me/passkeys/{passkeyId}.
    fewest = min((params for params, _ in matches), default=0)
    return sorted({method for params, method in matches if params == fewest})


def method_not_allowed(method: str, allowed: list[str]) -> tuple[int, dict[str, Any], str]:
    """(405, the error body, the Allow header's value)."""
    allow = ", ".join(allowed)
    message = f"{method[:16]} is not allowed here: use {allow}"
    return 405, {"error": {"code": "method_not_allowed", "message": message}}, allow
