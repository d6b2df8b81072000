"""Builds the service from the environment, once per process (Lambda cold start)."""

from __future__ import annotations

import os
from functools import cache

import boto3

from harftet.identity import default_tokens
from harftet.push import ManagementApiSender
from harftet.service import Service
from harftet.store.connections import ConnectionStore
from harftet.store.log import LogStore
from harftet.store.players import PlayerStore
from harftet.store.tables import TableStore


@cache
def default_service() -> Service:
    """The service over the tables named by TABLES_TABLE, PLAYERS_TABLE, CONNECTIONS_TABLE."""
    client = boto3.client("dynamodb")
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
