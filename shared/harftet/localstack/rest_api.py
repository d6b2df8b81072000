"""The REST API as API Gateway serves it: `ANY /{proxy+}` with a Lambda proxy integration, the
template's routes, its gateway responses, the payload limit, throttling and compression.
"""

from __future__ import annotations

import hmac
import logging
import time
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from harftet.localstack import lambda_events
from harftet.localstack.responses import compressed, log_access, message, proxy_response
from harftet.localstack.runtime import HandlerError, LambdaFunction
from harftet.localstack.template import (
    GatewayResponses,
    RestRoute,
    TemplateSettings,
    find_route,
)
from harftet.localstack.throttle import TokenBucket
from harftet.rest.methods import allowed_methods, method_not_allowed

log = logging.getLogger("harftet.localstack")

MAX_REST_PAYLOAD = 10 * 1024 * 1024  # API Gateway's REST request limit
OPERATOR_HEADER = "x-operator-key"
# The IAM caller API Gateway names for a signed request; locally, whoever holds the key.
LOCAL_OPERATOR = "arn:aws:iam::123456789012:user/local-operator"


class RestApi:
    """The REST API's proxy integration in front of one function."""

    def __init__(
        self,
        function: LambdaFunction | None,
        settings: TemplateSettings | None,
        throttle: tuple[float, int] | None,
        operator_key: str | None = None,
    ) -> None:
        self.function = function
        # AWS_IAM's stand-in (API.md v4): a request to an IAM-only route that carries this key
        # in X-Operator-Key reaches the handler as a signed caller; any other, as nobody.
        self.operator_key = operator_key
        # API Gateway's stage throttling (an operator setting): off unless asked for.
        self.throttle = TokenBucket(*throttle) if throttle else None
        self.routes = settings.rest_routes if settings else None
        self.iam_resources = {r.resource for r in self.routes or [] if r.iam}
        self.min_compression = settings.min_compression if settings else None
        self.gateway = settings.gateway_responses if settings else GatewayResponses()

    async def proxy(self, request: Request) -> Response:
        """Any other path: the REST API's `ANY /{proxy+}` with a Lambda proxy integration."""
        function = self.function
        if function is None:
            return message(502, "no REST handler is configured")
        if self.throttle is not None and not self.throttle.take():
            return self.gateway.render("THROTTLED", "Too Many Requests")
        body = await _body_within_limit(request)
        if body is None:
            return self.gateway.render("REQUEST_TOO_LARGE", "Request Too Long")
        resource: str | None = None
        params: dict[str, str] | None = None
        if self.routes is not None:
            found = find_route(self.routes, request.method, request.url.path)
            if found is None:  # no such resource or method in template.yaml
                return self._unknown_route(request, self.routes)
            resource, params = found
        return await self._invoke(function, request, body, resource, params)

    async def not_found(self, request: Request, _: Exception) -> Response:
        """Starlette's 404: a path its routes could not take still reaches the REST API."""
        # Starlette's path convertor stops at a newline; API Gateway routes such paths too.
        if request.scope["type"] == "http" and not request.url.path.startswith("/@connections"):
            return await self.proxy(request)
        return message(404, "Not Found")

    def _unknown_route(self, request: Request, routes: list[RestRoute]) -> Response:
        """A known resource asked with another method: 405 with Allow; else the template's
        missing-token answer, as API Gateway gives for any path it does not have."""
        path = request.url.path
        allowed = [m for m in allowed_methods(path) if find_route(routes, m, path)]
        if allowed:  # a known resource, another method
            status, body, allow = method_not_allowed(request.method, allowed)
            log_access(request.method, path, status, time.perf_counter())
            return JSONResponse(body, status_code=status, headers={"Allow": allow})
        return self.gateway.render("MISSING_AUTHENTICATION_TOKEN", "Missing Authentication Token")

    async def _invoke(
        self,
        function: LambdaFunction,
        request: Request,
        body: bytes,
        resource: str | None,
        params: dict[str, str] | None,
    ) -> Response:
        """Invoke the function with the request as a proxy event; its answer, as API Gateway
        sends it on (a failed or malformed one as the template's 5XX)."""
        event = lambda_events.rest_event(
            resource=resource,
            path_parameters=params,
            method=request.method,
            path=request.url.path,
            # the key is the signature's stand-in: API Gateway checks it, the function never sees it
            headers=[(k, v) for k, v in request.headers.items() if k.lower() != OPERATOR_HEADER],
            query=parse_qsl(request.url.query, keep_blank_values=True),
            body=body,
            source_ip=request.client.host if request.client else "127.0.0.1",
            host=request.url.netloc,
            user_arn=self._signed_caller(request, resource),
        )
        began = time.perf_counter()
        try:
            response = proxy_response(await function.invoke(event))
        except HandlerError as error:
            log.error("REST handler failed: %s", error)
            response = None
        if response is None:
            response = self.gateway.render("DEFAULT_5XX", "Internal server error", 502)
        response = compressed(
            response, request.headers.get("accept-encoding", ""), self.min_compression
        )
        response.headers["x-amzn-RequestId"] = event["requestContext"]["requestId"]
        log_access(request.method, request.url.path, response.status_code, began)
        return response

    def _signed_caller(self, request: Request, resource: str | None) -> str | None:
        """The IAM caller a request to an IAM-only route stands for: the local operator when
        it carries the operator key (compared in constant time), else nobody."""
        iam = self.routes is None or resource in self.iam_resources
        given = request.headers.get(OPERATOR_HEADER, "")
        key = self.operator_key
        if not (iam and key and given):
            return None
        return LOCAL_OPERATOR if hmac.compare_digest(given.encode(), key.encode()) else None


async def _body_within_limit(request: Request) -> bytes | None:
    """The request's body, or None when it is over API Gateway's limit (declared or sent)."""
    declared = request.headers.get("content-length", "0")
    if declared.isdigit() and int(declared) > MAX_REST_PAYLOAD:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_REST_PAYLOAD:
            return None
    return bytes(body)
