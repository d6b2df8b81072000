"""`make run` remembers: the local DynamoDB's items and the token secret in a data folder.

moto keeps its tables in memory only. The stack therefore journals every DynamoDB write that
succeeded (PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems — the request
as it reached moto, one JSON line each, written before the answer leaves) and, on the next
start, replays the journal into the fresh tables in the same order: conditional writes meet
the same state again and land the same way. The journal is then compacted (every item of
every table, 25 to a BatchWriteItem line) so that a restart costs the items kept, not the
history. Nothing answered is lost to a crash (kill -9) or a power cut: a line is written and
synced to the disk (fdatasync) before its answer leaves.

A damaged journal never stops the stack: a line that is not a write this journal makes (not
JSON, a wrong shape such as ``{}``, a torn last line, bytes that are not UTF-8) or that
DynamoDB refuses on replay is set aside, as it was, in ``dynamodb.set-aside-<time>.jsonl``
beside the journal; the stack starts with every other write and says so in one warning line.

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
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("harftet.localstack")

JOURNAL = "dynamodb.jsonl"
SET_ASIDE = "dynamodb.set-aside-{stamp}.jsonl"  # the lines a replay could not prove
SECRET = "token-secret"
KEYS = "token-keys"  # the signing keys' ring, when the stack rotates them (mode 600)
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


def kept_keys(folder: Path) -> str | None:
    """The signing keys' ring kept in ``folder`` (None: none yet)."""
    path = folder / KEYS
    return (path.read_text().strip() or None) if path.exists() else None


def keep_keys(folder: Path, ring: str) -> None:
    """Keep the signing keys' ring in ``folder`` (atomically, mode 600): tokens signed by
    its keys stay valid after a restart."""
    partial = (folder / KEYS).with_suffix(".partial")
    partial.write_text(ring)
    partial.chmod(0o600)
    _sync_file(partial)
    partial.replace(folder / KEYS)
    _sync_folder(folder)


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
    _sync_file(partial)
    partial.replace(path)
    _sync_folder(path.parent)
    return secret


def _sync_file(path: Path) -> None:
    with path.open("rb") as file:
        os.fsync(file.fileno())


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` survive a power cut (the folder's entry synced)."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


@dataclass
class Replayed:
    """What a replay did: the writes applied, and the lines it set aside (number, why)."""

    applied: int = 0
    set_aside: list[tuple[int, str]] = field(default_factory=list)
    file: Path | None = None  # where the set-aside lines went, as they were

    def summary(self, journal: Path) -> str:
        """The one line a damaged journal is reported in."""
        first, reason = self.set_aside[0]
        numbers = ", ".join(str(n) for n, _ in self.set_aside[:5])
        more = f" and {len(self.set_aside) - 5} more" if len(self.set_aside) > 5 else ""
        return (
            f"{journal}: {len(self.set_aside)} damaged line(s) set aside in {self.file} "
            f"(line {numbers}{more}; line {first}: {reason}); started with the "
            f"{self.applied} write(s) that replayed"
        )


class Journal:
    """The data folder's DynamoDB journal: what the WSGI wrapper appends and replays."""

    def __init__(self, folder: Path, *, sync: bool = True) -> None:
        self.folder = folder
        self.path = folder / JOURNAL
        self.sync = sync  # each line on the disk before its answer (off: only for measuring)
        self._file: io.TextIOWrapper | None = None
        self._lock = threading.Lock()
        self.lines = 0

    def record(self, target: str, body: bytes) -> None:
        """Append one write that moto accepted, synced to the disk before this returns."""
        line = json.dumps({"target": target, "body": body.decode("utf-8")}, ensure_ascii=False)
        with self._lock:
            if self._file is None:
                self._file = self.path.open("a", encoding="utf-8")
            self._file.write(line + "\n")
            self._file.flush()
            if self.sync:
                os.fdatasync(self._file.fileno())
            self.lines += 1

    def replay(self, app: WSGIApp) -> Replayed:
        """Apply every journalled write to ``app`` (moto, tables created) in order; a line
        that is not a write or that DynamoDB refuses is set aside (see the module's note)."""
        done = Replayed()
        if not self.path.exists():
            return done
        aside: list[bytes] = []
        lines = self.path.read_bytes().split(b"\n")
        torn = lines.pop()  # after the last newline: empty, or a line cut short by a crash
        if torn.strip():
            lines.append(torn)
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            target, body, reason = _parsed(raw)
            if reason is None:
                reason = _applied(app, target, body)
            if reason is None:
                done.applied += 1
            else:
                done.set_aside.append((number, reason))
                aside.append(raw)
        if aside:
            stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
            done.file = self.folder / SET_ASIDE.format(stamp=stamp)
            with done.file.open("ab") as out:
                out.write(b"".join(line + b"\n" for line in aside))
                out.flush()
                os.fsync(out.fileno())
            log.warning("%s", done.summary(self.path))
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
            _sync_folder(self.folder)
        return count

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def _parsed(raw: bytes) -> tuple[str, bytes, str | None]:
    """A journal line's target and request body, or why it is not a write of this journal."""
    try:
        entry = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return "", b"", "not UTF-8 text"
    except json.JSONDecodeError:
        return "", b"", "not JSON (a line cut short, or not written by the stack)"
    if not isinstance(entry, dict) or set(entry) != {"target", "body"}:
        return "", b"", 'not a journal entry ({"target": ..., "body": ...})'
    target, body = entry["target"], entry["body"]
    if target not in WRITES:
        return "", b"", f"not a DynamoDB write: {str(target)[:60]!r}"
    try:
        request = json.loads(body) if isinstance(body, str) else None
    except json.JSONDecodeError:
        request = None
    if not isinstance(request, dict):
        return "", b"", "its request is not a JSON object"
    return target, body.encode(), None


def _applied(app: WSGIApp, target: str, body: bytes) -> str | None:
    """Send one journalled write to ``app``; None when DynamoDB took it, else its refusal."""
    from werkzeug.test import EnvironBuilder

    headers = {**REPLAY_HEADERS, "X-Amz-Target": target}
    environ = EnvironBuilder(
        method="POST", path="/", headers=list(headers.items()), data=body
    ).get_environ()
    status: list[str] = []
    try:
        answer = b"".join(app(environ, _collect(status)))
    except Exception as error:  # whatever moto raises on it, the line is set aside
        return f"DynamoDB failed on it: {type(error).__name__}"
    if status and status[0].startswith("200"):
        return None
    return f"DynamoDB refused it: {answer[:160].decode('utf-8', 'replace')}"


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
        for name in (JOURNAL, SECRET, KEYS):  # the operator key stays: the operator's tools keep it
            (folder / name).unlink(missing_ok=True)
