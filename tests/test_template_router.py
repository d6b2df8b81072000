"""router/template.yaml: the router's own stack (docs/SCALE.md, "The router"). It lints clean
(cfn-lint, `sam validate --lint`), reads its cells from its cells table (which each cell's deploy
writes through the registrar role: template.yaml's CellRegistration), and `sam build` packs the
router module alone, which then answers a home, a table's cell and a 307 for two cells side by
side."""

from __future__ import annotations

import json
import re
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


def test_the_router_is_one_function_url_reading_its_cells_from_its_table(
    router: dict[str, Any],
) -> None:
    function = router["Resources"]["RouterFunction"]["Properties"]
    assert function["Handler"] == "harftet.router.handler"
    assert function["Environment"]["Variables"]["CELLS_TABLE"] == {"Ref": "CellsTable"}
    assert "HARFTET_CELLS" not in function["Environment"]["Variables"]  # no 4 KB ceiling
    assert function["FunctionUrlConfig"]["AuthType"] == "NONE"
    # the same runtime and architecture as the cells' functions
    cell = load_template(REPO / "template.yaml")["Globals"]["Function"]
    assert function["Runtime"] == cell["Runtime"]
    assert function["Architectures"] == cell["Architectures"]
    output = router["Outputs"]["RouterUrl"]
    assert output["Value"] == {"Fn::GetAtt": ["RouterFunctionUrl", "FunctionUrl"]}
    # it reads the cells table, and nothing else
    assert function["Policies"] == [{"DynamoDBReadPolicy": {"TableName": {"Ref": "CellsTable"}}}]
    assert {r["Type"] for r in router["Resources"].values()} == {
        "AWS::Serverless::Function",
        "AWS::Logs::LogGroup",
        "AWS::DynamoDB::Table",
        "AWS::IAM::Role",
    }


def test_the_cells_table_is_durable_and_each_cell_account_writes_only_its_own_items(
    router: dict[str, Any],
) -> None:
    table = router["Resources"]["CellsTable"]
    assert table["DeletionPolicy"] == "Retain"
    props = table["Properties"]
    assert props["DeletionProtectionEnabled"] is True
    assert props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    assert props["KeySchema"] == [
        {"AttributeName": "account", "KeyType": "HASH"},
        {"AttributeName": "cellId", "KeyType": "RANGE"},
    ]
    role = router["Resources"]["RegistrarRole"]["Properties"]
    (trust,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"AWS": {"Ref": "CellAccounts"}}
    assert sorted(trust["Action"]) == ["sts:AssumeRole", "sts:TagSession"]
    # the session's account tag is the account that assumes the role: no cell names another's
    assert trust["Condition"] == {
        "StringEquals": {"aws:RequestTag/account": "${aws:PrincipalAccount}"}
    }
    (policy,) = role["Policies"]
    (write,) = policy["PolicyDocument"]["Statement"]
    assert sorted(write["Action"]) == ["dynamodb:DeleteItem", "dynamodb:UpdateItem"]
    assert write["Resource"] == {"Fn::GetAtt": ["CellsTable", "Arn"]}
    assert write["Condition"] == {
        "ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["${aws:PrincipalTag/account}"]}
    }
    for name in ("CellsTableArn", "RegistrarRoleArn"):  # what each cell's deploy is given
        assert name in router["Outputs"]


def test_each_cell_registers_itself_with_the_router_when_given_its_table_and_role() -> None:
    cell = load_template(REPO / "template.yaml")
    resources, condition = cell["Resources"], cell["Conditions"]["RegistersWithRouter"]
    assert condition == {
        "Fn::And": [
            {"Fn::Condition": "IsCell"},
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "RouterCellsTableArn"}, ""]}]},
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "RouterRegistrarRoleArn"}, ""]}]},
        ]
    }
    registration = resources["CellRegistration"]
    assert registration["Type"] == "Custom::CellRegistration"
    assert registration["Condition"] == "RegistersWithRouter"
    props = registration["Properties"]
    assert props["ServiceToken"] == {"Fn::GetAtt": ["CellRegistrationFunction", "Arn"]}
    # what the router routes with: a change of any of them rewrites the cell's item
    outputs = cell["Outputs"]
    assert props["RestUrl"] == outputs["CellRestApiUrl"]["Value"]
    assert props["WebSocketUrl"] == outputs["CellWebSocketUrl"]["Value"]
    assert props["Capacity"] == {"Ref": "CellCapacity"}
    assert props["Open"] == {"Ref": "CellOpen"}
    function = resources["CellRegistrationFunction"]
    assert function["Condition"] == "RegistersWithRouter"
    assert function["Properties"]["CodeUri"] == "functions/cells/"
    (policy,) = function["Properties"]["Policies"]
    (assume,) = policy["Statement"]
    assert assume["Action"] == ["sts:AssumeRole", "sts:TagSession"]
    assert assume["Resource"] == {"Ref": "RouterRegistrarRoleArn"}
    for name in ("RouterCellsTableArn", "RouterRegistrarRoleArn"):
        assert re.fullmatch(cell["Parameters"][name]["AllowedPattern"], "")
    assert re.fullmatch(
        cell["Parameters"]["RouterCellsTableArn"]["AllowedPattern"],
        "arn:aws:dynamodb:eu-central-1:999999999999:table/harftet-router-CellsTable-1AB2",
    )


def test_a_cell_is_registered_only_after_both_its_apis_are_deployed() -> None:
    """The router must never send a player to a cell whose API does not answer yet: the
    registration waits for the stages it names (and what they serve)."""
    cell = load_template(REPO / "template.yaml")
    resources = cell["Resources"]
    registration = resources["CellRegistration"]
    assert "WsInvokePermission" in registration["DependsOn"]
    # the WebSocket stage serves the deployment made after every route of the API
    stage = resources["WebSocketStage"]["Properties"]
    assert stage["DeploymentId"] == {"Ref": "WebSocketDeployment"}
    routes = {
        name
        for name, r in resources.items()
        if r["Type"] == "AWS::ApiGatewayV2::Route"
        and r["Properties"]["ApiId"] == {"Ref": "WebSocketApi"}
    }
    assert routes and routes <= set(resources["WebSocketDeployment"]["DependsOn"])
    assert resources["WsInvokePermission"]["Properties"]["FunctionName"] == {
        "Ref": "WsFunction.Alias"
    }
    # the URLs name the stages themselves (not the Stage parameter): references, so both are
    # created first (cfn-lint's W3005 refuses a DependsOn beside them); SAM's RestApi.Stage
    # becomes a reference to the stage it makes (deployed with every method); the router's
    # item and the exports hold the very same URLs
    props = registration["Properties"]
    assert props["RestUrl"]["Fn::Sub"].endswith("/${RestApi.Stage}")
    assert props["WebSocketUrl"]["Fn::Sub"].endswith("/${WebSocketStage}")
    assert props["RestUrl"] == cell["Outputs"]["CellRestApiUrl"]["Value"]
    assert props["WebSocketUrl"] == cell["Outputs"]["CellWebSocketUrl"]["Value"]


def test_the_cells_list_is_written_from_the_cells_exports(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One account's exports as the JSON list a router without its table takes (HARFTET_CELLS:
    the built function's test below), e.g. to check what the cells table should hold."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(EXPORTS)))
    assert router_main(["--closed", "kb"]) == 0
    line = capsys.readouterr().out.strip()
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
