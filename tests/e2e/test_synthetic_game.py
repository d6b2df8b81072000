"""The cell's synthetic game on the local stack (docs/DEPLOY.md alarm `<stack>-synthetic-game`):
the stack runs functions/synthetic on the template's schedule (here shortened), as
SyntheticFunction runs in AWS: a guest plays a computer player through the stack's public REST
API and WebSocket (moves sent on the socket, pushes received), and `GET /health` reports the
last result."""

from __future__ import annotations

import time
from typing import Any

import httpx

from harftet.localstack.template import read_template


def test_the_template_schedules_the_synthetic_game_the_local_stack_plays() -> None:
    assert read_template().synthetic_rate == "rate(5 minutes)"


def last_game(base_url: str, after: float = 0.0, limit: float = 90) -> dict[str, Any]:
    """The synthetic game `/health` reports, the first played after ``after``."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        synthetic = httpx.get(f"{base_url}/health", timeout=10).json().get("synthetic")
        if synthetic is not None and synthetic["at"] > after:
            return dict(synthetic)
        time.sleep(0.5)
    raise AssertionError(f"no synthetic game within {limit} s")


def test_health_reports_the_last_synthetic_game_played_over_rest_and_the_socket(
    stack_factory: Any,
) -> None:
    stack = stack_factory("synthetic", env={"SYNTHETIC_SECONDS": "1"})
    synthetic = last_game(stack.base_url)
    assert synthetic["ok"] is True, synthetic
    # three moves of the guest sent on the socket, each seen back as a push, and the computer
    # player's answers received as pushes
    assert synthetic["moves"] == 3 and synthetic["computerMoves"] >= 3
    assert 0 < synthetic["pushSeconds"] < 10 and 0 < synthetic["seconds"] < 30
    assert abs(synthetic["at"] - time.time()) < 120
