"""Lambda's event source mappings, locally: a DynamoDB stream and an SQS queue polled as
Lambda polls them, and the same handlers invoked with the same event shapes.

- Stream: shard iterators, GetRecords, batches of at most BatchSize records of one shard, in
  order, one batch at a time; the template's filter (INSERT/MODIFY); a failed batch (the
  handler raised, or reported ``batchItemFailures``) is retried from the oldest failed record
  up to MaximumRetryAttempts, then dropped with a log line (AWS: the on-failure destination).
- Queue: ReceiveMessage (delays and visibility timeouts are moto's), batches of BatchSize;
  messages the handler did not report failed are deleted, the others come back after the
  visibility timeout (and reach the dead-letter queue after maxReceiveCount, as in AWS).

A poller never ends (AWS's mappings do not): whatever fails — reading the source, building
the event, the invocation (a handler error, a timeout, a dead environment) — is logged, backed
off and retried; a stream batch keeps its place until it is handed on or given up on. Each
source reports its lag (`lag()`: the age of its oldest record read but not yet handed on, as
IteratorAge and ApproximateAgeOfOldestMessage do) and when it last completed a poll, which
`GET /health` reads. A stream's records are handed on in `ParallelizationFactor` lanes by
table key, as Lambda does: records of one key stay in order, one stuck table holds up only
its lane.
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from harftet.localstack import lambda_events
from harftet.localstack.runtime import HandlerError, on_invocations

log = logging.getLogger("harftet.localstack")
Invoke = Callable[[dict[str, Any]], Awaitable[Any]]
Found = TypeVar("Found")
# Lambda polls a stream shard about four times a second. We poll every 50 ms while records
# flow; idle, a poller waits for the end of any invocation (only the stack's functions write
# what it reads) or, at the longest, its idle pause: a second for a stream (a write from
# outside the stack is read within it), 250 ms for a queue (a delayed timer message becomes
# visible with no write at all, and timers fire within 2 s of their deadline).
POLL_SECONDS = 0.05
IDLE_POLL_SECONDS = 0.25
IDLE_STREAM_SECONDS = 1.0


# After an unexpected error in the poll loop itself: wait this long, doubling up to the cap.
ERROR_PAUSE = (0.2, 5.0)


def _arn_parts(arn: str) -> tuple[str, str, str]:
    """(region, account, resource) of an ARN."""
    parts = arn.split(":", 5)
    return parts[3], parts[4], parts[5]


def _moto_stream_mark(stream_arn: str) -> Callable[[], Any] | None:
    """A doorbell for a stream served by moto in this process: a mark (the shard, its record
    count and its last record) that changes whenever a record is written, read without a
    request (compare two with ``_same``). None when
    moto does not hold that table here (another process's moto, dynalite): the poller then
    polls over HTTP only. Why: while records flow every source polls 20 times a second, and an
    empty GetShardIterator + GetRecords pair through botocore and moto's server costs ~100
    times more than this look; on a two-core test machine those empty polls took a good part
    of a core."""
    try:
        from moto.dynamodb.models import dynamodb_backends

        region, account, resource = _arn_parts(stream_arn)
        tables = dynamodb_backends[account][region].tables
        name = resource.split("/")[1]
        if name not in tables:
            return None
    except Exception:
        return None

    def mark() -> object:
        # Looked up each time (a table may be replaced); the last record itself, not its count
        # alone: a cancelled transaction's records are dropped (dynamo._ItemUndo) and the next
        # write brings the count back, but never the same record object.
        shard = tables[name].stream_shard
        items = shard.items if shard is not None else []
        return (shard, len(items), items[-1] if items else None)

    return mark


def _same(one: Any, other: Any) -> bool:
    """Two stream marks name the very same shard and last record, at the same count."""
    return (
        one is not None
        and other is not None
        and one[0] is other[0]
        and one[1] == other[1]
        and one[2] is other[2]
    )


def _moto_queue_ready(queue_arn: str) -> Callable[[], bool] | None:
    """A doorbell for a queue served by moto in this process: whether a message can be received
    now (visible and past its delay), read without a request; None as for streams."""
    try:
        from moto.sqs.models import sqs_backends

        region, account, name = _arn_parts(queue_arn)
        queues = sqs_backends[account][region].queues
        if name not in queues:
            return None
    except Exception:
        return None

    def ready() -> bool:
        # moto's own list of receivable messages (one reading of the clock: dynamo.quick_queues)
        return bool(queues[name].messages)

    return ready


class _Backoff:
    """The pause before the next poll: short while busy; idle, until an invocation ends or
    the pause (doubling up to the stream's or the queue's idle pause) runs out."""

    def __init__(self, stream: bool = False) -> None:
        self.seconds = POLL_SECONDS
        self.stream = stream
        self.woken = on_invocations()

    def busy(self) -> None:
        self.seconds = POLL_SECONDS

    async def idle(self) -> None:
        self.woken.clear()
        try:
            await asyncio.wait_for(self.woken.wait(), self.seconds)
        except TimeoutError:
            longest = IDLE_STREAM_SECONDS if self.stream else IDLE_POLL_SECONDS
            self.seconds = min(longest, self.seconds * 2)
        else:
            self.seconds = POLL_SECONDS


@dataclass
class Mapping:
    """One AWS::Lambda::EventSourceMapping of the template."""

    function: str  # the function's folder name: fanout, timer
    source: str  # the logical id of the table (stream) or queue
    kind: str  # "stream" | "queue"
    batch_size: int = 100
    retries: int = 3
    event_names: tuple[str, ...] = ()  # the stream filter's eventName values; () = all
    parallelization: int = 1  # ParallelizationFactor: concurrent batches per shard, by key


def _failed(result: Any) -> list[str]:
    if not isinstance(result, dict):
        return []
    failures = result.get("batchItemFailures") or []
    return [str(f.get("itemIdentifier")) for f in failures if isinstance(f, dict)]


class _Health:
    """What a poller says about itself: when its loop last came round, its errors, what waits."""

    def __init__(self) -> None:
        self.last_poll = time.time()
        self.errors = 0
        self.delivered = 0
        self.given_up = 0
        self.waiting: dict[int, float] = {}  # id of a batch in hand → when its oldest arrived

    def lag(self, now: float | None = None) -> float:
        """Seconds the oldest record read but not yet handed on has waited (0: none)."""
        now = time.time() if now is None else now
        return max((now - t for t in list(self.waiting.values())), default=0.0)

    def report(self, now: float | None = None) -> dict[str, Any]:
        now = time.time() if now is None else now
        return {
            "lagSeconds": round(self.lag(now), 3),
            "sincePollSeconds": round(now - self.last_poll, 3),
            "delivered": self.delivered,
            "errors": self.errors,
            "givenUp": self.given_up,
        }


async def _pause_after_error(failures: int) -> None:
    low, high = ERROR_PAUSE
    await asyncio.sleep(min(high, low * 2 ** min(failures, 10)))


async def _polled(
    source: StreamSource | QueueSource,
    poll: Callable[[], Found],
    backoff: _Backoff,
    what: str,
) -> AsyncIterator[tuple[float, Found]]:
    """When each poll of ``source`` began and what it found, forever: a quiet source is not
    asked (``backoff`` idles), and a failed poll is logged and paused after, the longer the
    more fail in a row."""
    failures = 0
    while True:
        source.health.last_poll = began = time.time()
        if source.quiet():
            await backoff.idle()
            continue
        try:
            found = await asyncio.to_thread(poll)
            failures = 0
        except Exception:
            failures += 1
            source.health.errors += 1
            log.exception("%s: %s failed; retrying", source.mapping.function, what)
            await _pause_after_error(failures)
            continue
        yield began, found


class StreamSource:
    """A DynamoDB stream read as Lambda's event source mapping reads it."""

    def __init__(self, client: Any, stream_arn: str, mapping: Mapping) -> None:
        self.client = client
        self.arn = stream_arn
        self.mapping = mapping
        self.shards: list[str] = []
        self.position: dict[str, str] = {}  # shard → the last sequence number read
        self.health = _Health()
        self._mark = _moto_stream_mark(stream_arn)
        self._read_up_to: Any = None  # the doorbell's mark when the last poll began

    @property
    def doorbell(self) -> bool:
        """Whether ``quiet`` can tell without a request (moto runs in this process)."""
        return self._mark is not None

    def quiet(self) -> bool:
        """Nothing was written to the stream since the last poll began (known without a
        request only where moto runs in this process; elsewhere always False)."""
        try:
            return self._mark is not None and _same(self._mark(), self._read_up_to)
        except Exception:
            return False

    def _iterator(self, shard_id: str) -> str:
        """A fresh iterator: after the last record read, or from the start of the shard."""
        after = self.position.get(shard_id)
        if after is None:
            found = self.client.get_shard_iterator(
                StreamArn=self.arn, ShardId=shard_id, ShardIteratorType="TRIM_HORIZON"
            )
        else:
            found = self.client.get_shard_iterator(
                StreamArn=self.arn,
                ShardId=shard_id,
                ShardIteratorType="AFTER_SEQUENCE_NUMBER",
                SequenceNumber=after,
            )
        return str(found["ShardIterator"])

    def poll(self) -> list[list[dict[str, Any]]]:
        """The records that arrived since the last poll, one list per shard, in order.

        Each poll starts from a fresh iterator after the last record read, not from the
        previous page's NextShardIterator. Why: moto's TransactWriteItems deep-copies every
        table it touches and, when the transaction is cancelled (a failed condition: a seat
        race, a manager's fourth table, a lost answer retried), puts the copies in place of
        the tables — stream shard included. An iterator chain keeps reading the replaced
        shard object, which never gets another record: the fan-out then stopped for good
        (no pushes, no log, no timers, nothing logged), and it could read the records the
        cancelled transaction wrote before it was rolled back. A fresh iterator is always
        taken from the table's current shard.
        """
        if self._mark is not None:
            try:
                self._read_up_to = self._mark()  # taken first: a record written meanwhile rings
            except Exception:
                self._read_up_to = None
        if not self.shards:
            described = self.client.describe_stream(StreamArn=self.arn)["StreamDescription"]
            self.shards = [shard["ShardId"] for shard in described["Shards"]]
        found = []
        for shard in self.shards:
            page = self.client.get_records(ShardIterator=self._iterator(shard), Limit=1000)
            records = page.get("Records", [])
            if records:
                self.position[shard] = records[-1]["dynamodb"]["SequenceNumber"]
            wanted = self.mapping.event_names
            records = [r for r in records if not wanted or r["eventName"] in wanted]
            if records:
                found.append(records)
        return found

    def skip_existing(self) -> None:
        """Start after the records already in the stream (a restored stack's history)."""
        while self.poll():
            pass

    def lag(self) -> float:
        """IteratorAge: how long the oldest record read but not handed on has waited."""
        return self.health.lag()

    async def run(self, invoke: Invoke) -> None:
        """Poll forever, handing each shard's records on in batches, in order per key."""
        backoff = _Backoff(stream=True)
        async for read_at, shards in _polled(self, self.poll, backoff, "reading the stream"):
            for records in shards:
                await self._hand_on(invoke, records, read_at)
            if shards:
                backoff.busy()
            else:
                await backoff.idle()

    def _lanes(self, records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
        lanes: dict[int, list[dict[str, Any]]] = {}
        count = max(1, self.mapping.parallelization)
        for record in records:
            key = repr(sorted((record.get("dynamodb") or {}).get("Keys", {}).items()))
            lanes.setdefault(zlib.crc32(key.encode()) % count, []).append(record)
        return list(lanes.values())

    async def _hand_on(self, invoke: Invoke, records: list[dict[str, Any]], read_at: float) -> None:
        """Every lane's batches, lanes concurrently, each lane's in order."""
        size = self.mapping.batch_size

        async def lane(records: list[dict[str, Any]]) -> None:
            token = id(records)
            self.health.waiting[token] = read_at
            try:
                for start in range(0, len(records), size):
                    await self._deliver(invoke, records[start : start + size])
            finally:
                self.health.waiting.pop(token, None)

        await asyncio.gather(*(lane(r) for r in self._lanes(records)))

    async def _deliver(self, invoke: Invoke, batch: list[dict[str, Any]]) -> None:
        function = self.mapping.function
        for attempt in range(self.mapping.retries + 1):
            try:
                event = lambda_events.dynamodb_stream_event(batch, self.arn)
                began = time.perf_counter()
                failed = _failed(await invoke(event))
                ms = (time.perf_counter() - began) * 1000
                log.info("%s ← %d stream records (%.0f ms)", function, len(batch), ms)
            except HandlerError as error:
                log.error("%s failed on a stream batch: %s", function, error)
                failed = [batch[0]["dynamodb"]["SequenceNumber"]]
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s: handing on a stream batch failed", function)
                failed = [batch[0]["dynamodb"]["SequenceNumber"]]
            if not failed:
                self.health.delivered += len(batch)
                return
            self.health.errors += 1
            numbers = [int(seq) for seq in failed if seq.isdigit()]
            if numbers:
                oldest = min(numbers)
                batch = [r for r in batch if int(r["dynamodb"]["SequenceNumber"]) >= oldest]
            if not batch:
                return
            await asyncio.sleep(min(1.0, 0.1 * 2**attempt))
        self.health.given_up += len(batch)
        log.error(
            "%s: gave up on %d stream records after %d retries (AWS: to the on-failure "
            "destination)",
            function,
            len(batch),
            self.mapping.retries,
        )


class QueueSource:
    """An SQS queue read as Lambda's event source mapping reads it."""

    def __init__(self, client: Any, queue_url: str, queue_arn: str, mapping: Mapping) -> None:
        self.client = client
        self.url = queue_url
        self.arn = queue_arn
        self.mapping = mapping
        self.health = _Health()
        self._ready = _moto_queue_ready(queue_arn)

    @property
    def doorbell(self) -> bool:
        """Whether ``quiet`` can tell without a request (moto runs in this process)."""
        return self._ready is not None

    def quiet(self) -> bool:
        """No message can be received now (known without a request only where moto runs in
        this process; elsewhere always False)."""
        try:
            return self._ready is not None and not self._ready()
        except Exception:
            return False

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

    def lag(self) -> float:
        """How long the oldest message received but not yet handled has waited."""
        return self.health.lag()

    async def run(self, invoke: Invoke) -> None:
        """Poll forever; each batch is its own invocation (concurrently, as Lambda scales)."""
        running: set[asyncio.Task[None]] = set()
        backoff = _Backoff()
        async for _, messages in _polled(self, self.receive, backoff, "receiving"):
            if messages:
                task = asyncio.create_task(self._deliver(invoke, messages))
                running.add(task)
                task.add_done_callback(running.discard)
                backoff.busy()
            else:
                await backoff.idle()

    async def _deliver(self, invoke: Invoke, messages: list[dict[str, Any]]) -> None:
        token = id(messages)
        self.health.waiting[token] = time.time()
        try:
            await self._handle(invoke, messages)
        except asyncio.CancelledError:
            raise
        except Exception:  # the messages come back after their visibility timeout
            self.health.errors += 1
            log.exception("%s: handing on a queue batch failed", self.mapping.function)
        finally:
            self.health.waiting.pop(token, None)

    async def _handle(self, invoke: Invoke, messages: list[dict[str, Any]]) -> None:
        try:
            began = time.perf_counter()
            failed = set(_failed(await invoke(lambda_events.sqs_event(messages, self.arn))))
            ms = (time.perf_counter() - began) * 1000
            log.info("%s ← %d messages (%.0f ms)", self.mapping.function, len(messages), ms)
        except HandlerError as error:
            self.health.errors += 1
            log.error("%s failed on a queue batch: %s", self.mapping.function, error)
            return  # every message comes back after its visibility timeout
        self.health.delivered += len(messages) - len(failed)
        try:
            await asyncio.to_thread(
                self.delete, [m for m in messages if m["MessageId"] not in failed]
            )
        except Exception:
            self.health.errors += 1
            log.exception("deleting handled messages failed")


async def keep_running(name: str, source: Any, invoke: Invoke) -> None:
    """Run a poller for good: should its loop ever end or raise, log it and start it again."""
    failures = 0
    while True:
        try:
            await source.run(invoke)
            log.error("%s: its poller stopped; starting it again", name)
        except asyncio.CancelledError:
            raise
        except BaseException:
            log.exception("%s: its poller failed; starting it again", name)
        failures += 1
        await _pause_after_error(failures)
