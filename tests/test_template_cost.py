"""template.yaml: the alarms for pushes, the stages' 429s and the indexes' throttling; the cell
parameters and exports the router finds cells by; the sweeper and the deadline index as the
cost work left them (docs/DEPLOY.md, docs/SCALE.md). cfn-lint runs in tests/test_template.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_template import _alarmed, _alarms, _dims, _resources

from harftet.router import CELL_ID, Cell, Router, cells_from_exports, new_table_id
from harftet.store.schema import load_template

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template(REPO / "template.yaml")


def _filters(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k: v["Properties"] for k, v in _resources(template, "AWS::Logs::MetricFilter").items()}


def _alarm_on(template: dict[str, Any], metric: str) -> dict[str, Any]:
    [alarm] = [a for a in _alarms(template).values() if a.get("MetricName") == metric]
    return alarm


def test_failed_and_throttled_pushes_are_counted_from_the_fanout_logs_and_alarmed(
    template: dict[str, Any],
) -> None:
    push_source = (REPO / "shared" / "harftet" / "push" / "__init__.py").read_text()
    by_metric = {
        f["MetricTransformations"][0]["MetricName"]: f
        for f in _filters(template).values()
        if f["LogGroupName"] == {"Ref": "FanoutFunctionLogs"}
    }
    failures, throttles = by_metric["PushFailures"], by_metric["PushThrottles"]
    # the quoted term is what the push module logs for a post that failed after retries
    [message] = re.findall(r'"([^"]+)"', failures["FilterPattern"])
    assert f'"{message}"' in push_source
    assert throttles["FilterPattern"].startswith(f'"{message}"')
    assert "LimitExceededException" in throttles["FilterPattern"]  # API Gateway's 429
    for metric in ("PushFailures", "PushThrottles"):
        alarm = _alarm_on(template, metric)
        assert alarm["Namespace"] == {"Fn::Sub": "Harftet/${AWS::StackName}"}
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def test_the_stages_429s_are_alarmed_for_both_apis(template: dict[str, Any]) -> None:
    alarmed = _alarmed(template)
    ws = _dims(ApiId={"Ref": "WebSocketApi"}, Stage={"Ref": "Stage"})
    assert ("AWS/ApiGateway", "ClientError", ws) in alarmed
    [rest] = [a for a in _alarms(template).values() if "rest-429" in str(a["AlarmName"])]
    metrics = {q["Id"]: q for q in rest["Metrics"]}
    stage = _dims(ApiName={"Ref": "AWS::StackName"}, Stage={"Ref": "Stage"})
    assert metrics["requests"]["MetricStat"]["Metric"]["MetricName"] == "Count"
    assert (
        tuple(
            sorted(
                (d["Name"], repr(d["Value"]))
                for d in metrics["requests"]["MetricStat"]["Metric"]["Dimensions"]
            )
        )
        == stage
    )
    function = [{"Name": "FunctionName", "Value": {"Ref": "RestFunction"}}]
    assert metrics["invocations"]["MetricStat"]["Metric"]["Dimensions"] == function
    # requests the function never saw (and were not Lambda's throttles): the stage refused them
    assert (
        "FILL(requests, 0) - FILL(invocations, 0) - FILL(throttled, 0)"
        in (metrics["refused"]["Expression"])
    )


def test_every_index_of_every_table_has_its_throttling_alarmed(template: dict[str, Any]) -> None:
    alarmed = _alarmed(template)
    indexes = [
        (name, gsi["IndexName"])
        for name, table in _resources(template, "AWS::DynamoDB::Table").items()
        for gsi in table["Properties"].get("GlobalSecondaryIndexes", [])
    ]
    assert ("TablesTable", "deadline-index") in indexes
    for table, index in indexes:
        for metric in ("ReadThrottleEvents", "WriteThrottleEvents"):
            dims = _dims(TableName={"Ref": table}, GlobalSecondaryIndexName=index)
            assert ("AWS/DynamoDB", metric, dims) in alarmed, (table, index, metric)


def test_the_deadline_index_holds_keys_only(template: dict[str, Any]) -> None:
    table = template["Resources"]["TablesTable"]["Properties"]
    [deadline] = [g for g in table["GlobalSecondaryIndexes"] if g["IndexName"] == "deadline-index"]
    assert deadline["Projection"] == {"ProjectionType": "KEYS_ONLY"}


def test_the_sweeper_sweeps_once_a_run_and_the_shards_are_a_parameter(
    template: dict[str, Any],
) -> None:
    sweeper = template["Resources"]["SweeperFunction"]["Properties"]
    assert sweeper["Environment"]["Variables"]["SWEEP_WINDOW_SECONDS"] == "0"
    assert sweeper["Timeout"] <= 30
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["DEADLINE_SHARDS"] == {"Ref": "DeadlineShards"}
    assert template["Parameters"]["DeadlineShards"]["Default"] == 32
    # the deadline index holds keys up to a step after the deadline (store/table_items.py)
    assert variables["DEADLINE_STEP_SECONDS"] == {"Ref": "DeadlineStepSeconds"}
    assert template["Parameters"]["DeadlineStepSeconds"]["Default"] == 60


def test_deadlines_lean_on_timer_messages_unless_a_first_deploy_turns_it_off(
    template: dict[str, Any],
) -> None:
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["TIMERS_LEAN"] == {"Ref": "TimersLean"}
    parameter = template["Parameters"]["TimersLean"]
    assert parameter["Default"] == "true" and parameter["AllowedValues"] == ["true", "false"]
    from harftet.bootstrap.settings import Settings

    assert Settings.from_env({}).timers_lean  # locally and in tests: on
    assert not Settings.from_env({"TIMERS_LEAN": "false"}).timers_lean


def test_the_log_stores_an_item_per_change_unless_a_first_deploy_turns_it_off(
    template: dict[str, Any],
) -> None:
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["LOG_ITEM_PER_CHANGE"] == {"Ref": "LogItemPerChange"}
    parameter = template["Parameters"]["LogItemPerChange"]
    assert parameter["Default"] == "true" and parameter["AllowedValues"] == ["true", "false"]
    from harftet.bootstrap.aws import DynamoStores
    from harftet.bootstrap.settings import Settings

    off = Settings.from_env({"LOG_TABLE": "log", "LOG_ITEM_PER_CHANGE": "false"})
    assert DynamoStores(None, off).log.per_change is False
    assert DynamoStores(None, Settings.from_env({"LOG_TABLE": "log"})).log.per_change is True
    assert DynamoStores(None, Settings.from_env({})).log is None  # no log table, no log


def test_a_stack_deploys_as_a_cell_the_router_finds_by_its_exports(
    template: dict[str, Any],
) -> None:
    parameter = template["Parameters"]["CellId"]
    assert parameter["Default"] == ""
    pattern = re.compile(parameter["AllowedPattern"])
    for good in ("", "a", "euw1x2", "c7"):
        assert pattern.match(good), good
    for bad in ("A", "1a", "cell-one", "toolongid9", "a.b"):
        assert not pattern.match(bad), bad
        assert not CELL_ID.match(bad), bad
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["CELL_ID"] == {"Ref": "CellId"}
    outputs = template["Outputs"]
    is_cell = {"Fn::Not": [{"Fn::Equals": [{"Ref": "CellId"}, ""]}]}
    assert template["Conditions"]["IsCell"] == is_cell
    exports = {}
    for key in ("CellRestApiUrl", "CellWebSocketUrl"):
        assert outputs[key]["Condition"] == "IsCell"
        exports[key] = outputs[key]["Export"]["Name"]["Fn::Sub"]
    assert exports == {
        "CellRestApiUrl": "harftet-cell-${CellId}-rest",
        "CellWebSocketUrl": "harftet-cell-${CellId}-ws",
    }
    # what `aws cloudformation list-exports` gives for two cells becomes the router's cells
    listed = {
        "harftet-cell-ka-rest": "https://a.example/prod",
        "harftet-cell-ka-ws": "wss://a.example/prod",
        "harftet-cell-kb-rest": "https://b.example/prod",
        "harftet-cell-kb-ws": "wss://b.example/prod",
        "other-stack-output": "x",
    }
    router = Router(cells_from_exports(listed))
    assert sorted(router.cells) == ["ka", "kb"]
    table_id = new_table_id("kb")
    status, headers, _ = router.redirect("GET", f"/tables/{table_id}")
    assert (status, headers["location"]) == (307, f"https://b.example/prod/tables/{table_id}")


def test_the_router_keeps_a_home_and_spreads_new_players_by_capacity() -> None:
    cells = [Cell("ka", "https://a", "wss://a"), Cell("kb", "https://b", "wss://b", capacity=3)]
    router = Router(cells)
    homes = [router.home(f"client-{n}").cell_id for n in range(4000)]
    share = homes.count("kb") / len(homes)
    assert 0.70 < share < 0.80  # three times the capacity: about 3/4 of the new players
    assert homes == [router.home(f"client-{n}").cell_id for n in range(4000)]  # stable
    assert router.home("ka.0123456789abcdef0123456789abcdef").cell_id == "ka"  # a made player
    draining = Router([cells[0], Cell("kb", "https://b", "wss://b", open=False)])
    assert {draining.home(f"client-{n}").cell_id for n in range(200)} == {"ka"}
    # a new table goes home, a table's own paths to its cell, an unknown cell is a 404
    assert router.route("POST", "/tables", "kb.00").cell_id == "kb"
    assert router.route("POST", "/tables/ka.AAAAAAAAAAAA/moves", "kb.00").cell_id == "ka"
    status, _, body = router.redirect("GET", "/tables/zz.AAAAAAAAAAAA")
    assert status == 404 and '"not_found"' in body
    status, _, _ = router.redirect("GET", "/tables/plain-id-no-cell")
    assert status == 404


def test_the_router_answers_a_function_url_event(monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from harftet import router as module

    cells = [
        {"cellId": "ka", "restUrl": "https://a/prod", "webSocketUrl": "wss://a/prod"},
        {
            "cellId": "kb",
            "restUrl": "https://b/prod",
            "webSocketUrl": "wss://b/prod",
            "open": False,
        },
    ]
    monkeypatch.setenv("HARFTET_CELLS", json.dumps(cells))
    monkeypatch.delenv("CELLS_TABLE", raising=False)  # a router without its cells table
    monkeypatch.setattr(module, "_directory_kept", None)

    def event(method: str, path: str, query: str = "", **headers: str) -> dict[str, Any]:
        return {
            "rawPath": path,
            "rawQueryString": query,
            "headers": headers,
            "requestContext": {"http": {"method": method}},
        }

    moved = module.handler(event("POST", "/players", **{"x-client": "new-guest"}))
    assert moved == {
        "statusCode": 307,
        "headers": {"location": "https://a/prod/players"},
        "body": "",
    }
    found = module.handler(event("GET", "/cells/route", "tableId=kb.AAAAAAAAAAAA"))
    assert found["statusCode"] == 200
    assert (
        json.loads(str(found["body"]))["webSocketUrl"] == "wss://b/prod"
    )  # draining, still served
    assert module.handler(event("GET", "/tables/zz.AAAAAAAAAAAA"))["statusCode"] == 404
