"""The router's cell list in a DynamoDB table (docs/DEPLOY.md "The router"): each cell's deploy
registers itself (functions/cells/app.py, the cell stack's custom resource, through the
registrar role of the router's account) and the router reads the table, kept a short while.
With 32 cells in 4 accounts the list is far past the 4 KB a Lambda environment holds."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from harftet import router as router_module
from harftet.router import CellDirectory, Router, cells_from_items, scan_cells

REPO = Path(__file__).resolve().parents[2]
TABLE = "harftet-router-cells"
REGION = "eu-central-1"
ROLE = "arn:aws:iam::999999999999:role/harftet-router-RegistrarRole"
ACCOUNTS = [f"1111111111{n:02d}" for n in range(4)]  # each cell is its own account, or a few share
CELLS = [f"c{n:02d}" for n in range(1, 33)]


def registration() -> Any:
    path = REPO / "functions" / "cells" / "app.py"
    spec = importlib.util.spec_from_file_location("cells_registration_app", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rest_url(cell: str) -> str:
    """A cell's URL as API Gateway makes it (the length matters: the list's size)."""
    return f"https://{cell}x0a1b2c.execute-api.{REGION}.amazonaws.com/prod"


def ws_url(cell: str) -> str:
    return f"wss://{cell}y9z8w7.execute-api.{REGION}.amazonaws.com/prod"


def event(kind: str, cell: str, account: str, **properties: Any) -> dict[str, Any]:
    """What CloudFormation sends the cell stack's CellRegistration custom resource."""
    return {
        "RequestType": kind,
        "ServiceToken": f"arn:aws:lambda:{REGION}:{account}:function:harftet-{cell}-registration",
        "ResponseURL": "https://cloudformation-custom-resource-response.example/x",
        "StackId": f"arn:aws:cloudformation:{REGION}:{account}:stack/harftet-{cell}/1",
        "RequestId": f"r-{cell}-{kind}",
        "LogicalResourceId": "CellRegistration",
        "PhysicalResourceId": f"{account}/{cell}",
        "ResourceProperties": {
            "ServiceToken": "x",
            "CellId": cell,
            "RestUrl": rest_url(cell),
            "WebSocketUrl": ws_url(cell),
            "Capacity": "1",
            "Open": "true",
            "CellsTableArn": f"arn:aws:dynamodb:{REGION}:999999999999:table/{TABLE}",
            "RegistrarRoleArn": ROLE,
            **properties,
        },
    }


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    with mock_aws():
        # the table lives in the router's account (moto keeps each account's tables apart)
        keys = boto3.client("sts").assume_role(RoleArn=ROLE, RoleSessionName="router-admin")
        credentials = keys["Credentials"]
        client = boto3.resource(
            "dynamodb",
            region_name=REGION,
            aws_access_key_id=credentials["AccessKeyId"],
            aws_secret_access_key=credentials["SecretAccessKey"],
            aws_session_token=credentials["SessionToken"],
        )
        client.meta.client.create_table(
            TableName=TABLE,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": "account", "AttributeType": "S"},
                {"AttributeName": "cellId", "AttributeType": "S"},
            ],
            KeySchema=[
                {"AttributeName": "account", "KeyType": "HASH"},
                {"AttributeName": "cellId", "KeyType": "RANGE"},
            ],
        )
        client.router_credentials = credentials  # type: ignore[attr-defined]
        yield client


class Context:
    function_name, memory_limit_in_mb, aws_request_id = "registration", 128, "r1"
    invoked_function_arn = f"arn:aws:lambda:{REGION}:111111111100:function:registration"


def deploy(
    module: Any, monkeypatch: pytest.MonkeyPatch, ev: dict[str, Any], probe: bool = False
) -> dict[str, Any]:
    """The custom resource's invocation; what it told CloudFormation. Without ``probe`` the
    cells' (made-up) APIs are taken to answer."""
    told: dict[str, Any] = {}
    monkeypatch.setattr(
        module,
        "respond",
        lambda e, status, physical, reason="": told.update(s=status, p=physical, r=reason),
    )
    if not probe:
        monkeypatch.setattr(module, "answers", lambda url: None)
    module.handler(ev, Context())
    if told.get("s") != "FAILED":
        told.pop("r", None)  # a failure's reason only
    return told


def test_thirty_two_cells_register_themselves_and_the_router_routes_every_one(
    aws: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = registration()
    for n, cell in enumerate(CELLS):
        told = deploy(module, monkeypatch, event("Create", cell, ACCOUNTS[n % 4]))
        assert told == {"s": "SUCCESS", "p": f"{ACCOUNTS[n % 4]}/{cell}"}
    listed = [  # as HARFTET_CELLS held them
        {"cellId": c.cell_id, "restUrl": c.rest_url, "webSocketUrl": c.ws_url,
         "capacity": c.capacity, "open": c.open}
        for c in scan_cells(aws.Table(TABLE))
    ]  # fmt: skip
    assert [c["cellId"] for c in listed] == CELLS
    assert len(json.dumps(listed)) > 4096  # past what one environment variable holds

    # the router runs in the router's account: the credentials its role gives it
    router_keys = aws.router_credentials
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", router_keys["AccessKeyId"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", router_keys["SecretAccessKey"])
    monkeypatch.setenv("AWS_SESSION_TOKEN", router_keys["SessionToken"])
    monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)  # credentials read again
    monkeypatch.setenv("CELLS_TABLE", TABLE)
    monkeypatch.delenv("HARFTET_CELLS", raising=False)
    monkeypatch.setattr(router_module, "_directory_kept", None)

    def ask(path: str, query: str = "", client: str = "") -> dict[str, Any]:
        answer = router_module.handler(
            {
                "rawPath": path,
                "rawQueryString": query,
                "headers": {"x-client": client},
                "requestContext": {"http": {"method": "GET"}},
            }
        )
        return {"status": answer["statusCode"], **json.loads(answer["body"] or "{}")}

    for cell in CELLS:  # every cell's tables are found
        found = ask("/cells/route", f"tableId={cell}.AbCdEfGhIjKl")
        assert found == {
            "status": 200,
            "cellId": cell,
            "restUrl": rest_url(cell),
            "webSocketUrl": ws_url(cell),
        }
    homes = {ask("/cells/home", client=f"guest-{n}")["cellId"] for n in range(800)}
    assert homes == set(CELLS)  # new players spread over all 32


def test_a_drained_cell_takes_no_new_players_and_a_deleted_one_is_not_routed(
    aws: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = registration()
    for n, cell in enumerate(CELLS[:12]):
        deploy(module, monkeypatch, event("Create", cell, ACCOUNTS[n % 4]))
    now = [0.0]
    directory = CellDirectory(lambda: scan_cells(aws.Table(TABLE)), ttl=30, clock=lambda: now[0])
    before = directory.router()
    keys = [f"guest-{n}" for n in range(400)]
    c05 = [k for k in keys if before.home(k).cell_id == "c05"]
    assert c05
    # c05's stack updated with CellOpen=false (index 4: the first account), c07's deleted
    update = event("Update", "c05", ACCOUNTS[0], Open="false")
    update["OldResourceProperties"] = event("Create", "c05", ACCOUNTS[0])["ResourceProperties"]
    assert deploy(module, monkeypatch, update)["s"] == "SUCCESS"
    assert deploy(module, monkeypatch, event("Delete", "c07", ACCOUNTS[2]))["s"] == "SUCCESS"
    assert directory.router() is before  # within the cache's 30 s: the list read before
    now[0] = 31.0
    after = directory.router()
    assert "c07" not in after.cells and not after.cells["c05"].open
    assert all(after.home(k).cell_id != "c05" for k in keys)  # drained: no new homes
    assert after.for_table("c05.AbCdEfGhIjKl").cell_id == "c05"  # its tables still served
    status, _, _ = after.redirect("GET", "/cells/route", "tableId=c07.AbCdEfGhIjKl")
    assert status == 404
    moved = [k for k in keys if before.home(k).cell_id not in ("c05", "c07")]
    assert all(after.home(k) == before.home(k) for k in moved)  # nobody else moves


def test_the_router_keeps_the_cells_it_knew_when_the_table_cannot_be_read() -> None:
    now, fail = [0.0], [False]
    cells = cells_from_items(
        [{"cellId": "ka", "restUrl": "https://ka", "webSocketUrl": "wss://ka"}]
    )

    def load() -> list[Any]:
        if fail[0]:
            raise RuntimeError("throttled")
        return cells

    directory = CellDirectory(load, ttl=1, clock=lambda: now[0])
    first = directory.router()
    fail[0], now[0] = True, 5.0
    assert directory.router() is first
    broken = CellDirectory(load, ttl=1)
    with pytest.raises(RuntimeError):
        broken.router()  # none known yet: the request fails (a 5xx), nothing made up


def test_a_cell_id_claimed_by_two_accounts_stays_with_the_first(
    aws: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = registration()
    deploy(module, monkeypatch, event("Create", "ka", ACCOUNTS[0]))
    monkeypatch.setattr(module.time, "time", lambda: 4e9)  # later
    other = event("Create", "ka", ACCOUNTS[1], RestUrl="https://impostor.example/prod")
    deploy(module, monkeypatch, other)
    deploy(module, monkeypatch, event("Update", "ka", ACCOUNTS[0]))  # a redeploy keeps its time
    assert Router(scan_cells(aws.Table(TABLE))).cells["ka"].rest_url == rest_url("ka")


def test_a_failed_registration_fails_the_deploy_but_a_failed_removal_does_not(
    aws: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = registration()
    missing = f"arn:aws:dynamodb:{REGION}:999999999999:table/no-such-table"
    assert (
        deploy(module, monkeypatch, event("Create", "ka", ACCOUNTS[0], CellsTableArn=missing))["s"]
        == "FAILED"
    )
    assert (
        deploy(module, monkeypatch, event("Delete", "ka", ACCOUNTS[0], CellsTableArn=missing))["s"]
        == "SUCCESS"
    )


class Health:
    """A cell's REST API coming up: ``GET /health`` answers 503 ``busy`` times, then 200."""

    def __init__(self, busy: int) -> None:
        import http.server
        import threading

        self.asked = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.asked += 1
                ok = self.path == "/prod/health" and outer.asked > busy
                self.send_response(200 if ok else 503)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/prod"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_cell_is_registered_only_once_its_api_answers_and_never_if_it_does_not(
    aws: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The router must never send a player to a cell whose API does not answer: the custom
    resource waits for the cell's GET /health, and fails the deploy (nothing registered) when
    it never answers."""
    module = registration()
    monkeypatch.setattr(module, "PROBE_EVERY", 0.05)
    coming = Health(busy=3)
    try:
        told = deploy(module, monkeypatch, event("Create", "ka", ACCOUNTS[0], RestUrl=coming.url),
                      probe=True)  # fmt: skip
    finally:
        coming.close()
    assert told == {"s": "SUCCESS", "p": f"{ACCOUNTS[0]}/ka"} and coming.asked == 4
    assert [c.cell_id for c in scan_cells(aws.Table(TABLE))] == ["ka"]

    monkeypatch.setattr(module, "PROBE_SECONDS", 0.5)
    down = Health(busy=10**6)
    try:
        told = deploy(module, monkeypatch, event("Create", "kb", ACCOUNTS[1], RestUrl=down.url),
                      probe=True)  # fmt: skip
    finally:
        down.close()
    assert told["s"] == "FAILED" and "HTTP 503" in told["r"] and down.asked >= 2
    assert [c.cell_id for c in scan_cells(aws.Table(TABLE))] == ["ka"]  # kb never routed
