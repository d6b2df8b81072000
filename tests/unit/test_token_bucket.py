"""The local stack's stand-in for API Gateway's stage throttling."""

from __future__ import annotations

import pytest

from harftet.localstack.throttle import TokenBucket, parse_throttle


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_passes_then_requests_pass_at_the_steady_rate():
    clock = Clock()
    bucket = TokenBucket(rate=2, burst=3, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now = 0.5  # one more token at 2 per second
    assert [bucket.take(), bucket.take()] == [True, False]
    clock.now = 100  # tokens never pile up beyond the burst
    assert sum(bucket.take() for _ in range(10)) == 3


def test_the_throttle_option_reads_rate_and_burst():
    assert parse_throttle("5,10") == (5.0, 10)
    assert parse_throttle("50") == (50.0, 100)
    with pytest.raises(ValueError):
        parse_throttle("0")
