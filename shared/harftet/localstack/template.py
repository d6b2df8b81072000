"""What the emulator takes from template.yaml: the REST routes, the gateway responses, and each
function's timeout and memory, so that the local API refuses and answers what API Gateway would.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.responses import Response

from harftet.localstack.sources import Mapping

HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

# API Gateway's defaults for the gateway responses the emulator produces.
DEFAULT_STATUS = {
    "MISSING_AUTHENTICATION_TOKEN": 403,
    "REQUEST_TOO_LARGE": 413,
    "THROTTLED": 429,
    "DEFAULT_4XX": 400,
    "DEFAULT_5XX": 502,
}


@dataclass(frozen=True)
class RestRoute:
    """One method on one resource of the REST API, e.g. POST /tables/{tableId}/moves."""

    method: str
    resource: str
    pattern: re.Pattern[str] = field(compare=False)
    iam: bool = field(default=False, compare=False)  # its API takes AWS_IAM signatures only

    @classmethod
    def parse(cls, method: str, resource: str, iam: bool = False) -> RestRoute:
        """A route from an API event's Method (or `any`) and Path."""
        regex = ""
        for part in re.split(r"(\{[^}]+\})", resource):
            if part.startswith("{") and part.endswith("+}"):
                regex += f"(?P<{part[1:-2]}>.+)"
            elif part.startswith("{"):
                regex += f"(?P<{part[1:-1]}>[^/]+)"
            else:
                regex += re.escape(part)
        return cls(method.upper(), resource, re.compile(f"^{regex}$"), iam)

    def match(self, method: str, path: str) -> dict[str, str] | None:
        """The path parameters if this route serves the request, else None."""
        if self.method not in ("ANY", method):
            return None
        found = self.pattern.match(path)
        return None if found is None else found.groupdict()

    @property
    def literal_weight(self) -> tuple[int, int]:
        """Sort key: literal resources beat parameters, and parameters beat greedy ones."""
        return (self.resource.count("+}"), self.resource.count("{"))


def find_route(
    routes: list[RestRoute], method: str, path: str
) -> tuple[str, dict[str, str] | None] | None:
    """(resource, pathParameters) of the route serving the request, or None if none does."""
    path = path.rstrip("/") or "/"
    for route in sorted(routes, key=lambda r: r.literal_weight):
        params = route.match(method, path)
        if params is not None:
            return route.resource, params or None
    return None


@dataclass
class GatewayResponses:
    """The API's GatewayResponses: API Gateway's own refusals, rendered as the template says."""

    config: dict[str, Any] = field(default_factory=dict)

    def render(self, kind: str, message: str, status: int | None = None) -> Response:
        """The response API Gateway sends for `kind` (e.g. MISSING_AUTHENTICATION_TOKEN)."""
        status = status or DEFAULT_STATUS.get(kind, 500)
        family = "DEFAULT_4XX" if status < 500 else "DEFAULT_5XX"
        specific = self.config.get(kind) or {}
        fallback = self.config.get(family) or {}
        status = int(specific.get("StatusCode", status))
        templates = specific.get("ResponseTemplates") or fallback.get("ResponseTemplates") or {}
        body = templates.get("application/json")
        if body is None:
            body = json.dumps({"message": message})
        else:
            body = body.replace("$context.error.messageString", json.dumps(message))
            body = body.replace("$context.error.message", message)
        headers = {"x-amzn-ErrorType": _error_type(kind)}
        return Response(body, status_code=status, media_type="application/json", headers=headers)


def _error_type(kind: str) -> str:
    return {
        "MISSING_AUTHENTICATION_TOKEN": "MissingAuthenticationTokenException",
        "REQUEST_TOO_LARGE": "RequestTooLargeException",
        "THROTTLED": "TooManyRequestsException",
    }.get(kind, "InternalServerErrorException")


@dataclass
class TemplateSettings:
    """The emulator's settings read from template.yaml."""

    rest_routes: list[RestRoute] | None  # None: every path reaches the handler (/{proxy+})
    gateway_responses: GatewayResponses
    timeouts: dict[str, float]  # by function folder name: rest, ws, sweeper, fanout, timer
    memory: dict[str, int]
    mappings: list[Mapping] = field(default_factory=list)  # the event source mappings
    queues: dict[str, dict[str, Any]] = field(default_factory=dict)  # SQS queues' Properties
    # the REST API's MinimumCompressionSize: larger answers are gzipped for clients that
    # accept it (None: never)
    min_compression: int | None = None
    # the synthetic game's schedule (the SyntheticGameRate parameter's default: the local
    # stack plays it as SyntheticFunction does in AWS); None: no synthetic game
    synthetic_rate: str | None = None
    # the signing keys' rotation (TokenKeyRotationRate's default, KeyRotationFunction) and
    # the parameter it writes (TokenKeysParameterName's default)
    key_rotation_rate: str | None = None
    token_keys_param: str | None = None
    # the WebSocket API's message routes (route key → its stage throttle (rate, burst), None:
    # none set), $default included: a message goes to the route its "action" names
    ws_routes: dict[str, tuple[float, int] | None] = field(default_factory=dict)


def read_template(template_path: str | os.PathLike[str] | None = None) -> TemplateSettings:
    """The REST routes, gateway responses, timeouts and memory sizes declared in template.yaml."""
    from harftet.store.schema import load_template

    template = load_template(template_path)
    resources: dict[str, Any] = template.get("Resources", {})
    defaults = template.get("Globals", {}).get("Function", {})
    routes: list[RestRoute] = []
    gateway: dict[str, Any] = {}
    timeouts: dict[str, float] = {}
    memory: dict[str, int] = {}
    folders: dict[str, str] = {}
    rest_api = (resources.get("RestApi") or {}).get("Properties") or {}
    iam_apis = _iam_apis(resources)
    min_compression = rest_api.get("MinimumCompressionSize")
    for logical_id, resource in resources.items():
        props = resource.get("Properties") or {}
        if resource.get("Type") == "AWS::Serverless::Function":
            folders[logical_id] = Path(str(props.get("CodeUri", ""))).name
    for resource in resources.values():
        props = resource.get("Properties") or {}
        if resource.get("Type") == "AWS::Serverless::Api":
            gateway.update(props.get("GatewayResponses") or {})
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        name = Path(str(props.get("CodeUri", ""))).name
        timeouts[name] = float(props.get("Timeout", defaults.get("Timeout", 3)))
        memory[name] = int(props.get("MemorySize", defaults.get("MemorySize", 128)))
        for event in (props.get("Events") or {}).values():
            if event.get("Type") == "Api":
                api = event.get("Properties") or {}
                iam = (api.get("RestApiId") or {}).get("Ref") in iam_apis
                routes.append(RestRoute.parse(api["Method"], api["Path"], iam))
    mappings = [
        _mapping(r.get("Properties") or {}, folders)
        for r in resources.values()
        if r.get("Type") == "AWS::Lambda::EventSourceMapping"
    ]
    queues = {
        logical_id: dict(r.get("Properties") or {})
        for logical_id, r in resources.items()
        if r.get("Type") == "AWS::SQS::Queue"
    }
    return TemplateSettings(
        routes,
        GatewayResponses(gateway),
        timeouts,
        memory,
        [m for m in mappings if m],
        queues,
        min_compression=None if min_compression is None else int(min_compression),
        synthetic_rate=_default(template, "SyntheticGameRate"),
        key_rotation_rate=_default(template, "TokenKeyRotationRate"),
        token_keys_param=_default(template, "TokenKeysParameterName"),
        ws_routes=ws_routes(template),
    )


def _iam_apis(resources: dict[str, Any]) -> set[str]:
    """The REST APIs whose routes need IAM (the operator API)."""
    return {
        logical_id
        for logical_id, r in resources.items()
        if r.get("Type") == "AWS::Serverless::Api"
        and ((r.get("Properties") or {}).get("Auth") or {}).get("DefaultAuthorizer") == "AWS_IAM"
    }


def _default(template: dict[str, Any], parameter: str) -> str | None:
    """A template parameter's default (None: no such parameter)."""
    found = (template.get("Parameters", {}).get(parameter) or {}).get("Default")
    return None if found is None else str(found)


def ws_routes(template: dict[str, Any]) -> dict[str, tuple[float, int] | None]:
    """The WebSocket API's message routes (not $connect, $disconnect) and each one's throttle
    from its stage's RouteSettings (else DefaultRouteSettings), parameters at their defaults."""
    resources: dict[str, Any] = template.get("Resources", {})
    parameters: dict[str, Any] = template.get("Parameters", {})

    def value(v: Any) -> Any:
        if isinstance(v, dict) and "Ref" in v:
            return (parameters.get(v["Ref"]) or {}).get("Default")
        return v

    def throttle(settings: dict[str, Any] | None) -> tuple[float, int] | None:
        rate, burst = (
            value((settings or {}).get(k)) for k in ("ThrottlingRateLimit", "ThrottlingBurstLimit")
        )
        return None if rate is None or burst is None else (float(rate), int(burst))

    stages = [
        r.get("Properties") or {}
        for r in resources.values()
        if r.get("Type") == "AWS::ApiGatewayV2::Stage"
    ]
    stage = stages[0] if stages else {}
    keys = [
        str((r.get("Properties") or {}).get("RouteKey"))
        for r in resources.values()
        if r.get("Type") == "AWS::ApiGatewayV2::Route"
    ]
    own = stage.get("RouteSettings") or {}
    default = throttle(stage.get("DefaultRouteSettings"))
    return {
        key: throttle(own[key]) if key in own else default
        for key in keys
        if key not in ("$connect", "$disconnect")
    }


def _mapping(props: dict[str, Any], folders: dict[str, str]) -> Mapping:
    """An event source mapping: which function, which table's stream or queue, how."""
    function = folders.get(str((props.get("FunctionName") or {}).get("Ref")), "")
    source, attribute = (props.get("EventSourceArn") or {}).get("Fn::GetAtt", ["", ""])
    names: list[str] = []
    for spec in (props.get("FilterCriteria") or {}).get("Filters") or []:
        names += json.loads(spec.get("Pattern", "{}")).get("eventName", [])
    return Mapping(
        function=function,
        source=str(source),
        kind="stream" if attribute == "StreamArn" else "queue",
        batch_size=int(props.get("BatchSize", 100 if attribute == "StreamArn" else 10)),
        retries=min(int(props.get("MaximumRetryAttempts", 3)), 3),
        event_names=tuple(names),
        parallelization=int(props.get("ParallelizationFactor", 1)),
    )
