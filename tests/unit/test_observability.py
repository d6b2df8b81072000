"""Tracing is the operator's switch: off, handlers run unwrapped (no X-Ray SDK at import).
Logs follow Lambda's level and keep what Lambda files them by; metrics only where alarmed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from harftet.bootstrap import Settings
from harftet.observability import traced

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.cost_logs import kept_bytes


def handler(event: dict, context: object) -> dict:
    return {"echo": event}


def test_the_settings_read_the_templates_switch():
    assert not Settings.from_env({"POWERTOOLS_TRACE_DISABLED": "true"}).tracing
    assert Settings.from_env({"POWERTOOLS_TRACE_DISABLED": "false"}).tracing


def test_with_tracing_off_the_handler_is_left_as_it_is():
    assert traced(False)(handler) is handler


def test_with_tracing_on_the_handler_is_captured_and_still_answers(monkeypatch):
    wrapped = traced(True)(handler)
    assert wrapped is not handler
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")  # no daemon to send segments to
    assert wrapped({"a": 1}, object()) == {"echo": {"a": 1}}


# ------------------------------------------------------------------- logs (issue 40, cost-logs)

REPO = Path(__file__).resolve().parents[2]
LOGS = """
import logging
from harftet.observability import new_logger

logger = new_logger()
logger.info("an info line")
logger.warning("a warning line")
logging.getLogger("harftet.tables.service").warning("a shared module's warning")
try:
    raise ValueError("boom")
except ValueError:
    logging.getLogger("harftet.fanout.publisher").exception("a shared module's error")
"""


def _log_lines(env: dict[str, str]) -> list[dict[str, Any]]:
    """What the logger and a shared module's logger print, in a fresh interpreter."""
    clean = {k: v for k, v in os.environ.items() if "LOG_LEVEL" not in k}
    result = subprocess.run(
        [sys.executable, "-c", LOGS],
        env={**clean, "POWERTOOLS_SERVICE_NAME": "harftet", **env},
        capture_output=True, text=True, timeout=120, check=True, cwd=REPO,
    )  # fmt: skip
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def test_at_lambdas_warn_level_warnings_and_errors_still_reach_the_log() -> None:
    """Lambda's ApplicationLogLevel (AWS_LAMBDA_LOG_LEVEL) sets the level, and every line Lambda
    must keep carries what it files a line by: a level and an RFC 3339 timestamp."""
    lines = _log_lines({"AWS_LAMBDA_LOG_LEVEL": "WARN", "LOG_LEVEL": "DEBUG"})
    assert [(line["level"], line["message"]) for line in lines] == [
        ("WARNING", "a warning line"),
        ("WARNING", "a shared module's warning"),
        ("ERROR", "a shared module's error"),
    ]
    assert "ValueError: boom" in lines[-1]["exception"]
    for line in lines:
        # RFC 3339: 2026-12-06T18:00:00.123+00:00
        assert re.fullmatch(
            r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d", line["timestamp"]
        )
        assert kept_bytes(json.dumps(line), "WARN") > 0  # as the bench counts Lambda's filter


def test_without_lambdas_level_the_local_stack_logs_at_info() -> None:
    lines = _log_lines({})
    assert [line["message"] for line in lines][:2] == ["an info line", "a warning line"]


def test_only_a_function_whose_metric_an_alarm_reads_publishes_metrics() -> None:
    """Each EMF metrics line is a log line on every invocation that flushes it: a function
    publishes custom metrics only if an alarm of template.yaml reads one of them."""
    from harftet.store.schema import load_template

    template = load_template(REPO / "template.yaml")
    alarmed = {
        r["Properties"].get("MetricName")
        for r in template["Resources"].values()
        if r["Type"] == "AWS::CloudWatch::Alarm"
    }
    publishing = {}
    for path in [*REPO.glob("functions/*/app.py"), *REPO.glob("shared/harftet/**/*.py")]:
        names = re.findall(r"add_metric\(\s*name=\"(\w+)\"", path.read_text(encoding="utf-8"))
        if names:
            publishing[path.relative_to(REPO).as_posix()] = set(names)
    assert publishing == {
        "functions/synthetic/app.py": {
            "SyntheticGameOk",
            "SyntheticGameSeconds",
            "SyntheticPushSeconds",
        }
    }
    assert all(names & alarmed for names in publishing.values())
