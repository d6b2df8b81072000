"""The timer function's work (harftet.timers.TimerFiring): a batch fires side by side, an early
timer is sent again rather than slept on, a failing one is handed back alone."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

from harftet.timers import Timer, TimerFiring


class Deadlines:
    """advance() waits until ``parties`` calls are inside it at once."""

    def __init__(self, now: float, parties: int = 1, broken: set[str] | None = None) -> None:
        self.now = now
        self.barrier = threading.Barrier(parties, timeout=5)
        self.broken = broken or set()
        self.advanced: list[str] = []

    def clock(self) -> float:
        return self.now

    def advance(self, table_id: str, version: int | None = None) -> Any:
        if table_id in self.broken:
            raise RuntimeError("ThrottlingException")
        self.barrier.wait()
        self.advanced.append(table_id)
        return SimpleNamespace(status="committed", stored=None)


class Queue:
    def __init__(self) -> None:
        self.sent: list[tuple[Timer, float]] = []

    def schedule(self, timer: Timer, now: float) -> None:
        self.sent.append((timer, now))


def test_a_batch_fires_side_by_side():
    timers = [Timer(f"t{n}", 3, 100.0) for n in range(10)]
    deadlines = Deadlines(now=100.5, parties=10)  # one after another, the first would wait alone
    outcomes = TimerFiring(deadlines.advance, Queue(), deadlines.clock).fire_batch(timers)
    assert outcomes == ["committed"] * 10
    assert sorted(deadlines.advanced) == sorted(t.table_id for t in timers)


def test_an_early_timer_is_sent_again_and_nothing_sleeps(monkeypatch):
    def no_sleep(seconds: float) -> None:
        raise AssertionError(f"slept {seconds} s inside a batch")

    monkeypatch.setattr(time, "sleep", no_sleep)
    queue = Queue()
    deadlines = Deadlines(now=99.5)  # half a second early (SQS delays are whole seconds)
    timer = Timer("t", 3, 100.0)
    assert TimerFiring(deadlines.advance, queue, deadlines.clock).fire_batch([timer, timer]) == [
        "requeued",
        "requeued",
    ]
    assert queue.sent == [(timer, 99.5), (timer, 99.5)] and deadlines.advanced == []


def test_a_failing_timer_is_handed_back_and_the_others_stand():
    timers = [Timer("ok1", 1, 10.0), Timer("bad", 1, 10.0), Timer("ok2", 1, 10.0)]
    deadlines = Deadlines(now=11.0, parties=2, broken={"bad"})
    outcomes = TimerFiring(deadlines.advance, Queue(), deadlines.clock).fire_batch(timers)
    assert outcomes == ["committed", "failed", "committed"]
