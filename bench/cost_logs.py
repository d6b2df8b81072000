"""What the functions' CloudWatch Logs cost, measured instead of guessed (issue 40).

Two parts make a Lambda function's log volume:

- **its own lines** (powertools' JSON log lines, the EMF metrics line, warnings, tracebacks):
  counted on the local stack, which runs the same handler code, per invocation and function
  (bench/cost_calls.py counts every line a worker writes to stdout and stderr). A line is
  kept as Lambda keeps it under application log-level filtering ("Log-level filtering",
  https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs-log-level.html):
  a JSON line at its ``level``, any other line, and a JSON line without a valid ``level``
  (an EMF metrics line), at INFO; dropped below the function's ApplicationLogLevel.
- **Lambda's own platform lines**, never printed by our code, so sized from the documented
  lines: in the text format START, END and REPORT (the Python runtime's "Log and monitor
  Python Lambda functions" example), in the JSON format ``platform.start`` and
  ``platform.report`` (the Telemetry API's event schema; the log group keeps the same JSON
  objects) at SystemLogLevel INFO or DEBUG, none at WARN: "By default, Lambda sets the system
  log level to INFO. With this setting, Lambda automatically sends "start" and "report" log
  messages to CloudWatch" (the log-level page above). Filtering needs the JSON format; the text
  format sends all three lines always. A cold start's REPORT also has the init duration.

Each line is priced as its UTF-8 bytes (CloudWatch Logs bills the uncompressed data ingested:
bench/prices.json); its events are counted beside them. The template's logging configuration
(its Globals' LoggingConfig and their parameters' defaults) says which rules apply.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Lambda's levels (ApplicationLogLevel) and Python's names for them (powertools writes these)
LEVELS = {
    "TRACE": 5,
    "DEBUG": 10,
    "INFO": 20,
    "WARN": 30,
    "WARNING": 30,
    "ERROR": 40,
    "FATAL": 50,
    "CRITICAL": 50,
}
REQUEST_ID = "8f507cfc-xmpl-4697-b07a-ac58fc914c95"  # a request id as Lambda writes them
VERSION = "$LATEST"
TIME = "2026-12-06T18:00:00.000Z"


def _level(line: str) -> int:
    """The level Lambda files a line under: a JSON object's ``level``, INFO otherwise."""
    if line.startswith("{"):
        try:
            found = json.loads(line).get("level")
        except (ValueError, AttributeError):
            return LEVELS["INFO"]
        if isinstance(found, str):
            return LEVELS.get(found.upper(), LEVELS["INFO"])
    return LEVELS["INFO"]


def kept_bytes(line: str, application_level: str | None) -> int:
    """The UTF-8 bytes of one line a function printed, as its log group keeps it: 0 for an
    empty line or one the application log level (None: no filtering) drops."""
    if not line.strip():
        return 0
    if application_level and _level(line) < LEVELS.get(application_level.upper(), 0):
        return 0
    return len(line.encode())


@dataclass(frozen=True)
class LogConfig:
    """A function's logging configuration, as template.yaml deploys it."""

    log_format: str = "Text"  # Text or JSON
    system_level: str = "INFO"  # DEBUG, INFO or WARN (JSON only)
    application_level: str | None = None  # TRACE..FATAL (JSON only); None: no filtering

    def environment(self) -> dict[str, str]:
        """What Lambda sets in the function's environment for it (powertools' Logger follows
        AWS_LAMBDA_LOG_LEVEL before anything else)."""
        if self.log_format != "JSON":
            return {}
        env = {"AWS_LAMBDA_LOG_FORMAT": "JSON"}
        if self.application_level:
            env["AWS_LAMBDA_LOG_LEVEL"] = self.application_level
        return env

    def platform_lines(self, cold: bool = False) -> list[str]:
        """Lambda's own lines for one invocation under this configuration (documented shapes,
        a 36-character request id, a 512 MB function's typical figures)."""
        if self.log_format != "JSON":
            init = "Init Duration: 130.49 ms\t" if cold else ""
            return [
                f"START RequestId: {REQUEST_ID} Version: {VERSION}",
                f"END RequestId: {REQUEST_ID}",
                f"REPORT RequestId: {REQUEST_ID}\tDuration: 15.74 ms\tBilled Duration: 16 ms\t"
                f"Memory Size: 512 MB\tMax Memory Used: 96 MB\t{init}",
            ]
        if LEVELS[self.system_level] > LEVELS["INFO"]:
            return []  # WARN: no start or report
        metrics: dict[str, Any] = {
            "durationMs": 15.738,
            "billedDurationMs": 16,
            "memorySizeMB": 512,
            "maxMemoryUsedMB": 96,
        }
        if cold:
            metrics["initDurationMs"] = 235.086
        start = {"requestId": REQUEST_ID, "version": VERSION}
        report = {"requestId": REQUEST_ID, "metrics": metrics, "status": "success"}
        return [
            _compact({"time": TIME, "type": "platform.start", "record": start}),
            _compact({"time": TIME, "type": "platform.report", "record": report}),
        ]

    def platform_bytes(self, cold: bool = False) -> int:
        return sum(len(line.encode()) for line in self.platform_lines(cold))

    def describe(self) -> str:
        if self.log_format != "JSON":
            return "text format (START, END and REPORT lines; no level filtering)"
        return (
            f"JSON format, SystemLogLevel {self.system_level}, ApplicationLogLevel "
            f"{self.application_level or 'unset'}"
        )


def _compact(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def template_config(template_path: Path, function: str | None = None) -> LogConfig:
    """The logging configuration template.yaml gives ``function`` (a logical id; None: the
    Globals' alone), with its parameters at their defaults."""
    from harftet.store.schema import load_template

    template = load_template(template_path)
    config = dict(template.get("Globals", {}).get("Function", {}).get("LoggingConfig") or {})
    if function is not None:
        own = template["Resources"][function]["Properties"].get("LoggingConfig") or {}
        config.update(own)
    values = {k: _resolve(template, v) for k, v in config.items() if k != "LogGroup"}
    log_format = str(values.get("LogFormat") or "Text")
    if log_format != "JSON":
        return LogConfig()
    return LogConfig(
        "JSON",
        str(values.get("SystemLogLevel") or "INFO"),
        str(values.get("ApplicationLogLevel") or "INFO"),
    )


def _resolve(template: dict[str, Any], value: Any) -> Any:
    """A Ref to a parameter as its default; Fn::If as its value when the condition holds at
    the defaults (only conditions comparing a parameter with a string are understood)."""
    if isinstance(value, dict) and "Ref" in value:
        return template["Parameters"][value["Ref"]].get("Default")
    if isinstance(value, dict) and "Fn::If" in value:
        condition, then, otherwise = value["Fn::If"]
        holds = _holds(template, template["Conditions"][condition])
        return _resolve(template, then if holds else otherwise)
    return value


def _holds(template: dict[str, Any], condition: Any) -> bool:
    if isinstance(condition, dict) and "Condition" in condition:
        return _holds(template, template["Conditions"][condition["Condition"]])
    (kind, args), *_ = condition.items()
    if kind == "Fn::Equals":
        left, right = (_resolve(template, a) for a in args)
        return str(left) == str(right)
    if kind == "Fn::Not":
        return not _holds(template, args[0])
    if kind == "Fn::Or":
        return any(_holds(template, a) for a in args)
    if kind == "Fn::And":
        return all(_holds(template, a) for a in args)
    raise ValueError(f"condition not understood: {condition}")
