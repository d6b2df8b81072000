"""The table log (harftet.store.log) over in-process moto: appends are idempotent on seq,
reads come oldest first after a seq, and a throttled batch is retried."""

from __future__ import annotations

from typing import Any

import pytest

from harftet.store.log import KEPT_SECONDS, LogStore

TABLE = "harftet-log"


def event(seq: int, **fields: Any) -> dict[str, Any]:
    return {"seq": seq, "at": 1_800_000_000.0 + seq, "hand": 1, "seat": seq % 4, "type": "pass",
            **fields}  # fmt: skip


@pytest.fixture
def log(dynamodb: Any) -> LogStore:
    return LogStore(dynamodb, TABLE, sleep=lambda s: None)


def test_events_come_back_oldest_first_after_a_seq_and_as_they_were(log):
    log.append("t1", [event(2, type="lay", tiles=[5, 6, 7], name="Ayşe"), event(1), event(3)])
    assert [e["seq"] for e in log.after("t1", 0)] == [1, 2, 3]
    assert log.after("t1", 1)[0] == event(2, type="lay", tiles=[5, 6, 7], name="Ayşe")
    assert log.after("t1", 3) == [] and log.after("other", 0) == []


def test_appending_the_same_events_again_changes_nothing(log):
    events = [event(i) for i in range(1, 40)]
    log.append("t1", events)
    log.append("t1", events[10:20])  # the stream delivered a change twice
    log.append("t1", [event(5), event(5)])  # and one seq twice in a batch
    assert log.after("t1", 0) == events


def test_a_long_game_pages_through_the_whole_log(log):
    log.append("t1", [event(i) for i in range(1, 1301)])
    assert [e["seq"] for e in log.after("t1", 0)] == list(range(1, 501))  # 500 by default
    every = log.after("t1", 0, limit=5000)
    assert [e["seq"] for e in every] == list(range(1, 1301))
    assert [e["seq"] for e in log.after("t1", 1250, limit=10)] == list(range(1251, 1261))


def test_events_expire_a_month_after_they_happened(log, dynamodb):
    log.append("t1", [event(1)])
    item = dynamodb.get_item(TableName=TABLE, Key={"tableId": {"S": "t1"}, "seq": {"N": "1"}})
    assert int(item["Item"]["expiresAt"]["N"]) == int(event(1)["at"] + KEPT_SECONDS)


def test_a_throttled_batch_is_retried_until_every_event_is_stored(dynamodb):
    calls = []

    class Throttling:
        """Leaves the last event of each first attempt unprocessed, as DynamoDB may."""

        def __getattr__(self, name: str) -> Any:
            return getattr(dynamodb, name)

        def batch_write_item(self, RequestItems: dict[str, Any]) -> dict[str, Any]:
            requests = RequestItems[TABLE]
            calls.append(len(requests))
            done, left = (requests[:-1], requests[-1:]) if len(calls) % 2 else (requests, [])
            dynamodb.batch_write_item(RequestItems={TABLE: done})
            return {"UnprocessedItems": {TABLE: left} if left else {}}

    log = LogStore(Throttling(), TABLE, sleep=lambda s: None)
    log.append("t1", [event(i) for i in range(1, 31)])
    assert calls == [25, 1, 5, 1]
    assert [e["seq"] for e in log.after("t1", 0)] == list(range(1, 31))
