"""DynamoDB for the local stack: moto's server on a free port, with atomic conditional writes."""

from __future__ import annotations

import copy
import io
import logging
import os
import socket
import threading
from collections.abc import Callable, Iterable
from typing import Any

from harftet.localstack.persist import WRITES

DEFAULT_TABLE_NAMES = {
    "TablesTable": "harftet-tables",
    "PlayersTable": "harftet-players",
    "ConnectionsTable": "harftet-connections",
    "LogTable": "harftet-log",
    "MailTable": "harftet-mail",
    "MatchTable": "harftet-match",
}

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]


class SerializedWSGI:
    """Runs one request at a time through the wrapped WSGI app.

    Why: moto's DynamoDB backend has no per-item lock. Its update_item reads the item, checks
    the condition and writes in plain Python, and werkzeug serves each request in its own
    thread, so two conditional writes on one item can both pass the check. Measured with
    moto 5.2.5: 16 threads racing `ConditionExpression="version = :v"` on one item saw two
    winners in 4 of 30 rounds (with `sys.setswitchinterval(1e-6)`). Real DynamoDB makes a
    conditional write atomic per item; serialising requests restores that. moto spends its
    time holding the GIL anyway, so little throughput is lost.
    """

    def __init__(self, app: WSGIApp, journal: Any = None) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.journal = journal  # persist.Journal: successful writes are recorded there

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        """Handle one request under the lock, with the response body read inside it."""
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        body = b""
        recording = self.journal is not None and target in WRITES
        if recording:
            length = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(length) if length else b""
            environ["wsgi.input"] = io.BytesIO(body)
        statuses: list[str] = []

        def respond(status: str, headers: Any, *rest: Any) -> Any:
            statuses.append(status)
            return start_response(status, headers, *rest)

        with self.lock:
            response = self.app(environ, respond)
            try:
                content = list(response)
            finally:
                close = getattr(response, "close", None)
                if close is not None:
                    close()
            if recording and statuses and statuses[0].startswith("200"):
                self.journal.record(target, body)  # before the answer leaves
            return content


class _CopyWithoutTables:
    """The `copy` module as moto's DynamoDB models see it, except that a Table is not copied.

    moto backs up every table a TransactWriteItems touches with `copy.deepcopy(table)` —
    every item and every stream record the table ever had — and the server lock holds every
    other request while it copies. A long-lived local stack (a test session, a day of `make
    run`) grows tens of thousands of stream records: measured, a one-item transaction took
    0.6 s against 1,000 items and 3,000 records and then over 10 s, and every Lambda waiting
    on DynamoDB timed out. `_ItemUndo` keeps what a rollback needs instead.
    """

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)

    @staticmethod
    def deepcopy(value: Any, memo: Any = None) -> Any:
        from moto.dynamodb.models.table import Table

        return value if isinstance(value, Table) else copy.deepcopy(value, memo)


class _ItemUndo:
    """What a cancelled transaction must put back: each item it names, and each stream's end."""

    def __init__(self, backend: Any, transact_items: list[dict[str, Any]]) -> None:
        from moto.dynamodb.models.dynamo_type import DynamoType

        self.items: list[tuple[Any, Any, Any, Any]] = []  # (table, hash, range, saved or None)
        self.streams: dict[int, tuple[Any, int]] = {}  # id(shard) → (shard, records before)
        for entry in transact_items:
            try:
                op = next(iter(entry.values()))
                table = backend.tables.get(op.get("TableName"))
                key = op["Item"] if "Item" in op else op["Key"]
                hash_value = DynamoType(key[table.hash_key_attr])
                range_value = DynamoType(key[table.range_key_attr]) if table.has_range_key else None
            except Exception:  # a malformed entry: moto refuses it before writing it
                continue
            saved = table.get_item(hash_value, range_value)
            self.items.append((table, hash_value, range_value, copy.deepcopy(saved)))
            shard = table.stream_shard
            if shard is not None:
                self.streams.setdefault(id(shard), (shard, len(shard.items)))

    def apply(self) -> None:
        """Put every named item back as it was, and drop the stream records written since."""
        for table, hash_value, range_value, saved in self.items:
            if range_value is None:
                if saved is None:
                    table.items.pop(hash_value, None)
                else:
                    table.items[hash_value] = saved
            elif saved is None:
                table.items.get(hash_value, {}).pop(range_value, None)
            else:
                table.items[hash_value][range_value] = saved
        for shard, length in self.streams.values():
            del shard.items[length:]


def cheap_transactions() -> None:
    """Make moto's TransactWriteItems back up the items it names, not whole tables.

    The same all-or-nothing answer: a transaction that fails (a condition, a validation
    error) leaves every item and the stream as they were. Installed once per process.
    """
    from moto.dynamodb import models

    backend = models.DynamoDBBackend
    if getattr(backend.transact_write_items, "item_undo", False):
        return
    original = backend.transact_write_items
    models.copy = _CopyWithoutTables()  # type: ignore[assignment]

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        undo = _ItemUndo(self, transact_items)
        try:
            original(self, transact_items)
        except BaseException:
            undo.apply()
            raise

    transact_write_items.item_undo = True  # type: ignore[attr-defined]
    backend.transact_write_items = transact_write_items  # type: ignore[method-assign]


def quick_attribute_values() -> None:
    """Make moto serialise DynamoDB's AttributeValues by plain key lookups.

    moto 5.2 serialises every response through the service model, and for each member of a
    structure asks a chain of alias providers which attribute names might hold it (``S``,
    ``s``, ...). An AttributeValue is a plain dict with the wire names already, yet every one
    of them went through ten such lookups: measured, serialising a 100-friend player item was
    most of a GetItem's time, and most of a test that stores one. The same output (a test
    compares it with moto's own path), found with ``dict.get``. Installed once per process.
    """
    from moto.core.serialize import ResponseSerializer

    original = ResponseSerializer._serialize_type_structure
    if getattr(original, "quick", False):
        return

    def structure(self: Any, serialized: Any, value: Any, shape: Any, key: str) -> None:
        if type(value) is not dict or shape.name != "AttributeValue":
            return original(self, serialized, value, shape, key)
        wrapper = self.MAP_TYPE() if key else serialized
        members = shape.members
        for name, found in value.items():  # one of S, N, B, SS, NS, BS, M, L, NULL, BOOL
            member = members.get(name)
            if member is not None and found is not None:
                member.parent = shape
                self._serialize(wrapper, found, member, name)
        if key:
            self._default_serialize(serialized, wrapper, shape, key)
        return None

    structure.quick = True  # type: ignore[attr-defined]
    structure.original = original  # type: ignore[attr-defined]
    ResponseSerializer._serialize_type_structure = structure  # type: ignore[method-assign]


def quick_dispatch() -> None:
    """Make moto find a request's backend and handler method without rereading what never
    changes in a running process.

    moto 5.2's server lists its own package directory (``os.listdir`` and an ``isdir`` for each
    of some 150 entries) on every request to learn whether the Host names a service, and every
    request, in process or over HTTP, lists the handler class's methods with
    ``inspect.getmembers``. Both answers are fixed once moto is imported: here they are worked
    out once (tests/store/test_moto_speedups.py compares them with moto's own). Measured over
    HTTP on this machine, about a tenth of a conditional UpdateItem's CPU, client included.
    Installed once per process.
    """
    import functools

    from moto import backends
    from moto.core import responses

    if getattr(backends.list_of_moto_modules, "quick", False):
        return
    modules = tuple(backends.list_of_moto_modules())

    def list_of_moto_modules() -> tuple[str, ...]:
        return modules

    list_of_moto_modules.quick = True  # type: ignore[attr-defined]
    list_of_moto_modules.original = backends.list_of_moto_modules  # type: ignore[attr-defined]
    backends.list_of_moto_modules = list_of_moto_modules
    names = functools.cache(responses.method_names_from_class)
    names.original = responses.method_names_from_class  # type: ignore[attr-defined]
    responses.method_names_from_class = names


def quick_queues() -> None:
    """Make moto's SQS read the clock once when it lists a queue's receivable messages, and
    when it counts the delayed and the in-flight ones.

    ``Queue.messages`` (every ReceiveMessage, the queue's message counts) asked each message
    whether it is visible and past its delay, and each answer built a datetime: the timer queue
    holds a delayed message for every deadline, so a session's stack spent tens of ms per
    receive. Every SendMessage reads the queue's attributes (for one of them), counts
    included: a queue of 2,000 messages cost each message sent 4,000 datetimes (a
    tournament's round notifies 1,024 people at once: 20 s of the seating, every other call
    waiting behind the server's lock). The same tests on one reading of the clock
    (tests/store/test_moto_speedups.py compares the lists and counts). Installed once per
    process.
    """
    from moto.core.utils import unix_time_millis
    from moto.sqs.models import Message, Queue

    original: Any = Queue.__dict__["messages"]  # the property itself
    if getattr(original.fget, "quick", False):
        return

    def messages(self: Any) -> list[Message]:
        now = unix_time_millis()  # Message.visible: now > visible_at; .delayed: now < until
        return [m for m in self._messages if m.visible_at < now and m.delayed_until <= now]

    def delayed(self: Any) -> int:
        now = unix_time_millis()  # Message.delayed: now < delayed_until
        return sum(1 for m in self._messages if now < m.delayed_until)

    def not_visible(self: Any) -> int:
        now = unix_time_millis()  # Message.visible: now > visible_at
        return sum(1 for m in self._messages if not now > m.visible_at)

    messages.quick = True  # type: ignore[attr-defined]
    messages.original = original.fget  # type: ignore[attr-defined]
    Queue.messages = property(messages)  # type: ignore[method-assign,assignment]
    for name, count in (("delayed", delayed), ("not_visible", not_visible)):
        prop = f"approximate_number_of_messages_{name}"
        count.original = Queue.__dict__[prop].fget  # type: ignore[attr-defined]
        setattr(Queue, prop, property(count))


def moto_as_the_stack_runs_it() -> None:
    """Install every change above to moto (each once per process): the local stack's server and
    the tests' in-process moto run the same moto."""
    cheap_transactions()
    quick_attribute_values()
    quick_dispatch()
    quick_queues()


class MotoDynamo:
    """moto's server (DynamoDB and friends) in a background thread of this process."""

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, *, serialize: bool = True, journal: Any = None
    ) -> None:
        self.host = host
        self.port = port
        self.serialize = serialize or journal is not None
        self.journal = journal  # persist.Journal, or None: memory only
        self.app: WSGIApp | None = None
        self._socket: socket.socket | None = None
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def endpoint_url(self) -> str:
        """The URL boto3 takes as endpoint_url."""
        return f"http://{self.host}:{self.port}"

    def bind(self) -> str:
        """Take the port now (0 picks a free one) and return the endpoint URL; serve later."""
        if self._socket is None:
            self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            # A stack restarted after a crash binds its port again at once (without it:
            # Errno 98 while the old connections sit in TIME_WAIT, a minute or more).
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._socket.bind((self.host, self.port))
            self._socket.listen(128)
            self.port = self._socket.getsockname()[1]
        return self.endpoint_url

    def start(self) -> str:
        """Serve in a daemon thread (binding first if need be) and return the endpoint URL."""
        self.bind()
        assert self._socket is not None
        from moto.moto_server.werkzeug_app import (
            DomainDispatcherApplication,
            MotoRequestHandler,
            create_backend_app,
        )
        from werkzeug.serving import make_server

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
        moto_as_the_stack_runs_it()
        app: WSGIApp = DomainDispatcherApplication(create_backend_app)
        if self.serialize:
            app = SerializedWSGI(app, self.journal)
        self.app = app
        # The same server ThreadedMotoServer builds, with our middleware in front of the app.
        self._server = make_server(
            self.host,
            self.port,
            app,
            threaded=True,
            request_handler=MotoRequestHandler,
            fd=self._socket.fileno(),
        )
        self._thread = threading.Thread(target=self._server.serve_forever, name="moto", daemon=True)
        self._thread.start()
        return self.endpoint_url

    def restore(self, tables: Iterable[str]) -> int:
        """Replay the journal into the (new, empty) tables, then compact it; items kept."""
        if self.journal is None or self.app is None:
            return 0
        assert isinstance(self.app, SerializedWSGI)
        recording, self.app.journal = self.app.journal, None  # a replay is not written again
        try:
            self.journal.replay(self.app)
            return int(self.journal.compact(self.client(), tables))
        finally:
            self.app.journal = recording

    def stop(self) -> None:
        """Stop serving; the in-memory data goes with the process."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self.journal is not None:
            self.journal.close()

    def client(self, service: str = "dynamodb") -> Any:
        """A boto3 client for this server (DynamoDB, its streams, SQS), with dummy credentials."""
        import boto3
        from botocore.config import Config

        return boto3.client(
            service,  # type: ignore[call-overload]
            endpoint_url=self.endpoint_url,
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",
            config=Config(max_pool_connections=32, retries={"max_attempts": 2}),
        )


def create_tables(
    client: Any,
    names: dict[str, str] | None = None,
    template_path: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """Create the tables template.yaml declares and return {logical id: physical name}."""
    from harftet.store.schema import create_tables as create_from_template

    names = dict(names or DEFAULT_TABLE_NAMES)
    create_from_template(client, names, template_path=template_path)
    return names
