"""The local API Gateway emulator, exercised over real HTTP and WebSocket with echo handlers."""

from __future__ import annotations

import base64
import json
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import boto3
import httpx
import pytest
from e2e_client import Player, seated_table
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from harftet.localstack.dynamo import MotoDynamo
from harftet.localstack.launcher import RunningStack
from harftet.localstack.template import find_route, read_template

pytestmark = pytest.mark.e2e

ECHO = Path(__file__).parent / "echo_handlers"


@pytest.fixture(scope="module")
def echo_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the echo WebSocket handler and sweeper note each call, one JSON line each."""
    log = tmp_path_factory.mktemp("echo") / "echo.log"
    log.touch()
    return log


@pytest.fixture(scope="module")
def echo(stack_factory: Callable[..., RunningStack], echo_log: Path) -> RunningStack:
    """A stack running the echo handlers, every path routed to the REST handler."""
    return stack_factory(
        "echo",
        rest_handler=ECHO / "rest.py",
        ws_handler=ECHO / "ws.py",
        sweeper=ECHO / "sweeper.py",
        env={"ECHO_LOG": str(echo_log)},
        sweep_seconds=0.2,
        proxy_all=True,
    )


@pytest.fixture
def http(echo: RunningStack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=echo.base_url, timeout=20) as client:
        yield client


@pytest.fixture
def management(echo: RunningStack) -> Any:
    """The Management API client a handler would use, pointed at the emulator."""
    return boto3.client(
        "apigatewaymanagementapi",
        endpoint_url=echo.base_url,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def open_socket(stack: RunningStack, query: str = "token=ok") -> ClientConnection:
    return connect(f"{stack.ws_url}?{query}", open_timeout=10)


def ask(ws: ClientConnection, message: dict[str, Any]) -> Any:
    ws.send(json.dumps(message))
    return json.loads(ws.recv(timeout=10))


def wait_for_log(log: Path, found: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for entry in (json.loads(line) for line in log.read_text().splitlines() if line):
            if found(entry):
                return entry
        time.sleep(0.05)
    raise AssertionError("the expected handler call never happened")


# --- REST ----------------------------------------------------------------------------------


def test_health_answers_ok_once_the_stack_is_ready(http: httpx.Client) -> None:
    response = http.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    # each event source mapping reports its lag (IteratorAge) and is not stuck
    assert {(s["function"], s["kind"]) for s in body["sources"]} == {
        ("fanout", "stream"),
        ("timer", "queue"),
        ("notifier", "queue"),
        ("matcher", "stream"),
    }
    assert all(not s["stuck"] and s["lagSeconds"] < 60 for s in body["sources"])
    # moto runs in the stack's process: an empty poll is a look, not a request (sources.py)
    assert all(s["doorbell"] for s in body["sources"]), body["sources"]


def test_a_rest_request_reaches_the_handler_as_an_api_gateway_proxy_event(
    http: httpx.Client,
) -> None:
    response = http.post(
        "/tables/abc/moves?x=1&x=2&y=", content=b'{"a": 1}', headers={"X-Custom": "v"}
    )
    event = response.json()["event"]
    assert response.status_code == 200
    assert event["httpMethod"] == "POST"
    assert event["path"] == "/tables/abc/moves"
    assert event["resource"] == "/{proxy+}"
    assert event["pathParameters"] == {"proxy": "tables/abc/moves"}
    assert event["queryStringParameters"] == {"x": "2", "y": ""}
    assert event["multiValueQueryStringParameters"] == {"x": ["1", "2"], "y": [""]}
    assert event["headers"]["x-custom"] == "v"
    assert event["multiValueHeaders"]["x-custom"] == ["v"]
    assert event["body"] == '{"a": 1}'
    assert event["isBase64Encoded"] is False
    assert event["stageVariables"] is None
    context = event["requestContext"]
    assert context["httpMethod"] == "POST"
    assert context["resourcePath"] == "/{proxy+}"
    assert context["identity"]["sourceIp"] == "127.0.0.1"
    assert isinstance(context["requestTimeEpoch"], int)
    assert uuid.UUID(context["requestId"])
    assert response.headers["x-amzn-RequestId"] == context["requestId"]


def test_a_request_without_query_or_body_carries_nones_as_api_gateway_does(
    http: httpx.Client,
) -> None:
    event = http.get("/plain").json()["event"]
    assert event["queryStringParameters"] is None
    assert event["multiValueQueryStringParameters"] is None
    assert event["body"] is None


def test_a_binary_request_body_arrives_base64_encoded(http: httpx.Client) -> None:
    event = http.post("/upload", content=bytes(range(256))).json()["event"]
    assert event["isBase64Encoded"] is True
    assert base64.b64decode(event["body"]) == bytes(range(256))


def test_the_handlers_status_headers_and_body_come_back(http: httpx.Client) -> None:
    response = http.get("/status/201")
    assert response.status_code == 201
    assert response.text == "custom body"
    assert response.headers["x-single"] == "one"
    assert response.headers.get_list("x-multi") == ["a", "b"]
    assert response.headers.get_list("x-both") == ["from-multi"]  # multi-value wins


def test_a_base64_response_is_decoded_for_the_client(http: httpx.Client) -> None:
    response = http.get("/binary")
    assert response.content == bytes(range(256))


@pytest.mark.parametrize("path", ["/raise", "/malformed", "/not-json"])
def test_a_failing_handler_gives_502_internal_server_error(http: httpx.Client, path: str) -> None:
    response = http.get(path)
    assert response.status_code == 502
    assert "Internal server error" in response.text  # in template.yaml's DEFAULT_5XX shape


def test_an_execution_environment_that_dies_is_replaced(http: httpx.Client) -> None:
    assert http.get("/exit").status_code == 502
    assert http.get("/after-exit").status_code == 200


def test_a_payload_over_10_mb_is_refused_with_413(http: httpx.Client) -> None:
    response = http.post("/big", content=b"x" * (10 * 1024 * 1024 + 1))
    assert response.status_code == 413


def test_requests_run_concurrently_in_separate_execution_environments(echo: RunningStack) -> None:
    def call(_: int) -> dict[str, Any]:
        response = httpx.get(f"{echo.base_url}/sleep?s=0.6", timeout=20)
        result: dict[str, Any] = response.json()
        return result

    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(call, range(4)))
    assert max(r["start"] for r in runs) < min(r["end"] for r in runs)  # all four overlapped
    assert len({r["pid"] for r in runs}) == 4


def test_the_handler_gets_a_lambda_context_and_the_stacks_environment(
    http: httpx.Client, echo: RunningStack
) -> None:
    first, second = http.get("/context").json(), http.get("/context").json()
    assert first["function_name"] == "harftet-rest"
    assert first["invoked_function_arn"].endswith(":function:harftet-rest")
    assert first["log_group_name"] == "/aws/lambda/harftet-rest"
    assert first["aws_request_id"] != second["aws_request_id"]
    assert first["remaining"] > 0
    env = first["env"]
    assert env["WS_ENDPOINT"] == echo.base_url
    assert env["AWS_ENDPOINT_URL_DYNAMODB"] == echo.dynamodb_endpoint
    assert env["TABLES_TABLE"] == "harftet-tables"
    assert env["TEST_MODE"] == "1"
    assert env["TOKEN_SECRET"] == echo.env["TOKEN_SECRET"]
    assert env["POWERTOOLS_SERVICE_NAME"] == "harftet"


# --- WebSocket -----------------------------------------------------------------------------


def test_connect_passes_the_query_and_messages_reach_default(
    echo: RunningStack, echo_log: Path
) -> None:
    with open_socket(echo, "token=ok&tableId=T1") as ws:
        reply = ask(ws, {"action": "echo", "data": "hi"})
    assert reply["echo"] == "hi"
    assert reply["routeKey"] == "$default"
    assert reply["eventType"] == "MESSAGE"
    connect_event = wait_for_log(
        echo_log,
        lambda e: e.get("route") == "$connect" and e["connectionId"] == reply["connectionId"],
    )
    assert connect_event["query"] == {"token": "ok", "tableId": "T1"}


@pytest.mark.parametrize(("token", "status"), [("bad", 401), ("forbidden", 403), ("boom", 502)])
def test_connect_is_refused_when_the_handler_says_no(
    echo: RunningStack, token: str, status: int
) -> None:
    with pytest.raises(InvalidStatus) as refused:
        open_socket(echo, f"token={token}")
    assert refused.value.response.status_code == status


def test_messages_from_one_client_are_handled_in_order(echo: RunningStack) -> None:
    with open_socket(echo) as ws:
        for n in range(30):
            ws.send(json.dumps({"action": "echo", "data": n}))
        received = [json.loads(ws.recv(timeout=10))["echo"] for _ in range(30)]
    assert received == list(range(30))


def test_a_failing_message_handler_answers_internal_server_error(echo: RunningStack) -> None:
    with open_socket(echo) as ws:
        reply = ask(ws, {"action": "raise"})
    assert reply["message"] == "Internal server error"


def test_post_to_connection_reaches_the_socket(echo: RunningStack, management: Any) -> None:
    with open_socket(echo) as ws:
        me = ask(ws, {"action": "echo"})["connectionId"]
        management.post_to_connection(ConnectionId=me, Data=b'{"pushed": true}')
        assert json.loads(ws.recv(timeout=10)) == {"pushed": True}


def test_a_handler_pushes_to_another_connection_until_it_is_gone(
    echo: RunningStack, echo_log: Path
) -> None:
    with open_socket(echo) as sender:
        with open_socket(echo) as receiver:
            target = ask(receiver, {"action": "echo"})["connectionId"]
            assert ask(sender, {"action": "send", "to": target, "data": "psst"}) == {"sent": True}
            assert json.loads(receiver.recv(timeout=10)) == "psst"
        wait_for_log(
            echo_log, lambda e: e.get("route") == "$disconnect" and e["connectionId"] == target
        )
        assert ask(sender, {"action": "send", "to": target, "data": "late"}) == {"gone": True}


def test_get_connection_describes_the_socket(echo: RunningStack, management: Any) -> None:
    with open_socket(echo) as ws:
        me = ask(ws, {"action": "echo"})["connectionId"]
        info = management.get_connection(ConnectionId=me)
        from_handler = ask(ws, {"action": "info"})
    assert info["Identity"]["SourceIp"] == "127.0.0.1"
    assert info["LastActiveAt"] >= info["ConnectedAt"]
    assert from_handler["sourceIp"] == "127.0.0.1"


def test_delete_connection_closes_the_socket_and_fires_disconnect(
    echo: RunningStack, echo_log: Path, management: Any
) -> None:
    with open_socket(echo) as ws:
        me = ask(ws, {"action": "echo"})["connectionId"]
        management.delete_connection(ConnectionId=me)
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    wait_for_log(echo_log, lambda e: e.get("route") == "$disconnect" and e["connectionId"] == me)


def test_a_handler_can_close_its_own_connection(echo: RunningStack) -> None:
    with open_socket(echo) as ws:
        ws.send(json.dumps({"action": "kick"}))
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)


def test_closing_the_socket_fires_disconnect(echo: RunningStack, echo_log: Path) -> None:
    with open_socket(echo) as ws:
        me = ask(ws, {"action": "echo"})["connectionId"]
    entry = wait_for_log(
        echo_log, lambda e: e.get("route") == "$disconnect" and e["connectionId"] == me
    )
    assert entry["status"] == 1000


@pytest.mark.parametrize("call", ["post_to_connection", "get_connection", "delete_connection"])
def test_an_unknown_connection_is_gone(management: Any, call: str) -> None:
    kwargs: dict[str, Any] = {"ConnectionId": "nobodyHome12="}
    if call == "post_to_connection":
        kwargs["Data"] = b"{}"
    with pytest.raises(management.exceptions.GoneException):
        getattr(management, call)(**kwargs)


def test_the_management_api_also_answers_under_a_stage_path(echo: RunningStack) -> None:
    with open_socket(echo) as ws:
        me = ask(ws, {"action": "echo"})["connectionId"]
        response = httpx.post(f"{echo.base_url}/local/@connections/{me}", content=b'"staged"')
        assert response.status_code == 200
        assert json.loads(ws.recv(timeout=10)) == "staged"


# --- the schedule, the process, DynamoDB -----------------------------------------------------


def test_the_sweeper_runs_on_its_schedule(echo: RunningStack, echo_log: Path) -> None:
    entry = wait_for_log(echo_log, lambda e: "sweep" in e)
    assert entry == {"sweep": "Scheduled Event", "source": "aws.events"}


def test_the_stack_starts_within_seconds_and_stops_cleanly_on_ctrl_c(
    stack_factory: Callable[..., RunningStack],
) -> None:
    started = time.monotonic()
    stack = stack_factory("quick", rest_handler=ECHO / "rest.py", ws_handler=None, sweeper=None)
    # A hang guard, not a benchmark (start-up time is measured in bench/, never timed here).
    assert time.monotonic() - started < 60
    assert httpx.get(f"{stack.base_url}/health").status_code == 200
    stack.stop()
    assert stack.process.returncode == 0, stack.log_tail()


@pytest.fixture
def racy_scheduler() -> Iterator[None]:
    """Switch threads very often, so an unlocked read-check-write would be caught."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_concurrent_conditional_writes_on_one_item_have_exactly_one_winner(
    racy_scheduler: None,
) -> None:
    dynamo = MotoDynamo()
    dynamo.start()
    try:
        client = dynamo.client()
        table = f"race-{uuid.uuid4().hex}"
        client.create_table(
            TableName=table,
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        for _ in range(10):
            client.put_item(TableName=table, Item={"pk": {"S": "t"}, "version": {"N": "0"}})
            winners = _race(client, table, writers=16)
            assert len(winners) == 1
    finally:
        dynamo.stop()


def _race(client: Any, table: str, writers: int) -> list[int]:
    start = threading.Barrier(writers)
    errors = client.exceptions

    def write(n: int) -> int | None:
        start.wait()
        try:
            client.update_item(
                TableName=table,
                Key={"pk": {"S": "t"}},
                UpdateExpression="SET version = :next, writer = :n",
                ConditionExpression="version = :seen",
                ExpressionAttributeValues={
                    ":seen": {"N": "0"},
                    ":next": {"N": "1"},
                    ":n": {"N": str(n)},
                },
            )
        except errors.ConditionalCheckFailedException:
            return None
        return n

    with ThreadPoolExecutor(writers) as pool:
        return [n for n in pool.map(write, range(writers)) if n is not None]


def test_template_yaml_gives_the_routes_resources_and_path_parameters() -> None:
    settings = read_template()
    routes = settings.rest_routes
    assert routes is not None
    assert find_route(routes, "POST", "/tables/t1/seats/2") == (
        "/tables/{tableId}/seats/{seat}",
        {"tableId": "t1", "seat": "2"},
    )
    assert find_route(routes, "GET", "/tables/") == ("/tables", None)
    # another method on a known path reaches the handler (ANY): it answers 405 with Allow
    assert find_route(routes, "PUT", "/tables") == ("/tables", None)
    assert find_route(routes, "GET", "/no/such/path") is None  # API Gateway refuses
    assert settings.timeouts["sweeper"] > settings.timeouts["rest"]


# --- the real handlers behind the same emulator ----------------------------------------------


def test_the_real_stack_refuses_paths_outside_template_yaml_in_the_api_error_shape(
    local_stack: str,
) -> None:
    assert httpx.get(f"{local_stack}/health").json()["status"] == "ok"
    response = httpx.get(f"{local_stack}/no/such/path")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    # a known path with another method: 405 and the methods it takes
    response = httpx.delete(f"{local_stack}/players")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    assert response.headers["Allow"] == "POST"
    assert httpx.put(f"{local_stack}/tables/abc").headers["Allow"] == "GET"


def test_the_real_handlers_serve_a_player_a_table_and_a_socket(
    local_stack_info: RunningStack,
) -> None:
    with httpx.Client(base_url=local_stack_info.base_url, timeout=20) as http:
        player = http.post("/players", json={"name": "Ayşe"})
        assert player.status_code == 201, player.text
        auth = {"Authorization": f"Bearer {player.json()['token']}"}
        table = http.post("/tables", json={"game": "harftet", "seats": 2}, headers=auth)
        assert table.status_code == 201, table.text
    query = f"token={player.json()['token']}&tableId={table.json()['tableId']}"
    with open_socket(local_stack_info, query) as ws:
        ws.send(json.dumps({"action": "ping"}))
        while json.loads(ws.recv(timeout=10)).get("type") != "pong":
            pass  # table views pushed on connect come first
    with pytest.raises(InvalidStatus) as refused:
        open_socket(local_stack_info, f"token=forged&tableId={table.json()['tableId']}")
    assert refused.value.response.status_code == 401


def test_a_dry_run_over_http_checks_a_move_and_changes_nothing(local_stack: str) -> None:
    seed = 8675309412
    players, seated = seated_table(local_stack, "kastet", ["Ayşe", "Mehmet"], seed=seed)
    try:
        first, second = players
        table_id = seated["tableId"]
        view = first.start(table_id)
        mover = players[view["turn"]["seat"]]
        before = mover.table(table_id)
        body = {"version": before["version"], "type": "draw", "dryRun": True}
        checked = mover.http.post(f"/tables/{table_id}/moves", json=body)
        assert checked.status_code == 200, checked.text
        assert checked.json()["legal"] is True
        assert checked.json()["view"]["hand"] == before["hand"]  # the pile stays secret
        assert mover.table(table_id) == before  # nothing stored
        wrong = {"version": before["version"], "type": "pass", "dryRun": True}
        refused = mover.http.post(f"/tables/{table_id}/moves", json=wrong)
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "illegal_move"
        deadline = time.monotonic() + 10  # the stream's fan-out writes the log just after
        while True:
            log = second.http.get(f"/tables/{table_id}/log", params={"after": 0})
            assert log.status_code == 200, log.text
            types = [e["type"] for e in log.json()["events"]]
            if len(types) >= 3 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert types == ["sit", "sit", "start"]  # the dry runs logged nothing
        replay = second.http.get(f"/tables/{table_id}/replay")
        assert replay.status_code == 409 and replay.json()["error"]["code"] == "wrong_status"
        for text in (checked.text, refused.text, log.text, replay.text):
            assert str(seed) not in text and "seed" not in text
    finally:
        for player in players:
            player.close()


def test_the_lobby_pages_over_http_and_a_fourth_waiting_table_is_refused(
    local_stack: str,
) -> None:
    busy, watcher = Player(local_stack, "Acele"), Player(local_stack, "Seyirci")
    try:
        made = []
        for _ in range(3):
            made.append(busy.create_table("kastet", seats=2)["tableId"])
            time.sleep(0.01)  # distinct creation times: newest first is well defined
        fourth = busy.http.post("/tables", json={"game": "kastet"})
        assert fourth.status_code == 409, fourth.text
        assert fourth.json()["error"]["code"] == "too_many_tables"
        seen: list[str] = []
        cursor = None
        for _ in range(200):
            params = {"status": "waiting", "limit": 2, **({"cursor": cursor} if cursor else {})}
            page = watcher.http.get("/tables", params=params)
            assert page.status_code == 200, page.text
            assert len(page.json()["tables"]) <= 2
            seen += [t["tableId"] for t in page.json()["tables"]]
            cursor = page.json()["cursor"]
            if cursor is None:
                break
        assert cursor is None and len(seen) == len(set(seen))
        assert [t for t in seen if t in made] == made[::-1]
        bad = watcher.http.get("/tables", params={"status": "waiting", "cursor": "x.y"})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"
        for status in ("open", "playing"):
            listed = watcher.http.get("/tables", params={"status": status})
            assert listed.status_code == 200 and not set(made) & {
                t["tableId"] for t in listed.json()["tables"]
            }
    finally:
        busy.close()
        watcher.close()


def test_table_options_and_bot_levels_over_http(local_stack: str) -> None:
    owner, friend = Player(local_stack, "Ev"), Player(local_stack, "Arkadaş")
    try:
        body = {"game": "kastet", "seats": 3, "hints": False, "private": True, "botSeconds": 0}
        made = owner.http.post("/tables", json=body)
        assert made.status_code == 201, made.text
        view = made.json()
        assert (view["hints"], view["private"], view["botSeconds"]) == (False, True, 0)
        table_id = view["tableId"]
        listed = friend.http.get("/tables", params={"status": "waiting"}).json()["tables"]
        assert table_id not in {t["tableId"] for t in listed}  # private: never listed
        assert friend.sit(table_id, 1).status_code == 200  # but joinable by its id
        bot = owner.http.post(f"/tables/{table_id}/seats/2", json={"bot": True, "level": "hard"})
        assert bot.status_code == 200 and bot.json()["seats"][2]["level"] == "hard"
        owner.start(table_id)
        refused = friend.http.get(f"/tables/{table_id}/hint")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "hints_off"
    finally:
        owner.close()
        friend.close()


def test_a_dry_run_over_the_websocket_is_answered_on_that_socket(
    local_stack_info: RunningStack,
) -> None:
    players, seated = seated_table(local_stack_info.base_url, "kastet", ["Ayşe", "Mehmet"])
    try:
        table_id = seated["tableId"]
        view = players[0].start(table_id)
        mover = players[view["turn"]["seat"]]
        before = mover.table(table_id)
        with open_socket(local_stack_info, f"token={mover.token}&tableId={table_id}") as ws:
            message = {"action": "move", "tableId": table_id, "version": before["version"]}
            ws.send(json.dumps({**message, "type": "draw", "dryRun": True}))
            answer = json.loads(ws.recv(timeout=10))
            while answer.get("type") in ("table", "delta"):  # pushes in flight come first
                answer = json.loads(ws.recv(timeout=10))
            # Read while the socket is open: closing it is a change of its own (the player's
            # presence), which a loaded machine may store before the read below.
            assert mover.table(table_id)["version"] == before["version"]
        assert answer["type"] == "dryRun" and answer["legal"] is True, answer
        assert answer["view"]["hand"] == before["hand"]
    finally:
        for player in players:
            player.close()


def test_a_hint_over_http_is_a_lay_the_move_accepts(local_stack: str) -> None:
    players, seated = seated_table(local_stack, "harftet", ["Ayşe", "Mehmet"], seed=11)
    try:
        table_id = seated["tableId"]
        view = players[0].start(table_id)
        mover = players[view["turn"]["seat"]]
        hint = mover.http.get(f"/tables/{table_id}/hint")
        assert hint.status_code == 200, hint.text
        body = hint.json()
        assert {"version", "lay", "shed", "tiles", "meld", "hintsLeft"} <= set(body)
        assert body["lay"] is None  # a table with a hint budget reveals one meld, not the lay
        if body["meld"] is not None:
            hand = {t["id"] for t in mover.http.get(f"/tables/{table_id}").json()["hand"]}
            from_hand = {t["id"] for t in body["meld"] if t["from"] == "hand"}
            assert from_hand and from_hand <= hand and set(body["tiles"]) == from_hand
            assert body["shed"] > 0 and body["hintsLeft"] == 2  # one of the default 3 spent
        else:
            assert body["shed"] == 0 and body["tiles"] == []
        stranger = Player(local_stack, "Seyirci")
        refused = stranger.http.get(f"/tables/{table_id}/hint")
        stranger.close()
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_seated"
    finally:
        for player in players:
            player.close()


def test_large_answers_are_gzipped_for_clients_that_accept_it_as_the_template_says(
    local_stack: str,
) -> None:
    """template.yaml's MinimumCompressionSize, as API Gateway applies it: a table view (over
    the size) comes gzipped to a client that accepts gzip and plain to one that does not; a
    small answer (an error) comes plain either way."""
    minimum = read_template().min_compression
    assert minimum is not None
    players, seated = seated_table(local_stack, "harftet", ["Ayşe", "Mehmet"], seed=77)
    try:
        first = players[0]
        table_id = seated["tableId"]
        first.start(table_id)
        auth = first.http.headers["Authorization"]
        with httpx.Client(base_url=local_stack, timeout=20) as raw:
            asked = {"Authorization": auth, "Accept-Encoding": "gzip"}
            zipped = raw.get(f"/tables/{table_id}", headers=asked)
            plain = raw.get(
                f"/tables/{table_id}",
                headers={"Authorization": auth, "Accept-Encoding": "identity"},
            )
            missing = raw.get("/tables/no-such-table", headers=asked)
        assert zipped.status_code == plain.status_code == 200
        assert zipped.headers["content-encoding"] == "gzip"
        assert zipped.num_bytes_downloaded < len(plain.content) / 2  # a view shrinks well
        assert zipped.json() == plain.json()  # the same view, decoded
        assert len(plain.content) >= minimum and "content-encoding" not in plain.headers
        assert missing.status_code == 404 and "content-encoding" not in missing.headers
        assert len(missing.content) < minimum
    finally:
        for player in players:
            player.close()
