"""bench/cost_logs.py and the line counting of bench/cost_calls.py: a function's log bytes are
counted as Lambda keeps them, and its platform lines priced by the logging configuration."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench import cost_calls  # noqa: E402
from bench.cost_logs import LogConfig, kept_bytes  # noqa: E402
from bench.cost_tally import Logs  # noqa: E402

EMF = '{"_aws":{"Timestamp":1,"CloudWatchMetrics":[]},"service":"harftet","Pushes":[0.0]}'
INFO = '{"level":"INFO","message":"synthetic game","timestamp":"2026-12-06T18:00:00.000+00:00"}'
ERROR = '{"level":"ERROR","message":"a timer failed","timestamp":"2026-12-06T18:00:00.000+00:00"}'


def test_lambda_keeps_a_line_at_its_level_and_one_without_a_level_as_info() -> None:
    assert kept_bytes(INFO, "INFO") == len(INFO)
    assert kept_bytes(INFO, "WARN") == 0
    assert kept_bytes(ERROR, "WARN") == len(ERROR)
    assert kept_bytes(EMF, "INFO") == len(EMF)
    assert kept_bytes(EMF, "WARN") == 0  # an EMF line is INFO: gone above it
    assert kept_bytes("Traceback (most recent call last):", "ERROR") == 0
    assert kept_bytes(INFO, None) == len(INFO)  # the text format: no filtering
    assert kept_bytes("   ", None) == 0


def test_platform_lines_follow_the_format_and_the_system_level() -> None:
    text = LogConfig()
    assert [line.split()[0] for line in text.platform_lines()] == ["START", "END", "REPORT"]
    json_info = LogConfig("JSON", "INFO", "INFO")
    assert [json.loads(line)["type"] for line in json_info.platform_lines()] == [
        "platform.start",
        "platform.report",
    ]
    assert json_info.platform_bytes(cold=True) > json_info.platform_bytes()  # initDurationMs
    assert LogConfig("JSON", "WARN", "INFO").platform_bytes(cold=True) == 0
    assert json_info.environment() == {
        "AWS_LAMBDA_LOG_FORMAT": "JSON",
        "AWS_LAMBDA_LOG_LEVEL": "INFO",
    }
    assert text.environment() == {}


def test_a_worker_counts_what_it_writes_between_invocations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_LAMBDA_LOG_LEVEL", "WARN")
    monkeypatch.setattr(cost_calls, "_logged", dict.fromkeys(cost_calls._logged, 0))
    out = io.StringIO()
    stream = cost_calls._CountedStream(out)
    stream.write(INFO + "\n" + ERROR[:20])  # a line in two writes
    stream.write(ERROR[20:] + "\n")
    stream.write(EMF + "\n")
    assert out.getvalue() == INFO + "\n" + ERROR + "\n" + EMF + "\n"  # passed on unchanged
    first = cost_calls._logged_since_last()
    assert first == {"log_lines": 1, "log_bytes": len(ERROR), "cold": True}
    assert cost_calls._logged_since_last() == {"log_lines": 0, "log_bytes": 0, "cold": False}


def test_a_games_log_bytes_are_the_handlers_and_the_platforms() -> None:
    logs = Logs(LogConfig("JSON", "INFO", "INFO"))
    logs.add({"fn": "harftet-fanout", "log_lines": 1, "log_bytes": 189, "cold": True})
    logs.add({"fn": "harftet-fanout", "log_lines": 0, "log_bytes": 0, "cold": False})
    platform = logs.config.platform_bytes(cold=True) + logs.config.platform_bytes()
    assert logs.total_bytes() == 189 + platform
    app, per_platform, events = logs.per_invocation("fanout")
    assert (app, per_platform, events) == (94.5, platform / 2, 2.5)
    assert logs.by_function().startswith("fanout 94+")
