"""The WebSocket API as API Gateway serves it: `/ws` with its $connect and $disconnect routes,
a message route per action the template routes (move, sync, ping: route selection on the
message's "action", each with its own stage throttle when the stack throttles) and $default for
the rest, and the Management API (`/@connections/{id}`) that handlers post to its clients with.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from harftet.localstack import lambda_events
from harftet.localstack.responses import log_access, message, status_of
from harftet.localstack.runtime import HandlerError, LambdaFunction
from harftet.localstack.throttle import TokenBucket

log = logging.getLogger("harftet.localstack")

MAX_WS_MESSAGE = 128 * 1024  # API Gateway's WebSocket message and PostToConnection limit
MANAGEMENT_METHODS = ["POST", "GET", "DELETE"]
DEFAULT_ROUTE = "$default"


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


class WebSocketApi:
    """The WebSocket API in front of one function, and its live connections."""

    def __init__(
        self,
        function: LambdaFunction | None,
        route_response: bool,
        routes: dict[str, tuple[float, int] | None] | None = None,
        throttled: bool = False,
    ) -> None:
        self.function = function
        self.route_response = route_response  # send a route's answer back, as a route response
        self.connections: dict[str, Connection] = {}
        # the template's message routes; with ``throttled``, each with its own stage throttle
        self.routes = dict(routes or {DEFAULT_ROUTE: None})
        self.buckets = {
            key: TokenBucket(*limit)
            for key, limit in self.routes.items()
            if throttled and limit is not None
        }

    def route_of(self, data: str | bytes) -> str:
        """The route API Gateway selects for a message ($request.body.action): the route its
        "action" names, else $default (not JSON, no action, or one without a route)."""
        try:
            action = json.loads(data).get("action")
        except (ValueError, AttributeError):
            return DEFAULT_ROUTE
        return action if isinstance(action, str) and action in self.routes else DEFAULT_ROUTE

    def _event(self, route: str, conn: Connection, **kwargs: Any) -> dict[str, Any]:
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
        function = self.function
        if function is None:
            await websocket.close(code=1011)
            return
        connect = self._event(
            "$connect",
            conn,
            headers=websocket.headers.items(),
            query=parse_qsl(websocket.url.query, keep_blank_values=True),
        )
        began = time.perf_counter()
        try:
            status = status_of(await function.invoke(connect)) or 200
        except HandlerError as error:
            log.error("$connect failed: %s", error)
            status = 502
        log_access("WS", "/ws $connect", status if status >= 400 else 101, began)
        if status >= 400:
            await _refuse(websocket, status)  # an expected refusal: one line, no traceback
            return
        close_code: int | None = None
        try:
            # Posts that race the handshake wait for it instead of finding no connection.
            async with conn.send_lock:
                self.connections[conn.id] = conn
                await websocket.accept()
            close_code = await self._receive_loop(function, conn)
        finally:
            conn.closed = True
            self.connections.pop(conn.id, None)
            disconnect = self._event("$disconnect", conn, disconnect_status=close_code)
            try:
                await function.invoke(disconnect)
            except HandlerError as error:
                log.error("$disconnect failed: %s", error)

    async def _receive_loop(self, function: LambdaFunction, conn: Connection) -> int | None:
        """Deliver messages one by one, in order; return the close code."""
        while True:
            received = await conn.websocket.receive()
            if received["type"] == "websocket.disconnect":
                code = received.get("code")
                return code if isinstance(code, int) else None
            data = received.get("text")
            if data is None:
                data = received.get("bytes") or b""
            conn.last_active_at = time.time()
            route = self.route_of(data)
            event = self._event(route, conn, body=data)
            began = time.perf_counter()
            bucket = self.buckets.get(route)
            if bucket is not None and not bucket.take():  # the route's stage throttle
                log_access("WS", f"/ws {route}", 429, began)
                reply = {
                    "message": "Too Many Requests",
                    "connectionId": conn.id,
                    "requestId": event["requestContext"]["requestId"],
                }
                await self._send(conn, json.dumps(reply).encode())
                continue
            try:
                result = await function.invoke(event)
                log_access("WS", f"/ws {route}", status_of(result) or 200, began)
            except HandlerError as error:
                log.error("%s failed: %s", route, error)
                reply = {
                    "message": "Internal server error",
                    "connectionId": conn.id,
                    "requestId": event["requestContext"]["requestId"],
                }
                await self._send(conn, json.dumps(reply).encode())
                continue
            if self.route_response and isinstance(result, dict) and result.get("body"):
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
            return message(
                413, "Message too long", **{"x-amzn-ErrorType": "PayloadTooLargeException"}
            )
        if not await self._send(conn, data):
            return _gone(connection_id)
        return Response(status_code=200)


def _gone(connection_id: str) -> JSONResponse:
    # botocore maps the x-amzn-ErrorType header to client.exceptions.GoneException.
    return message(
        410, f"connection {connection_id} is gone", **{"x-amzn-ErrorType": "GoneException"}
    )


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")


async def _refuse(websocket: WebSocket, status: int) -> None:
    """Refuse the handshake with the handler's status (403 where the server can't say more)."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        body = "Forbidden" if status < 500 else "Internal server error"
        await websocket.send_denial_response(message(status, body))
    else:
        await websocket.close(code=1008)
