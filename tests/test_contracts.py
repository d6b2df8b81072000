"""Contracts a client developer generates from: docs/openapi.json and docs/asyncapi.yaml.

Each is checked by an independent tool (openapi-spec-validator; the AsyncAPI parser from
npm), against the routes and error codes of the API contract (API.md), and the OpenAPI
document is turned into TypeScript types (openapi-typescript) that a small hand-written
client in clients/typescript/ must type-check against (tsc --noEmit).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from openapi_spec_validator import validate
from testkit import API_MD_ROUTES, ran

from harftet.contract.asyncapi import document as asyncapi_document
from harftet.contract.asyncapi import dump

REPO = Path(__file__).resolve().parents[1]
OPENAPI = REPO / "docs" / "openapi.json"
ASYNCAPI = REPO / "docs" / "asyncapi.yaml"
NODE_BIN = REPO / "node_modules" / ".bin"
CLIENT = REPO / "clients" / "typescript"

# API.md, "Errors": status → codes.
API_MD_ERRORS = {
    "400": {"bad_request"},
    "401": {"unauthorized"},
    "403": {"not_your_turn", "not_seated", "not_manager", "banned", "hints_off"},
    "404": {"not_found"},
    "409": {"stale_version", "seat_taken", "wrong_status", "too_many_tables"},
    "422": {"illegal_move"},
    "429": {"rate_limited"},
    "503": {"busy"},
}
# API.md routes and codes knowingly not in docs/openapi.json yet (none today). A test below
# fails as soon as one listed here is documented, so these lists only ever shrink.
NOT_YET_LANDED_ROUTES: set[tuple[str, str]] = set()
NOT_YET_LANDED_ERRORS: set[tuple[str, str]] = set()


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(OPENAPI.read_text(encoding="utf-8"))
    return document


def _routes(document: dict[str, Any]) -> set[tuple[str, str]]:
    return {(m.upper(), path) for path, ops in document["paths"].items() for m in ops}


def _documented_codes(document: dict[str, Any]) -> set[tuple[str, str]]:
    """(status, code) pairs the document names: in a response's description or in an enum."""
    found: set[tuple[str, str]] = set()
    every_code = {code for codes in API_MD_ERRORS.values() for code in codes}
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                text = json.dumps(response)
                words = set(text.replace(",", " ").replace(":", " ").replace('"', " ").split())
                found |= {(status, code) for code in every_code & words}
    return found


def test_the_openapi_document_is_valid_for_an_independent_validator(openapi):
    validate(openapi)  # openapi-spec-validator: OpenAPI 3.1 and its JSON Schema dialect


def test_every_route_of_the_contract_is_in_the_openapi_document(openapi):
    documented = _routes(openapi)
    missing = API_MD_ROUTES - NOT_YET_LANDED_ROUTES - documented
    assert not missing, f"API.md routes missing from docs/openapi.json: {sorted(missing)}"
    landed = NOT_YET_LANDED_ROUTES & documented
    assert not landed, f"documented now: remove from NOT_YET_LANDED_ROUTES: {sorted(landed)}"


def test_every_error_code_of_the_contract_is_in_the_openapi_document(openapi):
    documented = _documented_codes(openapi)
    wanted = {(status, code) for status, codes in API_MD_ERRORS.items() for code in codes}
    missing = wanted - NOT_YET_LANDED_ERRORS - documented
    assert not missing, f"API.md error codes missing from docs/openapi.json: {sorted(missing)}"
    landed = NOT_YET_LANDED_ERRORS & documented
    assert not landed, f"documented now: remove from NOT_YET_LANDED_ERRORS: {sorted(landed)}"


# ------------------------------------------------------------------------------- AsyncAPI


def test_the_committed_asyncapi_document_is_current():
    assert ASYNCAPI.read_text(encoding="utf-8") == dump(asyncapi_document()), (
        "regenerate: .venv/bin/python -m harftet.contract.asyncapi > docs/asyncapi.yaml"
    )


def _node_tool(name: str) -> Path:
    path = NODE_BIN / name
    if not path.exists():
        pytest.fail(f"{path} missing: run `make test` (it runs npm install from package.json)")
    return path


def test_the_asyncapi_parser_accepts_the_document_with_every_message_of_the_protocol():
    _node_tool("tsc")  # node_modules is there
    result = ran(
        ["node", str(REPO / "clients" / "asyncapi" / "validate.mjs"), str(ASYNCAPI)],
        timeout=120,
        cwd=REPO,
    )
    assert result.stdout, result.stderr
    parsed = json.loads(result.stdout)
    assert result.returncode == 0 and not parsed["errors"], parsed["errors"]
    assert not parsed["warnings"], parsed["warnings"]
    protocol = {"ping", "move", "table", "pong", "dryRun", "error", "phrase", "invitation"}
    protocol |= {"presence", "matched", "friendRequest", "tournament"}
    assert set(parsed["messages"]) == protocol | {"sync", "delta", "notification"}
    operations = parsed["operations"]
    received = {
        m for op in operations.values() if op["action"] == "receive" for m in op["messages"]
    }
    sent = {m for op in operations.values() if op["action"] == "send" for m in op["messages"]}
    replies = {m for op in operations.values() for m in op["reply"]}
    assert received == {"ping", "sync", "move"}  # what clients send (API.md, "WebSocket")
    pushed = {"table", "delta", "pong", "dryRun", "error", "phrase", "invitation", "presence"}
    pushed |= {"matched", "friendRequest"}  # opponents found (API.md v4 "Matchmaking")
    pushed |= {"tournament"}  # a round seated the player (API.md v4 "Tournaments")
    # what the server sends (a notification over Web Push, on its own channel)
    assert sent | replies == pushed | {"notification"}
    assert operations["notify"]["messages"] == ["notification"]
    assert operations["ping"]["reply"] == ["pong"]
    assert "table" in operations["sync"]["reply"]

    document = yaml.safe_load(ASYNCAPI.read_text(encoding="utf-8"))
    query = document["channels"]["table"]["bindings"]["ws"]["query"]
    # /ws?token=T&tableId=ID or ?ticket=T&...; without tableId: the player's own connection
    assert "required" not in query
    assert {"token", "ticket", "tableId"} == set(query["properties"])


# ------------------------------------------------------------------------------- TypeScript


def test_the_typescript_client_type_checks_against_types_generated_from_openapi(tmp_path):
    """openapi-typescript writes the types; tsc checks them, the client and its misuses."""
    work = tmp_path / "typescript"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("generated"))
    (tmp_path / "web").mkdir()  # the client applies deltas with the web client's delta.js
    shutil.copy(REPO / "clients" / "web" / "delta.js", tmp_path / "web")
    generated = work / "generated" / "openapi.ts"
    generate = ran(
        [
            str(_node_tool("openapi-typescript")),
            str(OPENAPI),
            "--default-non-nullable",
            "false",  # a default makes a request field optional, not required
            "-o",
            str(generated),
        ],
        timeout=120,
        cwd=REPO,
    )
    assert generate.returncode == 0, generate.stderr
    assert "export interface paths" in generated.read_text(encoding="utf-8")
    check = ran(
        [str(_node_tool("tsc")), "--noEmit", "-p", str(work / "tsconfig.json")],
        timeout=180,
        cwd=REPO,
    )
    assert check.returncode == 0, f"tsc --noEmit:\n{check.stdout}{check.stderr}"
