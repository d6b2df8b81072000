"""What the handlers read from API Gateway's proxy events, whatever encoding they arrive in.

API Gateway hands a body over base64-encoded (``"isBase64Encoded": true``) whenever the API
has binary media types that match the request, and ``sam local generate-event apigateway
aws-proxy`` always does; WebSocket binary frames arrive the same way. The handlers read the
body through `body_text` only, so both encodings reach the same JSON parser.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from harftet.api.errors import BodyError


def body_text(event: Mapping[str, Any], *, limit: int) -> str | None:
    """The event's body as text: decoded from base64 when the event says it is encoded.

    ``limit`` (bytes) is checked before decoding, so an oversized encoded body is refused
    without being decoded; `parse_json` checks the decoded text against the same limit.
    """
    body = event.get("body")
    if body is None or event.get("isBase64Encoded") is not True:
        return body if isinstance(body, str) or body is None else str(body)
    if not isinstance(body, str):
        raise BodyError("the body is not valid base64")
    if len(body) > (limit + 2) // 3 * 4 + 4:  # the base64 length of `limit` bytes, padded
        raise BodyError(f"the body is larger than {limit} bytes")
    try:
        raw = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError) as error:
        raise BodyError("the body is not valid base64") from error
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BodyError("the body is not UTF-8 text") from error
