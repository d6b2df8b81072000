"""CodeDeploy's pre-traffic hook of the REST function (docs/DEPLOY.md "Deploys"): one move
of a practice game played against its new version, invoked as API Gateway invokes it, before
any player's request reaches that version. Succeeded or Failed goes back to CodeDeploy (a
failure stops the deploy and keeps traffic on the version before). The WebSocket function's
hook: functions/wspretraffic; what both share: harftet.deployhook."""

from __future__ import annotations

from typing import Any

import boto3
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import settings
from harftet.deployhook import clients_of, pre_traffic, rest_caller
from harftet.observability import new_logger
from harftet.probe import play

logger = new_logger()


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    version = settings().environ["NEW_VERSION"]
    result = pre_traffic(
        event, clients_of(boto3.client), lambda aws: play(rest_caller(aws, version), moves=1)
    )
    logger.info("pre-traffic game", extra={"version": version, **result})
    return result
