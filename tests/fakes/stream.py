"""The tables table's stream, handed on as Lambda's event source mapping hands it to the
fan-out: every stored version of a fake table (``FakeTables.stream``) becomes a record with
its new image and the version it replaced as its old one (NEW_AND_OLD_IMAGES; INSERT for a
new table), read from the start of the stream, at most 1,000 records an event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harftet.engine import codec
from harftet.localstack.lambda_events import dynamodb_stream_event
from harftet.store.table_items import StoredTable

from .tables import FakeTables

ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/harftet-tables/stream/fake"
BATCH = 1000


def image(stored: StoredTable) -> dict[str, Any]:
    """A stored version as a stream record's image (what the fan-out reads of it)."""
    found: dict[str, Any] = {
        "tableId": {"S": stored.table.table_id},
        "version": {"N": str(stored.version)},
        "state": {"B": codec.encode(stored.table)},
        "mv": {"M": {k: {"N": str(v)} for k, v in stored.moves.digests.items()}},
    }
    if stored.due_version is not None:
        found["dueV"] = {"N": str(stored.due_version)}
    if stored.answered is not None:
        found["ans"] = {"S": stored.answered}
    if stored.written_at is not None:
        found["wat"] = {"N": str(round(stored.written_at * 1000))}
    return found


class FakeStream:
    """New records since the last call, as Lambda's DynamoDB events (``events``), or handed
    on to the fan-out until none are left (``deliver``)."""

    def __init__(self, tables: FakeTables) -> None:
        self.tables = tables
        self.read = 0  # records of the stream read so far
        self.last: dict[str, StoredTable] = {}  # each table's newest version read

    def records(self) -> list[dict[str, Any]]:
        found = []
        for stored in self.tables.stream[self.read : self.read + BATCH]:
            self.read += 1
            table_id = stored.table.table_id
            old = self.last.get(table_id)
            data: dict[str, Any] = {
                "Keys": {"tableId": {"S": table_id}},
                "NewImage": image(stored),
                "SequenceNumber": f"{self.read:021d}",
                "StreamViewType": "NEW_AND_OLD_IMAGES",
            }
            if old is not None:
                data["OldImage"] = image(old)
            found.append({"eventName": "MODIFY" if old else "INSERT", "dynamodb": data})
            self.last[table_id] = stored
        return found

    def events(self) -> list[dict[str, Any]]:
        records = self.records()
        return [dynamodb_stream_event(records, ARN)] if records else []

    def deliver(self, handle: Callable[[dict[str, Any]], Any], rounds: int = 10) -> int:
        """Hand every new record on to ``handle``, again while handling it stores more;
        returns how many events were handed on."""
        handed = 0
        for _ in range(rounds):
            events = self.events()
            if not events:
                return handed
            for event in events:
                handle(event)
                handed += 1
        return handed
