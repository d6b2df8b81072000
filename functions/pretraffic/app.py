"""CodeDeploy's pre-traffic hook (docs/DEPLOY.md "Deploys"): one move of a practice game
played against the REST function's new version, invoked as API Gateway invokes it, before
any player's request reaches that version. Succeeded or Failed goes back to CodeDeploy (a
failure stops the deploy and keeps traffic on the version before)."""

from __future__ import annotations

import json
from typing import Any

import boto3
from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import settings
from harftet.probe import api_event, play

logger = Logger()


def invoker(lambda_client: Any, version: str) -> Any:
    """``call`` for harftet.probe: each request one invoke of ``version``."""

    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        answer = lambda_client.invoke(
            FunctionName=version, Payload=json.dumps(api_event(method, path, body, token))
        )
        reply = json.loads(answer["Payload"].read())
        if "statusCode" not in reply:  # the function raised: Lambda's error payload
            return 599, reply
        return int(reply["statusCode"]), json.loads(reply.get("body") or "null")

    return call


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    version = settings().environ["NEW_VERSION"]
    result = play(invoker(boto3.client("lambda"), version), moves=1)
    logger.info("pre-traffic game", extra={"version": version, **result})
    boto3.client("codedeploy").put_lifecycle_event_hook_execution_status(
        deploymentId=event["DeploymentId"],
        lifecycleEventHookExecutionId=event["LifecycleEventHookExecutionId"],
        status="Succeeded" if result["ok"] else "Failed",
    )
    return result
