"""The local stack keeps running: each invocation is bounded by its function's Timeout as in
Lambda (the timed-out environment is replaced, the others go on), and an event source's
poller survives any error — reading the source, a handler error, an unexpected exception —
retrying the batch until it is handed on, its lag reported meanwhile."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from harftet.localstack import sources
from harftet.localstack.runtime import FunctionSpec, HandlerError, LambdaFunction, start_forkserver
from harftet.localstack.sources import Mapping, StreamSource

HANDLER = """
import os, time

def handler(event, context):
    if event.get("hang"):
        time.sleep(600)
    return {"pid": os.getpid(), "left": context.get_remaining_time_in_millis()}
"""


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
