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


def test_every_documented_route_is_served_by_the_rest_handler_and_no_other():
    """The routes of harftet.rest (each feature's Router, which functions/rest/app.py
    includes: its decorated routes and the ones it relays) are exactly the document's paths
    and methods."""
    import re

    rest = DOC.parents[1] / "shared" / "harftet" / "rest"
    served = set()
    for module in rest.glob("*.py"):
        text = module.read_text()
        routes = re.findall(r'@router\.(\w+)\("([^"]+)"\)', text)
        routes += [(m.lower(), r) for m, r in re.findall(r'^ +"([A-Z]+) (/[^"]*)": "', text, re.M)]
        for method, route in routes:
            served.add((method, re.sub(r"<[^>]+>", "{}", route)))
    documented = {
        (method, re.sub(r"\{[^}]+\}", "{}", path))
        for path, operations in document()["paths"].items()
        for method in operations
    }
    assert served == documented
