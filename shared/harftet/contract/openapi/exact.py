"""What the server checks across a body's fields, said in the document too (issue 35: the
document is as strict as the server; schemathesis holds the two together in `make test`).

A model's own field constraints come from pydantic; the rules that tie one field to another,
or to a fixed set the server keeps elsewhere, are added here to the schemas they belong to."""

from __future__ import annotations

from typing import Any

from harftet.engine.options import CORRESPONDENCE_TURNS, LIMITS
from harftet.notify.targets import APNS_TOKEN, FCM_TOKEN
from harftet.phrases import PHRASES


def _when(field: str, schema: dict[str, Any], then: dict[str, Any]) -> dict[str, Any]:
    """``if`` the body holds ``field`` matching ``schema``, ``then`` ..."""
    return {"if": {"required": [field], "properties": {field: schema}}, "then": then}


def _turn(schema: dict[str, Any]) -> dict[str, Any]:
    return {"properties": {"turnSeconds": {"anyOf": [schema, {"type": "null"}]}}}


def _all(schema: dict[str, Any], *rules: dict[str, Any]) -> None:
    schema.setdefault("allOf", []).extend(rules)


def apply(schemas: dict[str, Any]) -> None:
    """Tighten the gathered ``schemas`` (by name) to what the server takes."""
    # Only an unrated table has unlimited hints (RULES §4a; the server's check_hints).
    _all(
        schemas["CreateTable"],
        _when(
            "hints",
            {"const": "unlimited"},
            {"required": ["rated"], "properties": {"rated": {"const": False}}},
        ),
    )
    # A live table's turn time is within its bounds; a correspondence table's, one of four.
    low, high = LIMITS["turn_seconds"]
    correspondence = {"required": ["pace"], "properties": {"pace": {"const": "correspondence"}}}
    _all(
        schemas["CreateTable"],
        {
            "if": correspondence,
            "then": _turn({"type": "integer", "enum": list(CORRESPONDENCE_TURNS)}),
            "else": _turn({"type": "integer", "minimum": low, "maximum": high}),
        },
    )
    # A level is for a computer player: only with "bot": true.
    _all(
        schemas["SitDown"],
        _when(
            "level",
            {"type": "string"},
            {"required": ["bot"], "properties": {"bot": {"const": True}}},
        ),
    )
    # A phone's token has its platform's shape (harftet.notify.targets).
    token = {"fcm": FCM_TOKEN.pattern, "apns": APNS_TOKEN.pattern}
    _all(
        schemas["DeviceBody"],
        *(
            _when("platform", {"const": platform}, {"properties": {"token": {"pattern": f"^{p}$"}}})
            for platform, p in token.items()
        ),
    )
    # A phrase is one of the set's ids (GET /phrases).
    schemas["SendPhrase"]["properties"]["phrase"]["enum"] = list(PHRASES)
