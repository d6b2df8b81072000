"""What an operator needs to sleep at night, in the template (docs/DEPLOY.md "Deploys",
"Signing keys", "Recovery", "Guardrails"): canary deploys with rollback alarms and a
pre-traffic game, scheduled key rotation, deletion protection, backups copied to another
account, reserved concurrency, table throughput ceilings and a budget alarm."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harftet.identity import ROTATION_DAYS, TOKEN_DAYS
from harftet.store.schema import load_template

ROOT = Path(__file__).resolve().parents[1]
DURABLE = ("TablesTable", "PlayersTable", "LogTable", "MailTable")


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template(ROOT / "template.yaml")


def props(template: dict[str, Any], name: str) -> dict[str, Any]:
    return template["Resources"][name]["Properties"]


def test_player_facing_functions_deploy_as_a_canary_rolled_back_by_their_alarms(
    template: dict[str, Any],
) -> None:
    assert template["Parameters"]["DeployType"]["Default"].startswith("Canary")
    for name, prefix in (("RestFunction", "Rest"), ("WsFunction", "Ws")):
        fn = props(template, name)
        assert fn["AutoPublishAlias"] == "live"
        preference = fn["DeploymentPreference"]
        assert preference["Type"] == {"Ref": "DeployType"}
        condition, alarms, off = preference["Alarms"]["Fn::If"]
        assert condition == "AlarmsOn" and off == {"Ref": "AWS::NoValue"}
        names = [a["Ref"] for a in alarms]
        assert names == [f"{prefix}ErrorRateAlarm", f"{prefix}ErrorsAlarm", f"{prefix}LatencyAlarm"]
        assert all(template["Resources"][n]["Type"] == "AWS::CloudWatch::Alarm" for n in names)
    for name, hook in (
        ("RestFunction", "PreTrafficFunction"),
        ("WsFunction", "WsPreTrafficFunction"),
    ):
        hooks = props(template, name)["DeploymentPreference"]["Hooks"]
        assert hooks == {"PreTraffic": {"Ref": hook}}, name


def test_the_pre_traffic_hook_may_invoke_only_the_new_rest_version_and_report(
    template: dict[str, Any],
) -> None:
    hook = props(template, "PreTrafficFunction")
    assert hook["Environment"]["Variables"]["NEW_VERSION"] == {"Ref": "RestFunction.Version"}
    assert hook["DeploymentPreference"] == {"Enabled": False}
    statements = props(template, "PreTrafficPolicy")["PolicyDocument"]["Statement"]
    assert {s["Action"] for s in statements} == {
        "lambda:InvokeFunction", "codedeploy:PutLifecycleEventHookExecutionStatus",
    }  # fmt: skip
    invoke = next(s for s in statements if s["Action"] == "lambda:InvokeFunction")
    assert invoke["Resource"] == {"Fn::Sub": "${RestFunction.Arn}:*"}


def test_the_websocket_hook_may_invoke_only_the_new_ws_version_and_rests_alias_and_report(
    template: dict[str, Any],
) -> None:
    """Least privilege: the new WebSocket version (any version of that function: the one it
    is handed is published in the same deploy), the REST alias players use to make its table,
    and its own deployment group's report; no table, no other function."""
    hook = props(template, "WsPreTrafficFunction")
    assert hook["CodeUri"] == "functions/wspretraffic/" and hook["Timeout"] == 60
    assert hook["Environment"]["Variables"] == {
        "NEW_VERSION": {"Ref": "WsFunction.Version"},
        "REST_FUNCTION": {"Fn::Sub": "${RestFunction.Arn}:live"},
    }
    assert hook["DeploymentPreference"] == {"Enabled": False}
    assert hook["Policies"] == [{"Ref": "WsPreTrafficPolicy"}]
    logs = template["Resources"][hook["LoggingConfig"]["LogGroup"]["Ref"]]["Properties"]
    assert logs["LogGroupName"] == {"Fn::Sub": "/aws/lambda/${AWS::StackName}-wspretraffic"}
    statements = props(template, "WsPreTrafficPolicy")["PolicyDocument"]["Statement"]
    granted = sorted((s["Action"], json.dumps(s["Resource"], sort_keys=True)) for s in statements)
    assert granted == sorted([
        ("lambda:InvokeFunction", json.dumps({"Fn::Sub": "${WsFunction.Arn}:*"})),
        ("lambda:InvokeFunction", json.dumps({"Fn::Sub": "${RestFunction.Arn}:live"})),
        ("codedeploy:PutLifecycleEventHookExecutionStatus", json.dumps(
            {"Fn::Sub": "arn:${AWS::Partition}:codedeploy:${AWS::Region}:${AWS::AccountId}"
             ":deploymentgroup:${ServerlessDeploymentApplication}/*"}, sort_keys=True)),
    ])  # fmt: skip
    assert all(s["Effect"] == "Allow" for s in statements)


def test_codedeploy_may_invoke_exactly_the_two_hooks_whatever_the_stack_is_named(
    template: dict[str, Any],
) -> None:
    """Both deployment groups use DeployRole (so SAM makes no role of its own, whose
    AWSCodeDeployRoleForLambda invokes only functions named CodeDeployHook_*): it may invoke
    the two hooks and nothing else, shift only the two functions' aliases, read the stack's
    alarms (its rollback triggers).
    No function carries a name of ours: CloudFormation names each within Lambda's 64
    characters, so the hooks fit a stack of any valid name (up to 128 characters)."""
    for name in ("RestFunction", "WsFunction"):
        preference = props(template, name)["DeploymentPreference"]
        assert preference["Role"] == {"Fn::GetAtt": ["DeployRole", "Arn"]}, name
    role = template["Resources"]["DeployRole"]
    assert role["Type"] == "AWS::IAM::Role"
    [trust] = role["Properties"]["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "codedeploy.amazonaws.com"}
    assert "ManagedPolicyArns" not in role["Properties"]  # no CodeDeployHook_* wildcard
    [policy] = role["Properties"]["Policies"]
    granted = {
        action: s["Resource"]
        for s in policy["PolicyDocument"]["Statement"]
        for action in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])
    }
    assert granted.pop("lambda:InvokeFunction") == [
        {"Fn::GetAtt": ["PreTrafficFunction", "Arn"]},
        {"Fn::GetAtt": ["WsPreTrafficFunction", "Arn"]},
    ]
    aliases = [
        {"Fn::GetAtt": ["RestFunction", "Arn"]}, {"Fn::Sub": "${RestFunction.Arn}:*"},
        {"Fn::GetAtt": ["WsFunction", "Arn"]}, {"Fn::Sub": "${WsFunction.Arn}:*"},
    ]  # fmt: skip
    for action in (
        "lambda:GetAlias",
        "lambda:UpdateAlias",
        "lambda:GetProvisionedConcurrencyConfig",
    ):
        assert granted.pop(action) == aliases, action
    alarms = "arn:${AWS::Partition}:cloudwatch:${AWS::Region}:${AWS::AccountId}:alarm:"
    assert granted == {"cloudwatch:DescribeAlarms": {"Fn::Sub": alarms + "${AWS::StackName}-*"}}
    for name in ("RestFunction", "WsFunction"):  # its rollback alarms are the stack's
        for alarm in props(template, name)["DeploymentPreference"]["Alarms"]["Fn::If"][1]:
            named = props(template, alarm["Ref"])["AlarmName"]["Fn::Sub"]
            assert named.startswith("${AWS::StackName}-"), alarm
    functions = [
        r["Properties"] for r in template["Resources"].values()
        if r["Type"] in ("AWS::Serverless::Function", "AWS::Lambda::Function")
    ]  # fmt: skip
    assert functions and not [f for f in functions if "FunctionName" in f]


def test_a_scheduled_function_rotates_the_keys_no_faster_than_a_token_lives(
    template: dict[str, Any],
) -> None:
    fn = props(template, "KeyRotationFunction")
    assert fn["CodeUri"] == "functions/keys/"
    schedule = fn["Events"]["Rotate"]
    assert schedule["Type"] == "Schedule"
    assert schedule["Properties"]["Schedule"] == {"Ref": "TokenKeyRotationRate"}
    rate = template["Parameters"]["TokenKeyRotationRate"]["Default"]
    assert rate == f"rate({ROTATION_DAYS} days)" and ROTATION_DAYS >= TOKEN_DAYS
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    assert env["TOKEN_KEYS_PARAM"] == {"Ref": "TokenKeysParameterName"}
    actions = [
        s["Action"] for s in props(template, "KeyRotationPolicy")["PolicyDocument"]["Statement"]
    ]
    assert sorted(actions) == ["ssm:GetParameter", "ssm:PutParameter"]
    assert "TokenKeysParameterName" in json.dumps(props(template, "KeyRotationPolicy"))


@pytest.mark.parametrize("name", DURABLE)
def test_durable_tables_are_protected_from_deletion_and_capped(
    template: dict[str, Any], name: str
) -> None:
    table = props(template, name)
    assert table["DeletionProtectionEnabled"] is True
    assert template["Resources"][name]["DeletionPolicy"] == "Retain"
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert table["OnDemandThroughput"] == {
        "MaxReadRequestUnits": {"Ref": "TableMaxReadUnits"},
        "MaxWriteRequestUnits": {"Ref": "TableMaxWriteUnits"},
    }


def test_every_durable_table_is_backed_up_and_copied_to_another_account_when_asked(
    template: dict[str, Any],
) -> None:
    selection = props(template, "BackupSelection")["BackupSelection"]
    assert sorted(r["Fn::GetAtt"][0] for r in selection["Resources"]) == sorted(DURABLE)
    assert selection["IamRoleArn"] == {"Fn::GetAtt": ["BackupRole", "Arn"]}
    [rule] = props(template, "BackupPlan")["BackupPlan"]["BackupPlanRule"]
    assert rule["ScheduleExpression"] == {"Ref": "BackupSchedule"}
    assert rule["Lifecycle"] == {"DeleteAfterDays": {"Ref": "BackupRetentionDays"}}
    condition, [copy], off = rule["CopyActions"]["Fn::If"]
    assert condition == "BackupCopyOn" and off == {"Ref": "AWS::NoValue"}
    assert copy["DestinationBackupVaultArn"] == {"Ref": "BackupCopyVaultArn"}
    assert template["Parameters"]["BackupCopyVaultArn"]["Default"] == ""
    assert template["Resources"]["BackupVault"]["DeletionPolicy"] == "Retain"


def test_player_facing_functions_get_reserved_concurrency_when_the_operator_sets_it(
    template: dict[str, Any],
) -> None:
    for name in ("RestFunction", "WsFunction"):
        assert props(template, name)["ReservedConcurrentExecutions"] == {
            "Fn::If": ["ReservedOn", {"Ref": "PlayerConcurrency"}, {"Ref": "AWS::NoValue"}]
        }


def test_a_budget_alarm_mails_at_80_percent_forecast_and_100_percent_spent(
    template: dict[str, Any],
) -> None:
    budget = template["Resources"]["CostBudget"]
    assert budget["Condition"] == "BudgetOn"
    limit = budget["Properties"]["Budget"]["BudgetLimit"]
    assert limit == {"Amount": {"Ref": "MonthlyBudget"}, "Unit": "USD"}
    notes = budget["Properties"]["NotificationsWithSubscribers"]
    kinds = [(n["Notification"]["NotificationType"], n["Notification"]["Threshold"]) for n in notes]
    assert kinds == [("FORECASTED", 80), ("ACTUAL", 100)]
    assert template["Parameters"]["MonthlyBudget"]["Default"] == 0  # off until set


def test_deploy_md_has_the_operators_runbooks() -> None:
    text = (ROOT / "docs" / "DEPLOY.md").read_text(encoding="utf-8")
    for heading in ("## Deploys", "## Signing keys", "## Recovery", "## State that migrates",
                    "## Guardrails"):  # fmt: skip
        assert heading in text, heading
    assert "scripts/restore.py" in text


def test_the_synthetic_game_plays_the_stacks_own_public_rest_api_and_websocket(
    template: dict[str, Any],
) -> None:
    function = props(template, "SyntheticFunction")
    variables = function["Environment"]["Variables"]
    assert variables["REST_URL"]["Fn::Sub"].startswith("https://${RestApi}.execute-api.")
    assert variables["WS_URL"]["Fn::Sub"].startswith("wss://${WebSocketApi}.execute-api.")
    assert all(v["Fn::Sub"].endswith("/${Stage}") for v in variables.values())
    schedule = function["Events"]["Play"]
    assert schedule["Type"] == "Schedule"
    assert schedule["Properties"]["Schedule"] == {"Ref": "SyntheticGameRate"}
    assert "SyntheticGameAlarm" in template["Resources"]  # what its SyntheticGameOk feeds
    layer = (Path(__file__).resolve().parents[1] / "shared" / "requirements.txt").read_text()
    assert "\nwebsockets==" in layer  # its socket client is in the layer


def test_the_apns_platform_is_a_parameter_sandbox_by_default_production_by_choice(
    template: dict[str, Any],
) -> None:
    """An iOS development build talks to APNs' sandbox, an App Store build to production: the
    platform of the operator's SNS application is a parameter (docs/DEPLOY.md "Mobile push")
    and every function that registers or notifies iOS devices is given it."""
    from harftet.localstack.environment import MOBILE_APPLICATIONS

    parameter = template["Parameters"]["ApnsPlatform"]
    assert parameter["Default"] == "APNS_SANDBOX"
    assert sorted(parameter["AllowedValues"]) == ["APNS", "APNS_SANDBOX"]
    with_apns = {
        name: r["Properties"]["Environment"]["Variables"]
        for name, r in template["Resources"].items()
        if "APNS_APPLICATION_ARN"
        in ((r.get("Properties") or {}).get("Environment") or {}).get("Variables", {})
    }
    assert sorted(with_apns) == ["NotifierFunction", "RestFunction"]
    for variables in with_apns.values():
        assert variables["APNS_PLATFORM"] == {"Ref": "ApnsPlatform"}
    # the local stack is a development deploy: its APNs application is the default's platform
    assert MOBILE_APPLICATIONS["apns"][0] == parameter["Default"]
    deploy = (ROOT / "docs" / "DEPLOY.md").read_text(encoding="utf-8")
    assert "ApnsPlatform=APNS" in deploy


def test_every_table_has_the_on_demand_throughput_ceiling(template: dict[str, Any]) -> None:
    """Issue 40 "Guardrails": a runaway client or bug is capped on every table, the
    disposable ones (connections, matchmaking tickets) too, at the operator's parameters."""
    tables = {
        name: r["Properties"]
        for name, r in template["Resources"].items()
        if r["Type"] == "AWS::DynamoDB::Table"
    }
    assert {"ConnectionsTable", "MatchTable", *DURABLE} <= set(tables)
    uncapped = [
        name
        for name, table in tables.items()
        if table.get("OnDemandThroughput")
        != {
            "MaxReadRequestUnits": {"Ref": "TableMaxReadUnits"},
            "MaxWriteRequestUnits": {"Ref": "TableMaxWriteUnits"},
        }
    ]
    assert uncapped == []
    for name in ("TableMaxReadUnits", "TableMaxWriteUnits"):
        assert template["Parameters"][name]["Default"] > 0


def test_the_synthetic_game_alarm_watches_what_the_game_publishes_and_its_silence(
    template: dict[str, Any],
) -> None:
    """The alarm reads the very metric functions/synthetic publishes (Powertools: the
    namespace and service of the functions' environment), fires when the game fails and
    when it is not played at all, and tells the operators' topic."""
    alarm = template["Resources"]["SyntheticGameAlarm"]
    assert alarm["Condition"] == "AlarmsOn"
    p = alarm["Properties"]
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    assert p["Namespace"] == env["POWERTOOLS_METRICS_NAMESPACE"]
    assert p["Dimensions"] == [{"Name": "service", "Value": env["POWERTOOLS_SERVICE_NAME"]}]
    source = (ROOT / "functions" / "synthetic" / "app.py").read_text(encoding="utf-8")
    assert f'name="{p["MetricName"]}"' in source and 'value=int(result["ok"])' in source
    assert (p["Statistic"], p["ComparisonOperator"], p["Threshold"]) == (
        "Minimum", "LessThanThreshold", 1,
    )  # fmt: skip
    assert p["TreatMissingData"] == "breaching"  # a game that stopped being played
    assert p["AlarmActions"] == [{"Ref": "AlarmTopic"}]
    rate = template["Parameters"]["SyntheticGameRate"]["Default"]
    assert rate == "rate(5 minutes)" and p["Period"] == 300  # one game a period


def test_the_format_written_is_a_parameter_of_this_release_or_the_one_before(
    template: dict[str, Any],
) -> None:
    """Issue 40 "State that migrates": a canary's two versions side by side read each other's
    tables because the deploy that brings format N writes N-1 first (docs/DEPLOY.md)."""
    from harftet.engine.codec import FORMAT

    parameter = template["Parameters"]["TableWriteFormat"]
    assert parameter["Default"] == str(FORMAT)
    assert parameter["AllowedValues"] == [str(FORMAT - 1), str(FORMAT)]
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    assert env["TABLE_WRITE_FORMAT"] == {"Ref": "TableWriteFormat"}


def test_the_kept_answers_format_written_is_a_parameter_of_this_release_or_the_one_before(
    template: dict[str, Any],
) -> None:
    """Issue 40: kept move answers in format 2 (one write unit) go out in two deploys, as the
    tables' format does: the release before reads format 1 only (docs/DEPLOY.md)."""
    from harftet.bootstrap import Settings
    from harftet.store.answers import FORMAT, FORMATS

    parameter = template["Parameters"]["AnswerWriteFormat"]
    assert parameter["Default"] == str(FORMAT) == "2"
    assert parameter["AllowedValues"] == [str(f) for f in FORMATS] == ["1", "2"]
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    assert env["ANSWER_WRITE_FORMAT"] == {"Ref": "AnswerWriteFormat"}
    assert Settings.from_env({"ANSWER_WRITE_FORMAT": "1"}).answer_write_format == 1
    assert Settings.from_env({}).answer_write_format == FORMAT
    from harftet.bootstrap.aws import DynamoStores

    told = Settings.from_env({"ANSWER_WRITE_FORMAT": "1", "MAIL_TABLE": "mail"})
    assert DynamoStores(None, told).answers.write_format == 1  # what the functions write
