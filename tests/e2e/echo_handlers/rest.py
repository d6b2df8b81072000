"""An echo REST handler for the emulator's own tests: it answers with what it was given."""

from __future__ import annotations

import base64
import json
import os
import time
from typing import Any


def _reply(status: int, body: Any, **extra: Any) -> dict[str, Any]:
    return {
        "statusCode": status,
        "headers": {"content-type": "application/json"},
        "body": json.dumps(body),
        **extra,
    }


def handler(event: dict[str, Any], context: Any) -> Any:
    """Echo the event; a few paths exercise the proxy-response translation."""
    path = event["path"]
    query = event["queryStringParameters"] or {}
    if path == "/sleep":
        started = time.time()
        time.sleep(float(query.get("s", "0.5")))
        return _reply(200, {"pid": os.getpid(), "start": started, "end": time.time()})
    if path.startswith("/status/"):
        return {
            "statusCode": int(path.rsplit("/", 1)[1]),
            "headers": {"x-single": "one", "x-both": "from-headers"},
            "multiValueHeaders": {"x-multi": ["a", "b"], "x-both": ["from-multi"]},
            "body": "custom body",
        }
    if path == "/binary":
        data = bytes(range(256))
        return {
            "statusCode": 200,
            "body": base64.b64encode(data).decode(),
            "isBase64Encoded": True,
            "headers": {"content-type": "application/octet-stream"},
        }
    if path == "/raise":
        raise RuntimeError("boom")
    if path == "/malformed":
        return {"no": "statusCode"}
    if path == "/not-json":
        return {"statusCode": 200, "body": json.dumps({}), "extra": {1, 2}}
    if path == "/exit":
        os._exit(3)
    if path == "/context":
        return _reply(
            200,
            {
                "function_name": context.function_name,
                "function_version": context.function_version,
                "invoked_function_arn": context.invoked_function_arn,
                "memory_limit_in_mb": context.memory_limit_in_mb,
                "aws_request_id": context.aws_request_id,
                "log_group_name": context.log_group_name,
                "log_stream_name": context.log_stream_name,
                "remaining": context.get_remaining_time_in_millis(),
                "env": {k: v for k, v in os.environ.items() if k.isupper()},
            },
        )
    return _reply(200, {"event": event, "pid": os.getpid()})
