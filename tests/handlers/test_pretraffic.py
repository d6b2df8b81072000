"""The deploy's pre-traffic hook (functions/pretraffic): it plays a move against the new
version of the REST function as API Gateway would invoke it, and tells CodeDeploy whether
that version may take traffic."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from harftet.probe import play

ROOT = Path(__file__).resolve().parents[2]


def _load(function: str) -> Any:
    """functions/<function>/app.py, imported as Lambda would (a module of its own)."""
    name = f"harftet_handler_{function}_app"
    spec = importlib.util.spec_from_file_location(name, ROOT / "functions" / function / "app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Lambda:
    """lambda.invoke of the REST function's version: its handler, in this process."""

    def __init__(self, handler: Any, broken: str | None = None) -> None:
        self.handler = handler
        self.broken = broken
        self.invoked: list[str] = []

    def invoke(self, FunctionName: str, Payload: str) -> dict[str, Any]:
        self.invoked.append(FunctionName)
        event = json.loads(Payload)
        if self.broken and event["path"].endswith(self.broken):
            reply: Any = {"errorMessage": "boom", "errorType": "RuntimeError"}
        else:
            reply = self.handler(event, Context())
        return {"StatusCode": 200, "Payload": io.BytesIO(json.dumps(reply).encode())}


class Context:
    function_name, memory_limit_in_mb, aws_request_id = "rest", 512, "r1"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:rest:7"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


class CodeDeploy:
    def __init__(self) -> None:
        self.reported: list[dict[str, str]] = []

    def put_lifecycle_event_hook_execution_status(self, **kwargs: str) -> None:
        self.reported.append(kwargs)


def run_hook(apps: Any, lambda_client: Lambda) -> tuple[dict[str, Any], CodeDeploy]:
    hook = _load("pretraffic")
    codedeploy = CodeDeploy()
    clients = {"lambda": lambda_client, "codedeploy": codedeploy}
    env = {**apps.settings.environ, "NEW_VERSION": "rest-fn:7"}
    with (
        mock.patch.object(hook.boto3, "client", side_effect=clients.__getitem__),
        mock.patch.object(hook, "settings", lambda: type("S", (), {"environ": env})()),
    ):
        event = {"DeploymentId": "d-1", "LifecycleEventHookExecutionId": "h-1"}
        result = hook.handler(event, Context())
    return result, codedeploy


def test_a_good_version_plays_its_move_and_is_let_through(apps: Any, app: Any) -> None:
    lambda_client = Lambda(apps.rest.handler)
    result, codedeploy = run_hook(apps, lambda_client)
    assert result["ok"] and result["moves"] == 1
    assert set(lambda_client.invoked) == {"rest-fn:7"}  # the new version, nothing else
    assert codedeploy.reported == [
        {"deploymentId": "d-1", "lifecycleEventHookExecutionId": "h-1", "status": "Succeeded"}
    ]


@pytest.mark.parametrize("broken", ["/moves", "/start", "/seats/1"])
def test_a_version_that_fails_a_step_is_stopped_before_any_player_reaches_it(
    apps: Any, app: Any, broken: str
) -> None:
    result, codedeploy = run_hook(apps, Lambda(apps.rest.handler, broken=broken))
    assert not result["ok"] and result["error"].split(":")[0] in ("draw", "start", "sit")
    assert codedeploy.reported[0]["status"] == "Failed"


def test_the_probe_plays_several_turns_through_the_api(apps: Any, app: Any) -> None:
    lambda_client = Lambda(apps.rest.handler)
    hook = _load("pretraffic")
    result = play(hook.invoker(lambda_client, "rest-fn:8"), moves=4)
    assert result == {**result, "ok": True, "moves": 4}


@pytest.mark.parametrize("ok", [True, False])
def test_the_synthetic_game_publishes_its_success_and_latency(
    apps: Any, app: Any, capsys: pytest.CaptureFixture[str], ok: bool
) -> None:
    """The handler plays through the public REST API and WebSocket it is given (the game
    itself: tests/e2e/test_synthetic_game.py and test_probe_socket.py) and publishes what the
    alarm reads."""
    synthetic = _load("synthetic")
    env = {
        **apps.settings.environ,
        "REST_URL": "https://api.example/prod",
        "WS_URL": "wss://ws.example/prod",
    }
    played: list[tuple[Any, ...]] = []
    result = {"ok": ok, "seconds": 2.5, "moves": 3 if ok else 1, "computerMoves": 3}
    result |= {"pushSeconds": 0.25} if ok else {"error": "move over the socket: timed out"}

    def game(call: Any, connect: Any, ws_url: str, moves: int) -> dict[str, Any]:
        played.append((call, connect, ws_url, moves))
        return result

    with (
        mock.patch.object(synthetic, "over_http", lambda url: f"http:{url}"),
        mock.patch.object(synthetic, "play_with_computer", game),
        mock.patch.object(synthetic, "settings", lambda: type("S", (), {"environ": env})()),
    ):
        assert synthetic.handler({"source": "aws.events"}, Context()) == result
    assert played == [
        ("http:https://api.example/prod", synthetic.over_websocket, "wss://ws.example/prod", 3)
    ]
    emitted = [json.loads(line) for line in capsys.readouterr().out.splitlines() if "_aws" in line]
    [metrics] = [m for m in emitted if "SyntheticGameOk" in m]
    assert metrics["SyntheticGameOk"] == [1.0 if ok else 0.0]
    assert metrics["SyntheticGameSeconds"] == [2.5]
    assert metrics.get("SyntheticPushSeconds") == ([0.25] if ok else None)
