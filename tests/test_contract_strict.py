"""docs/openapi.json is as strict as the server: inputs the server refuses with 400 are
refused by the document too, and what the document admits the server takes. Each case is
checked both ways: against the document's schema (jsonschema, 2020-12) and through the
server's own parsing and models (the REST handler's path: parse_body, then pydantic)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter, ValidationError

from harftet.api.body import parse_body
from harftet.api.models import (
    CreatePlayer,
    CreateTable,
    DrawMove,
    LayMove,
    ReadyMove,
    SitDown,
)
from harftet.contract.openapi import document

DOC = document()


def _schema_admits(name: str, value: Any) -> bool:
    root = {"$ref": f"#/components/schemas/{name}", "components": DOC["components"]}
    return Draft202012Validator(root).is_valid(value)


def _server_admits(model: Any, raw: str) -> bool:
    try:
        TypeAdapter(model).validate_python(parse_body(raw, limit=100_000))
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(
    ("model", "raw", "admitted"),
    [
        (CreatePlayer, '{"name": "Ayşe"}', True),
        (CreatePlayer, '{"name": "Ay\\u0007şe"}', False),  # a control character
        (CreatePlayer, '{"name": "Ay\\u202eşe"}', False),  # a bidi override
        (CreatePlayer, '{"name": "Ay\\u200bşe"}', False),  # a zero-width space
        (CreatePlayer, '{"name": "\\ue000"}', False),  # private use
        (CreateTable, '{"game": "kastet", "botSeconds": 5.0}', True),  # JSON Schema: an integer
        (CreateTable, '{"game": "kastet", "botSeconds": 4.5}', False),
        (CreateTable, '{"game": "kastet", "seats": 3.0}', True),
        (DrawMove, '{"version": 3, "moveId": null, "type": "draw"}', False),
        (DrawMove, '{"version": 3, "type": "draw"}', False),
        (DrawMove, '{"version": 3, "moveId": "m1", "type": "draw"}', True),
        (DrawMove, '{"version": 3, "moveId": null, "type": "draw", "dryRun": true}', True),
        (LayMove, '{"version": 3, "moveId": null, "type": "lay", "series": []}', False),
        (DrawMove, '{"version": 3.0, "moveId": "m1", "type": "draw"}', True),
        (DrawMove, '{"version": 9007199254740991, "moveId": "m1", "type": "draw"}', True),
        (DrawMove, '{"version": 99999999999999999999, "moveId": "m1", "type": "draw"}', False),
        (ReadyMove, '{"version": 3, "moveId": null, "type": "ready"}', False),  # issue 35
        (CreateTable, '{"game": "kastet", "hints": "unlimited"}', False),
        (CreateTable, '{"game": "kastet", "hints": "unlimited", "rated": false}', True),
        (CreateTable, '{"game": "kastet", "turnSeconds": 259200}', False),  # a live table
        (CreateTable, '{"game": "kastet", "pace": "correspondence", "turnSeconds": 259200}', True),
        (CreateTable, '{"game": "kastet", "pace": "correspondence", "turnSeconds": 600}', False),
        (SitDown, '{"bot": false, "level": "expert"}', False),
        (SitDown, '{"bot": true, "level": "expert"}', True),
    ],
)
def test_the_document_and_the_server_agree(model: Any, raw: str, admitted: bool) -> None:
    assert _schema_admits(model.__name__, json.loads(raw)) is admitted  # 5.0 as sent
    assert _server_admits(model, raw) is admitted
