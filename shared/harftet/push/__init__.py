"""WebSocket fan-out through the API Gateway Management API."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any, Protocol

from botocore.exceptions import ClientError

logger = logging.getLogger(__name__)


class Sender(Protocol):
    """Posts one message to one connection; False when the connection is gone."""

    def __call__(self, connection_id: str, payload: dict[str, Any]) -> bool: ...


class ManagementApiSender:
    """Posts with boto3's ``apigatewaymanagementapi`` client (created on first use)."""

    def __init__(self, endpoint_url: str, client: Any = None) -> None:
        self._endpoint = endpoint_url
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3

            self._client = boto3.client("apigatewaymanagementapi", endpoint_url=self._endpoint)
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


def fan_out(send: Sender, messages: Iterable[tuple[str, dict[str, Any]]]) -> list[str]:
    """Send each (connection, payload); one failing connection never stops the others.
    Returns the connections that are gone."""
    gone: list[str] = []
    for connection_id, payload in messages:
        try:
            if not send(connection_id, payload):
                gone.append(connection_id)
        except Exception:  # a push failure must not undo a committed move
            logger.exception("push to a connection failed", extra={"connection": connection_id})
    return gone
