"""Reading a request body safely: `parse_body` turns any text into a JSON value or BodyError.

Whatever a client sends — huge integers, deep nesting, long strings or lists, NaN, stray
bytes — is answered 400 ``bad_request``, never 500, and costs no more than the body's size:
* the body is at most ``limit`` bytes;
* an integer has at most `MAX_INT_DIGITS` digits (Python refuses to parse > 4,300 digits
  with a plain ValueError; the game never needs more than a version number's);
* NaN and ±Infinity are not JSON;
* nesting is at most `MAX_DEPTH` deep, a list or object has at most `MAX_ITEMS` entries and a
  string at most `MAX_STRING` characters (a move body needs depth 5, 26 melds, 64-char ids).
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_ITEMS",
    "MAX_STRING",
    "BodyError",
    "parse_body",
]

MAX_BODY_BYTES = 64 * 1024  # a REST request body
MAX_INT_DIGITS = 20
MAX_DEPTH = 16
MAX_ITEMS = 1000
MAX_STRING = 4096


class BodyError(Exception):
    """The body is not a JSON object we can read (malformed, too large, not an object)."""


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise BodyError(f"a number in the body has more than {MAX_INT_DIGITS} digits")
    return int(digits)


def _parse_float(text: str) -> int | float:
    """A number with a fraction or an exponent. One that is a whole number (5.0, 1e3) is an
    integer, as JSON Schema says (and so the OpenAPI document): it is read as an int."""
    value = float(text)
    if value.is_integer():
        digits = str(int(value))
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise BodyError(f"a number in the body has more than {MAX_INT_DIGITS} digits")
        return int(value)
    return value


def _parse_constant(name: str) -> Any:
    raise BodyError(f"{name} is not a JSON number")


def _check_shape(value: Any) -> None:
    """Walk the parsed value without recursion; BodyError past a limit."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_STRING:
                raise BodyError(f"a string in the body is longer than {MAX_STRING} characters")
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise BodyError(f"the body is nested more than {MAX_DEPTH} levels deep")
            if len(item) > MAX_ITEMS:
                raise BodyError(f"a list or object in the body has more than {MAX_ITEMS} entries")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def parse_body(body: str | bytes | None, *, limit: int) -> Any:
    """The JSON value of a request body ({} when empty), or BodyError saying what is wrong."""
    if body is None:
        return {}
    if isinstance(body, bytes):
        if len(body) > limit:
            raise BodyError(f"the body is larger than {limit} bytes")
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError:
            raise BodyError("the body is not UTF-8 text") from None
    if len(body) > limit or len(body.encode("utf-8", "surrogatepass")) > limit:
        raise BodyError(f"the body is larger than {limit} bytes")
    if body.strip() == "":
        return {}
    try:
        value = json.loads(
            body, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except BodyError:
        raise
    except RecursionError:
        raise BodyError(f"the body is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as error:  # JSONDecodeError, and anything else the parser refuses
        raise BodyError(f"the body is not valid JSON: {error}") from None
    _check_shape(value)
    return value
