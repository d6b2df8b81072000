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


def change(version: int, *seqs: int) -> list[dict[str, Any]]:
    """The events of one stored change, as the fan-out stamps them."""
    return [{**event(s, type="lay" if s % 2 else "pass"), "version": version} for s in seqs]


def test_a_change_of_several_events_is_one_item_and_reads_as_its_events(log, dynamodb):
    lay_and_pass, draw, end_and_start = change(5, 3, 4), change(6, 5), change(7, 6, 7, 8)
    log.append("t1", [event(1), event(2), *lay_and_pass, *draw, *end_and_start])
    items = dynamodb.query(
        TableName=TABLE,
        KeyConditionExpression="tableId = :t",
        ExpressionAttributeValues={":t": {"S": "t1"}},
    )["Items"]
    assert [int(i["seq"]["N"]) for i in items] == [1, 2, 4, 5, 8]  # one per change: 5, not 8
    assert log.after("t1", 0) == [event(1), event(2), *lay_and_pass, *draw, *end_and_start]
    # a read that starts inside a change, or stops inside one, takes only its own events
    assert log.after("t1", 6) == end_and_start[1:]
    assert log.after("t1", 3, limit=3) == [lay_and_pass[1], *draw, end_and_start[0]]


def test_a_change_delivered_again_alone_or_in_another_batch_is_not_doubled(log):
    versions = [change(v, 2 * v - 1, 2 * v) for v in range(1, 30)]
    every = [e for c in versions for e in c]
    log.append("t1", every[:10])
    log.append("t1", every[4:30])  # the stream retried from a change in the middle
    log.append("t1", every)
    assert log.after("t1", 0, limit=5000) == every


def test_items_of_one_event_each_and_an_item_per_change_read_each_event_once(log, dynamodb):
    """A change stored both ways (an item per event by the release before, an item per change
    by this one: a canary's two versions side by side) reads as its events, once."""
    for e in [event(1), event(2), event(3)]:  # the former shape: an item per event
        log.append("t1", [e])
    log.append("t1", change(2, 2, 3))  # the same change, as this release stores it
    log.append("t1", change(3, 4, 5))
    assert [e["seq"] for e in log.after("t1", 0)] == [1, 2, 3, 4, 5]
    assert [e["seq"] for e in log.after("t1", 2)] == [3, 4, 5]


def test_a_game_of_changes_pages_through_the_whole_log(log):
    every = [e for v in range(1, 700) for e in change(v, 2 * v - 1, 2 * v)]
    log.append("t1", every)
    assert log.after("t1", 0) == every[:500]
    assert log.after("t1", 0, limit=5000) == every
    assert [e["seq"] for e in log.after("t1", 1250, limit=10)] == list(range(1251, 1261))


def test_events_written_alone_take_an_item_each_and_read_once_beside_their_change(log):
    lay_and_pass = change(4, 7, 8)
    log.append("t1", lay_and_pass)
    log.append("t1", [{**lay_and_pass[0], "name": "Silindi"}], alone=True)  # over the former shape
    assert log.after("t1", 0) == [{**lay_and_pass[0], "name": "Silindi"}, lay_and_pass[1]]


def test_without_an_item_per_change_each_event_is_an_item_as_the_release_before_reads(
    dynamodb,
):
    """LogItemPerChange off (the first deploy of the item per change): the former shape."""
    log = LogStore(dynamodb, TABLE, sleep=lambda s: None, per_change=False)
    log.append("t1", [*change(2, 1, 2), *change(3, 3)])
    items = dynamodb.query(
        TableName=TABLE,
        KeyConditionExpression="tableId = :t",
        ExpressionAttributeValues={":t": {"S": "t1"}},
    )["Items"]
    assert [int(i["seq"]["N"]) for i in items] == [1, 2, 3]
    assert not any("earlier" in i for i in items)
    assert log.after("t1", 0) == [*change(2, 1, 2), *change(3, 3)]
