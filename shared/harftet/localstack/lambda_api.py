"""Lambda's and CodeDeploy's APIs as the deploy hooks call them, on the stack's own port:
what lets the local stack run CodeDeploy's two pre-traffic hooks (functions/pretraffic,
functions/wspretraffic) end to end through the code AWS runs (docs/DEPLOY.md "Deploys").

- `/@lambda` is Lambda's API for boto3 (`AWS_ENDPOINT_URL_LAMBDA`): `Invoke`
  (RequestResponse) of any function of the stack by name or ARN, with a qualifier
  (`name:7`, `name:live`, `?Qualifier=`): the stack runs one version of each function, so
  every version number, `$LATEST` and the alias `live` reach the same handler, as a new
  version and the alias do in AWS; a handler that raises answers Lambda's error payload
  with `X-Amz-Function-Error: Unhandled`. `GetFunctionConfiguration` and
  `UpdateFunctionConfiguration` (its environment variables, merged; new execution
  environments get them) complete it.
- `/@codedeploy` takes `PutLifecycleEventHookExecutionStatus` and keeps each report;
  `GET /@codedeploy/lifecycle-events` lists them (moto has no such call).

Callers are IAM's in AWS; here the operator key stands in for IAM, as X-Operator-Key does on
the operator routes: a request is taken only when it is signed with the operator key as its
access key id (the hooks' environment has it). Anyone else gets 403.
"""

from __future__ import annotations

import hmac
import json
import re
from collections.abc import Callable, Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from harftet.localstack.environment import ACCOUNT, REGION
from harftet.localstack.runtime import HandlerError, LambdaFunction

LAMBDA_PREFIX = "/@lambda"
CODEDEPLOY_PREFIX = "/@codedeploy"
ALIASES = ("live",)  # the template's AutoPublishAlias
HOOKS = {"pretraffic": "rest", "wspretraffic": "ws"}  # each hook's function under test
_NAME = re.compile(
    r"^(?:arn:aws:lambda:[a-z0-9-]+:\d{12}:function:)?(?P<name>[A-Za-z0-9_-]{1,64})"
    r"(?::(?P<qualifier>\$LATEST|[A-Za-z0-9_-]{1,128}))?$"
)
_CREDENTIAL = re.compile(r"Credential=([^/,\s]+)/")


def arn(function: str, qualifier: str | None = None) -> str:
    """A function's ARN on the local stack (with a version or alias)."""
    base = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:harftet-{function}"
    return f"{base}:{qualifier}" if qualifier else base


def hook_env(base: str, operator_key: str) -> dict[str, dict[str, str]]:
    """Each hook's own variables, beside the handlers' environment: the new version it plays
    against (the template's `!Ref RestFunction.Version`; here version 1, which is the one
    the stack runs), the REST alias the WebSocket hook makes its table over, where Lambda's
    and CodeDeploy's APIs are (on the stack's ``base`` URL), and the operator key as the
    access key that may call them."""
    common = {
        "AWS_ENDPOINT_URL_LAMBDA": base + LAMBDA_PREFIX,
        "AWS_ENDPOINT_URL_CODEDEPLOY": base + CODEDEPLOY_PREFIX,
        "AWS_ACCESS_KEY_ID": operator_key,
    }
    return {
        "pretraffic": {**common, "NEW_VERSION": arn("rest", "1")},
        "wspretraffic": {
            **common, "NEW_VERSION": arn("ws", "1"), "REST_FUNCTION": arn("rest", "live"),
        },
    }  # fmt: skip


class LocalDeployApis:
    """Lambda's Invoke and configuration calls over the stack's functions (``functions()``:
    name → function, read on each call) and CodeDeploy's hook reports (``reports``)."""

    def __init__(
        self, functions: Callable[[], Mapping[str, LambdaFunction]], operator_key: str | None
    ) -> None:
        self.functions = functions
        self.operator_key = operator_key
        self.reports: list[dict[str, str]] = []

    def routes(self) -> list[BaseRoute]:
        """The routes under /@lambda and /@codedeploy."""
        path = LAMBDA_PREFIX + "/2015-03-31/functions/{function}"
        return [
            Route(path + "/invocations", self.invoke, methods=["POST"]),
            Route(path + "/configuration", self.configuration, methods=["GET", "PUT"]),
            Route(CODEDEPLOY_PREFIX, self.codedeploy, methods=["POST"]),  # JSON 1.1: one path
            Route(CODEDEPLOY_PREFIX + "/", self.codedeploy, methods=["POST"]),
            Route(CODEDEPLOY_PREFIX + "/lifecycle-events", self.lifecycle, methods=["GET"]),
        ]

    def _allowed(self, request: Request) -> bool:
        """Signed with the operator key as access key id (or the operator header)."""
        key = self.operator_key or ""
        found = _CREDENTIAL.search(request.headers.get("authorization", ""))
        given = found.group(1) if found else request.headers.get("x-operator-key", "")
        return bool(key and given) and hmac.compare_digest(given.encode(), key.encode())

    def _function(self, request: Request) -> LambdaFunction | Response:
        """The function a request names (and the qualifier it may carry), or Lambda's
        refusal."""
        if not self._allowed(request):
            return _error(403, "AccessDeniedException", "not signed with the operator key")
        name = request.path_params["function"]
        named = _NAME.match(name)
        function = self.functions().get(named["name"]) if named else None
        qualifier = request.query_params.get("Qualifier") or (named["qualifier"] if named else "")
        if function is None or not _published(qualifier):
            return _error(404, "ResourceNotFoundException", f"Function not found: {name}")
        return function

    async def invoke(self, request: Request) -> Response:
        """Lambda's `Invoke` (RequestResponse): the function's reply, or its error payload."""
        function = self._function(request)
        if isinstance(function, Response):
            return function
        kind = request.headers.get("x-amz-invocation-type", "RequestResponse")
        if kind != "RequestResponse":
            return _error(400, "InvalidParameterValueException", f"{kind}: not served here")
        try:
            event = json.loads(await request.body() or b"{}")
        except ValueError:
            return _error(400, "InvalidRequestContentException", "the payload is not JSON")
        version = {"X-Amz-Executed-Version": "1"}
        try:
            reply = await function.invoke(event)
        except HandlerError as error:
            kind, _, text = str(error).partition(": ")
            payload = {"errorMessage": text or kind, "errorType": kind if text else "Error"}
            headers = {**version, "X-Amz-Function-Error": "Unhandled"}
            return JSONResponse(payload, headers=headers)
        return Response(json.dumps(reply), media_type="application/json", headers=version)

    async def configuration(self, request: Request) -> Response:
        """`GetFunctionConfiguration`, and `UpdateFunctionConfiguration` of its
        ``Environment.Variables`` (merged into the function's; idle environments end)."""
        function = self._function(request)
        if isinstance(function, Response):
            return function
        if request.method == "PUT":
            try:
                variables = (await request.json())["Environment"]["Variables"]
                assert all(isinstance(v, str) for v in (*variables, *variables.values()))
            except Exception:
                message = 'send {"Environment": {"Variables": {"NAME": "value"}}}'
                return _error(400, "InvalidParameterValueException", message)
            function.reconfigure(variables)
        spec = function.spec
        return JSONResponse(
            {
                "FunctionName": spec.name,
                "FunctionArn": arn(spec.name.removeprefix("harftet-")),
                "Timeout": int(spec.timeout_seconds),
                "MemorySize": spec.memory_mb,
                "Environment": {"Variables": dict(spec.env)},
            }
        )

    async def codedeploy(self, request: Request) -> Response:
        """CodeDeploy's `PutLifecycleEventHookExecutionStatus` (JSON 1.1): the report kept."""
        if not self._allowed(request):
            return _error(403, "AccessDeniedException", "not signed with the operator key")
        target = request.headers.get("x-amz-target", "")
        if target != "CodeDeploy_20141006.PutLifecycleEventHookExecutionStatus":
            return _error(400, "UnknownOperationException", f"{target}: not served here")
        body = json.loads(await request.body() or b"{}")
        fields = ("deploymentId", "lifecycleEventHookExecutionId", "status")
        if not all(isinstance(body.get(f), str) for f in fields):
            return _error(400, "InvalidLifecycleEventHookExecutionStatusException", str(body))
        self.reports.append({f: body[f] for f in fields})
        hook = body["lifecycleEventHookExecutionId"]
        return JSONResponse({"lifecycleEventHookExecutionId": hook})

    async def lifecycle(self, request: Request) -> Response:
        """Every hook report CodeDeploy took, in order (operator key)."""
        if not self._allowed(request):
            return _error(403, "AccessDeniedException", "not signed with the operator key")
        return JSONResponse({"reports": self.reports})


def _published(qualifier: str | None) -> bool:
    """A qualifier the stack's one version answers to: none, $LATEST, a version, `live`."""
    return qualifier in (None, "", "$LATEST", *ALIASES) or str(qualifier).isdigit()


def _error(status: int, kind: str, message: str) -> JSONResponse:
    """An AWS JSON error: its type in the header boto3 reads, and the message."""
    return JSONResponse(
        {"Type": "User", "message": message, "__type": kind},
        status_code=status,
        headers={"x-amzn-ErrorType": kind},
    )
