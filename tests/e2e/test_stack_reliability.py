"""The local stack keeps running: each invocation is bounded by its function's Timeout as in
Lambda (the timed-out environment is replaced, the others go on), a healthy environment is
never reported as dead (however its answer arrives, whoever gives up meanwhile), one that died
while idle is replaced without failing the invocation handed to it, and an event source's
poller survives any error — reading the source, a handler error, an unexpected exception —
retrying the batch until it is handed on, its lag reported meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
import uvloop

from harftet.localstack import sources
from harftet.localstack.runtime import FunctionSpec, HandlerError, LambdaFunction, start_forkserver
from harftet.localstack.sources import Mapping, StreamSource

HANDLER = """
import os, time

def handler(event, context):
    if event.get("hang"):
        time.sleep(600)
    if event.get("sleep"):
        time.sleep(event["sleep"])
    return {
        "pid": os.getpid(),
        "left": context.get_remaining_time_in_millis(),
        "echo": event.get("blob"),
        "big": "y" * event.get("size", 0),
    }
"""

# The local stack runs under uvicorn, whose event loop is uvloop's; plain asyncio is the other.
LOOPS: dict[str, Callable[[], asyncio.AbstractEventLoop]] = {
    "asyncio": asyncio.new_event_loop,
    "uvloop": uvloop.new_event_loop,
}


def _run(loop: str, scenario: Coroutine[Any, Any, Any]) -> Any:
    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        return runner.run(scenario)


def _function(tmp_path: Path, name: str, max_concurrency: int = 2) -> LambdaFunction:
    path = tmp_path / "app.py"
    path.write_text(HANDLER)
    start_forkserver()
    spec = FunctionSpec(name=name, path=str(path), timeout_seconds=60)
    return LambdaFunction(spec, max_concurrency=max_concurrency)


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_large_events_and_results_reach_a_healthy_environment_and_back(
    tmp_path: Path, loop: str
) -> None:
    # Several MB each way: more than a socket buffer holds, so both cross in pieces (as a
    # 20 kB answer does when its writer is descheduled midway on a loaded machine). Such an
    # answer was once read as "the execution environment exited": a 502 from a healthy stack.
    function = _function(tmp_path, "harftet-big")
    blob = "x" * 3_000_000

    async def scenario() -> list[Any]:
        return [await function.invoke({"blob": blob, "size": 4_000_000}) for _ in range(4)]

    try:
        results = _run(loop, scenario())
    finally:
        function.close()
    assert all(r["echo"] == blob and r["big"] == "y" * 4_000_000 for r in results)
    assert len({r["pid"] for r in results}) == 1  # one environment, kept warm throughout


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_callers_giving_up_fail_no_other_invocation_and_leak_no_environment(
    tmp_path: Path, loop: str
) -> None:
    # As a gateway does when its client goes away: callers stop waiting at once or within a
    # few ms (while an environment is taken for them, started, or running their handler).
    function = _function(tmp_path, "harftet-impatient", max_concurrency=3)

    async def impatient(ms: int) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(function.invoke({"sleep": 0.01, "size": 30_000}), ms / 1000)

    async def scenario() -> tuple[list[int], int]:
        answered = []
        for _ in range(20):
            await asyncio.gather(*(impatient(ms) for ms in range(3)))
            answered.append((await function.invoke({}))["pid"])  # a HandlerError fails the test
        return answered, len(multiprocessing.active_children())

    try:
        answered, living = _run(loop, scenario())
    finally:
        function.close()
    assert len(answered) == 20 and all(pid > 0 for pid in answered)
    assert living <= 3  # no environment left running beyond the function's concurrency


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_an_environment_that_died_while_idle_is_replaced_without_failing_the_next_call(
    tmp_path: Path, loop: str
) -> None:
    function = _function(tmp_path, "harftet-died", max_concurrency=1)

    async def scenario() -> tuple[int, int]:
        first = (await function.invoke({}))["pid"]
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # until it is gone (reaped by the forkserver)
            try:
                os.kill(first, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.01)
        return first, (await function.invoke({}))["pid"]

    try:
        first, second = _run(loop, scenario())
    finally:
        function.close()
    assert second != first


def test_an_invocation_past_its_timeout_is_ended_and_the_others_go_on(tmp_path: Path) -> None:
    path = tmp_path / "app.py"
    path.write_text(HANDLER)
    start_forkserver()
    spec = FunctionSpec(name="harftet-slow", path=str(path), timeout_seconds=1.5)
    function = LambdaFunction(spec, max_concurrency=2)

    async def scenario() -> tuple[Any, Any, float, Any]:
        first = await function.invoke({})
        began = time.monotonic()
        hanging = asyncio.create_task(function.invoke({"hang": True}))
        beside = await function.invoke({})  # another environment, meanwhile
        with pytest.raises(HandlerError, match=r"Task timed out after 1\.50 seconds"):
            await hanging
        took = time.monotonic() - began
        after = await function.invoke({})
        return first, beside, took, after

    try:
        first, beside, took, after = asyncio.run(scenario())
    finally:
        function.close()
    assert 0 < first["left"] <= 1500
    assert beside["pid"] > 0  # a hanging environment never broke the function's others
    assert took < 10  # ended at its timeout (plus the stack dump), not after 600 s
    assert after["pid"] > 0 and function.timeouts == 1


class _FlakyStream:
    """A stream of 30 records whose reads fail now and then."""

    def __init__(self) -> None:
        self.records = [
            {
                "eventName": "MODIFY",
                "dynamodb": {
                    "SequenceNumber": str(100 + n),
                    "Keys": {"tableId": {"S": f"t{n % 3}"}},
                    "NewImage": {"tableId": {"S": f"t{n % 3}"}},
                },
            }
            for n in range(30)
        ]
        self.reads = 0

    def describe_stream(self, **_: Any) -> dict[str, Any]:
        return {"StreamDescription": {"Shards": [{"ShardId": "s1"}]}}

    def get_shard_iterator(self, **kwargs: Any) -> dict[str, Any]:
        return {"ShardIterator": kwargs.get("SequenceNumber", "start")}

    def get_records(self, ShardIterator: str, Limit: int) -> dict[str, Any]:
        self.reads += 1
        if self.reads % 3 == 1:
            raise ConnectionError("the stream's endpoint went away")
        after = -1 if ShardIterator == "start" else int(ShardIterator)
        found = [r for r in self.records if int(r["dynamodb"]["SequenceNumber"]) > after]
        return {"Records": found[:7], "NextShardIterator": "unused"}


def test_a_poller_survives_every_kind_of_error_and_hands_on_every_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sources, "ERROR_PAUSE", (0.001, 0.01))
    monkeypatch.setattr(sources, "POLL_SECONDS", 0.001)
    monkeypatch.setattr(sources, "IDLE_POLL_SECONDS", 0.005)
    monkeypatch.setattr(sources, "IDLE_STREAM_SECONDS", 0.005)
    monkeypatch.setattr(sources.asyncio, "sleep", _quick(asyncio.sleep))
    stream = _FlakyStream()
    source = StreamSource(
        stream,
        "arn:stream",
        Mapping("fanout", "TablesTable", "stream", batch_size=4, retries=3, parallelization=2),
    )
    handed: list[str] = []
    calls = 0

    async def invoke(event: dict[str, Any]) -> Any:
        nonlocal calls
        calls += 1
        if calls % 5 == 1:
            raise RuntimeError("not a handler error: the runner itself failed")
        if calls % 5 == 2:
            raise HandlerError("Task timed out after 30.00 seconds")
        handed.extend(r["dynamodb"]["SequenceNumber"] for r in event["Records"])
        return {"batchItemFailures": []}

    async def scenario() -> None:
        task = asyncio.create_task(sources.keep_running("fanout", source, invoke))
        for _ in range(2000):
            await asyncio.sleep(0.001)
            if len(set(handed)) == 30:
                break
        assert not task.done()  # it never ends
        task.cancel()

    asyncio.run(scenario())
    assert sorted(set(handed), key=int) == [str(100 + n) for n in range(30)]
    for key in ("t0", "t1", "t2"):  # each table's records in order
        mine = [s for s in handed if f"t{(int(s) - 100) % 3}" == key]
        assert mine == sorted(mine, key=int)
    assert source.health.errors > 0 and source.lag() == 0


def _quick(sleep: Any) -> Any:
    async def quick(seconds: float) -> None:
        await sleep(min(seconds, 0.002))

    return quick
