"""The cell's synthetic game on the local stack (docs/DEPLOY.md alarm `<stack>-synthetic-game`):
the stack plays it on the template's schedule (here shortened) through the REST function, as
SyntheticFunction does in AWS, and `GET /health` reports the last result."""

from __future__ import annotations

import time
from typing import Any

import httpx

from harftet.localstack.template import read_template


def test_the_template_schedules_the_synthetic_game_the_local_stack_plays() -> None:
    assert read_template().synthetic_rate == "rate(5 minutes)"


def test_health_reports_the_last_synthetic_game(stack_factory: Any) -> None:
    stack = stack_factory("synthetic", env={"SYNTHETIC_SECONDS": "1"})
    deadline = time.monotonic() + 60
    synthetic = None
    while time.monotonic() < deadline:
        health = httpx.get(f"{stack.base_url}/health", timeout=10).json()
        synthetic = health.get("synthetic")
        if synthetic is not None:
            break
        time.sleep(0.5)
    assert synthetic is not None, "no synthetic game within a minute"
    assert synthetic["ok"] is True, synthetic
    assert synthetic["moves"] == 3 and 0 < synthetic["seconds"] < 30
    assert abs(synthetic["at"] - time.time()) < 120
