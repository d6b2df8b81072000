"""What CodeDeploy's two pre-traffic hooks share (docs/DEPLOY.md "Deploys"): functions/
pretraffic plays against the REST function's new version, functions/wspretraffic against the
WebSocket function's. Each invokes a function directly, as API Gateway would (``rest_caller``,
``socket_caller``: the calls harftet.probe plays through), and ``pre_traffic`` tells CodeDeploy
whether the new version may take traffic."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from harftet.probe import Call, Deliver, api_event

logger = logging.getLogger(__name__)
Game = Callable[[Any], dict[str, Any]]  # plays with a Lambda client: {"ok", ...}
# How long one invoke of a version may take before the game counts it failed. The hooks'
# Timeout is 60 s: a step that hangs (15 s) and the two guests' deletes after it (15 s each,
# harftet.probe.Guests) still end, and are reported, inside it.
INVOKE_SECONDS = 15


def clients_of(make: Callable[..., Any]) -> Callable[[str], Any]:
    """``make`` (boto3.client) as the hooks use it: each invoke bounded to INVOKE_SECONDS and
    never retried. A retried invoke would replay the request (a second guest signed up, whom
    nobody deletes) and a hung one would outlive the hook, leaving its guests and no report."""
    from botocore.config import Config

    bounded = Config(
        connect_timeout=5, read_timeout=INVOKE_SECONDS, retries={"total_max_attempts": 1}
    )
    return lambda service: make(service, config=bounded) if service == "lambda" else make(service)


def invoke(lambda_client: Any, function: str, event: dict[str, Any]) -> Any:
    """``function``'s reply to ``event`` (a version's or an alias's ARN, or a name; one
    synchronous invoke). A function that raised replies Lambda's error payload
    (``errorMessage``, ``errorType``)."""
    answer = lambda_client.invoke(FunctionName=function, Payload=json.dumps(event))
    return json.loads(answer["Payload"].read())


def rest_caller(lambda_client: Any, function: str) -> Call:
    """``call`` for harftet.probe: each request one invoke of the REST ``function``."""

    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        reply = invoke(lambda_client, function, api_event(method, path, body, token))
        if "statusCode" not in reply:  # the function raised: Lambda's error payload
            return 599, reply
        return int(reply["statusCode"]), json.loads(reply.get("body") or "null")

    return call


def socket_caller(lambda_client: Any, function: str) -> Deliver:
    """``deliver`` for harftet.probe.play_on_socket: each WebSocket API event one invoke of
    the WebSocket ``function``, its reply as it is."""
    return lambda event: invoke(lambda_client, function, event)


def pre_traffic(event: dict[str, Any], clients: Callable[[str], Any], game: Game) -> dict[str, Any]:
    """Play ``game`` (with ``clients("lambda")``) and report its verdict on the CodeDeploy
    hook ``event`` names: Succeeded when it says ``ok``, Failed otherwise, and Failed too when
    it raised (an invoke refused, say: the deploy stops now, not at the hook's 1-hour
    timeout). The game deletes the guests it signed up whatever its end (harftet.probe). A
    report that fails raises: an invocation Lambda retries plays and reports again; with no
    report at all the deploy fails at the hook's timeout."""
    try:
        result = game(clients("lambda"))
    except Exception as error:
        logger.exception("the pre-traffic game could not be played")
        result = {"ok": False, "moves": 0, "error": f"{type(error).__name__}: {error}"[:300]}
    clients("codedeploy").put_lifecycle_event_hook_execution_status(
        deploymentId=event["DeploymentId"],
        lifecycleEventHookExecutionId=event["LifecycleEventHookExecutionId"],
        status="Succeeded" if result.get("ok") else "Failed",
    )
    return result
