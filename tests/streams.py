"""The tables table's stream in in-process moto, read the way Lambda's event source mapping
reads it (the local stack's own poller), handed on as the events AWS sends the fan-out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from testkit import aws_session

from harftet.localstack.sources import Mapping, StreamSource

# In-process moto answers the classic endpoint; botocore would otherwise pick the account one.
STREAMS_ENDPOINT = "https://streams.dynamodb.us-east-1.amazonaws.com"
FANOUT = Mapping("fanout", "TablesTable", "stream", event_names=("INSERT", "MODIFY"))


class TableStream:
    """New stream records since the last call, as Lambda's DynamoDB events."""

    def __init__(self, dynamodb: Any, table_name: str) -> None:
        arn = dynamodb.describe_table(TableName=table_name)["Table"]["LatestStreamArn"]
        client = aws_session().client("dynamodbstreams", endpoint_url=STREAMS_ENDPOINT)
        self.source = StreamSource(client, arn, FANOUT)

    def events(self) -> list[dict[str, Any]]:
        """One event per shard with the records that arrived since the last call."""
        from harftet.localstack.lambda_events import dynamodb_stream_event

        return [dynamodb_stream_event(records, self.source.arn) for records in self.source.poll()]

    def deliver(self, handle: Callable[[dict[str, Any]], Any], rounds: int = 10) -> int:
        """Hand every new record on to ``handle`` (the fan-out), again while handling it
        stores more (a connection found gone); returns how many events were handed on."""
        handed = 0
        for _ in range(rounds):
            events = self.events()
            if not events:
                return handed
            for event in events:
                handle(event)
                handed += 1
        return handed
