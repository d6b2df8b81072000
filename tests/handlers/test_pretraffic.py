"""The deploy's pre-traffic hooks (functions/pretraffic, functions/wspretraffic): each plays
against the new version of its function (REST; WebSocket) invoked as API Gateway would invoke
it, here the real handlers in this process over moto, and tells CodeDeploy whether that
version may take traffic."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from botocore.exceptions import ClientError
from testkit import TABLE_NAMES, scan_all

from harftet.deployhook import INVOKE_SECONDS, clients_of, rest_caller
from harftet.probe import play

ROOT = Path(__file__).resolve().parents[2]
HOOK_EVENT = {"DeploymentId": "d-1", "LifecycleEventHookExecutionId": "h-1"}


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
    """lambda.invoke of the functions' versions and aliases (name → handler, in this process);
    an event ``broken`` says yes to is answered Lambda's error payload, as a version that
    raises."""

    def __init__(
        self, functions: dict[str, Any], broken: Callable[[dict[str, Any]], bool] | None = None
    ) -> None:
        self.functions = functions
        self.broken = broken
        self.invoked: list[tuple[str, dict[str, Any]]] = []

    def invoke(self, FunctionName: str, Payload: str) -> dict[str, Any]:
        event = json.loads(Payload)
        self.invoked.append((FunctionName, event))
        if self.broken and self.broken(event):
            reply: Any = {"errorMessage": "boom", "errorType": "RuntimeError"}
        else:
            reply = self.functions[FunctionName](event, Context())
        return {"StatusCode": 200, "Payload": io.BytesIO(json.dumps(reply).encode())}


def path_ends(suffix: str) -> Callable[[dict[str, Any]], bool]:
    return lambda event: str(event.get("path", "")).endswith(suffix)


class Context:
    function_name, memory_limit_in_mb, aws_request_id = "rest", 512, "r1"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:rest:7"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


class CodeDeploy:
    def __init__(self, fails: bool = False) -> None:
        self.reported: list[dict[str, str]] = []
        self.fails = fails

    def put_lifecycle_event_hook_execution_status(self, **kwargs: str) -> None:
        if self.fails:
            error = {"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"}}
            raise ClientError(error, "PutLifecycleEventHookExecutionStatus")
        self.reported.append(kwargs)


def run_hook(
    apps: Any,
    lambda_client: Lambda,
    function: str = "pretraffic",
    env: dict[str, str] | None = None,
    codedeploy: CodeDeploy | None = None,
) -> tuple[dict[str, Any], CodeDeploy]:
    hook = _load(function)
    codedeploy = codedeploy or CodeDeploy()
    clients = {"lambda": lambda_client, "codedeploy": codedeploy}
    env = {**apps.settings.environ, **(env or {"NEW_VERSION": "rest-fn:7"})}
    with (
        mock.patch.object(hook.boto3, "client", lambda service, **_: clients[service]),
        mock.patch.object(hook, "settings", lambda: type("S", (), {"environ": env})()),
    ):
        result = hook.handler(dict(HOOK_EVENT), Context())
    return result, codedeploy


def nobody_left(dynamodb: Any, result: dict[str, Any]) -> bool:
    """The run's two guests were deleted: no player item and no socket of theirs remains
    (the players table holds a player's item, sessions and names; the connections table
    their sockets and presence). Here no mail table: tests/e2e/test_deploy_hooks_stack.py."""
    assert len(result["guests"]) == 2 and "left" not in result, result
    players = scan_all(dynamodb, TABLE_NAMES["PlayersTable"])
    sockets = scan_all(dynamodb, TABLE_NAMES["ConnectionsTable"])
    return players == [] and sockets == []


def test_a_good_version_plays_its_move_and_is_let_through(
    apps: Any, app: Any, dynamodb: Any
) -> None:
    lambda_client = Lambda({"rest-fn:7": apps.rest.handler})
    result, codedeploy = run_hook(apps, lambda_client)
    assert result["ok"] and result["moves"] == 1
    assert {name for name, _ in lambda_client.invoked} == {"rest-fn:7"}  # the new version only
    assert codedeploy.reported == [
        {"deploymentId": "d-1", "lifecycleEventHookExecutionId": "h-1", "status": "Succeeded"}
    ]
    assert nobody_left(dynamodb, result)  # each guest deleted with its own token, as a player
    deletes = [e for _, e in lambda_client.invoked if e["httpMethod"] == "DELETE"]
    assert [e["path"] for e in deletes][-2:] == ["/players/me", "/players/me"]


@pytest.mark.parametrize("broken", ["/moves", "/start", "/seats/1"])
def test_a_version_that_fails_a_step_is_stopped_before_any_player_reaches_it(
    apps: Any, app: Any, dynamodb: Any, broken: str
) -> None:
    lambda_client = Lambda({"rest-fn:7": apps.rest.handler}, broken=path_ends(broken))
    result, codedeploy = run_hook(apps, lambda_client)
    assert not result["ok"] and result["error"].split(":")[0] in ("draw", "start", "sit")
    assert codedeploy.reported[0]["status"] == "Failed"
    assert nobody_left(dynamodb, result)


def test_a_run_cut_short_by_a_hung_version_still_deletes_its_guests(
    apps: Any, app: Any, dynamodb: Any
) -> None:
    """An invoke that times out mid-game (a version that hangs) ends the run at once: the
    guests are deleted, then Failed goes to CodeDeploy with the timeout."""
    from botocore.exceptions import ReadTimeoutError

    class Hangs(Lambda):
        def invoke(self, FunctionName: str, Payload: str) -> dict[str, Any]:
            if json.loads(Payload)["path"].endswith("/start"):
                raise ReadTimeoutError(endpoint_url="https://lambda.us-east-1.amazonaws.com")
            return super().invoke(FunctionName, Payload)

    lambda_client = Hangs({"rest-fn:7": apps.rest.handler})
    result, codedeploy = run_hook(apps, lambda_client)
    assert not result["ok"] and "ReadTimeoutError" in result["error"]
    assert codedeploy.reported[0]["status"] == "Failed"
    assert nobody_left(dynamodb, result)


def test_a_guest_that_cannot_be_deleted_fails_the_run_and_is_named(
    apps: Any, app: Any, dynamodb: Any
) -> None:
    """A version whose DELETE /players/me fails must not take traffic; the run names the
    guests it could not delete (the operator's trail), and still tries each."""
    broken = Lambda({"rest-fn:7": apps.rest.handler}, broken=path_ends("/players/me"))
    result, codedeploy = run_hook(apps, broken)
    assert not result["ok"] and result["error"].startswith("delete guest: 599")
    assert result["moves"] == 1 and sorted(result["left"]) == sorted(result["guests"])
    assert codedeploy.reported[0]["status"] == "Failed"
    assert len(scan_all(dynamodb, TABLE_NAMES["PlayersTable"])) >= 2


def test_an_invoke_is_bounded_and_never_replayed() -> None:
    """A hook's Lambda client: an invoke ends after INVOKE_SECONDS and is not retried (a
    replayed POST /players would sign up a guest nobody deletes)."""
    made: list[tuple[str, Any]] = []
    clients = clients_of(lambda service, config=None: made.append((service, config)))
    clients("lambda")
    clients("codedeploy")
    [(service, config), other] = made
    assert service == "lambda" and other == ("codedeploy", None)  # the report keeps retries
    assert config.read_timeout == INVOKE_SECONDS <= 15
    assert config.retries == {"total_max_attempts": 1}


def test_the_probe_plays_several_turns_through_the_api(apps: Any, app: Any) -> None:
    lambda_client = Lambda({"rest-fn:8": apps.rest.handler})
    result = play(rest_caller(lambda_client, "rest-fn:8"), moves=4)
    assert result == {**result, "ok": True, "moves": 4}


# ---------------------------------------------------------------- the WebSocket function's hook
WS_ENV = {"NEW_VERSION": "ws-fn:9", "REST_FUNCTION": "rest-fn:live"}


def ws_lambda(apps: Any, broken: Callable[[dict[str, Any]], bool] | None = None) -> Lambda:
    return Lambda({"rest-fn:live": apps.rest.handler, "ws-fn:9": apps.ws.handler}, broken)


def routes(lambda_client: Lambda) -> list[str]:
    """The WebSocket routes the new version was invoked on, in order."""
    return [e["requestContext"]["routeKey"] for n, e in lambda_client.invoked if n == "ws-fn:9"]


def left_everyone(app: Any, lambda_client: Lambda) -> bool:
    """Both guests left the practice table (a computer player may sit in for them)."""
    [table_id] = {
        e["queryStringParameters"]["tableId"]
        for n, e in lambda_client.invoked
        if n == "ws-fn:9" and e["requestContext"]["routeKey"] == "$connect"
    }
    seats = app.stores.tables.get(table_id).table.seats
    return all(seat.occupant is None or seat.occupant.bot for seat in seats)


def test_a_good_websocket_version_connects_syncs_moves_and_is_let_through(
    apps: Any, app: Any, outbox: Any, dynamodb: Any
) -> None:
    """The new WebSocket version takes a guest's $connect, a sync answered the table's view,
    a draw answered its delta (the version REST then shows), and $disconnect; the table is
    made and left over the REST function's alias; Succeeded goes to CodeDeploy."""
    lambda_client = ws_lambda(apps)
    result, codedeploy = run_hook(apps, lambda_client, "wspretraffic", WS_ENV)
    assert result["ok"] and result["moves"] == 1, result
    assert routes(lambda_client) == ["$connect", "sync", "move", "$disconnect"]
    assert {name for name, _ in lambda_client.invoked} == {"rest-fn:live", "ws-fn:9"}
    assert codedeploy.reported == [
        {"deploymentId": "d-1", "lifecycleEventHookExecutionId": "h-1", "status": "Succeeded"}
    ]
    [connection] = {e["requestContext"]["connectionId"] for _, e in lambda_client.invoked[-9:]
                    if "connectionId" in e.get("requestContext", {})}  # fmt: skip
    assert [m["type"] for m in outbox.to(connection)] == ["table", "delta"]
    assert app.stores.connections.get(connection) is None  # its $disconnect cleaned up
    assert left_everyone(app, lambda_client)
    assert nobody_left(dynamodb, result)


@pytest.mark.parametrize("route", ["$connect", "sync", "move", "$disconnect"])
def test_a_websocket_version_that_fails_a_step_is_stopped_and_the_table_left(
    apps: Any, app: Any, dynamodb: Any, route: str
) -> None:
    """A version that raises on any of the four steps: Failed goes to CodeDeploy (no socket
    reaches it), the error names the step, and the guests still leave their table."""

    def broken(event: dict[str, Any]) -> bool:
        return event.get("requestContext", {}).get("routeKey") == route

    lambda_client = ws_lambda(apps, broken)
    result, codedeploy = run_hook(apps, lambda_client, "wspretraffic", WS_ENV)
    assert not result["ok"] and result["error"].startswith(f"{route}: ")
    assert codedeploy.reported[0]["status"] == "Failed"
    assert routes(lambda_client)[-1] == "$disconnect"  # opened or not, the socket is closed
    assert left_everyone(app, lambda_client)
    assert nobody_left(dynamodb, result)


def test_a_websocket_version_whose_answers_are_wrong_is_stopped(apps: Any, app: Any) -> None:
    """A version that answers 200 but not what it should (here: a sync answered an older
    view, as a version reading a stale copy would) fails the hook too."""

    def stale(event: dict[str, Any], context: Any) -> dict[str, Any]:
        reply: dict[str, Any] = apps.ws.handler(event, context)
        if event["requestContext"]["routeKey"] == "sync":
            answer = json.loads(reply["body"])
            answer["view"]["version"] -= 1
            reply["body"] = json.dumps(answer)
        return reply

    lambda_client = Lambda({"rest-fn:live": apps.rest.handler, "ws-fn:9": stale})
    result, codedeploy = run_hook(apps, lambda_client, "wspretraffic", WS_ENV)
    assert not result["ok"] and result["error"].startswith("sync: ")
    assert routes(lambda_client) == ["$connect", "sync", "$disconnect"]  # no move was sent
    assert codedeploy.reported[0]["status"] == "Failed"


def test_a_version_that_cannot_be_invoked_is_reported_failed_at_once(apps: Any, app: Any) -> None:
    """An invoke refused (the hook's role, a throttle): Failed now, not the hook's timeout."""

    class Refused(Lambda):
        def invoke(self, FunctionName: str, Payload: str) -> dict[str, Any]:
            if FunctionName == "ws-fn:9":
                error = {"Error": {"Code": "AccessDeniedException", "Message": "no"}}
                raise ClientError(error, "Invoke")
            return super().invoke(FunctionName, Payload)

    lambda_client = Refused({"rest-fn:live": apps.rest.handler})
    result, codedeploy = run_hook(apps, lambda_client, "wspretraffic", WS_ENV)
    assert not result["ok"] and "AccessDeniedException" in result["error"]
    assert codedeploy.reported[0]["status"] == "Failed"


def test_a_report_codedeploy_refuses_fails_the_hook_for_lambda_to_retry(
    apps: Any, app: Any
) -> None:
    """The game passes but CodeDeploy's call fails: the hook raises (a retried invocation
    reports again; with no report at all the deploy fails), its table already left."""
    lambda_client = ws_lambda(apps)
    with pytest.raises(ClientError, match="Rate exceeded"):
        run_hook(apps, lambda_client, "wspretraffic", WS_ENV, CodeDeploy(fails=True))
    assert routes(lambda_client) == ["$connect", "sync", "move", "$disconnect"]
    assert left_everyone(app, lambda_client)


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
