"""`sam local` against `make run`: events/env.local.json gives every function what it needs.

Without Docker, SAM cannot run a function here; what it would hand the function is still
checked with SAM's own code (the environment `sam local invoke --env-vars` resolves), and the
stack is started to see that the endpoints in the file are the ones it prints and that a
function configured that way reads the stack's tables and secret.
"""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from testkit import ran

from harftet.localstack.dynamo import DEFAULT_TABLE_NAMES
from harftet.localstack.sam_local import (
    DOCKER_HOST,
    REGION,
    env_vars,
    local_ssm,
    secret_parameter_name,
)
from harftet.localstack.stack import REPO_ROOT
from harftet.store.schema import load_template

ENV_FILE = REPO_ROOT / "events" / "env.local.json"
SAM_PYTHON = REPO_ROOT / ".venv-sam" / "bin" / "python"
TEMPLATE = REPO_ROOT / "template.yaml"
# SAM's own resolution of each function's environment (samcli's LocalLambdaRunner), as
# `sam local invoke --env-vars FILE --region us-east-1` computes it before starting Docker.
SAM_RESOLVE = """
import json, sys
from samcli.commands.local.lib.local_lambda import LocalLambdaRunner
from samcli.lib.providers.sam_function_provider import SamFunctionProvider
from samcli.lib.providers.sam_stack_provider import SamLocalStackProvider

template, env_file, region = sys.argv[1:4]
provider = SamFunctionProvider(SamLocalStackProvider.get_stacks(template)[0])
with open(env_file) as f:
    values = json.load(f)
runner = LocalLambdaRunner(None, provider, ".", ".", aws_region=region, env_vars_values=values)
print(json.dumps({
    f.name: {
        "declared": sorted((f.environment or {}).get("Variables", {})),
        "resolved": runner._make_env_vars(f).resolve(),
    }
    for f in provider.get_all()
}))
"""


# Empty values that are the documented default: no CORS origins, default budgets, no cell.
# Empty means the default, or (push credentials) that this kind of notification is not set up.
EMPTY_MEANS_DEFAULT = {
    "ALLOWED_ORIGINS",
    "LIMIT_BUDGETS",
    "CELL_ID",
    "VAPID_PUBLIC_KEY",
    "FCM_APPLICATION_ARN",
    "APNS_APPLICATION_ARN",
    "VAPID_PRIVATE_KEY_PARAM",
    "TOKEN_KEYS_PARAM",  # no key ring: the one secret signs, as under `make run`
    "NEW_VERSION",  # the pre-traffic hooks', given only by a deploy
    "REST_FUNCTION",  # the WebSocket pre-traffic hook's REST alias, given only by a deploy
}


def _committed() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads(ENV_FILE.read_text(encoding="utf-8"))
    return data


def test_the_env_vars_file_is_current():
    assert _committed() == env_vars(), (
        "regenerate: .venv/bin/python -m harftet.localstack.sam_local > events/env.local.json"
    )


def test_sam_gives_every_function_the_local_stacks_tables_endpoints_and_secret_name():
    if not SAM_PYTHON.exists():
        pytest.fail(f"{SAM_PYTHON} missing: run `make test` (it installs the AWS SAM CLI)")
    result = ran(
        [str(SAM_PYTHON), "-c", SAM_RESOLVE, str(TEMPLATE), str(ENV_FILE), REGION],
        timeout=120,
        cwd=REPO_ROOT,
        # No AWS profile or credentials of the developer's: SAM's placeholders, as in CI.
        env={"PATH": os.environ["PATH"], "HOME": str(REPO_ROOT), "SAM_CLI_TELEMETRY": "0"},
    )
    assert result.returncode == 0, result.stderr
    functions = json.loads(result.stdout)
    template = load_template(TEMPLATE)
    serverless = {
        k for k, v in template["Resources"].items() if v["Type"] == "AWS::Serverless::Function"
    }
    assert set(functions) == serverless == set(_committed())
    dynamodb = f"http://{DOCKER_HOST}:3001"
    for name, function in functions.items():
        env = function["resolved"]
        assert function["declared"] == sorted(_committed()[name]), f"{name}: names differ"
        filled = [v for v in function["declared"] if v not in EMPTY_MEANS_DEFAULT]
        assert all(env[v] != "" for v in filled), f"{name}: a variable is empty"
        for service in ("DYNAMODB", "SSM", "SQS"):  # one moto server
            assert env[f"AWS_ENDPOINT_URL_{service}"] == dynamodb, (name, service)
        assert env["WS_ENDPOINT"] == f"http://{DOCKER_HOST}:3000"
        assert env["TOKEN_SECRET_PARAM"] == secret_parameter_name(template)
        assert "TOKEN_SECRET" not in env  # the secret comes from the stack's SSM, never a file
        assert env["AWS_REGION"] == REGION
        tables = {
            k: env[v]
            for k, v in (
                ("TablesTable", "TABLES_TABLE"),
                ("PlayersTable", "PLAYERS_TABLE"),
                ("ConnectionsTable", "CONNECTIONS_TABLE"),
            )
        }
        assert tables.items() <= DEFAULT_TABLE_NAMES.items()


def _free_port_pair() -> int:
    """A port P with P and P + 1 both free (the stack's API and its DynamoDB)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port >= 65535:
            continue
        with socket.socket() as a, socket.socket() as b:
            try:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port
    raise RuntimeError("no two adjacent free ports")


@pytest.mark.e2e
def test_the_files_endpoints_are_the_ones_make_run_prints_and_reach_its_tables(tmp_path: Path):
    port = _free_port_pair()
    ready = tmp_path / "ready.json"
    log = tmp_path / "stack.log"
    command = [sys.executable, "-m", "harftet.localstack", "--port", str(port)]
    command += ["--ready-file", str(ready), "--exit-with-parent", "--sweeper", "none"]
    with log.open("wb") as out:
        stack = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=REPO_ROOT)
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert stack.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        banner = log.read_text()
        expected = {
            k: v.replace(DOCKER_HOST, "127.0.0.1")
            for k, v in env_vars(port=port)["RestFunction"].items()
        }
        printed_dynamodb = re.search(r"DynamoDB\s+(\S+)", banner)
        printed_rest = re.search(r"REST API\s+(\S+)", banner)
        assert printed_dynamodb and printed_rest, banner
        assert printed_dynamodb.group(1) == expected["AWS_ENDPOINT_URL_DYNAMODB"]
        assert printed_rest.group(1).rstrip("/") == expected["WS_ENDPOINT"]

        base = f"http://127.0.0.1:{port}"
        _wait_for_the_secret(expected["AWS_ENDPOINT_URL_SSM"], expected["TOKEN_SECRET_PARAM"])
        made = httpx.post(f"{base}/players", json={"name": "Ayşe"}, timeout=10).json()
        # A function configured by the file (no TOKEN_SECRET: it reads the stack's SSM), given
        # a GET /players/{id} with the stack's token, as `sam local invoke` would run it.
        event = json.loads((REPO_ROOT / "events" / "rest" / "get-player.json").read_text())
        text = json.dumps(event).replace("{{token}}", made["token"])
        text = text.replace("{{playerId}}", made["playerId"])
        env = {
            "PATH": os.environ["PATH"],
            "AWS_REGION": REGION,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_ACCESS_KEY_ID": "defaultkey",  # SAM's placeholders
            "AWS_SECRET_ACCESS_KEY": "defaultsecret",
            "PYTHONPATH": str(REPO_ROOT / "shared"),
            **expected,
        }
        invoke = ran(
            [sys.executable, "-c", INVOKE, str(REPO_ROOT / "functions" / "rest" / "app.py")],
            input=text,
            timeout=60,
            env=env,
        )
        assert invoke.returncode == 0, invoke.stderr
        answer = json.loads(invoke.stdout.strip().splitlines()[-1])
        assert answer["statusCode"] == 200, answer
        player = json.loads(
            base64.b64decode(answer["body"]) if answer.get("isBase64Encoded") else answer["body"]
        )
        assert (player["playerId"], player["name"]) == (made["playerId"], "Ayşe")
    finally:
        stack.terminate()  # its functions' workers close one by one: slow on a busy machine
        try:
            stack.wait(60)
        except subprocess.TimeoutExpired:
            stack.kill()
            raise


def _wait_for_the_secret(endpoint: str, name: str, timeout: float = 60) -> None:
    """The stack stores its secret in a background thread (moto's SSM starts slowly)."""
    ssm = local_ssm(endpoint)
    deadline = time.monotonic() + timeout
    while True:
        try:
            ssm.get_parameter(Name=name, WithDecryption=True)
            return
        except ssm.exceptions.ParameterNotFound:
            assert time.monotonic() < deadline, f"{name} never reached the stack's SSM"
            time.sleep(0.2)


INVOKE = """
import importlib.util, json, sys
from types import SimpleNamespace
spec = importlib.util.spec_from_file_location("app", sys.argv[1])
app = importlib.util.module_from_spec(spec)
spec.loader.exec_module(app)
context = SimpleNamespace(function_name="RestFunction", memory_limit_in_mb=512,
    invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:RestFunction",
    aws_request_id="1", function_version="$LATEST",
    get_remaining_time_in_millis=lambda: 10000)
print(json.dumps(app.handler(json.loads(sys.stdin.read()), context)))
"""
