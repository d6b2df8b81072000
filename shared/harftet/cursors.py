"""Opaque page cursors: where a page ended, as JSON, signed so that a client can neither forge
nor edit one (the lobby, the leaderboards, the inbox: one implementation)."""

from __future__ import annotations

import base64
import hmac
import json
from collections.abc import Callable
from typing import Any

Mac = Callable[[bytes], bytes]
MAX_CURSOR = 600


class CursorError(ValueError):
    """A cursor this server did not give out (or one for another list)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(mac: Mac, where: Any) -> str:
    """A cursor carrying ``where`` (any JSON value), signed with ``mac``."""
    data = json.dumps(where, sort_keys=True, separators=(",", ":")).encode()
    return f"{_b64(data)}.{_b64(mac(data)[:16])}"


def read(mac: Mac, cursor: str) -> Any:
    """The value a cursor of ``sign`` carries; CursorError when it is not one of ours."""
    if len(cursor) > MAX_CURSOR or cursor.count(".") != 1:
        raise CursorError("not a cursor")
    data_part, mac_part = cursor.split(".")
    try:
        data = _unb64(data_part)
        if not hmac.compare_digest(_unb64(mac_part), mac(data)[:16]):
            raise CursorError("not a cursor")
        return json.loads(data)
    except (ValueError, TypeError, UnicodeDecodeError) as error:
        raise CursorError("not a cursor") from error
