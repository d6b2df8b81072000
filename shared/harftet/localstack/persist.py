"""`make run` remembers: the local DynamoDB's items and the token secret in a data folder.

moto keeps its tables in memory only. The stack therefore journals every DynamoDB write that
succeeded (PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems — the request
as it reached moto, one JSON line each, written before the answer leaves) and, on the next
start, replays the journal into the fresh tables in the same order: conditional writes meet
the same state again and land the same way. The journal is then compacted (every item of
every table, 25 to a BatchWriteItem line) so that a restart costs the items kept, not the
history. A crash (kill -9) loses nothing answered: a line is written (to the OS) before its
answer.

The token secret is kept in the folder too (`token-secret`, mode 600), so tokens stay valid,
and so is the operator key (`operator-key`, mode 600): what the operator routes take.
Start empty with `make run FRESH=1` (or `--fresh`), or choose no folder with `--data none`.
"""

from __future__ import annotations

import io
import json
import logging
import os
import secrets
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

log = logging.getLogger("harftet.localstack")

JOURNAL = "dynamodb.jsonl"
SECRET = "token-secret"
OPERATOR_KEY = "operator-key"
WRITES = {
    "DynamoDB_20120810.PutItem",
    "DynamoDB_20120810.UpdateItem",
    "DynamoDB_20120810.DeleteItem",
    "DynamoDB_20120810.BatchWriteItem",
    "DynamoDB_20120810.TransactWriteItems",
}
# What moto needs to route a replayed request: the service and region come from the signature.
REPLAY_HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "Authorization": "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=host;x-amz-target, Signature=0",
}
BATCH = 25

Environ = dict[str, Any]
WSGIApp = Callable[[Environ, Callable[..., Any]], Iterable[bytes]]


def token_secret(folder: Path) -> str:
    """The stack's token signing secret, made once and kept in ``folder``."""
    return _kept_secret(folder / SECRET)


def operator_key(folder: Path) -> str:
    """The key the local stack's operator routes take (``X-Operator-Key``, API.md v4), made at
    the first start and kept in ``folder`` (mode 600: only its owner reads it)."""
    return _kept_secret(folder / OPERATOR_KEY)


def _kept_secret(path: Path) -> str:
    """A secret read from ``path``, or made and written there (atomically, mode 600)."""
    if path.exists():
        kept = path.read_text().strip()
        if kept:
            return kept
    secret = secrets.token_urlsafe(32)
    partial = path.with_suffix(".partial")
    partial.write_text(secret)
    partial.chmod(0o600)
    partial.replace(path)
    return secret


class Journal:
    """The data folder's DynamoDB journal: what the WSGI wrapper appends and replays."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / JOURNAL
        self._file: io.TextIOWrapper | None = None
        self._lock = threading.Lock()
        self.lines = 0

    def record(self, target: str, body: bytes) -> None:
        """Append one write that moto accepted (flushed to the OS at once)."""
        line = json.dumps({"target": target, "body": body.decode("utf-8")}, ensure_ascii=False)
        with self._lock:
            if self._file is None:
                self._file = self.path.open("a", encoding="utf-8")
            self._file.write(line + "\n")
            self._file.flush()
            self.lines += 1

    def replay(self, app: WSGIApp) -> int:
        """Apply every journalled write to ``app`` (moto, tables created); how many."""
        if not self.path.exists():
            return 0
        from werkzeug.test import EnvironBuilder

        done = 0
        with self.path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    log.warning(
                        "%s:%d: an unfinished line (a crash mid-write) ignored", self.path, number
                    )
                    continue
                headers = {**REPLAY_HEADERS, "X-Amz-Target": entry["target"]}
                environ = EnvironBuilder(
                    method="POST",
                    path="/",
                    headers=list(headers.items()),
                    data=entry["body"].encode(),
                ).get_environ()
                status: list[str] = []
                body = b"".join(app(environ, _collect(status)))
                if not status or not status[0].startswith("200"):
                    log.warning("%s:%d: replay refused: %s", self.path, number, body[:200])
                done += 1
        return done

    def compact(self, client: Any, tables: Iterable[str]) -> int:
        """Rewrite the journal as the items stored now (BatchWriteItem lines); how many."""
        from harftet.localstack.lambda_events import _json_image

        partial = self.path.with_suffix(".compacting")
        count = 0
        with partial.open("w", encoding="utf-8") as out:
            for name in tables:
                batch: list[dict[str, Any]] = []
                for page in client.get_paginator("scan").paginate(TableName=name):
                    for item in page.get("Items", []):
                        batch.append({"PutRequest": {"Item": _json_image(item)}})
                        count += 1
                        if len(batch) == BATCH:
                            out.write(_batch_line(name, batch))
                            batch = []
                if batch:
                    out.write(_batch_line(name, batch))
            out.flush()
            os.fsync(out.fileno())
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
            partial.replace(self.path)
        return count

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def _collect(statuses: list[str]) -> Callable[..., None]:
    def start_response(status: str, *_: Any) -> None:
        statuses.append(status)

    return start_response


def _batch_line(table: str, requests: list[dict[str, Any]]) -> str:
    body = json.dumps({"RequestItems": {table: requests}}, ensure_ascii=False)
    return json.dumps({"target": "DynamoDB_20120810.BatchWriteItem", "body": body}) + "\n"


def prepare(folder: Path, fresh: bool) -> None:
    """Make the data folder (emptied first with ``fresh``)."""
    folder.mkdir(parents=True, exist_ok=True)
    if fresh:
        for name in (JOURNAL, SECRET):  # the operator key stays: the operator's tools keep it
            (folder / name).unlink(missing_ok=True)
