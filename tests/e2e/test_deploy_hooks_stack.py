"""CodeDeploy's pre-traffic hooks end to end on the local stack (docs/DEPLOY.md "Deploys"):
the session's stack runs functions/pretraffic and functions/wspretraffic as Lambda runs them,
invoked here as CodeDeploy invokes them (Lambda's Invoke, with a hook event); each invokes
its function's new version (a qualified ARN) through the stack's Lambda API, plays its game
against the real REST and WebSocket handlers and reports to the stack's CodeDeploy API,
which keeps the report. A version that fails a step is reported Failed; either way no guest
the run made is left: no player item, no mail or inbox item, no socket."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import boto3
import httpx
import pytest
from botocore.config import Config

from harftet.localstack.lambda_api import CODEDEPLOY_PREFIX, LAMBDA_PREFIX, arn
from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def aws(local_stack_info: RunningStack) -> Iterator[Any]:
    """Lambda's API of the session's stack, as CodeDeploy (signed with the operator key)."""
    yield boto3.client(
        "lambda",
        endpoint_url=local_stack_info.base_url + LAMBDA_PREFIX,
        region_name="us-east-1",
        aws_access_key_id=local_stack_info.operator_key,
        aws_secret_access_key="local",
        config=Config(read_timeout=90, retries={"total_max_attempts": 1}),
    )


def run_hook(aws: Any, stack: RunningStack, hook: str) -> tuple[dict[str, Any], str]:
    """CodeDeploy's invoke of ``hook`` with a new deployment's ids: what the hook answered,
    and the status the stack's CodeDeploy API took for that hook execution."""
    event = {"DeploymentId": f"d-{uuid.uuid4().hex[:9]}", "LifecycleEventHookExecutionId": "h1"}
    answer = aws.invoke(FunctionName=f"harftet-{hook}", Payload=json.dumps(event))
    assert "FunctionError" not in answer, answer["Payload"].read()
    result = json.loads(answer["Payload"].read())
    reports = httpx.get(
        stack.base_url + CODEDEPLOY_PREFIX + "/lifecycle-events",
        headers={"X-Operator-Key": stack.operator_key},
        timeout=10,
    ).json()["reports"]
    [status] = [r["status"] for r in reports if r["deploymentId"] == event["DeploymentId"]]
    return result, status


def _text(item: dict[str, Any]) -> str:
    """An item as text to search, its binary values (kept answers, compressed) as raw bytes."""
    return json.dumps(item, default=lambda value: value.decode("latin-1"))


def left_behind(stack: RunningStack, guests: list[str]) -> list[dict[str, Any]]:
    """Every item of the players, mail and connections tables that names one of ``guests``
    (a player, a session, a name, an inbox or mail item, a socket, presence)."""
    dynamodb = boto3.client(
        "dynamodb", endpoint_url=stack.dynamodb_endpoint, region_name="us-east-1",
        aws_access_key_id="local", aws_secret_access_key="local",
    )  # fmt: skip
    found = []
    for variable in ("PLAYERS_TABLE", "MAIL_TABLE", "CONNECTIONS_TABLE"):
        for page in dynamodb.get_paginator("scan").paginate(TableName=stack.env[variable]):
            found += [i for i in page["Items"] if any(g in _text(i) for g in guests)]
    return found


@pytest.mark.parametrize("hook", ["pretraffic", "wspretraffic"])
def test_a_hook_plays_the_new_version_reports_succeeded_and_leaves_no_guest(
    aws: Any, local_stack_info: RunningStack, hook: str
) -> None:
    result, status = run_hook(aws, local_stack_info, hook)
    assert result["ok"] is True and result["moves"] == 1, result
    assert status == "Succeeded"
    assert len(result["guests"]) == 2 and left_behind(local_stack_info, result["guests"]) == []


@pytest.mark.parametrize(
    ("hook", "broken", "step"),
    [  # the REST hook handed the WebSocket function as its new version, and the other way
        ("pretraffic", arn("ws", "2"), "POST /players: 599"),
        ("wspretraffic", arn("rest", "2"), "$connect: "),
    ],
)
def test_a_version_that_fails_a_step_is_reported_failed_and_leaves_no_guest(
    aws: Any, local_stack_info: RunningStack, hook: str, broken: str, step: str
) -> None:
    """A new version that answers a step otherwise (here the wrong function: an event it
    cannot take) is reported Failed, naming the step; the guests made before are deleted."""
    name = f"harftet-{hook}"
    before = aws.get_function_configuration(FunctionName=name)["Environment"]["Variables"]
    aws.update_function_configuration(
        FunctionName=name, Environment={"Variables": {"NEW_VERSION": broken}}
    )
    try:
        result, status = run_hook(aws, local_stack_info, hook)
    finally:
        original = {"NEW_VERSION": before["NEW_VERSION"]}
        aws.update_function_configuration(FunctionName=name, Environment={"Variables": original})
    assert result["ok"] is False and result["error"].startswith(step), result
    assert status == "Failed"
    assert "left" not in result and left_behind(local_stack_info, result["guests"]) == []
    assert len(result["guests"]) == (2 if hook == "wspretraffic" else 0)


def test_only_the_operator_key_reaches_lambdas_api(local_stack_info: RunningStack) -> None:
    """A caller without it cannot invoke a function directly (it would pass API Gateway's
    checks, as IAM keeps them from anyone in AWS)."""
    stranger = boto3.client(
        "lambda", endpoint_url=local_stack_info.base_url + LAMBDA_PREFIX,
        region_name="us-east-1", aws_access_key_id="local", aws_secret_access_key="local",
    )  # fmt: skip
    with pytest.raises(stranger.exceptions.ClientError, match="AccessDenied"):
        stranger.invoke(FunctionName="harftet-rest:live", Payload=b"{}")


@pytest.mark.parametrize("name", ["harftet-rest:beta", "harftet-nothing", arn("ws", "$LATEST2")])
def test_a_function_or_alias_the_stack_does_not_run_is_not_found(aws: Any, name: str) -> None:
    """Any version number, $LATEST and the alias live reach the one handler; another alias
    or an unknown function is Lambda's ResourceNotFoundException, as in AWS."""
    with pytest.raises(aws.exceptions.ResourceNotFoundException):
        aws.invoke(FunctionName=name, Payload=b"{}")
