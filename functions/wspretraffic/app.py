"""CodeDeploy's pre-traffic hook of the WebSocket function (docs/DEPLOY.md "Deploys"): before
any player's socket reaches its new version, a practice table is made over the REST function
(its alias `live`, REST_FUNCTION), and that version, invoked directly with API Gateway's
WebSocket events (NEW_VERSION), takes a `$connect` with a guest's token, a `sync` and one
`move`, then `$disconnect` (harftet.probe.play_on_socket: each answer checked, the table left
after). Succeeded or Failed goes back to CodeDeploy; a failure stops the deploy and keeps every
socket on the version before. Shared with the REST hook: harftet.deployhook."""

from __future__ import annotations

from typing import Any

import boto3
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.bootstrap import settings
from harftet.deployhook import clients_of, pre_traffic, rest_caller, socket_caller
from harftet.observability import new_logger
from harftet.probe import play_on_socket

logger = new_logger()


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    environ = settings().environ
    version, rest = environ["NEW_VERSION"], environ["REST_FUNCTION"]

    def game(aws: Any) -> dict[str, Any]:
        return play_on_socket(rest_caller(aws, rest), socket_caller(aws, version))

    result = pre_traffic(event, clients_of(boto3.client), game)
    logger.info("pre-traffic game on the socket", extra={"version": version, **result})
    return result
