"""Counting AWS calls in every process of the local stack (bench/bench_cost.py).

``install(directory)`` (run by bench/cost_hooks/sitecustomize.py at start-up) registers
botocore event hooks on every client any botocore session creates — DynamoDB, its streams,
SQS, SSM, the API Gateway Management API — and wraps the emulator's Lambda worker entry
point. Each call and each invocation becomes one JSON line in ``<directory>/<pid>.jsonl``:

- ``{"k": "call", "t", "fn", "svc", "op", "ok", "req", "resp", "rru", "wru", "table", "n"}``:
  the function that made it (``stack`` for the emulator itself: Lambda's pollers), request and
  response bytes, the DynamoDB read/write request units the call costs by AWS's sizing rules
  (item sizes from the request or the answer; see ``units``), and ``n`` messages received;
- ``{"k": "image", "t", "id", "v", "size", "keys"}``: every tables-table version the stream
  handed on (its item size and index attributes), read from GetRecords answers;
- ``{"k": "invoke", "t", "fn", "ms", "log_lines", "log_bytes", "cold"}``: one Lambda invocation,
  how long its handler ran, and the log events (lines) and their UTF-8 bytes its execution
  environment wrote to stdout and stderr since the invocation before (its init's lines go to its
  first, ``cold``, invocation), less the lines Lambda's application log-level filter would drop
  (bench/cost_logs.py: the level of AWS_LAMBDA_LOG_LEVEL, a line's ``level`` or INFO).

Item sizes follow the DynamoDB developer guide ("Item sizes and formats"): the UTF-8 length of
every attribute name and string, the bytes of a binary, about one byte per two digits of a
number plus one, 3 bytes plus one per element for a map or list.
"""

from __future__ import annotations

import functools
import json
import math
import os
import threading
import time
from typing import Any

from bench.cost_logs import kept_bytes

_lock = threading.Lock()
_log_lock = threading.Lock()
_files: dict[int, Any] = {}
_directory = ""
# this process's log events and bytes so far, and at the end of its last invocation
_logged = {"lines": 0, "bytes": 0, "reported_lines": 0, "reported_bytes": 0, "invocations": 0}
# the indexes' keys, and dueV (the version that set the deadline: it alone sends a timer)
INDEX_ATTRIBUTES = ("lobby", "watch", "createdAt", "due", "deadline", "dueV")
TABLES_STREAM_OPS = {"GetRecords"}


def value_size(value: dict[str, Any]) -> int:
    """The stored size of one low-level attribute value."""
    (kind, inner), *_ = value.items()
    if kind == "S":
        return len(str(inner).encode())
    if kind == "N":
        digits = str(inner).lstrip("-").replace(".", "").lstrip("0") or "0"
        return math.ceil(len(digits) / 2) + 1
    if kind == "B":
        return len(inner) if isinstance(inner, bytes | bytearray) else len(str(inner)) * 3 // 4
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return 3 + sum(len(k.encode()) + value_size(v) + 1 for k, v in inner.items())
    if kind == "L":
        return 3 + sum(value_size(v) + 1 for v in inner)
    if kind in ("SS", "NS", "BS"):
        return sum(value_size({kind[0]: v}) for v in inner)
    return len(json.dumps(inner))


def item_size(item: dict[str, Any]) -> int:
    """The stored size of a low-level item (names and values)."""
    return sum(len(name.encode()) + value_size(value) for name, value in item.items())


def _read_units(size: int, consistent: bool) -> float:
    units = max(1, math.ceil(size / 4096))
    return units if consistent else units / 2


def _write_units(size: int) -> int:
    return max(1, math.ceil(size / 1024))


def units(op: str, params: dict[str, Any], parsed: dict[str, Any]) -> tuple[float, float, str]:
    """(read units, write units, table) one DynamoDB call costs. Writes of an UpdateItem are
    sized by what it sets (bench/bench_cost.py sizes the tables table's own writes from the
    stream's images instead); a failed condition is billed as a write too."""
    table = str(params.get("TableName", ""))
    consistent = bool(params.get("ConsistentRead"))
    if op == "GetItem":
        return _read_units(item_size(parsed.get("Item") or {}), consistent), 0, table
    if op in ("Query", "Scan"):
        size = sum(item_size(i) for i in parsed.get("Items") or [])
        return _read_units(size, consistent), 0, table
    if op == "BatchGetItem":
        rru = 0.0
        for name, items in (parsed.get("Responses") or {}).items():
            table = name
            request = (params.get("RequestItems") or {}).get(name, {})
            for item in items:
                rru += _read_units(item_size(item), bool(request.get("ConsistentRead")))
        return rru, 0, table
    if op == "TransactGetItems":
        rru = sum(
            2 * _read_units(item_size(r.get("Item") or {}), True)
            for r in parsed.get("Responses") or []
        )
        return rru, 0, table
    if op == "PutItem":
        return 0, _write_units(item_size(params.get("Item") or {})), table
    if op in ("UpdateItem", "DeleteItem"):
        sized = dict(params.get("Key") or {})
        for i, value in enumerate((params.get("ExpressionAttributeValues") or {}).values()):
            sized[f"v{i}"] = value
        return 0, _write_units(item_size(sized)), table
    if op == "BatchWriteItem":
        wru = 0
        for name, requests in (params.get("RequestItems") or {}).items():
            table = name
            for request in requests:
                put = (
                    request.get("PutRequest", {}).get("Item")
                    or request.get("DeleteRequest", {}).get("Key")
                    or {}
                )
                wru += _write_units(item_size(put))
        return 0, wru, table
    if op == "TransactWriteItems":
        wru = 0.0
        tables = []
        for entry in params.get("TransactItems") or []:
            (_, body), *_ = entry.items()
            tables.append(str(body.get("TableName", "")))
            sized = dict(body.get("Item") or body.get("Key") or {})
            for i, value in enumerate((body.get("ExpressionAttributeValues") or {}).values()):
                sized[f"v{i}"] = value
            wru += 2 * _write_units(item_size(sized))
        return 0, wru, ",".join(tables)
    return 0, 0, table


def _write(record: dict[str, Any]) -> None:
    pid = os.getpid()
    with _lock:
        handle = _files.get(pid)
        if handle is None:
            handle = open(os.path.join(_directory, f"{pid}.jsonl"), "a", buffering=1)  # noqa: SIM115
            _files[pid] = handle
        handle.write(json.dumps(record) + "\n")


def _function() -> str:
    return os.environ.get("AWS_LAMBDA_FUNCTION_NAME", "stack")


def _params(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
    context["harftet_params"] = params


def _before(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
    body = params.get("body") or b""  # the serialized request
    context["harftet_count"] = (time.time(), len(body), context.get("harftet_params") or {})


def _after(
    http_response: Any, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any
) -> None:
    started, sent, params = context.pop("harftet_count", (time.time(), 0, {}))
    service = model.service_model.service_name
    op = model.name
    status = getattr(http_response, "status_code", 0)
    record: dict[str, Any] = {
        "k": "call",
        "t": started,
        "fn": _function(),
        "svc": service,
        "op": op,
        "ok": 200 <= status < 300,
        "code": (parsed.get("Error") or {}).get("Code", ""),
        "req": sent,
        "resp": len(getattr(http_response, "content", b"") or b""),
    }
    if service == "dynamodb":
        rru, wru, table = units(op, params, parsed if record["ok"] else {})
        if not record["ok"] and op in ("UpdateItem", "PutItem", "DeleteItem"):
            wru = wru or 1
        record.update(rru=rru, wru=wru, table=table)
    if service == "sqs" and op == "ReceiveMessage":
        record["n"] = len(parsed.get("Messages") or [])
    if service == "dynamodbstreams" and op in TABLES_STREAM_OPS:
        for r in parsed.get("Records") or []:
            image = (r.get("dynamodb") or {}).get("NewImage")
            if image and "state" in image:
                _write_image(image)
    _write(record)


def _write_image(image: dict[str, Any]) -> None:
    try:
        from harftet.store.table_items import from_stream_image

        status = from_stream_image(image).table.status
    except Exception:  # an image this code cannot read: sized all the same
        status = "?"
    _write(
        {
            "k": "image",
            "t": time.time(),
            "id": image["tableId"]["S"],
            "v": int(image["version"]["N"]),
            "size": item_size(image),
            "keys": {a: image[a] for a in INDEX_ATTRIBUTES if a in image},
            "status": status,
        }
    )


def _hook(client: Any) -> Any:
    events = client.meta.events
    events.register("before-parameter-build.*.*", _params)
    events.register("before-call.*.*", _before)
    events.register("after-call.*.*", _after)
    return client


class _CountedStream:
    """A text stream that counts the complete lines written through it (each a log event
    in CloudWatch Logs) and their UTF-8 bytes, as Lambda would keep them."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._partial = ""

    def write(self, text: str) -> int:
        written = int(self._stream.write(text) or 0)
        *lines, self._partial = (self._partial + text).split("\n")
        for line in lines:
            size = kept_bytes(line, os.environ.get("AWS_LAMBDA_LOG_LEVEL"))
            if size:
                with _log_lock:
                    _logged["lines"] += 1
                    _logged["bytes"] += size
                if os.environ.get("HARFTET_COUNT_LINES"):  # what was counted, to look at
                    _write({"k": "line", "t": time.time(), "fn": _function(), "text": line})
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _logged_since_last() -> dict[str, Any]:
    """The log lines and bytes written since the last invocation ended, and whether this is
    the execution environment's first (cold) invocation."""
    lines = _logged["lines"] - _logged["reported_lines"]
    size = _logged["bytes"] - _logged["reported_bytes"]
    _logged.update(reported_lines=_logged["lines"], reported_bytes=_logged["bytes"])
    _logged["invocations"] += 1
    return {"log_lines": lines, "log_bytes": size, "cold": _logged["invocations"] == 1}


def install(directory: str) -> None:
    """Count every call of every botocore client made from now on in this process (and the
    processes it forks), and every Lambda invocation of the local stack's workers."""
    global _directory
    _directory = directory
    import botocore.session

    original = botocore.session.Session.create_client
    if getattr(original, "harftet_counted", False):
        return

    @functools.wraps(original)
    def create_client(self: Any, *args: Any, **kwargs: Any) -> Any:
        return _hook(original(self, *args, **kwargs))

    create_client.harftet_counted = True  # type: ignore[attr-defined]
    botocore.session.Session.create_client = create_client  # type: ignore[method-assign]
    # Every line a handler prints (powertools' logger and metrics, warnings, tracebacks) goes
    # through these; a worker forked from this process inherits them before any handler loads.
    import sys

    sys.stdout = _CountedStream(sys.stdout)
    sys.stderr = _CountedStream(sys.stderr)
    try:
        from harftet.localstack import runtime
    except ImportError:
        return
    invoke = runtime._invoke_in_worker

    @functools.wraps(invoke)
    def _invoke_in_worker(event_json: str) -> str:
        started = time.perf_counter()
        try:
            return invoke(event_json)
        finally:
            ms = (time.perf_counter() - started) * 1000
            logged = _logged_since_last()
            _write({"k": "invoke", "t": time.time(), "fn": _function(), "ms": ms, **logged})

    runtime._invoke_in_worker = _invoke_in_worker  # type: ignore[assignment]
