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

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def fuzz_stack(stack_factory: Any) -> str:
    """A stack of its own: the fuzzer spends per-address budgets (transfer-code tries, passkey
    challenges) that the other e2e tests, all from 127.0.0.1, need on the session's stack."""
    return str(stack_factory("fuzz-stack").base_url)


ROOT = Path(__file__).resolve().parents[2]
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
        "unsupported_method",  # a method a path does not take: 405 ...
        "allow_header_conformance",  # ... with the Allow header
    )
)


def _test_mode_document(folder: Path) -> Path:
    """docs/openapi.json as the stack under test serves it: in test mode (which the e2e stack
    runs in, to take seeds) the timing options may go below their bounds (RULES §4b,
    ``options.TEST_FLOORS``), so those minimums are the floors; everything else as published."""
    document: dict[str, Any] = json.loads((ROOT / "docs" / "openapi.json").read_text())
    fields = document["components"]["schemas"]["CreateTable"]["properties"]
    for name, floor in options.TEST_FLOORS.items():
        field = fields[options.API_NAMES[name]]
        for schema in [field, *field.get("anyOf", [])]:
            if "minimum" in schema:
                schema["minimum"] = floor
    path = folder / "openapi.test-mode.json"
    path.write_text(json.dumps(document))
    return path


def test_generated_requests_never_get_a_server_error_and_match_the_openapi_document(
    fuzz_stack: str, tmp_path: Path
) -> None:
    local_stack = fuzz_stack
    token = httpx.post(f"{local_stack}/players", json={"name": "Fuzz"}).json()["token"]
    document = _test_mode_document(tmp_path)
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "run", str(document)),
        *("--url", local_stack, "-H", f"Authorization: Bearer {token}"),
        *("--checks", CHECKS, "--max-examples", "15", "--seed", "20261130", "--no-color"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
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
