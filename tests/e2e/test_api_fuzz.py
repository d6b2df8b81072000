"""Property-based requests generated from docs/openapi.json against the running stack:
no input ever gets a 5xx, and every answer matches the documented statuses and shapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from harftet.engine import options
from harftet.localstack.launcher import RunningStack
from harftet.matchmaking.models import WAIT_TEST_FLOOR

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def fuzz_stack(stack_factory: Any) -> RunningStack:
    """A stack of its own: the fuzzer spends per-address budgets (transfer-code tries, passkey
    challenges) that the other e2e tests, all from 127.0.0.1, need on the session's stack."""
    stack: RunningStack = stack_factory("fuzz-stack")
    return stack


ROOT = Path(__file__).resolve().parents[2]
# The operations where a schema-valid request may still be refused, each with its reason.
CONFIG = Path(__file__).with_name("schemathesis.toml")
CHECKS = ",".join(
    (
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
        "response_headers_conformance",
        "ignored_auth",
        "use_after_free",
        "ensure_resource_availability",
        "negative_data_rejection",  # what the document refuses, the server refuses too
        "positive_data_acceptance",  # what the document admits, the server takes (issue 35)
        "unsupported_method",  # a method a path does not take: 405 ...
        "allow_header_conformance",  # ... with the Allow header
    )
)


def _test_mode_document(folder: Path) -> Path:
    """docs/openapi.json as the stack under test serves it: in test mode (which the e2e stack
    runs in, to take seeds) the timing options may go below their bounds (RULES §4b,
    ``options.TEST_FLOORS``), so those minimums are the floors, wherever the table's schema
    states them (its fields and its cross-field rules); everything else as published."""
    document: dict[str, Any] = json.loads((ROOT / "docs" / "openapi.json").read_text())
    floors = {options.API_NAMES[name]: floor for name, floor in options.TEST_FLOORS.items()}

    def lower(node: Any) -> None:
        if isinstance(node, dict):
            for name, field in (node.get("properties") or {}).items():
                for schema in [field, *field.get("anyOf", [])]:
                    if name in floors and "minimum" in schema:
                        schema["minimum"] = floors[name]
            for value in node.values():
                lower(value)
        elif isinstance(node, list):
            for value in node:
                lower(value)

    lower(document["components"]["schemas"]["CreateTable"])
    wait = document["components"]["schemas"]["TicketRequest"]["properties"]["waitSeconds"]
    for schema in [wait, *wait.get("anyOf", [])]:  # matchmaking's wait: the same test floor
        if "minimum" in schema:
            schema["minimum"] = WAIT_TEST_FLOOR
    path = folder / "openapi.test-mode.json"
    path.write_text(json.dumps(document))
    return path


def test_generated_requests_never_get_a_server_error_and_match_the_openapi_document(
    fuzz_stack: RunningStack, tmp_path: Path
) -> None:
    """Positive and negative data (schemathesis' default mode) over every operation, the
    operator's included (with the stack's operator key), at a fixed seed."""
    local_stack = fuzz_stack.base_url
    token = httpx.post(f"{local_stack}/players", json={"name": "Fuzz"}).json()["token"]
    document = _test_mode_document(tmp_path)
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "run"),
        *(str(document), "--url", local_stack, "-H", f"Authorization: Bearer {token}"),
        *("-H", f"X-Operator-Key: {fuzz_stack.operator_key}", "--mode", "all"),
        *("--checks", CHECKS, "--max-examples", "15", "--seed", "20261130", "--no-color"),
    ]
    # ~100 s on a quiet machine, 200 s at a load of 23 on 2 CPUs: the timeout is for a hang only
    done = subprocess.run(command, capture_output=True, text=True, timeout=480, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_a_table_id_with_a_line_break_is_answered_by_the_api_not_the_web_server(
    local_stack: str,
) -> None:
    token = httpx.post(f"{local_stack}/players", json={"name": "Fuzz"}).json()["token"]
    reply = httpx.post(
        f"{local_stack}/tables/ab%0Acd/start", headers={"Authorization": f"Bearer {token}"}
    )
    assert reply.status_code == 404
    assert reply.json()["error"]["code"] == "not_found"
