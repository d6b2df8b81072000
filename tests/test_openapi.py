"""The committed OpenAPI document describes the API as the code defines it."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_spec_validator import validate

from harftet.contract.openapi import document

DOC = Path(__file__).resolve().parents[1] / "docs" / "openapi.json"


def test_the_committed_openapi_document_is_current_and_valid():
    committed = json.loads(DOC.read_text(encoding="utf-8"))
    assert committed == document(), (
        "regenerate: python -m harftet.contract.openapi > docs/openapi.json"
    )
    validate(committed)


def test_every_documented_route_is_served_by_the_rest_handler():
    source = (DOC.parents[1] / "functions" / "rest" / "app.py").read_text(encoding="utf-8")
    accounts = DOC.parents[1] / "shared" / "harftet" / "accounts" / "routes.py"
    source += accounts.read_text(encoding="utf-8").replace("@router.", "@app.")  # included
    words = DOC.parents[1] / "shared" / "harftet" / "words" / "routes.py"
    source += words.read_text(encoding="utf-8").replace("@router.", "@app.")  # included
    for path, operations in document()["paths"].items():
        route = path.replace("{", "<").replace("}", ">").replace("playerId", "player_id")
        route = route.replace("tableId", "table_id").replace("passkeyId", "passkey_id")
        for method in operations:
            assert f'@app.{method}("{route}")' in source, f"{method.upper()} {path} is not served"
