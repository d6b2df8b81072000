"""Rate limits are an operator setting: off in the local stack unless asked for (API.md)."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.e2e


def test_the_local_stack_does_not_throttle_by_default(local_stack: str) -> None:
    with httpx.Client(base_url=local_stack, timeout=10) as client:
        statuses = {client.get("/health").status_code for _ in range(60)}
        statuses |= {client.get("/tables").status_code for _ in range(40)}
    assert 429 not in statuses


def test_asked_to_throttle_it_answers_429_rate_limited_like_api_gateway(stack_factory) -> None:
    stack = stack_factory("throttled", throttle="1,5", sweeper=None)
    with httpx.Client(base_url=stack.base_url, timeout=10) as client:
        answers = [client.post("/players", json={"name": f"P{i}"}) for i in range(12)]
    statuses = [a.status_code for a in answers]
    assert statuses[:5] == [201] * 5  # the burst
    limited = [a for a in answers if a.status_code == 429]
    assert len(limited) >= 5
    assert limited[0].json() == {"error": {"code": "rate_limited", "message": "Too many requests"}}
