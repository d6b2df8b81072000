"""router/template.yaml: the router's own stack (docs/SCALE.md, "The router"). It lints clean
(cfn-lint, `sam validate --lint`), takes its cells from the cells' exports, and `sam build`
packs the router module alone, which then answers a home, a table's cell and a 307 for two
cells side by side."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_template import _require_sam, _sam_build, cfn_lint, sam_validate_lint

from harftet.router import main as router_main
from harftet.store.schema import load_template

REPO = Path(__file__).resolve().parents[1]
ROUTER = REPO / "router" / "template.yaml"
EXPORTS = {
    "Exports": [
        {"Name": "harftet-cell-ka-rest", "Value": "https://ka.example/prod"},
        {"Name": "harftet-cell-ka-ws", "Value": "wss://ka.example/prod"},
        {"Name": "harftet-cell-kb-rest", "Value": "https://kb.example/prod"},
        {"Name": "harftet-cell-kb-ws", "Value": "wss://kb.example/prod"},
        {"Name": "another-stack-output", "Value": "https://elsewhere.example"},
    ]
}


@pytest.fixture(scope="module")
def router() -> dict[str, Any]:
    return load_template(ROUTER)


def test_the_router_template_lints_clean() -> None:
    result = sam_validate_lint(ROUTER)
    found = cfn_lint(ROUTER, result)  # sam's run is cfn-lint's while they are the same cfn-lint
    assert found is None, f"cfn-lint router/template.yaml:\n{found}"
    assert result.returncode == 0, f"sam validate --lint:\n{result.stdout}{result.stderr}"


def test_the_router_is_one_function_url_reading_its_cells_from_a_parameter(
    router: dict[str, Any],
) -> None:
    function = router["Resources"]["RouterFunction"]["Properties"]
    assert function["Handler"] == "harftet.router.handler"
    assert function["Environment"]["Variables"]["HARFTET_CELLS"] == {"Ref": "Cells"}
    assert function["FunctionUrlConfig"]["AuthType"] == "NONE"
    # the same runtime and architecture as the cells' functions
    cell = load_template(REPO / "template.yaml")["Globals"]["Function"]
    assert function["Runtime"] == cell["Runtime"]
    assert function["Architectures"] == cell["Architectures"]
    output = router["Outputs"]["RouterUrl"]
    assert output["Value"] == {"Fn::GetAtt": ["RouterFunctionUrl", "FunctionUrl"]}
    # and it touches no AWS service: no policy, no table, no queue
    assert "Policies" not in function
    assert {r["Type"] for r in router["Resources"].values()} == {
        "AWS::Serverless::Function",
        "AWS::Logs::LogGroup",
    }


def test_the_cells_parameter_is_written_from_the_cells_exports(
    router: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import re

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(EXPORTS)))
    assert router_main(["--closed", "kb"]) == 0
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(router["Parameters"]["Cells"]["AllowedPattern"], line)
    assert json.loads(line) == [
        {
            "cellId": "ka",
            "restUrl": "https://ka.example/prod",
            "webSocketUrl": "wss://ka.example/prod",
            "capacity": 1.0,
            "open": True,
        },
        {
            "cellId": "kb",
            "restUrl": "https://kb.example/prod",
            "webSocketUrl": "wss://kb.example/prod",
            "capacity": 1.0,
            "open": False,
        },
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"Exports": []})))
    assert router_main([]) == 1  # no cells: nothing to deploy the router with


def _invoke(build: Path, cells: str, method: str, path: str, query: str = "") -> dict[str, Any]:
    """The built function's answer to a function URL event, in a process of its own that sees
    only the build's files (and the standard library)."""
    event = {
        "rawPath": path,
        "rawQueryString": query,
        "headers": {"x-client": "a-new-guest"},
        "requestContext": {"http": {"method": method}},
    }
    code = (
        "import json, sys; sys.path[:0] = [sys.argv[1]]; import harftet.router as r; "
        "assert r.__file__.startswith(sys.argv[1]), r.__file__; "
        "print(json.dumps(r.handler(json.loads(sys.argv[2]))))"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code, str(build), json.dumps(event)],
        env={"HARFTET_CELLS": cells},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def test_sam_build_packs_the_router_alone_and_it_routes_two_cells(
    router: dict[str, Any], tmp_path: Path
) -> None:
    """The real build (a few seconds: it fetches PyJWT's wheel)."""
    _require_sam()
    runtime = router["Resources"]["RouterFunction"]["Properties"]["Runtime"]
    build = _sam_build(ROUTER, runtime, tmp_path)
    code = build / "RouterFunction"
    assert (code / "harftet" / "router.py").is_file() and (code / "jwt").is_dir()
    # the router only: none of the game (no service, no dictionary, no boto3)
    assert sorted(p.name for p in (code / "harftet").glob("*.py")) == ["__init__.py", "router.py"]
    assert not (code / "boto3").exists()

    cells = json.dumps(
        [
            {"cellId": "ka", "restUrl": "https://ka.example/prod", "webSocketUrl": "wss://ka"},
            {"cellId": "kb", "restUrl": "https://kb.example/prod", "webSocketUrl": "wss://kb"},
        ]
    )
    found = _invoke(code, cells, "GET", "/cells/route", "tableId=kb.Abc123xyz")
    assert found["statusCode"] == 200
    assert json.loads(found["body"])["restUrl"] == "https://kb.example/prod"
    moved = _invoke(code, cells, "POST", "/tables/ka.Abc123xyz/moves")
    assert moved["statusCode"] == 307
    assert moved["headers"]["location"] == "https://ka.example/prod/tables/ka.Abc123xyz/moves"
    unknown = _invoke(code, cells, "GET", "/cells/route", "tableId=zz.nothere")
    assert unknown["statusCode"] == 404
    home = json.loads(_invoke(code, cells, "GET", "/cells/home")["body"])
    assert home["cellId"] in ("ka", "kb")
