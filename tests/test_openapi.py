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


def test_matchmaking_s_wait_states_the_bounds_the_server_checks():
    """A client (and the fuzzer) reads 5–120 from the document; the server refused anything
    else with a 400 while the schema allowed any integer."""
    from harftet.matchmaking.models import WAIT_BOUNDS

    wait = document()["components"]["schemas"]["TicketRequest"]["properties"]["waitSeconds"]
    (number,) = [s for s in wait["anyOf"] if s.get("type") == "integer"]
    assert (number["minimum"], number["maximum"]) == WAIT_BOUNDS == (5, 120)
