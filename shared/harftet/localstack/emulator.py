"""A small API Gateway on one port: the REST API at `/`, the WebSocket API at `/ws` and its
Management API at `/@connections/{id}`, the sweeper's schedule, and the web client at `/play/`.

The handlers are the same files that run in AWS (see runtime.py for how they are invoked).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gzip
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from harftet.api.methods import allowed_methods, method_not_allowed
from harftet.localstack import lambda_events
from harftet.localstack.client_files import client_routes
from harftet.localstack.runtime import FunctionSpec, HandlerError, LambdaFunction
from harftet.localstack.sources import keep_running
from harftet.localstack.template import (
    HTTP_METHODS,
    GatewayResponses,
    TemplateSettings,
    find_route,
)
from harftet.localstack.throttle import TokenBucket

log = logging.getLogger("harftet.localstack")

MAX_REST_PAYLOAD = 10 * 1024 * 1024  # API Gateway's REST request limit
MAX_WS_MESSAGE = 128 * 1024  # API Gateway's WebSocket message and PostToConnection limit
REPOSITORY = Path(__file__).resolve().parents[3]
WEB_DIR = Path(os.environ.get("HARFTET_WEB") or REPOSITORY / "clients" / "web")
"""The web client served at /play/: the repository's clients/web (HARFTET_WEB names another
folder, for a package installed away from its repository)."""
MANAGEMENT_METHODS = ["POST", "GET", "DELETE"]
# Hop-by-hop or recomputed here; a handler's values would contradict the real body.
_DROPPED_RESPONSE_HEADERS = {"content-length", "transfer-encoding", "connection"}


def _message(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"message": message}, status_code=status, headers=headers or None)


def _gone(connection_id: str) -> JSONResponse:
    # botocore maps the x-amzn-ErrorType header to client.exceptions.GoneException.
    return _message(
        410, f"connection {connection_id} is gone", **{"x-amzn-ErrorType": "GoneException"}
    )


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")


def _status_of(result: Any) -> int | None:
    """The statusCode of a proxy-integration result, or None when there is none."""
    if not isinstance(result, dict):
        return None
    status = result.get("statusCode")
    if isinstance(status, int):
        return status
    if isinstance(status, str) and status.isdigit():
        return int(status)
    return None


def proxy_response(result: Any) -> Response | None:
    """Translate a REST proxy-integration result into an HTTP response; None if malformed."""
    status = _status_of(result)
    if status is None:
        log.error("REST handler returned a malformed proxy response: %r", result)
        return None
    body = result.get("body") or ""
    if not isinstance(body, str):
        log.error("REST handler returned a non-string body: %r", type(body))
        return None
    content = base64.b64decode(body) if result.get("isBase64Encoded") else body.encode()
    response = Response(content, status_code=status)
    # Where a name is in both, API Gateway keeps only the multi-value list.
    multi = {k: v for k, v in (result.get("multiValueHeaders") or {}).items() if v is not None}
    single = {k: [v] for k, v in (result.get("headers") or {}).items() if k not in multi}
    for name, values in {**single, **multi}.items():
        if name.lower() not in _DROPPED_RESPONSE_HEADERS:
            for value in values:
                response.headers.append(name, str(value))
    return response


def compressed(response: Response, accept: str, minimum: int | None) -> Response:
    """API Gateway's payload compression (the REST API's MinimumCompressionSize): an answer of
    at least ``minimum`` bytes is gzipped when the request accepts gzip."""
    body = bytes(response.body)
    if (
        minimum is None
        or len(body) < minimum
        or "gzip" not in accept.lower()
        or "content-encoding" in response.headers
    ):
        return response
    packed = gzip.compress(body, compresslevel=6, mtime=0)
    headers = [(k, v) for k, v in response.headers.items() if k.lower() != "content-length"]
    zipped = Response(packed, status_code=response.status_code)
    for name, value in headers:
        zipped.headers.append(name, value)
    zipped.headers["content-encoding"] = "gzip"
    return zipped


@dataclass
class Connection:
    """A live WebSocket client, as the Management API sees it."""

    id: str
    websocket: WebSocket
    source_ip: str
    user_agent: str | None
    connected_at: float = field(default_factory=time.time)
    last_active_at: float = field(default_factory=time.time)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False


class Emulator:
    """The state behind the app: the functions, the live connections, readiness."""

    def __init__(
        self,
        *,
        rest: LambdaFunction | None,
        ws: LambdaFunction | None,
        sweeper: LambdaFunction | None,
        sweep_seconds: float,
        fanout: LambdaFunction | None = None,
        timer: LambdaFunction | None = None,
        notifier: LambdaFunction | None = None,
        ws_route_response: bool,
        ready_check: Callable[[], bool] | None,
        settings: TemplateSettings | None,
        throttle: tuple[float, int] | None = None,
    ) -> None:
        self.rest = rest
        # API Gateway's stage throttling (an operator setting): off unless asked for.
        self.throttle = TokenBucket(*throttle) if throttle else None
        self.routes = settings.rest_routes if settings else None
        self.min_compression = settings.min_compression if settings else None
        self.gateway = settings.gateway_responses if settings else GatewayResponses()
        self.ws = ws
        self.sweeper = sweeper
        self.fanout = fanout
        self.timer = timer
        self.notifier = notifier  # notifications (harftet.notify), from its queue
        self.sweep_seconds = sweep_seconds
        self.ws_route_response = ws_route_response
        self.ready_check = ready_check
        self.connections: dict[str, Connection] = {}
        self.started = False
        self.sources: list[tuple[str, Any]] = []
        self.source_tasks: dict[int, asyncio.Task[None]] = {}
        # An event source is stuck past this lag (None: twice its function's timeout, ≥ 60 s).
        self.stuck_seconds: float | None = None

    @property
    def functions(self) -> list[LambdaFunction]:
        """The configured functions."""
        every = (self.rest, self.ws, self.sweeper, self.fanout, self.timer, self.notifier)
        return [f for f in every if f is not None]

    def ready(self) -> bool:
        """True once the functions are warm and the data store answers."""
        return self.started and (self.ready_check is None or self.ready_check())

    # --- REST ----------------------------------------------------------------------------------

    def source_health(self) -> list[dict[str, Any]]:
        """Each event source mapping's lag and liveness (what `GET /health` reports)."""
        now = time.time()
        found = []
        for function, source in self.sources:
            health = getattr(source, "health", None)
            if health is None:
                continue
            target = {"fanout": self.fanout, "timer": self.timer}.get(function)
            timeout = target.spec.timeout_seconds if target is not None else 30.0
            limit = self.stuck_seconds or max(60.0, 2 * timeout)
            report = health.report(now)
            mapping = source.mapping
            report = {
                "function": function,
                "source": mapping.source,
                "kind": mapping.kind,
                "doorbell": bool(getattr(source, "doorbell", False)),
                **report,
            }
            task = self.source_tasks.get(id(source))
            report["stuck"] = bool(
                report["lagSeconds"] > limit
                or report["sincePollSeconds"] > limit
                or (task is not None and task.done())
            )
            found.append(report)
        return found

    async def health(self, request: Request) -> Response:
        """`GET /health`: 200 once the stack is ready, 503 before — and 503 while an event
        source is stuck (its oldest record waited too long, or its poller stopped polling)."""
        if not self.ready():
            return JSONResponse({"status": "starting"}, status_code=503)
        sources = self.source_health()
        if any(s["stuck"] for s in sources):
            return JSONResponse({"status": "stuck", "sources": sources}, status_code=503)
        return JSONResponse({"status": "ok", "sources": sources})

    async def rest_proxy(self, request: Request) -> Response:
        """Any other path: the REST API's `ANY /{proxy+}` with a Lambda proxy integration."""
        if self.rest is None:
            return _message(502, "no REST handler is configured")
        if self.throttle is not None and not self.throttle.take():
            return self.gateway.render("THROTTLED", "Too Many Requests")
        too_large = self.gateway.render("REQUEST_TOO_LARGE", "Request Too Long")
        declared = request.headers.get("content-length", "0")
        if declared.isdigit() and int(declared) > MAX_REST_PAYLOAD:
            return too_large
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_REST_PAYLOAD:
                return too_large
        resource: str | None = None
        params: dict[str, str] | None = None
        if self.routes is not None:
            found = find_route(self.routes, request.method, request.url.path)
            if found is None:  # no such resource or method in template.yaml
                allowed = [
                    m
                    for m in allowed_methods(request.url.path)
                    if find_route(self.routes, m, request.url.path)
                ]
                if allowed:  # a known resource, another method
                    status, body405, allow = method_not_allowed(request.method, allowed)
                    _access(request.method, request.url.path, status, time.perf_counter())
                    return JSONResponse(body405, status_code=status, headers={"Allow": allow})
                return self.gateway.render(
                    "MISSING_AUTHENTICATION_TOKEN", "Missing Authentication Token"
                )
            resource, params = found
        event = lambda_events.rest_event(
            resource=resource,
            path_parameters=params,
            method=request.method,
            path=request.url.path,
            headers=request.headers.items(),
            query=parse_qsl(request.url.query, keep_blank_values=True),
            body=bytes(body),
            source_ip=request.client.host if request.client else "127.0.0.1",
            host=request.url.netloc,
        )
        began = time.perf_counter()
        try:
            response = proxy_response(await self.rest.invoke(event))
        except HandlerError as error:
            log.error("REST handler failed: %s", error)
            response = None
        if response is None:
            response = self.gateway.render("DEFAULT_5XX", "Internal server error", 502)
        response = compressed(
            response, request.headers.get("accept-encoding", ""), self.min_compression
        )
        response.headers["x-amzn-RequestId"] = event["requestContext"]["requestId"]
        _access(request.method, request.url.path, response.status_code, began)
        return response

    # --- WebSocket API -------------------------------------------------------------------------

    def _ws_event(self, route: str, conn: Connection, **kwargs: Any) -> dict[str, Any]:
        return lambda_events.ws_event(
            route,
            conn.id,
            connected_at=int(conn.connected_at * 1000),
            source_ip=conn.source_ip,
            host=conn.websocket.url.netloc,
            **kwargs,
        )

    async def websocket(self, websocket: WebSocket) -> None:
        """`/ws`: $connect decides whether to accept; then $default per message, $disconnect."""
        client = websocket.client
        conn = Connection(
            id=lambda_events.new_connection_id(),
            websocket=websocket,
            source_ip=client.host if client else "127.0.0.1",
            user_agent=websocket.headers.get("user-agent"),
        )
        if self.ws is None:
            await websocket.close(code=1011)
            return
        connect = self._ws_event(
            "$connect",
            conn,
            headers=websocket.headers.items(),
            query=parse_qsl(websocket.url.query, keep_blank_values=True),
        )
        began = time.perf_counter()
        try:
            status = _status_of(await self.ws.invoke(connect)) or 200
        except HandlerError as error:
            log.error("$connect failed: %s", error)
            status = 502
        _access("WS", "/ws $connect", status if status >= 400 else 101, began)
        if status >= 400:
            await _refuse(websocket, status)  # an expected refusal: one line, no traceback
            return
        close_code: int | None = None
        try:
            # Posts that race the handshake wait for it instead of finding no connection.
            async with conn.send_lock:
                self.connections[conn.id] = conn
                await websocket.accept()
            close_code = await self._receive_loop(conn)
        finally:
            conn.closed = True
            self.connections.pop(conn.id, None)
            try:
                await self.ws.invoke(
                    self._ws_event("$disconnect", conn, disconnect_status=close_code)
                )
            except HandlerError as error:
                log.error("$disconnect failed: %s", error)

    async def _receive_loop(self, conn: Connection) -> int | None:
        """Deliver messages one by one, in order; return the close code."""
        assert self.ws is not None
        while True:
            message = await conn.websocket.receive()
            if message["type"] == "websocket.disconnect":
                code = message.get("code")
                return code if isinstance(code, int) else None
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            conn.last_active_at = time.time()
            event = self._ws_event("$default", conn, body=data)
            began = time.perf_counter()
            try:
                result = await self.ws.invoke(event)
                _access("WS", "/ws $default", _status_of(result) or 200, began)
            except HandlerError as error:
                log.error("$default failed: %s", error)
                reply = {
                    "message": "Internal server error",
                    "connectionId": conn.id,
                    "requestId": event["requestContext"]["requestId"],
                }
                await self._send(conn, json.dumps(reply).encode())
                continue
            if self.ws_route_response and isinstance(result, dict) and result.get("body"):
                await self._send(conn, str(result["body"]).encode())

    async def _send(self, conn: Connection, data: bytes) -> bool:
        """Send one message to a client, text when it is UTF-8; False if the socket is gone."""
        async with conn.send_lock:
            if conn.closed:
                return False
            try:
                try:
                    await conn.websocket.send_text(data.decode("utf-8"))
                except UnicodeDecodeError:
                    await conn.websocket.send_bytes(data)
            except Exception:  # the socket closed under us
                conn.closed = True
                return False
        return True

    # --- Management API ------------------------------------------------------------------------

    async def management(self, request: Request) -> Response:
        """`POST|GET|DELETE /@connections/{id}`: the API Gateway Management API."""
        connection_id = request.path_params["connection_id"]
        conn = self.connections.get(connection_id)
        if conn is None or conn.closed:
            return _gone(connection_id)
        if request.method == "GET":
            return JSONResponse(
                {
                    "connectedAt": _iso(conn.connected_at),
                    "lastActiveAt": _iso(conn.last_active_at),
                    "identity": {"sourceIp": conn.source_ip, "userAgent": conn.user_agent},
                }
            )
        if request.method == "DELETE":
            async with conn.send_lock:
                conn.closed = True
                with contextlib.suppress(Exception):
                    await conn.websocket.close(code=1000)
            return Response(status_code=204)
        data = await request.body()
        if len(data) > MAX_WS_MESSAGE:
            return _message(
                413, "Message too long", **{"x-amzn-ErrorType": "PayloadTooLargeException"}
            )
        if not await self._send(conn, data):
            return _gone(connection_id)
        return Response(status_code=200)

    # --- the schedule --------------------------------------------------------------------------

    async def sweep_forever(self) -> None:
        """Invoke the sweeper every `sweep_seconds`, like an EventBridge rate schedule."""
        assert self.sweeper is not None
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweeper.invoke(lambda_events.scheduled_event())
            except HandlerError as error:
                log.error("sweeper failed: %s", error)
            except Exception:
                log.exception("sweeper invocation failed")


def _access(method: str, path: str, status: int, began: float) -> None:
    """One line per request: what, the answer, how long (errors at a level that stands out)."""
    level = logging.ERROR if status >= 500 else logging.INFO
    shown = path if len(path) <= 120 else path[:117] + "..."
    ms = (time.perf_counter() - began) * 1000
    log.log(level, "%s %s → %d (%.0f ms)", method, shown, status, ms)


async def _refuse(websocket: WebSocket, status: int) -> None:
    """Refuse the handshake with the handler's status (403 where the server can't say more)."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        body = "Forbidden" if status < 500 else "Internal server error"
        await websocket.send_denial_response(_message(status, body))
    else:
        await websocket.close(code=1008)


def create_app(
    *,
    rest_handler: str | Path | None = None,
    ws_handler: str | Path | None = None,
    sweeper: str | Path | None = None,
    fanout: str | Path | None = None,
    timer: str | Path | None = None,
    notifier: str | Path | None = None,
    event_sources: list[tuple[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    sweep_seconds: float,
    max_concurrency: int = 8,
    static_dir: str | Path | None = WEB_DIR,
    ws_route_response: bool = False,
    ready_check: Callable[[], bool] | None = None,
    settings: TemplateSettings | None = None,
    throttle: tuple[float, int] | None = None,
) -> Starlette:
    """The emulator as a Starlette app; handler files are invoked with `env` as their environment.

    With `settings` (from template.yaml) only the template's REST routes reach the handler and
    refusals use its GatewayResponses; without, every path goes to the handler (`/{proxy+}`).
    `event_sources` are (function key, source) pairs: each source (localstack/sources.py)
    runs while the app does, invoking that function as Lambda's event source mapping would.
    """
    env = dict(env or {})

    def function(key: str, path: str | Path | None) -> LambdaFunction | None:
        if path is None:
            return None
        spec = FunctionSpec(
            name=f"harftet-{key}",
            path=str(path),
            env=env,
            timeout_seconds=settings.timeouts.get(key, 30.0) if settings else 30.0,
            memory_mb=settings.memory.get(key, 512) if settings else 512,
        )
        return LambdaFunction(spec, max_concurrency=max_concurrency)

    emulator = Emulator(
        rest=function("rest", rest_handler),
        ws=function("ws", ws_handler),
        sweeper=function("sweeper", sweeper),
        sweep_seconds=sweep_seconds,
        fanout=function("fanout", fanout),
        timer=function("timer", timer),
        notifier=function("notifier", notifier),
        ws_route_response=ws_route_response,
        ready_check=ready_check,
        settings=settings,
        throttle=throttle,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def warm(functions: list[LambdaFunction]) -> None:
            loaded = await asyncio.gather(*(f.warm() for f in functions))
            for fn, ok in zip(functions, loaded, strict=True):
                if not ok:
                    log.warning("%s: %s did not load; see the above", fn.spec.name, fn.spec.path)

        # What a client calls is warm before /health says ready; the event sources' functions
        # warm meanwhile (they are invoked once something is stored or due).
        behind = [f for f in (emulator.fanout, emulator.timer, emulator.notifier) if f is not None]
        warming = asyncio.create_task(warm(behind))
        await warm([f for f in emulator.functions if f not in behind])
        emulator.started = True
        tasks = [asyncio.create_task(emulator.sweep_forever())] if emulator.sweeper else []
        targets = {
            "fanout": emulator.fanout, "timer": emulator.timer, "notifier": emulator.notifier,
        }  # fmt: skip
        for key, source in event_sources or []:
            target = targets.get(key)
            if target is not None:
                task = asyncio.create_task(keep_running(key, source, target.invoke))
                emulator.sources.append((key, source))
                emulator.source_tasks[id(source)] = task
                tasks.append(task)
        try:
            yield
        finally:
            warming.cancel()
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            for fn in emulator.functions:
                await run_in_threadpool(fn.close)

    routes: list[BaseRoute] = [
        Route("/health", emulator.health, methods=["GET"]),
        WebSocketRoute("/ws", emulator.websocket),
        Route("/@connections/{connection_id}", emulator.management, methods=MANAGEMENT_METHODS),
        # The deployed endpoint carries the stage; accept that form too.
        Route(
            "/{stage}/@connections/{connection_id}",
            emulator.management,
            methods=MANAGEMENT_METHODS,
        ),
    ]
    if static_dir is not None and Path(static_dir).is_dir():
        routes += [
            Route("/play", _to_play, methods=["GET", "HEAD"]),
            # Compressed, ETagged, with Cache-Control (client_files.py): as CloudFront serves it.
            *client_routes("/play/docs", REPOSITORY / "docs"),
            *client_routes("/play", static_dir),
        ]
    push_prefix = env.get("LOCAL_PUSH_PREFIX")
    if push_prefix and env.get("TEST_MODE", "").lower() in ("1", "true", "yes"):
        from harftet.localstack import push_receiver  # the local push service: test mode only

        base = push_prefix.removesuffix(push_receiver.PREFIX)
        routes += push_receiver.routes(base, env.get("VAPID_PRIVATE_KEY"))
    routes.append(Route("/{path:path}", emulator.rest_proxy, methods=list(HTTP_METHODS)))

    async def unrouted(request: Request, _: Exception) -> Response:
        # Starlette's path convertor stops at a newline; API Gateway routes such paths too.
        if request.scope["type"] == "http" and not request.url.path.startswith("/@connections"):
            return await emulator.rest_proxy(request)
        return _message(404, "Not Found")

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: unrouted})
    stuck = (env or {}).get("HEALTH_STUCK_SECONDS") or os.environ.get("HEALTH_STUCK_SECONDS")
    emulator.stuck_seconds = float(stuck) if stuck else None
    app.state.emulator = emulator
    return app


async def _to_play(request: Request) -> Response:
    return RedirectResponse("/play/")
