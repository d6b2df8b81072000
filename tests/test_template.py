"""template.yaml lints clean, serves every API route and grants only what the code uses."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from testkit import API_MD_ROUTES

from harftet.store.schema import load_template

REPO = Path(__file__).resolve().parents[1]
TEMPLATE = REPO / "template.yaml"
SAM = REPO / ".venv-sam" / "bin" / "sam"
CFN_LINT = Path(sys.executable).parent / "cfn-lint"
DICTIONARY = REPO / "shared" / "harftet" / "words" / "data" / "words.txt.gz"
FUNCTIONS = ("RestFunction", "WsFunction", "SweeperFunction")
DATA_TABLES = ("TablesTable", "PlayersTable")

# The public contract (API.md, testkit.API_MD_ROUTES) and the routes beyond it.
ROUTES = API_MD_ROUTES | {
    ("POST", "/tables/{tableId}/ticket"),  # WebSocket connect tickets (beyond API.md)
    ("OPTIONS", "/{proxy+}"),  # CORS preflight, answered by the resolver (AllowedOrigins)
    # profiles, leaderboards, reports (harftet.profiles, harftet.moderation)
    ("GET", "/players/{playerId}/profile"),
    ("GET", "/leaderboards/{game}"),
    # weekly leagues (harftet.leagues, API.md v4)
    ("GET", "/leagues/{game}/me"),
    ("GET", "/leagues/{game}/weeks/{week}/divisions/{division}"),
    # tournaments (harftet.tournaments, API.md v4)
    ("GET", "/tournaments"),
    ("GET", "/tournaments/{tournamentId}"),
    ("POST", "/tournaments/{tournamentId}/entries"),
    ("DELETE", "/tournaments/{tournamentId}/entries/me"),
    ("POST", "/tables/{tableId}/reports"),
    # API.md v3, "Inbox and notifications" (and the VAPID key browsers subscribe with)
    ("GET", "/players/me/tables"),
    ("POST", "/players/me/push-subscriptions"),
    ("DELETE", "/players/me/push-subscriptions/{id}"),
    ("POST", "/players/me/devices"),
    ("GET", "/push/key"),
    # accounts and phrases (harftet.accounts.routes; API.md v3)
    ("POST", "/players/me/passkeys/options"),
    ("POST", "/players/me/passkeys"),
    ("GET", "/players/me/passkeys"),
    ("DELETE", "/players/me/passkeys/{passkeyId}"),
    ("POST", "/sessions/passkey/options"),
    ("POST", "/sessions/passkey"),
    ("POST", "/players/me/transfer-codes"),
    ("POST", "/sessions/transfer"),
    ("POST", "/sessions/refresh"),
    ("DELETE", "/sessions/current"),
    ("GET", "/players/me/export"),
    ("DELETE", "/players/me"),
    ("GET", "/phrases"),
    ("GET", "/texts"),
    ("POST", "/tables/{tableId}/phrases"),
    ("GET", "/players/me/friends"),
    ("POST", "/players/me/friends"),
    ("POST", "/players/me/friends/{playerId}"),
    ("DELETE", "/players/me/friends/{playerId}"),
    ("POST", "/players/me/blocks/{playerId}"),
    ("DELETE", "/players/me/blocks/{playerId}"),
    ("POST", "/tables/{tableId}/invitations"),
}
# The operator API (OperatorApi, AWS_IAM), served by the same function (harftet.moderation).
OPERATOR_ROUTES = {
    ("GET", "/operator/reports"),
    ("POST", "/operator/players/{playerId}/ban"),
    ("DELETE", "/operator/players/{playerId}/ban"),
    ("POST", "/operator/tables/{tableId}/close"),
    ("POST", "/operator/tournaments"),
}

# boto3 calls the deployed code may make → the IAM action each one needs.
IAM_ACTION_OF_CALL = {
    "get_item": "dynamodb:GetItem",
    "batch_get_item": "dynamodb:BatchGetItem",
    "transact_get_items": "dynamodb:GetItem",
    "query": "dynamodb:Query",
    "scan": "dynamodb:Scan",
    "put_item": "dynamodb:PutItem",
    "update_item": "dynamodb:UpdateItem",
    "delete_item": "dynamodb:DeleteItem",
    "batch_write_item": "dynamodb:BatchWriteItem",
    "describe_table": "dynamodb:DescribeTable",
    "execute_statement": "dynamodb:PartiQLSelect",
    "post_to_connection": "execute-api:ManageConnections",
    "get_connection": "execute-api:ManageConnections",
    "delete_connection": "execute-api:ManageConnections",
    "get_parameters": "ssm:GetParameters",
    "get_parameters_by_path": "ssm:GetParametersByPath",
    "get_secret_value": "secretsmanager:GetSecretValue",
}
# Not deployed: the local stack and the helper that builds emulator tables from this template.
# The router module's calls run in the router's own stack (its Scan: router/template.yaml) or
# with the router's registrar role (a cell's item): tests/test_template_router.py checks them.
NOT_DEPLOYED = (
    "shared/harftet/localstack/", "shared/harftet/store/schema.py", "shared/harftet/router.py",
)  # fmt: skip


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template(TEMPLATE)


def _resources(template: dict[str, Any], type_: str) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == type_}


def _props(template: dict[str, Any], logical_id: str) -> dict[str, Any]:
    props: dict[str, Any] = template["Resources"][logical_id].get("Properties", {})
    return props


def _run(
    args: list[str], timeout: float = 180, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**(env or os.environ), "SAM_CLI_TELEMETRY": "0"}
    return subprocess.run(
        args, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def _require_sam() -> None:
    if not SAM.exists():
        pytest.fail(f"{SAM} missing: run `make test` (it installs the AWS SAM CLI into .venv-sam)")


def _statements(template: dict[str, Any]) -> list[dict[str, Any]]:
    """Every IAM statement the template writes: function policies and IAM resources."""
    found: list[dict[str, Any]] = []
    for name in FUNCTIONS:
        for policy in _props(template, name).get("Policies", []):
            if isinstance(policy, dict) and "Statement" in policy:
                found += policy["Statement"]
    for type_ in ("AWS::IAM::ManagedPolicy", "AWS::IAM::Policy", "AWS::IAM::Role"):
        for resource in _resources(template, type_).values():
            props = resource["Properties"]
            documents = [props.get("PolicyDocument")] + [
                p["PolicyDocument"] for p in props.get("Policies", [])
            ]
            found += [s for d in documents if d for s in d["Statement"]]
    return found


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


# ------------------------------------------------------------------------------- linters


def _sam_cfn_lint_version() -> str | None:
    """The version of the cfn-lint that `sam validate --lint` runs (.venv-sam's), if any."""
    found = sorted(SAM.parents[1].glob("lib/python*/site-packages/cfn_lint-*.dist-info"))
    return found[-1].name.removeprefix("cfn_lint-").removesuffix(".dist-info") if found else None


def sam_validate_lint(template_file: Path) -> subprocess.CompletedProcess[str]:
    """`sam validate --lint` of ``template_file`` (what `make sam-validate` runs)."""
    _require_sam()
    return _run([str(SAM), "validate", "--lint", "--template-file", str(template_file)])


def cfn_lint(template_file: Path, sam_result: subprocess.CompletedProcess[str]) -> str | None:
    """What cfn-lint (the dev extra's) finds in ``template_file``: None if nothing.

    `sam validate --lint` IS cfn-lint: it hands the template to ``cfnlint.api.lint`` with no
    options (the regions default from the environment, as the command line's do). So while
    both environments hold the same cfn-lint (both pinned in constraints/) and no .cfnlintrc
    gives the command line other settings, sam's run (``sam_result``) is cfn-lint's answer and
    a second pass over the same template is spent for nothing (5-6 s of CPU, ~60 s on a busy
    CI machine). Otherwise the command line runs.
    """
    assert CFN_LINT.exists(), f"{CFN_LINT} missing: run `make test` (installs the dev extra)"
    configs = [
        p / name
        for p in (REPO, Path.home())
        for name in (".cfnlintrc", ".cfnlintrc.yaml", ".cfnlintrc.yml")
    ]
    same = _sam_cfn_lint_version() == importlib.metadata.version("cfn-lint")
    if same and not any(p.exists() for p in configs):
        if sam_result.returncode != 0:
            return sam_result.stdout + sam_result.stderr
        assert "is a valid SAM Template" in sam_result.stdout, sam_result.stdout  # it linted
        return None
    result = _run([str(CFN_LINT), str(template_file)])
    return None if result.returncode == 0 else result.stdout + result.stderr


@pytest.fixture(scope="module")
def sam_lint() -> subprocess.CompletedProcess[str]:
    """`sam validate --lint` of template.yaml, run once for both linter tests."""
    return sam_validate_lint(TEMPLATE)


def test_cfn_lint_finds_nothing(sam_lint: subprocess.CompletedProcess[str]) -> None:
    found = cfn_lint(TEMPLATE, sam_lint)
    assert found is None, f"cfn-lint template.yaml:\n{found}"


def test_sam_validate_lint_passes(sam_lint: subprocess.CompletedProcess[str]) -> None:
    result = sam_lint
    assert result.returncode == 0, f"sam validate --lint:\n{result.stdout}{result.stderr}"


def _env_with_python(version: str) -> dict[str, str]:
    """The environment with ``python<version>`` on PATH (under pyenv: next to the current one).

    Without Docker, `sam build` needs the runtime's Python (Makefile: sam-build does the same).
    """
    env = dict(os.environ)
    probe = subprocess.run([f"python{version}", "--version"], capture_output=True, check=False)
    pyenv = shutil.which("pyenv")
    if probe.returncode != 0 and pyenv:
        installed = _run([pyenv, "versions", "--bare"]).stdout.split()
        matching = sorted(v for v in installed if re.fullmatch(rf"{re.escape(version)}(\.\d+)?", v))
        current = _run([pyenv, "version-name"]).stdout.strip()
        if matching:
            env["PYENV_VERSION"] = f"{current}:{matching[-1]}"
    return env


def _sam_build(template_file: Path, runtime: str, tmp_path: Path) -> Path:
    """``sam build`` of ``template_file`` with the runtime's Python; the build folder."""
    build = tmp_path / "build"
    result = _run(
        [str(SAM), "build", "--template-file", str(template_file), "--build-dir", str(build)],
        timeout=600,  # for a hang only: 304 s at a load of ~20 on two cores (pip from PyPI)
        env=_env_with_python(runtime.removeprefix("python")),
    )
    assert result.returncode == 0, f"sam build:\n{result.stdout}{result.stderr}"
    return build


def test_sam_build_packs_an_arm64_layer_with_bytecode_and_the_dictionary_without_docker(
    template: dict[str, Any], tmp_path: Path
) -> None:
    """The real build (15-40 s: it fetches the layer's wheels from PyPI)."""
    _require_sam()
    assert DICTIONARY.exists(), f"{DICTIONARY} missing: run `make dictionary`"
    runtime = template["Globals"]["Function"]["Runtime"]
    build = _sam_build(TEMPLATE, runtime, tmp_path)

    layer = build / "SharedLayer" / "python"
    assert (layer / "harftet" / "words" / "data" / "words.txt.gz").is_file()
    assert (layer / "harftet" / "bootstrap" / "app.py").is_file()
    abi = "cpython-" + runtime.removeprefix("python").replace(".", "")
    for extension in layer.rglob("*.so"):
        # cpython-312, or the stable ABI (abi3: cryptography, for py_webauthn) any 3.x takes
        stable = extension.name.endswith(".abi3.so")
        assert abi in extension.name or stable, f"{extension.name} is not built for {runtime}"
        machine = int.from_bytes(extension.read_bytes()[18:20], "little")  # ELF e_machine
        assert machine == 183, f"{extension.name} is not an arm64 (aarch64) binary"
    for name in FUNCTIONS:
        assert (build / name / "app.py").is_file(), name
    # A Lambda cannot write bytecode: the layer ships it, for the runtime's Python.
    for module in ("harftet/tables/service.py", "boto3/session.py", "pydantic/main.py"):
        source = layer / module
        cached = source.parent / "__pycache__" / f"{source.stem}.{abi}.pyc"
        assert cached.is_file(), f"{cached} missing"
    assert not (layer / "harftet" / "localstack").exists()  # the local stack is not deployed


# ------------------------------------------------------------------------------- REST API


def test_every_route_of_the_api_reaches_the_rest_function(template: dict[str, Any]) -> None:
    events = _props(template, "RestFunction")["Events"].values()
    routes = {(e["Properties"]["Method"].upper(), e["Properties"]["Path"]) for e in events}
    assert {r for r in routes if r[0] != "ANY"} == ROUTES | OPERATOR_ROUTES
    # every known path takes ANY other method too, for the handler's 405 with Allow
    assert {path for method, path in routes if method == "ANY"} == {
        path for _, path in ROUTES | OPERATOR_ROUTES if path != "/{proxy+}"
    }
    operator_paths = {path for _, path in OPERATOR_ROUTES}
    for e in events:
        api = "OperatorApi" if e["Properties"]["Path"] in operator_paths else "RestApi"
        assert e["Properties"]["RestApiId"] == {"Ref": api}, e["Properties"]


def test_x_ray_tracing_is_one_operator_switch_for_functions_api_and_powertools(
    template: dict[str, Any],
) -> None:
    function = template["Globals"]["Function"]
    assert function["Tracing"] == {"Ref": "Tracing"}
    assert function["Environment"]["Variables"]["POWERTOOLS_TRACE_DISABLED"] == {
        "Fn::If": ["TracingOn", "false", "true"]
    }
    assert template["Parameters"]["Tracing"]["Default"] == "PassThrough"


def test_the_rest_api_is_throttled_by_the_operators_parameters(template: dict[str, Any]) -> None:
    api = _props(template, "RestApi")
    assert api["StageName"] == {"Ref": "Stage"}
    assert api["TracingEnabled"] == {"Fn::If": ["TracingOn", True, False]}
    [setting] = api["MethodSettings"]
    assert setting["ThrottlingRateLimit"] == {"Ref": "ThrottleRateLimit"}
    assert setting["ThrottlingBurstLimit"] == {"Ref": "ThrottleBurstLimit"}
    throttled = api["GatewayResponses"]["THROTTLED"]
    assert throttled["StatusCode"] == "429"
    assert "rate_limited" in throttled["ResponseTemplates"]["application/json"]


# ------------------------------------------------------------------------------- WebSocket API


def test_the_websocket_api_routes_connect_disconnect_and_messages_to_one_function(
    template: dict[str, Any],
) -> None:
    assert _props(template, "WebSocketApi")["ProtocolType"] == "WEBSOCKET"
    assert _props(template, "WebSocketApi")["RouteSelectionExpression"] == "$request.body.action"
    integration = _props(template, "WsIntegration")
    assert integration["IntegrationType"] == "AWS_PROXY"
    # through the alias a deploy shifts (DeploymentPreference): SAM's WsFunctionAliaslive
    assert "${WsFunctionAliaslive}" in integration["IntegrationUri"]["Fn::Sub"]
    routes = _resources(template, "AWS::ApiGatewayV2::Route")
    assert {r["Properties"]["RouteKey"] for r in routes.values()} >= {
        "$connect",
        "$disconnect",
        "$default",
    }
    assert all(
        r["Properties"]["Target"] == {"Fn::Sub": "integrations/${WsIntegration}"}
        for r in routes.values()
    )
    depends_on = _as_list(template["Resources"]["WebSocketDeployment"]["DependsOn"])
    assert set(depends_on) == set(routes), "the deployment must wait for every route"
    stage = _props(template, "WebSocketStage")
    assert stage["DeploymentId"] == {"Ref": "WebSocketDeployment"}
    assert stage["StageName"] == {"Ref": "Stage"}
    permission = _props(template, "WsInvokePermission")
    assert permission["FunctionName"] == {"Ref": "WsFunction.Alias"}
    assert "${WebSocketApi}/" in permission["SourceArn"]["Fn::Sub"]


# ------------------------------------------------------------------------------- functions


def test_every_function_runs_its_folder_with_the_shared_layer(template: dict[str, Any]) -> None:
    function_globals = template["Globals"]["Function"]
    assert function_globals["Layers"] == [{"Ref": "SharedLayer"}]
    for name in FUNCTIONS:
        props = _props(template, name)
        folder = REPO / props["CodeUri"]
        assert props["Handler"] == "app.handler"
        logs = props["LoggingConfig"]["LogGroup"]["Ref"]
        assert _props(template, logs)["RetentionInDays"] == {"Ref": "LogRetentionDays"}
        assert (folder / "requirements.txt").is_file(), f"{folder}/requirements.txt"
        app = folder / "app.py"
        assert app.is_file(), f"{app} missing"
        assert re.search(r"^(handler\s*=|def handler\()", app.read_text(), re.M), app


def test_the_layer_is_built_for_the_functions_runtime_and_architecture(
    template: dict[str, Any],
) -> None:
    function_globals = template["Globals"]["Function"]
    layer = template["Resources"]["SharedLayer"]
    assert layer["Properties"]["ContentUri"] == "shared/"
    assert layer["Metadata"]["BuildMethod"] == "makefile"  # shared/Makefile
    assert [layer["Metadata"]["BuildArchitecture"]] == function_globals["Architectures"]
    version = function_globals["Runtime"].removeprefix("python")
    makefile = (REPO / "shared" / "Makefile").read_text()
    assert f"PYTHON ?= python{version}" in makefile
    assert f"--python-version {version}" in makefile
    platform = {"arm64": "aarch64", "x86_64": "x86_64"}[function_globals["Architectures"][0]]
    assert f"--platform manylinux2014_{platform}" in makefile
    assert layer["Properties"]["CompatibleRuntimes"] == [function_globals["Runtime"]]
    assert layer["Properties"]["CompatibleArchitectures"] == function_globals["Architectures"]


def _requirements(lines: list[str]) -> dict[str, Requirement]:
    reqs = [Requirement(line) for line in lines if line.strip() and not line.startswith("#")]
    return {re.sub(r"[-_.]+", "-", r.name.lower()): r for r in reqs}


def test_the_layer_carries_every_runtime_dependency_pinned() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    layer = _requirements((REPO / "shared" / "requirements.txt").read_text().splitlines())
    assert set(layer) == set(_requirements(project["dependencies"]))
    assert all(str(r.specifier).startswith("==") for r in layer.values()), layer


def test_the_layer_deploys_the_versions_the_tests_run_with() -> None:
    """The lock (constraints/dev.txt, which `make` installs from) holds the layer's pins, and
    this run has them: a pin that drifted would ship code no test ran."""
    layer = _requirements((REPO / "shared" / "requirements.txt").read_text().splitlines())
    lock = (REPO / "constraints" / "dev.txt").read_text().splitlines()
    locked = _requirements([line for line in lock if not line.lstrip().startswith("#")])
    for name, requirement in layer.items():
        pinned = str(requirement.specifier)
        assert str(locked[name].specifier) == pinned, (name, str(locked[name].specifier), pinned)
        assert f"=={importlib.metadata.version(name)}" == pinned, name


def test_the_layer_can_trace_when_a_function_uses_the_tracer() -> None:
    """On Lambda (tracing on) powertools' Tracer imports aws_xray_sdk: without it nothing runs."""
    layer = _requirements((REPO / "shared" / "requirements.txt").read_text().splitlines())
    apps = [p.read_text() for p in (REPO / "functions").glob("*/app.py")]
    if any("Tracer(" in app for app in apps):
        assert "tracer" in layer["aws-lambda-powertools"].extras or "aws-xray-sdk" in layer


def test_functions_know_their_tables_endpoint_and_secret_name(template: dict[str, Any]) -> None:
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["TABLES_TABLE"] == {"Ref": "TablesTable"}
    assert variables["PLAYERS_TABLE"] == {"Ref": "PlayersTable"}
    assert variables["CONNECTIONS_TABLE"] == {"Ref": "ConnectionsTable"}
    assert variables["TOKEN_SECRET_PARAM"] == {"Ref": "TokenSecretParameterName"}
    assert variables["TEST_MODE"] == {"Ref": "TestMode"}
    assert variables["POWERTOOLS_SERVICE_NAME"] == "harftet"
    assert variables["POWERTOOLS_METRICS_NAMESPACE"] == "Harftet"
    assert variables["WS_ENDPOINT"] == {
        "Fn::Sub": "https://${WebSocketApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/${Stage}"
    }
    assert template["Parameters"]["TestMode"]["Default"] == "false"


def test_the_sweeper_runs_on_the_turn_sweep_schedule(template: dict[str, Any]) -> None:
    [event] = _props(template, "SweeperFunction")["Events"].values()
    assert event["Type"] == "Schedule"
    assert event["Properties"]["Schedule"] == {"Ref": "TurnSweepRate"}
    assert template["Parameters"]["TurnSweepRate"]["Default"] == "rate(1 minute)"


# ------------------------------------------------------------------------------- tables


def test_tournament_rounds_run_on_a_scheduler_schedule_the_local_stack_runs_too(
    template: dict[str, Any],
) -> None:
    """RULES §8: round 1 at its time, rounds stuck seating resumed (harftet.tournaments):
    an EventBridge Scheduler rate every minute, and the local stack runs the same handler
    on its own schedule."""
    from harftet.localstack.stack import DEFAULT_HANDLERS

    props = _props(template, "TournamentsFunction")
    [event] = props["Events"].values()
    assert event["Type"] == "ScheduleV2"
    assert event["Properties"]["ScheduleExpression"] == "rate(1 minute)"
    assert props["CodeUri"] == "functions/tournaments/"
    assert DEFAULT_HANDLERS["tournaments"] == REPO / "functions" / "tournaments" / "app.py"
    alarmed = {a["Dimensions"][0]["Value"]["Ref"] for a in _alarms(template).values()
               if a.get("Namespace") == "AWS/Lambda" and a.get("Dimensions")}  # fmt: skip
    assert "TournamentsFunction" in alarmed
    # the people a round seats are notified: the queue named and sending to it allowed
    assert props["Environment"]["Variables"]["NOTIFY_QUEUE_URL"] == {"Ref": "NotifyQueue"}
    assert {"Ref": "NotifyQueueSendPolicy"} in props["Policies"]


def test_every_table_is_on_demand_backed_up_and_encrypted(template: dict[str, Any]) -> None:
    tables = _resources(template, "AWS::DynamoDB::Table")
    assert set(tables) == {
        "TablesTable", "PlayersTable", "ConnectionsTable", "LogTable", "MailTable", "MatchTable",
    }  # fmt: skip
    for name, table in tables.items():
        props = table["Properties"]
        assert props["BillingMode"] == "PAY_PER_REQUEST", name
        assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
        assert props["SSESpecification"] == {"SSEEnabled": True}, name


def test_players_and_tables_survive_a_stack_deletion(template: dict[str, Any]) -> None:
    for name in DATA_TABLES:
        resource = template["Resources"][name]
        assert resource["DeletionPolicy"] == "Retain", name
        assert resource["UpdateReplacePolicy"] == "Retain", name


def test_tables_and_indexes_have_the_keys_the_store_queries(template: dict[str, Any]) -> None:
    def keys(table: str, index: str | None = None) -> list[tuple[str, str, str]]:
        props = _props(template, table)
        types = {a["AttributeName"]: a["AttributeType"] for a in props["AttributeDefinitions"]}
        owner = props
        if index is not None:
            owner = {i["IndexName"]: i for i in props["GlobalSecondaryIndexes"]}[index]
        return [
            (k["AttributeName"], k["KeyType"], types[k["AttributeName"]])
            for k in owner["KeySchema"]
        ]

    assert keys("TablesTable") == [("tableId", "HASH", "S")]
    assert keys("TablesTable", "lobby-index") == [
        ("lobby", "HASH", "S"),
        ("createdAt", "RANGE", "N"),
    ]
    assert keys("TablesTable", "deadline-index") == [
        ("due", "HASH", "S"),
        ("deadline", "RANGE", "N"),
    ]
    assert keys("PlayersTable") == [("playerId", "HASH", "S")]
    assert keys("ConnectionsTable") == [("connectionId", "HASH", "S")]
    assert keys("ConnectionsTable", "table-index") == [("tableId", "HASH", "S")]
    for name in ("ConnectionsTable", "TablesTable"):  # stale connections, forgotten tables
        ttl = _props(template, name)["TimeToLiveSpecification"]
        assert ttl == {"AttributeName": "expiresAt", "Enabled": True}, name


# ------------------------------------------------------------------------------- permissions


def test_no_statement_grants_every_resource_or_every_action(template: dict[str, Any]) -> None:
    statements = _statements(template)
    assert statements, "expected the functions' IAM statements"
    for statement in statements:
        resources = [r for r in _as_list(statement.get("Resource", [])) if isinstance(r, str)]
        assert "*" not in resources, statement
        assert all(not a.endswith("*") for a in _as_list(statement["Action"])), statement
        assert "NotResource" not in statement and "NotAction" not in statement, statement


def test_functions_use_only_the_templates_own_scoped_policies(template: dict[str, Any]) -> None:
    """No AWS managed policy by name (e.g. AmazonDynamoDBFullAccess) and no broad SAM template."""
    scoped_sam_templates = {"DynamoDBCrudPolicy", "DynamoDBReadPolicy", "DynamoDBWritePolicy"}
    own = set(_resources(template, "AWS::IAM::ManagedPolicy"))
    for name in FUNCTIONS:
        for policy in _props(template, name)["Policies"]:
            if isinstance(policy, dict) and "Ref" in policy:
                assert policy["Ref"] in own, (name, policy)
            else:
                assert isinstance(policy, dict), (name, policy)
                assert set(policy) <= scoped_sam_templates | {"Statement", "Version"}, policy


def test_every_aws_call_in_the_deployed_code_is_allowed(template: dict[str, Any]) -> None:
    allowed = {a for s in _statements(template) for a in _as_list(s["Action"])}
    call = re.compile(r"\.(" + "|".join(IAM_ACTION_OF_CALL) + r")\(")
    needed: dict[str, set[str]] = {}
    for path in [*(REPO / "shared" / "harftet").rglob("*.py"), *(REPO / "functions").rglob("*.py")]:
        relative = path.relative_to(REPO).as_posix()
        if relative.startswith(NOT_DEPLOYED):
            continue
        for method in call.findall(path.read_text(encoding="utf-8")):
            needed.setdefault(IAM_ACTION_OF_CALL[method], set()).add(relative)
    missing = {action: sorted(files) for action, files in needed.items() if action not in allowed}
    assert not missing, f"add these actions to FunctionAccessPolicy (or drop the calls): {missing}"


def test_the_signing_secret_is_read_from_exactly_its_parameter(template: dict[str, Any]) -> None:
    reads = [s for s in _statements(template) if "ssm:GetParameter" in _as_list(s["Action"])]
    assert all(_as_list(s["Action"]) == ["ssm:GetParameter"] for s in reads)
    resources = sorted(json.dumps(s["Resource"]) for s in reads)
    assert resources == sorted(
        json.dumps(
            {"Fn::Sub": "arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}"
             f":parameter${{{name}}}"}
        )
        for name in ("TokenSecretParameterName", "VapidPrivateKeyParameterName",
                     "TokenKeysParameterName", "TokenKeysParameterName")
    )  # fmt: skip
    # The VAPID private key: only the notifier reads it (the REST function gets the public key).
    notifier = template["Resources"]["NotifierAccessPolicy"]["Properties"]["PolicyDocument"]
    assert any("VapidPrivateKeyParameterName" in json.dumps(s) for s in notifier["Statement"])
    rest = _props(template, "RestFunction")["Environment"]["Variables"]
    assert "VAPID_PRIVATE_KEY_PARAM" not in rest and "VAPID_PUBLIC_KEY" in rest
    parameter = template["Parameters"]["TokenSecretParameterName"]
    assert parameter["Default"] == "/harftet/token-secret"
    assert re.fullmatch(parameter["AllowedPattern"], parameter["Default"])


# ------------------------------------------------------------------------------- secrets


def test_the_template_and_deploy_defaults_hold_no_secret_values(template: dict[str, Any]) -> None:
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert "TOKEN_SECRET" not in variables, "the secret lives in SSM, never in the template"
    for name, value in variables.items():
        if re.search(r"SECRET|PASSWORD|KEY|TOKEN", name):
            assert isinstance(value, dict) and "Ref" in value, (name, value)
    for name, parameter in template["Parameters"].items():
        assert not (parameter.get("NoEcho") and "Default" in parameter), name
    suspicious = re.compile(
        r"(AKIA|ASIA)[0-9A-Z]{16}|-----BEGIN|aws_secret_access_key|"
        r"(?<![\w$/{.:-])(?=[A-Za-z0-9+/=_-]*\d)(?=[A-Za-z0-9+/=_-]*[A-Za-z])[A-Za-z0-9+/=_-]{32,}"
    )
    for path in (TEMPLATE, REPO / "samconfig.toml"):
        if path.exists():
            match = suspicious.search(path.read_text(encoding="utf-8"))
            assert match is None, f"{path.name}: looks like a secret: {match and match.group(0)}"


def test_the_outputs_give_both_endpoints_and_the_table_names(template: dict[str, Any]) -> None:
    outputs = template["Outputs"]
    assert outputs["RestApiUrl"]["Value"]["Fn::Sub"].startswith("https://${RestApi}.")
    assert outputs["WebSocketUrl"]["Value"]["Fn::Sub"].startswith("wss://${WebSocketApi}.")
    for name in ("TablesTable", "PlayersTable", "ConnectionsTable"):
        assert outputs[f"{name}Name"]["Value"] == {"Ref": name}


# ------------------------------------------------------------------------------- alarms

OPERATOR_CONDITIONS = ("AlarmsOn", "AlarmMail")
Metric = tuple[str, str, tuple[tuple[str, str], ...]]


def _alarms(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k: v["Properties"] for k, v in _resources(template, "AWS::CloudWatch::Alarm").items()}


def _dimensions(dimensions: list[dict[str, Any]]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((d["Name"], repr(d["Value"])) for d in dimensions))


def _metrics(alarm: dict[str, Any]) -> set[Metric]:
    """(namespace, metric name, dimensions) of every metric an alarm reads (math included)."""
    if "MetricName" in alarm:
        namespace = alarm["Namespace"]  # a custom one is a !Sub
        namespace = namespace if isinstance(namespace, str) else repr(namespace)
        return {(namespace, alarm["MetricName"], _dimensions(alarm.get("Dimensions", [])))}
    found: set[Metric] = set()
    for query in alarm["Metrics"]:
        if "MetricStat" in query:
            metric = query["MetricStat"]["Metric"]
            dims = _dimensions(metric.get("Dimensions", []))
            found.add((metric["Namespace"], metric["MetricName"], dims))
    return found


def _alarmed(template: dict[str, Any]) -> set[Metric]:
    return {m for alarm in _alarms(template).values() for m in _metrics(alarm)}


def _dims(**values: Any) -> tuple[tuple[str, str], ...]:
    return _dimensions([{"Name": k, "Value": v} for k, v in values.items()])


def test_alarms_are_on_by_default_and_one_parameter_turns_them_all_off(
    template: dict[str, Any],
) -> None:
    assert template["Parameters"]["Alarms"]["Default"] == "true"
    assert template["Conditions"]["AlarmsOn"] == {"Fn::Equals": [{"Ref": "Alarms"}, "true"]}
    assert template["Conditions"]["AlarmMail"] == {
        "Fn::And": [
            {"Fn::Condition": "AlarmsOn"},  # load_template's reading of !Condition
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmEmail"}, ""]}]},
        ]
    }
    operator_types = (
        "AWS::CloudWatch::Alarm",
        "AWS::CloudWatch::Dashboard",
        "AWS::SNS::Topic",
        "AWS::SNS::Subscription",
        "AWS::Logs::MetricFilter",
    )
    for type_ in operator_types:
        for name, resource in _resources(template, type_).items():
            assert resource.get("Condition") in OPERATOR_CONDITIONS, name
    assert template["Parameters"]["AlarmEmail"]["Default"] == ""
    assert re.fullmatch(template["Parameters"]["AlarmEmail"]["AllowedPattern"], "ops@example.com")


def test_the_operators_resources_are_one_block_at_the_end_of_resources(
    template: dict[str, Any],
) -> None:
    """Kept together (other work adds resources in parallel): easy to review and to merge."""
    names = list(template["Resources"])
    block = [
        i
        for i, n in enumerate(names)
        if template["Resources"][n].get("Condition") in OPERATOR_CONDITIONS
    ]
    assert block == list(range(len(names) - len(block), len(names))), names


def test_every_alarm_notifies_the_topic_when_it_fires_and_when_it_recovers(
    template: dict[str, Any],
) -> None:
    alarms = _alarms(template)
    assert len(alarms) >= 12
    for name, alarm in alarms.items():
        assert alarm["AlarmActions"] == alarm["OKActions"] == [{"Ref": "AlarmTopic"}], name
        assert alarm["AlarmName"]["Fn::Sub"].startswith("${AWS::StackName}-"), name
    [subscription] = _resources(template, "AWS::SNS::Subscription").values()
    assert subscription["Condition"] == "AlarmMail"
    assert subscription["Properties"]["Endpoint"] == {"Ref": "AlarmEmail"}
    assert subscription["Properties"]["TopicArn"] == {"Ref": "AlarmTopic"}


# Not alarmed: the pre-traffic hooks report to CodeDeploy (a failure stops that deploy, which
# says so), a failed key rotation keeps the current keys signing until the next run, and the
# synthetic game's own alarm fires when its function fails (no SyntheticGameOk is failing).
# CellRegistrationFunction runs once per deploy: its failure fails the deploy itself.
UNALARMED = {
    "PreTrafficFunction",
    "WsPreTrafficFunction",
    "KeyRotationFunction",
    "SyntheticFunction",
    "CellRegistrationFunction",
}


def test_every_function_has_an_errors_and_a_throttles_alarm(template: dict[str, Any]) -> None:
    alarmed = _alarmed(template)
    for name in set(_resources(template, "AWS::Serverless::Function")) - UNALARMED:
        for metric in ("Errors", "Throttles"):
            assert ("AWS/Lambda", metric, _dims(FunctionName={"Ref": name})) in alarmed, (
                name,
                metric,
            )


def test_both_apis_have_a_5xx_rate_and_a_p99_latency_alarm(template: dict[str, Any]) -> None:
    # SAM names the REST API after the stack (its OpenAPI title): that is its ApiName.
    rest = _dims(ApiName={"Ref": "AWS::StackName"}, Stage={"Ref": "Stage"})
    ws = _dims(ApiId={"Ref": "WebSocketApi"}, Stage={"Ref": "Stage"})
    alarms = _alarms(template)
    rates = [a for a in alarms.values() if "Metrics" in a]
    by_metrics = {frozenset(_metrics(a)): a for a in rates}
    rest_rate = frozenset({("AWS/ApiGateway", "5XXError", rest), ("AWS/ApiGateway", "Count", rest)})
    ws_rate = frozenset(
        ("AWS/ApiGateway", m, ws) for m in ("ExecutionError", "ConnectCount", "MessageCount")
    )
    assert rest_rate in by_metrics and ws_rate in by_metrics
    for rate in (by_metrics[rest_rate], by_metrics[ws_rate]):
        [answer] = [q for q in rate["Metrics"] if q.get("ReturnData")]
        assert "100 *" in answer["Expression"] and rate["Threshold"] == 5  # percent
    latency = [a for a in alarms.values() if a.get("MetricName") == "IntegrationLatency"]
    for dims in (rest, ws):
        [alarm] = [a for a in latency if _dimensions(a["Dimensions"]) == dims]
        assert alarm["ExtendedStatistic"] == "p99"
        assert alarm["Namespace"] == "AWS/ApiGateway"


def test_every_table_throttling_is_alarmed(template: dict[str, Any]) -> None:
    alarmed = _alarmed(template)
    for name in _resources(template, "AWS::DynamoDB::Table"):
        for metric in ("ReadThrottleEvents", "WriteThrottleEvents"):
            assert ("AWS/DynamoDB", metric, _dims(TableName={"Ref": name})) in alarmed, name


def test_every_queue_and_stream_consumer_is_alarmed(template: dict[str, Any]) -> None:
    """Work piling up or given up on: every queue's depth or age; a stream consumer's lag."""
    alarmed = _alarmed(template)
    queue_metrics = {"ApproximateAgeOfOldestMessage", "ApproximateNumberOfMessagesVisible"}
    for name in _resources(template, "AWS::SQS::Queue"):
        queue = _dims(QueueName={"Fn::GetAtt": [name, "QueueName"]})
        assert {("AWS/SQS", m, queue) for m in queue_metrics} & alarmed, name
    consumers = {
        mapping["Properties"]["FunctionName"]["Ref"]
        for mapping in _resources(template, "AWS::Lambda::EventSourceMapping").values()
        if "StreamArn" in json.dumps(mapping["Properties"]["EventSourceArn"])
    }
    for name, function in _resources(template, "AWS::Serverless::Function").items():
        triggers = {e["Type"] for e in (function["Properties"].get("Events") or {}).values()}
        if triggers & {"DynamoDB", "Kinesis"}:
            consumers.add(name)
    for name in consumers:
        assert ("AWS/Lambda", "IteratorAge", _dims(FunctionName={"Ref": name})) in alarmed, name


def test_a_sweeper_that_fails_on_a_table_or_stops_running_is_alarmed(
    template: dict[str, Any],
) -> None:
    alarms = _alarms(template)
    [stopped] = [a for a in alarms.values() if a.get("MetricName") == "Invocations"]
    assert stopped["Dimensions"] == [{"Name": "FunctionName", "Value": {"Ref": "SweeperFunction"}}]
    assert stopped["ComparisonOperator"] == "LessThanThreshold"
    assert stopped["TreatMissingData"] == "breaching"  # no data is exactly the failure
    [flt] = [
        f
        for f in _resources(template, "AWS::Logs::MetricFilter").values()
        if f["Properties"]["LogGroupName"] == {"Ref": "SweeperFunctionLogs"}
    ]
    assert flt["Properties"]["FilterPattern"] == '{ $.level = "ERROR" }'
    [transform] = flt["Properties"]["MetricTransformations"]
    [failures] = [a for a in alarms.values() if a.get("MetricName") == transform["MetricName"]]
    assert failures["Namespace"] == transform["MetricNamespace"]


def test_the_sweepers_per_table_failures_are_json_lines_the_metric_filter_matches() -> None:
    """Deadlines.sweep logs through the stdlib (logger harftet.tables.deadlines); powertools'
    Logger of the service (harftet) formats its children's lines as JSON with "level"."""
    import io
    import logging
    import uuid

    from aws_lambda_powertools import Logger

    service = f"harftet-{uuid.uuid4().hex}"  # a fresh logger: the handlers' may exist already
    out = io.StringIO()
    Logger(service=service, logger_handler=logging.StreamHandler(out))
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger(f"{service}.tables.deadlines").exception(
            "sweeping a table failed", extra={"tableId": "t1"}
        )
    line = json.loads(out.getvalue().strip().splitlines()[-1])
    assert (line["level"], line["tableId"]) == ("ERROR", "t1")


def test_the_dashboard_graphs_every_alarm(template: dict[str, Any]) -> None:
    [dashboard] = _resources(template, "AWS::CloudWatch::Dashboard").values()
    body = dashboard["Properties"]["DashboardBody"]["Fn::Sub"]
    widgets = json.loads(re.sub(r"\$\{(\w+)\.Arn\}", r"\1", re.sub(r"\$\{AWS::\w+\}", "x", body)))
    graphed = [
        a
        for w in widgets["widgets"]
        for a in w["properties"].get("annotations", {}).get("alarms", [])
    ]
    [status] = [w for w in widgets["widgets"] if w["type"] == "alarm"]
    assert sorted(graphed) == sorted(_alarms(template)) == sorted(status["properties"]["alarms"])


def test_deploy_md_explains_every_alarm(template: dict[str, Any]) -> None:
    deploy = (REPO / "docs" / "DEPLOY.md").read_text(encoding="utf-8")
    for name, alarm in _alarms(template).items():
        suffix = alarm["AlarmName"]["Fn::Sub"].removeprefix("${AWS::StackName}")
        assert f"`<stack>{suffix}`" in deploy, f"docs/DEPLOY.md does not explain {name}"
