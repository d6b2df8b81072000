"""Tracing is the operator's switch: off, handlers run unwrapped (no X-Ray SDK at import)."""

from __future__ import annotations

from harftet.bootstrap import Settings
from harftet.observability import traced


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
