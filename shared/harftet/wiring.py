"""Builds the service (and the publisher) from the environment, once per process (Lambda
cold start)."""

from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING

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


@cache
def default_service() -> Service:
    """The service over the tables named by TABLES_TABLE, PLAYERS_TABLE, CONNECTIONS_TABLE."""
    client = boto3.client("dynamodb", config=DYNAMODB_CONFIG)
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
