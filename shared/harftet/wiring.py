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
    service = Service(
        tables=TableStore(client, os.environ["TABLES_TABLE"], players_table),
        players=PlayerStore(client, players_table),
        connections=ConnectionStore(client, os.environ["CONNECTIONS_TABLE"]),
        tokens=default_tokens(),
        send=ManagementApiSender(endpoint) if endpoint else None,
        test_mode=os.environ.get("TEST_MODE", "").lower() in ("1", "true", "yes"),
        log=LogStore(client, log_table) if log_table else None,
        inbox=_inbox(),
    )
    from harftet.accounts.presence import Presence

    service.presence = Presence(service).changed  # friends are told (API.md v3 "presence")
    return service


def _inbox() -> Any:
    """The inbox (harftet.inbox) on MAIL_TABLE, where the stack has one."""
    name = os.environ.get("MAIL_TABLE")
    if not name:
        return None
    from harftet.inbox import InboxStore

    return InboxStore(dynamodb(), name)


def _notify_queue() -> Any:
    url = os.environ.get("NOTIFY_QUEUE_URL")
    if not url:
        return None
    from harftet.notify import NotifyQueue

    return NotifyQueue(boto3.client("sqs"), url)


@cache
def default_outbox(service: Service) -> Any:
    """Inbox items and notifications of ``service``'s tables (None without MAIL_TABLE)."""
    from harftet.notify.outbox import Outbox

    if service.inbox is None:
        return None

    def connected(table_id: str) -> set[str]:
        return {str(c["playerId"]) for c in service.connections.for_table(table_id)}

    return Outbox(service.inbox, _notify_queue(), connected, service.clock)


def _mobile() -> Any:
    apps = {
        "fcm": os.environ.get("FCM_APPLICATION_ARN", ""),
        "apns": os.environ.get("APNS_APPLICATION_ARN", ""),
    }
    if not any(apps.values()):
        return None
    from harftet.notify.deliver import MobilePush

    return MobilePush(boto3.client("sns"), apps)


def _local_push_prefix(service: Service) -> str | None:
    """The local stack's own push receiver, allowed as an endpoint in test mode only."""
    prefix = os.environ.get("LOCAL_PUSH_PREFIX")
    return prefix if prefix and service.test_mode else None


@cache
def default_mail(service: Service) -> Any:
    """The inbox and notification routes' use cases over ``service`` (harftet.notify.api)."""
    from harftet.notify import vapid
    from harftet.notify.api import Mail
    from harftet.notify.targets import Targets

    name = os.environ.get("MAIL_TABLE")
    if not name or service.inbox is None:
        return None
    return Mail(
        service.inbox,
        Targets(dynamodb(), name, service.clock),
        service.tokens,
        mobile=_mobile(),
        public_key=vapid.server_public_key,
        local_prefix=_local_push_prefix(service),
        clock=service.clock,
    )


@cache
def default_notifier() -> Any:
    """The notifier function's deliverer (harftet.notify.deliver)."""
    from harftet.notify import Notification, vapid
    from harftet.notify.deliver import Notifier, WebPush
    from harftet.notify.targets import Targets

    service = default_service()
    queue = _notify_queue()

    def requeue(n: Notification, delay: int) -> None:
        if queue is not None:
            queue.send([n], delay)

    def name_of(player_id: str) -> str | None:
        try:
            return str(service.players.get(player_id)["name"])
        except Exception:
            return None

    key = vapid.private_key()
    web = None
    if key:
        subject = os.environ.get("VAPID_SUBJECT", "mailto:ops@harftet.invalid")
        web = WebPush(lambda: key, subject, local_prefix=_local_push_prefix(service))
    return Notifier(
        Targets(dynamodb(), os.environ["MAIL_TABLE"], service.clock),
        service.inbox,
        web,
        _mobile(),
        requeue,
        service.clock,
        name_of,
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
    return Publisher(service, log=service.log, timers=timers, outbox=default_outbox(service))
