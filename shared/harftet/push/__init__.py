"""WebSocket fan-out through the API Gateway Management API."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from botocore.exceptions import ClientError

logger = logging.getLogger(__name__)
# Posts in flight at once: one slow or dead connection holds one thread, never the others.
WORKERS = 32
# A post either lands fast or the connection is as good as gone; botocore's standard retry
# mode retries throttling and 5xx twice more.
CLIENT_CONFIG: dict[str, Any] = {
    "connect_timeout": 1,
    "read_timeout": 2,
    "retries": {"mode": "standard", "total_max_attempts": 3},
    "max_pool_connections": WORKERS,
}


class Sender(Protocol):
    """Posts one message to one connection; False when the connection is gone."""

    def __call__(self, connection_id: str, payload: dict[str, Any], /) -> bool: ...


class ManagementApiSender:
    """Posts with boto3's ``apigatewaymanagementapi`` client (created on first use)."""

    def __init__(self, endpoint_url: str, client: Any = None) -> None:
        self._endpoint = endpoint_url
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3
            from botocore.config import Config

            self._client = boto3.client(
                "apigatewaymanagementapi",
                endpoint_url=self._endpoint,
                config=Config(**CLIENT_CONFIG),
            )
        return self._client

    def __call__(self, connection_id: str, payload: dict[str, Any]) -> bool:
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
        try:
            self.client.post_to_connection(ConnectionId=connection_id, Data=data)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "GoneException":
                return False
            raise
        return True

    def close(self, connection_id: str) -> bool:
        """Close one connection (DeleteConnection: the client's socket closes, then API
        Gateway runs $disconnect); False when it was gone already."""
        try:
            self.client.delete_connection(ConnectionId=connection_id)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "GoneException":
                return False
            raise
        return True


def fan_out(send: Sender, messages: Iterable[tuple[str, dict[str, Any]]]) -> tuple[list[str], int]:
    """Send each (connection, payload) concurrently; one failing or slow connection never
    stops or delays the others. Returns the connections that are gone, and how many posts
    failed otherwise (after the client's retries)."""
    batch = list(messages)
    if not batch:
        return [], 0
    failed = "failed"

    def post(message: tuple[str, dict[str, Any]]) -> str | None:
        connection_id, payload = message
        try:
            return None if send(connection_id, payload) else connection_id
        except Exception:  # a push failure must not undo a committed move
            logger.exception("push to a connection failed", extra={"connection": connection_id})
            return failed

    if len(batch) == 1:
        results = [post(batch[0])]
    else:
        with ThreadPoolExecutor(min(WORKERS, len(batch)), thread_name_prefix="push") as pool:
            results = list(pool.map(post, batch))
    gone = [r for r in results if r is not None and r is not failed]
    return gone, sum(r is failed for r in results)
