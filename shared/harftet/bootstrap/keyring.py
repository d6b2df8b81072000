"""The token signing keys' ring as a function reads it: from the SSM parameter functions/keys
writes on its schedule (docs/DEPLOY.md "Signing keys"), cached."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

logger = logging.getLogger(__name__)
FRESH_SECONDS = 10.0  # an unknown key id reads the ring again, at most this often


def key_ring(
    name: str, keep: float, clock: Callable[[], float], aws: Callable[[str], Any]
) -> Callable[[bool], list[Any]]:
    """The signing keys in the SSM parameter ``name``, kept ``keep`` seconds (5 minutes:
    ``TOKEN_KEYS_CACHE_SECONDS``; its absence too: before the first rotation); read fresh on
    an unknown key id at most every FRESH_SECONDS. A failed read (SSM throttled, say) keeps
    the keys read before and asks again FRESH_SECONDS later: it never signs anybody out."""
    from harftet.identity import parse_keys

    kept: dict[str, Any] = {"at": None, "keys": []}
    retry = min(FRESH_SECONDS, keep)

    def ring(fresh: bool) -> list[Any]:
        now = clock()
        at = kept["at"]
        if at is not None and now - at < (retry if fresh else keep):
            return list(kept["keys"])
        kept["at"] = now
        try:
            text = aws("ssm").get_parameter(Name=name, WithDecryption=True)
            kept["keys"] = parse_keys(str(text["Parameter"]["Value"]))
        except Exception as error:
            if _code(error) == "ParameterNotFound":  # before the first rotation
                kept["keys"] = []  # the one secret signs
            else:  # the keys read before still verify
                logger.warning("signing keys in %s not read: %s", name, error)
                kept["at"] = now - keep + retry
        return list(kept["keys"])

    return ring


def _code(error: Exception) -> str | None:
    """The AWS error code of ``error`` (botocore's ClientError), None for any other error."""
    response = getattr(error, "response", None)
    return response.get("Error", {}).get("Code") if isinstance(response, dict) else None
