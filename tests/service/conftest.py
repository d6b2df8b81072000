"""The use cases run on the in-memory stores (tests/fakes, each held against its DynamoDB
adapter over moto by tests/store/test_fakes*.py): no moto, no server. What only DynamoDB can
show (item sizes, a real transaction's race, botocore's retries) is tested in tests/store."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from fakes import FakeStream, fake_app
from testkit import Clock, FakeTimers, Outbox, PushedLog, publisher_over

from harftet.fanout import changes_from_stream
from harftet.timers import TimerFiring


@pytest.fixture
def app(clock: Clock, outbox: Outbox) -> Any:
    """The application over the fakes, with the test clock and recording sender (a stack
    without the log and the mail table, as the moto-based ``app`` is)."""
    return fake_app(clock, outbox, log=False, mail=False)


@pytest.fixture
def stream(app: Any) -> FakeStream:
    """The tables table's stream of ``app``, as Lambda hands it to the fan-out."""
    return FakeStream(app.stores.tables)


@pytest.fixture
def dynamodb() -> None:
    pytest.fail("tests/service runs on the fakes: a test of DynamoDB itself goes in tests/store")


@pytest.fixture
def live(app, stream):
    timers = FakeTimers()
    publisher = publisher_over(app, log=PushedLog(), timers=timers)

    def pump():
        return stream.deliver(lambda event: publisher.publish(changes_from_stream(event)))

    firing = TimerFiring(app.deadlines.advance, timers, app.clock)  # the timer function's
    return SimpleNamespace(
        publisher=publisher, firing=firing, pump=pump, timers=timers, stream=stream,
        log=publisher.log,
    )  # fmt: skip
