"""The AWS clients a container makes (each on its first use) and the DynamoDB stores over
them, each made when a feature first asks for it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache, cached_property
from importlib import import_module
from typing import Any

import boto3
from botocore.config import Config

from .settings import Settings

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
    """The process's one DynamoDB client (every store shares it)."""
    return LazyClient(lambda: boto3.client("dynamodb", config=DYNAMODB_CONFIG))


@cache
def client(service: str) -> LazyClient:
    """The process's one client of another AWS service (``sqs``, ``sns``)."""
    return LazyClient(lambda: boto3.client(service))  # type: ignore[call-overload]


# Every store but the tables' and the log's: its module of harftet.store, its class, and the
# setting that names its table.
STORES = {
    "players": ("players", "PlayerStore", "players_table"),
    "connections": ("connections", "ConnectionStore", "connections_table"),
    "profiles": ("profiles", "ProfileStore", "players_table"),
    "accounts": ("accounts", "AccountStore", "players_table"),
    "counters": ("limits", "LimitStore", "connections_table"),
    "inbox": ("inbox", "InboxStore", "mail_table"),
    "mail": ("mail", "MailStore", "mail_table"),
    "word_reports": ("word_reports", "WordReportStore", "players_table"),
    "leagues": ("leagues", "LeagueStore", "players_table"),
    "matches": ("matchmaking", "MatchStore", "match_table"),
    "tournaments": ("tournaments", "TournamentStore", "players_table"),
}
OPTIONAL_TABLES = (
    "log_table",
    "mail_table",
    "match_table",
)  # not named: no such table here, no store


class DynamoStores:
    """Every store of the application over one DynamoDB client and the settings' tables;
    each is made on first use, so a function builds only the stores it touches."""

    def __init__(self, client: Any, settings: Settings) -> None:
        self.client = client
        self.settings = settings

    @cached_property
    def tables(self) -> Any:
        from harftet.store.table_items import IndexKeys
        from harftet.store.tables import TableStore

        s = self.settings
        index = IndexKeys(s.deadline_shards, int(s.deadline_step_seconds * 1000))
        return TableStore(
            self.client,
            s.tables_table,
            s.players_table,
            index,
            write_format=s.table_write_format,
            lean_timers=s.timers_lean,
        )

    @cached_property
    def log(self) -> Any:
        """The table log (None without a log table)."""
        from harftet.store.log import LogStore

        s = self.settings
        if not s.log_table:
            return None
        return LogStore(self.client, s.log_table, per_change=s.log_per_change)

    @cached_property
    def answers(self) -> Any:
        """The kept move answers, in the format the settings write (None without a mail table)."""
        from harftet.store.answers import AnswerStore

        s = self.settings
        if not s.mail_table:
            return None
        return AnswerStore(self.client, s.mail_table, write_format=s.answer_write_format)

    def __getattr__(self, name: str) -> Any:
        """Every other store (`STORES`), made on first use, then kept."""
        if name not in STORES:
            raise AttributeError(name)
        module, kind, setting = STORES[name]
        table = getattr(self.settings, setting)
        store = None
        if table or setting not in OPTIONAL_TABLES:
            store = getattr(import_module(f"harftet.store.{module}"), kind)(self.client, table)
        self.__dict__[name] = store
        return store
