"""Lambda's event source mappings, locally: a DynamoDB stream and an SQS queue polled as
Lambda polls them, and the same handlers invoked with the same event shapes.

- Stream: shard iterators, GetRecords, batches of at most BatchSize records of one shard, in
  order, one batch at a time; the template's filter (INSERT/MODIFY); a failed batch (the
  handler raised, or reported ``batchItemFailures``) is retried from the oldest failed record
  up to MaximumRetryAttempts, then dropped with a log line (AWS: the on-failure destination).
- Queue: ReceiveMessage (delays and visibility timeouts are moto's), batches of BatchSize;
  messages the handler did not report failed are deleted, the others come back after the
  visibility timeout (and reach the dead-letter queue after maxReceiveCount, as in AWS).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from harftet.localstack import lambda_events
from harftet.localstack.runtime import HandlerError

log = logging.getLogger("harftet.localstack")
Invoke = Callable[[dict[str, Any]], Awaitable[Any]]
# Lambda polls a stream shard about four times a second. We poll every 50 ms while records
# flow and back off to that 250 ms while idle: an idle stack (and a test suite running several
# stacks on two cores) then costs a few requests a second, not forty.
POLL_SECONDS = 0.05
IDLE_POLL_SECONDS = 0.25


class _Backoff:
    """The pause before the next poll: short while busy, doubling up to the idle pause."""

    def __init__(self) -> None:
        self.seconds = POLL_SECONDS

    def busy(self) -> None:
        self.seconds = POLL_SECONDS

    async def idle(self) -> None:
        await asyncio.sleep(self.seconds)
        self.seconds = min(IDLE_POLL_SECONDS, self.seconds * 2)


@dataclass
class Mapping:
    """One AWS::Lambda::EventSourceMapping of the template."""

    function: str  # the function's folder name: fanout, timer
    source: str  # the logical id of the table (stream) or queue
    kind: str  # "stream" | "queue"
    batch_size: int = 100
    retries: int = 3
    event_names: tuple[str, ...] = ()  # the stream filter's eventName values; () = all


def _failed(result: Any) -> list[str]:
    if not isinstance(result, dict):
        return []
    failures = result.get("batchItemFailures") or []
    return [str(f.get("itemIdentifier")) for f in failures if isinstance(f, dict)]


class StreamSource:
    """A DynamoDB stream read as Lambda's event source mapping reads it."""

    def __init__(self, client: Any, stream_arn: str, mapping: Mapping) -> None:
        self.client = client
        self.arn = stream_arn
        self.mapping = mapping
        self.iterators: dict[str, str | None] = {}

    def _refresh_shards(self) -> None:
        shards = self.client.describe_stream(StreamArn=self.arn)["StreamDescription"]["Shards"]
        for shard in shards:
            if shard["ShardId"] not in self.iterators:
                self.iterators[shard["ShardId"]] = self.client.get_shard_iterator(
                    StreamArn=self.arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
                )["ShardIterator"]

    def poll(self) -> list[list[dict[str, Any]]]:
        """The records that arrived since the last poll, one list per shard, in order."""
        if not self.iterators:
            self._refresh_shards()
        found = []
        for shard, iterator in list(self.iterators.items()):
            if iterator is None:
                continue
            page = self.client.get_records(ShardIterator=iterator, Limit=1000)
            self.iterators[shard] = page.get("NextShardIterator")
            wanted = self.mapping.event_names
            records = [r for r in page.get("Records", []) if not wanted or r["eventName"] in wanted]
            if records:
                found.append(records)
        return found

    async def run(self, invoke: Invoke) -> None:
        """Poll forever, handing each shard's records on in batches, in order."""
        backoff = _Backoff()
        while True:
            try:
                shards = await asyncio.to_thread(self.poll)
            except Exception:
                log.exception("reading the stream failed")
                shards = []
            for records in shards:
                size = self.mapping.batch_size
                for start in range(0, len(records), size):
                    await self._deliver(invoke, records[start : start + size])
            if shards:
                backoff.busy()
            else:
                await backoff.idle()

    async def _deliver(self, invoke: Invoke, batch: list[dict[str, Any]]) -> None:
        for attempt in range(self.mapping.retries + 1):
            event = lambda_events.dynamodb_stream_event(batch, self.arn)
            try:
                failed = _failed(await invoke(event))
            except HandlerError as error:
                log.error("%s failed on a stream batch: %s", self.mapping.function, error)
                failed = [batch[0]["dynamodb"]["SequenceNumber"]]
            if not failed:
                return
            oldest = min(int(seq) for seq in failed if seq.isdigit()) if failed else 0
            batch = [r for r in batch if int(r["dynamodb"]["SequenceNumber"]) >= oldest]
            await asyncio.sleep(min(1.0, 0.1 * 2**attempt))
        log.error(
            "%s: gave up on %d stream records (AWS: to the on-failure destination)",
            self.mapping.function,
            len(batch),
        )


class QueueSource:
    """An SQS queue read as Lambda's event source mapping reads it."""

    def __init__(self, client: Any, queue_url: str, queue_arn: str, mapping: Mapping) -> None:
        self.client = client
        self.url = queue_url
        self.arn = queue_arn
        self.mapping = mapping

    def receive(self) -> list[dict[str, Any]]:
        """Up to BatchSize visible messages (a short poll: never holds the server)."""
        page = self.client.receive_message(
            QueueUrl=self.url,
            MaxNumberOfMessages=min(10, self.mapping.batch_size),
            WaitTimeSeconds=0,
            AttributeNames=["All"],
        )
        messages: list[dict[str, Any]] = page.get("Messages", [])
        return messages

    def delete(self, messages: list[dict[str, Any]]) -> None:
        """Delete handled messages."""
        if messages:
            self.client.delete_message_batch(
                QueueUrl=self.url,
                Entries=[
                    {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]}
                    for n, m in enumerate(messages)
                ],
            )

    async def run(self, invoke: Invoke) -> None:
        """Poll forever; each batch is its own invocation (concurrently, as Lambda scales)."""
        running: set[asyncio.Task[None]] = set()
        backoff = _Backoff()
        while True:
            try:
                messages = await asyncio.to_thread(self.receive)
            except Exception:
                log.exception("receiving from the queue failed")
                messages = []
            if messages:
                task = asyncio.create_task(self._deliver(invoke, messages))
                running.add(task)
                task.add_done_callback(running.discard)
                backoff.busy()
            else:
                await backoff.idle()

    async def _deliver(self, invoke: Invoke, messages: list[dict[str, Any]]) -> None:
        try:
            failed = set(_failed(await invoke(lambda_events.sqs_event(messages, self.arn))))
        except HandlerError as error:
            log.error("%s failed on a queue batch: %s", self.mapping.function, error)
            return  # every message comes back after its visibility timeout
        try:
            await asyncio.to_thread(
                self.delete, [m for m in messages if m["MessageId"] not in failed]
            )
        except Exception:
            log.exception("deleting handled messages failed")
