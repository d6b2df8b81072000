"""Builds the service (and the publisher) from the environment, once per process (Lambda
cold start)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config

from harftet.identity import default_tokens
from harftet.push import ManagementApiSender
from harftet.service import Service
from harftet.store.connections import ConnectionStore
from harftet.store.log import LogStore
from harftet.store.players import PlayerStore
from harftet.store.tables import TableStore

if TYPE_CHECKING:
    from harftet.publish import Publisher

# Explicit rather than the SDK's defaults: standard mode retries throttling and 5xx with
# backoff, 4 attempts in all; a request never waits on a dead socket for long.
DYNAMODB_CONFIG = Config(
    retries={"mode": "standard", "total_max_attempts": 4},
    connect_timeout=2,
    read_timeout=5,
    max_pool_connections=32,
)


class LazyClient:
    """A boto3 client made on its first use, then that one client for the process.

    Building a DynamoDB client loads botocore's service model, about a sixth of the REST
    handler's cold start (bench/bench_cold_start.py): made at import, every new instance paid
    for it before its first request, also when that request needs no table (a CORS preflight,
    ``/health``, a refused token). Every attribute is the real client's.
    """

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self._client: Any = None
        self._lock = threading.Lock()  # one client, also if threads race to the first call

    def real(self) -> Any:
        """The real client (made now if it does not exist yet)."""
        client = self._client
        if client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._make()
                client = self._client
        return client

    @property
    def created(self) -> bool:
        return self._client is not None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # never the client's: no recursion before __init__ ran
            raise AttributeError(name)
        return getattr(self.real(), name)


@cache
def dynamodb() -> LazyClient:
    """The process's one DynamoDB client (every store and the limits share it)."""
    return LazyClient(lambda: boto3.client("dynamodb", config=DYNAMODB_CONFIG))


@cache
def default_service() -> Service:
    """The service over the tables named by TABLES_TABLE, PLAYERS_TABLE, CONNECTIONS_TABLE."""
    client = dynamodb()
    players_table = os.environ["PLAYERS_TABLE"]
    endpoint = os.environ.get("WS_ENDPOINT")
    log_table = os.environ.get("LOG_TABLE")
    return Service(
        tables=TableStore(client, os.environ["TABLES_TABLE"], players_table),
        players=PlayerStore(client, players_table),
        connections=ConnectionStore(client, os.environ["CONNECTIONS_TABLE"]),
        tokens=default_tokens(),
        send=ManagementApiSender(endpoint) if endpoint else None,
        test_mode=os.environ.get("TEST_MODE", "").lower() in ("1", "true", "yes"),
        log=LogStore(client, log_table) if log_table else None,
    )


@cache
def default_publisher() -> Publisher:
    """The stream consumer's and the timer function's publisher: pushes through the service's
    sender (WS_ENDPOINT), appends to LOG_TABLE and schedules on TIMER_QUEUE_URL (when set)."""
    from harftet.publish import Publisher
    from harftet.timers import TimerQueue

    service = default_service()
    queue_url = os.environ.get("TIMER_QUEUE_URL")
    timers = TimerQueue(boto3.client("sqs"), queue_url) if queue_url else None
    return Publisher(service, log=service.log, timers=timers)
