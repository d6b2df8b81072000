"""What the functions send to CloudWatch Logs (issue 40, cost-logs; docs/DEPLOY.md "Logs"):
JSON lines filtered by level, Lambda's START and REPORT lines off unless the operator turns
them on, each function still in its own log group, and the synthetic game's metric line kept
whatever the application log level."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from harftet.store.schema import load_template

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.cost_logs import LogConfig, template_config  # noqa: E402

TEMPLATE = ROOT / "template.yaml"
SAM_PYTHON = ROOT / ".venv-sam" / "bin" / "python"


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template(TEMPLATE)


def functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: resource["Properties"]
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }


def test_every_function_logs_json_at_the_operators_levels(template: dict[str, Any]) -> None:
    logging = template["Globals"]["Function"]["LoggingConfig"]
    assert logging == {
        "LogFormat": "JSON",
        "SystemLogLevel": {"Ref": "SystemLogLevel"},
        "ApplicationLogLevel": {"Ref": "ApplicationLogLevel"},
    }
    for name, props in functions(template).items():
        own = props.get("LoggingConfig") or {}
        assert not {"LogFormat", "SystemLogLevel"} & set(own), name  # the Globals' hold
        # its own log group, kept (retention, the metric filters and the runbooks name it)
        group = template["Resources"][own["LogGroup"]["Ref"]]
        assert group["Type"] == "AWS::Logs::LogGroup", name
        assert group["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}, name


def test_start_and_report_lines_are_off_by_default_and_one_parameter_brings_them_back(
    template: dict[str, Any],
) -> None:
    system = template["Parameters"]["SystemLogLevel"]
    assert system["Default"] == "WARN"
    assert system["AllowedValues"] == ["DEBUG", "INFO", "WARN"]  # Lambda's system levels
    application = template["Parameters"]["ApplicationLogLevel"]
    assert application["Default"] == "INFO"
    assert application["AllowedValues"] == ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"]
    deployed = template_config(TEMPLATE)
    assert deployed == LogConfig("JSON", "WARN", "INFO")
    assert deployed.platform_lines() == []  # no START, no REPORT
    debugging = LogConfig("JSON", "INFO", "INFO")
    types = [json.loads(line)["type"] for line in debugging.platform_lines()]
    assert types == ["platform.start", "platform.report"]


def test_the_logger_follows_lambdas_level_alone(template: dict[str, Any]) -> None:
    """powertools' Logger takes AWS_LAMBDA_LOG_LEVEL (ApplicationLogLevel) before anything
    else and warns when its own level is set lower: the template sets none of its own."""
    for name, props in [("Globals", template["Globals"]["Function"]), *functions(template).items()]:
        variables = (props.get("Environment") or {}).get("Variables") or {}
        assert not {"POWERTOOLS_LOG_LEVEL", "LOG_LEVEL", "AWS_LAMBDA_LOG_LEVEL"} & set(variables), (
            name
        )


@pytest.mark.parametrize("level", ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"])
def test_the_synthetic_games_metric_line_is_kept_at_every_application_level(
    template: dict[str, Any], level: str, tmp_path: Path
) -> None:
    """Its EMF line has no level (Lambda files it as INFO): above INFO the synthetic function
    stays at INFO, or its alarm (SyntheticGameOk, TreatMissingData breaching) would fire."""
    template["Parameters"]["ApplicationLogLevel"]["Default"] = level
    path = tmp_path / "template.yaml"
    path.write_text(yaml.safe_dump(template), encoding="utf-8")
    synthetic = template_config(path, "SyntheticFunction")
    others = template_config(path, "FanoutFunction")
    expected = level if level in ("TRACE", "DEBUG", "INFO") else "INFO"
    assert synthetic.application_level == expected
    assert others.application_level == level


def test_sams_transform_gives_every_lambda_function_both_its_group_and_the_levels() -> None:
    """SAM merges the Globals' LoggingConfig into each function's (its own LogGroup): what
    CloudFormation receives, from .venv-sam's translator."""
    if not SAM_PYTHON.exists():
        pytest.fail(f"{SAM_PYTHON} missing: run `make test` (it installs the AWS SAM CLI)")
    script = textwrap.dedent(
        """
        import json, sys
        from samtranslator.translator.transform import transform
        from samtranslator.yaml_helper import yaml_parse

        class NoPolicies:
            def load(self):
                return {}

        template = yaml_parse(open(sys.argv[1]).read())
        for resource in template["Resources"].values():
            props = resource.get("Properties", {})
            for key in ("CodeUri", "ContentUri"):
                if key in props:
                    props[key] = "s3://bucket/key"  # as `sam package` leaves it
            props.get("DeploymentPreference", {}).pop("Alarms", None)  # an Fn::If list
        out = transform(template, {}, NoPolicies())
        print(json.dumps({
            name: r["Properties"].get("LoggingConfig")
            for name, r in out["Resources"].items() if r["Type"] == "AWS::Lambda::Function"
        }))
        """
    )
    env = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1", "SAM_CLI_TELEMETRY": "0"}
    result = subprocess.run(
        [str(SAM_PYTHON), "-c", script, str(TEMPLATE)],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    configs = json.loads(result.stdout.splitlines()[-1])
    assert len(configs) == len(functions(load_template(TEMPLATE)))
    for name, config in configs.items():
        assert config["LogFormat"] == "JSON", name
        assert config["SystemLogLevel"] == {"Ref": "SystemLogLevel"}, name
        assert config["LogGroup"] == {"Ref": f"{name}Logs"}, name
        if name != "SyntheticFunction":
            assert config["ApplicationLogLevel"] == {"Ref": "ApplicationLogLevel"}, name
