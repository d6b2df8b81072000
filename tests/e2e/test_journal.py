"""The local stack's journal (`.data/dynamodb.jsonl`, harftet.localstack.persist) keeps every
acknowledged write through kill -9, and a damaged journal never stops the stack: the lines it
cannot prove are set aside in a named file, the rest is restored, one warning line says so.
"""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config

from harftet.localstack import persist
from harftet.localstack.dynamo import MotoDynamo

pytestmark = pytest.mark.e2e

PUT = "DynamoDB_20120810.PutItem"


def _create(client: Any, name: str) -> None:
    client.create_table(
        TableName=name,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )


def _put_line(table: str, key: str) -> bytes:
    body = json.dumps({"TableName": table, "Item": {"pk": {"S": key}}})
    return json.dumps({"target": PUT, "body": body}).encode() + b"\n"


def _keys(client: Any, table: str) -> set[str]:
    pages = client.get_paginator("scan").paginate(TableName=table, ConsistentRead=True)
    return {item["pk"]["S"] for page in pages for item in page.get("Items", [])}


# Each case: bytes written into a journal between two good writes (and, for a torn line, at
# its end), and what the warning line names as the reason.
DAMAGE = {
    "an empty object": (b"{}\n", "not a journal entry"),
    "a list": (b"[1, 2]\n", "not a journal entry"),
    "null": (b"null\n", "not a journal entry"),
    "an extra field": (b'{"target": "x", "body": "{}", "more": 1}\n', "not a journal entry"),
    "not JSON": (b"hello\n", "not JSON"),
    "zeros from a power cut": (b"\x00" * 64 + b"\n", "not JSON"),
    "bytes that are not UTF-8": (b'{"target": "\xff\xfe"}\n', "not UTF-8"),
    "a read, not a write": (
        b'{"target": "DynamoDB_20120810.DeleteTable", "body": "{}"}\n',
        "not a DynamoDB write",
    ),
    "a body that is not JSON": (
        b'{"target": "DynamoDB_20120810.PutItem", "body": "{oops"}\n',
        "not a JSON object",
    ),
    "a body that is a number": (b'{"target": "DynamoDB_20120810.PutItem", "body": 5}\n', "not"),
    "a write DynamoDB refuses": (_put_line("no-such-table", "x"), "DynamoDB refused it"),
}


# moto's state is the process's: the servers of these cases share it, each its own table.
@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_damaged_journal_starts_with_what_it_proves_and_sets_the_rest_aside(
    case: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    damage, reason = DAMAGE[case]
    table = f"j-{uuid.uuid4().hex[:8]}"
    journal = tmp_path / persist.JOURNAL
    journal.write_bytes(_put_line(table, "before") + damage + _put_line(table, "after"))
    server = MotoDynamo(journal=persist.Journal(tmp_path))
    server.start()
    try:
        _create(server.client(), table)
        with caplog.at_level(logging.WARNING, logger="harftet.localstack"):
            kept = server.restore([table])
        assert kept == 2 and _keys(server.client(), table) == {"before", "after"}
        warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, warnings  # one line says so
        (aside,) = tmp_path.glob("dynamodb.set-aside-*.jsonl")
        assert aside.read_bytes() == damage  # set aside as it was, to be looked at
        assert str(aside) in warnings[0] and "line 2" in warnings[0] and reason in warnings[0]
        # the journal holds what was proven: the next start is clean
        assert b"before" in journal.read_bytes() and damage not in journal.read_bytes()
    finally:
        server.stop()


def test_a_line_torn_by_a_crash_is_set_aside_and_the_rest_restored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = f"j-{uuid.uuid4().hex[:8]}"
    torn = _put_line(table, "torn")[:-20]  # cut short, no newline
    (tmp_path / persist.JOURNAL).write_bytes(_put_line(table, "kept") + torn)
    server = MotoDynamo(journal=persist.Journal(tmp_path))
    server.start()
    try:
        _create(server.client(), table)
        with caplog.at_level(logging.WARNING, logger="harftet.localstack"):
            assert server.restore([table]) == 1
        assert _keys(server.client(), table) == {"kept"}
        (aside,) = tmp_path.glob("dynamodb.set-aside-*.jsonl")
        assert aside.read_bytes() == torn + b"\n"
        assert "line 2: not JSON" in caplog.text
    finally:
        server.stop()


def test_a_sound_journal_restores_without_a_word(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = f"j-{uuid.uuid4().hex[:8]}"
    (tmp_path / persist.JOURNAL).write_bytes(b"".join(_put_line(table, k) for k in "abc"))
    server = MotoDynamo(journal=persist.Journal(tmp_path))
    server.start()
    try:
        _create(server.client(), table)
        with caplog.at_level(logging.WARNING, logger="harftet.localstack"):
            assert server.restore([table]) == 3
        assert not caplog.records and not list(tmp_path.glob("dynamodb.set-aside-*"))
    finally:
        server.stop()


def test_each_acknowledged_write_is_synced_before_its_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fdatasync, not only a flush to the OS: a power cut keeps what was answered."""
    synced: list[int] = []
    real = persist.os.fdatasync

    def fdatasync(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(persist.os, "fdatasync", fdatasync)
    journal = persist.Journal(tmp_path)
    journal.record(PUT, b"{}")
    journal.record(PUT, b"{}")
    journal.close()
    assert len(synced) == 2


# -- kill -9 in the middle of a burst, twenty times ------------------------------------------
# A parent that has imported moto once forks a journalled server per start (a cold start
# of moto costs 2-4 s on a busy machine; a fork, a tenth of that): it prints each one's
# process id and URL, and the test kills that process with SIGKILL.
FORKING_SERVER = """
import os, sys, threading, time
from pathlib import Path
from harftet.localstack.dynamo import MotoDynamo
from harftet.localstack.persist import Journal

def table(client, name):
    client.create_table(
        TableName=name,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )

warm = MotoDynamo()  # moto's first request (its backends, its routes) paid once, here
warm.start()
table(warm.client(), "warm")
warm.client().delete_table(TableName="warm")
warm.stop()
assert threading.active_count() == 1  # nothing running: a fork is safe
for _ in sys.stdin:
    child = os.fork()
    if child:
        os.waitpid(child, 0)
        continue
    server = MotoDynamo(journal=Journal(Path(sys.argv[1])))
    url = server.start()
    table(server.client(), "burst")
    server.restore(["burst"])
    print(os.getpid(), url, flush=True)
    while True:  # until killed
        time.sleep(60)
"""
RESTARTS = 20
WRITERS = 4


@dataclass
class Acknowledged:
    """What the server answered 200 to: items put (and not deleted since), items deleted,
    and each writer's counter at its last acknowledged update."""

    present: set[str] = field(default_factory=set)
    deleted: set[str] = field(default_factory=set)
    counters: dict[str, int] = field(default_factory=dict)
    answered: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _client(url: str) -> Any:
    """A client that never retries: an answer it gets is the server's acknowledgement."""
    return boto3.client(
        "dynamodb",
        endpoint_url=url,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
        config=Config(retries={"max_attempts": 1}, connect_timeout=2, read_timeout=10),
    )


def _writer(client: Any, name: str, done: Acknowledged, stop: threading.Event, rng: Any) -> None:
    """Puts, deletes, conditional updates and transactions until the server dies."""
    counter = f"counter-{name}"
    n = 0
    while not stop.is_set():
        n += 1
        key = f"{name}-{uuid.uuid4().hex[:10]}"
        value = done.counters.get(counter, 0)
        kind = n % 4
        try:
            if kind == 0:
                client.put_item(TableName="burst", Item={"pk": {"S": key}})
            elif kind == 1:
                client.update_item(
                    TableName="burst",
                    Key={"pk": {"S": counter}},
                    UpdateExpression="SET n = :next",
                    ConditionExpression="attribute_not_exists(n) OR n = :now",
                    ExpressionAttributeValues={
                        ":next": {"N": str(value + 1)},
                        ":now": {"N": str(value)},
                    },
                )
            elif kind == 2:
                with done.lock:
                    mine = sorted(k for k in done.present if k.startswith(name + "-"))
                if not mine:
                    continue
                key = rng.choice(mine)
                client.delete_item(TableName="burst", Key={"pk": {"S": key}})
            else:
                client.transact_write_items(
                    TransactItems=[
                        {"Put": {"TableName": "burst", "Item": {"pk": {"S": key}}}},
                        {"Put": {"TableName": "burst", "Item": {"pk": {"S": key + "-b"}}}},
                    ]
                )
        except Exception:  # the server was killed mid-request: not acknowledged
            if kind == 2:  # a delete in flight may or may not have landed
                with done.lock:
                    done.present.discard(key)
            return
        with done.lock:
            done.answered += 1
            if kind == 0:
                done.present.add(key)
            elif kind == 1:
                done.counters[counter] = value + 1
            elif kind == 2:
                done.present.discard(key)
                done.deleted.add(key)
            else:
                done.present |= {key, key + "-b"}


def _start(forks: subprocess.Popen[str]) -> tuple[int, str]:
    """A new journalled server forked from ``forks``: its process id and URL."""
    assert forks.stdin is not None and forks.stdout is not None
    forks.stdin.write("start\n")
    forks.stdin.flush()
    pid, url = forks.stdout.readline().split()
    return int(pid), url


def test_no_acknowledged_write_is_lost_over_twenty_kill_9_restarts_mid_burst(
    tmp_path: Path,
) -> None:
    done = Acknowledged()
    rng = random.Random(35)
    forks = subprocess.Popen(
        [sys.executable, "-c", FORKING_SERVER, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(RESTARTS):
            _restart_mid_burst(forks, done, rng)
    finally:
        forks.kill()
        forks.wait(10)


def _restart_mid_burst(forks: subprocess.Popen[str], done: Acknowledged, rng: Any) -> None:
    """Start the server on the journal, check what it kept, write, kill -9 mid-burst."""
    pid, url = _start(forks)
    writers: list[threading.Thread] = []
    stop = threading.Event()
    try:
        assert url.startswith("http://"), "the journalled server did not start"
        client = _client(url)
        kept = _keys(client, "burst")
        assert done.present <= kept, f"lost: {sorted(done.present - kept)[:5]}"
        assert not (done.deleted & kept), f"deleted, back: {sorted(done.deleted & kept)[:5]}"
        for counter, value in done.counters.items():
            stored = client.get_item(TableName="burst", Key={"pk": {"S": counter}})["Item"]
            # the last acknowledged update, or one more that was in flight at the kill
            assert int(stored["n"]["N"]) in (value, value + 1)
            done.counters[counter] = int(stored["n"]["N"])
        writers = [
            threading.Thread(target=_writer, args=(_client(url), f"w{i}", done, stop, rng))
            for i in range(WRITERS)
        ]
        for writer in writers:
            writer.start()
        before, started = done.answered, time.monotonic()
        while done.answered < before + 8 and time.monotonic() - started < 30:
            time.sleep(0.01)  # the burst is under way (on a busy machine, later) ...
        assert done.answered >= before + 8, "the writers wrote nothing"
        time.sleep(rng.uniform(0, 0.3))  # ... and is cut at a moment of chance
    finally:
        os.kill(pid, signal.SIGKILL)  # mid-burst
    stop.set()
    for writer in writers:
        writer.join(15)
