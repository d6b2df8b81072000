"""The WebSocket's routes per action (issue 40): template.yaml routes moves, syncs and pings to
routes of their own, each with its own stage throttle, and the local stack's emulator selects
and throttles them the same way (a flood of pings or syncs never takes the moves' share)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient

from harftet.localstack.template import read_template, ws_routes
from harftet.localstack.websocket_api import WebSocketApi
from harftet.store.schema import load_template

TEMPLATE = Path(__file__).resolve().parents[2] / "template.yaml"


class RouteEcho:
    """A stand-in for the WebSocket function: answers each message with its route key."""

    def __init__(self) -> None:
        self.routes: list[str] = []

    async def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        route = event["requestContext"]["routeKey"]
        self.routes.append(route)
        return {"statusCode": 200, "body": json.dumps({"route": route})}


def client_of(api: WebSocketApi) -> TestClient:
    return TestClient(Starlette(routes=[WebSocketRoute("/ws", api.websocket)]))


def test_the_template_routes_each_action_with_its_own_throttle() -> None:
    routes = ws_routes(load_template(TEMPLATE))
    parameters = load_template(TEMPLATE)["Parameters"]

    def default(name: str) -> float:
        return float(parameters[name]["Default"])

    assert set(routes) == {"$default", "move", "sync", "ping"}
    assert routes["move"] == (default("WsMoveRateLimit"), default("WsMoveBurstLimit"))
    assert routes["sync"] == (default("WsSyncRateLimit"), default("WsSyncBurstLimit"))
    assert routes["ping"] == (default("WsPingRateLimit"), default("WsPingBurstLimit"))
    assert routes["$default"] == (default("ThrottleRateLimit"), default("ThrottleBurstLimit"))
    assert read_template(TEMPLATE).ws_routes == routes


def test_the_emulator_selects_the_route_the_action_names_else_default() -> None:
    echo = RouteEcho()
    api = WebSocketApi(echo, True, read_template(TEMPLATE).ws_routes)  # type: ignore[arg-type]
    with client_of(api).websocket_connect("/ws") as ws:
        for message in (
            {"action": "move", "tableId": "t"},
            {"action": "sync"},
            {"action": "ping"},
            {"action": "dance"},
            {"no": "action"},
        ):
            ws.send_text(json.dumps(message))
            ws.receive_json()
        ws.send_text("not json")
        ws.receive_json()
    assert echo.routes[:7] == [
        "$connect",
        "move",
        "sync",
        "ping",
        "$default",
        "$default",
        "$default",
    ]


def test_pings_over_their_route_s_throttle_leave_the_moves_route_untouched() -> None:
    echo = RouteEcho()
    routes = {"$default": (1.0, 1), "move": (0.001, 3), "sync": (0.001, 1), "ping": (0.001, 2)}
    api = WebSocketApi(echo, True, routes, throttled=True)  # type: ignore[arg-type]
    answers = []
    with client_of(api).websocket_connect("/ws") as ws:
        for action in ["ping"] * 5 + ["move"] * 3 + ["sync"] * 2 + ["move"]:
            ws.send_text(json.dumps({"action": action}))
            answers.append((action, ws.receive_json()))
    throttled = [action for action, answer in answers if answer.get("message")]
    assert throttled == ["ping", "ping", "ping", "sync", "move"]  # each past its own burst
    assert all(a["message"] == "Too Many Requests" for _, a in answers if a.get("message"))
    assert echo.routes.count("move") == 3  # the pings took none of the moves' share


def test_the_routes_are_not_throttled_unless_the_stack_throttles() -> None:
    echo = RouteEcho()
    api = WebSocketApi(echo, True, {"$default": None, "ping": (0.001, 1)})  # type: ignore[arg-type]
    with client_of(api).websocket_connect("/ws") as ws:
        for _ in range(5):
            ws.send_text(json.dumps({"action": "ping"}))
            assert ws.receive_json() == {"route": "ping"}
