"""What several test folders share: the local table names and the clock and push doubles.

A plain module (not a conftest): ``from conftest import ...`` finds whichever folder's conftest
was imported last, so shared names live here.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
from botocore.awsrequest import AWSResponse
from botocore.exceptions import ReadTimeoutError
from botocore.httpsession import URLLib3Session

from harftet.localstack.lambda_events import FakeLambdaContext

ROOT = Path(__file__).resolve().parents[1]
EVENTS = ROOT / "events"
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
SEED = 8675309412  # a distinctive number: it must never appear in a response
# API.md, "Identity" and "Tables" (plus the health check): every route of the contract.
API_MD_ROUTES = {
    ("POST", "/players"),
    ("GET", "/players/{playerId}"),
    ("POST", "/tables"),
    ("GET", "/tables"),
    ("GET", "/tables/{tableId}"),
    ("POST", "/tables/{tableId}/seats/{seat}"),
    ("DELETE", "/tables/{tableId}/seats/{seat}"),
    ("POST", "/tables/{tableId}/start"),
    ("POST", "/tables/{tableId}/continue"),
    ("POST", "/tables/{tableId}/moves"),
    ("GET", "/tables/{tableId}/hint"),
    ("GET", "/tables/{tableId}/log"),
    ("GET", "/tables/{tableId}/replay"),
    ("GET", "/health"),
    # API.md v3 "Words"
    ("GET", "/words/{word}"),
    ("POST", "/words/{word}/reports"),
    # API.md v4 "Matchmaking"
    ("POST", "/matchmaking"),
    ("GET", "/matchmaking/{ticketId}"),
    ("DELETE", "/matchmaking/{ticketId}"),
}


@functools.cache
def aws_session() -> boto3.session.Session:
    """One boto3 session for the whole run. moto's ``mock_aws`` drops boto3's default
    session, so every ``boto3.client(...)`` inside it builds a new one (≈0.2 s each); a
    client from this one costs ≈15 ms."""
    return boto3.session.Session(region_name="us-east-1")


TABLE_NAMES = {
    "TablesTable": "harftet-tables",
    "PlayersTable": "harftet-players",
    "ConnectionsTable": "harftet-connections",
    "LogTable": "harftet-log",
}


MAIL_TABLE = {"MailTable": "harftet-mail"}


def scan_all(dynamodb: Any, table: str) -> list[dict[str, Any]]:
    """Every item of ``table``, page after page, as Python values (tests that look everywhere)."""
    from harftet.store.items import deserialize

    items, kwargs = [], {"TableName": table}
    while True:
        page = dynamodb.scan(**kwargs)
        items += [deserialize(i) for i in page["Items"]]
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def with_mail(client: Any, names: dict[str, str]) -> dict[str, str]:
    """``names`` with the template's mail table, made in ``client``'s DynamoDB."""
    from harftet.store.schema import create_tables

    create_tables(client, MAIL_TABLE)
    return {**names, **MAIL_TABLE}


def test_settings(
    names: dict[str, str],
    *,
    log: bool = False,
    mail: bool = False,
    environ: dict[str, str] | None = None,
) -> Any:
    """Test-mode settings over the template's tables ``names`` (the log and the mail table
    only when asked for, as a stack without them runs; ``environ``: settings a feature reads
    in its own words, e.g. PASSKEY_RP_ID)."""
    from harftet.bootstrap import Settings

    return Settings(
        environ=dict(environ or {}),
        tables_table=names["TablesTable"],
        players_table=names["PlayersTable"],
        connections_table=names["ConnectionsTable"],
        log_table=names.get("LogTable") if log else None,
        mail_table=names.get("MailTable") if mail else None,
        test_mode=True,
    )


def app_over(
    client: Any,
    names: dict[str, str],
    clock: Any,
    *,
    send: Any = None,
    log: bool = False,
    mail: bool = False,
    environ: dict[str, str] | None = None,
    **options: Any,
) -> Any:
    """The application (test mode) over the template's tables ``names`` reached through
    ``client`` (in-process moto or a server), with the test's clock and sender."""
    import os

    from harftet.bootstrap import App, DynamoStores
    from harftet.identity import Tokens

    settings = test_settings(names, log=log, mail=mail, environ=environ)
    return App(
        settings,
        DynamoStores(client, settings),
        clock=clock,
        send=send,
        signer=Tokens(os.environ["TOKEN_SECRET"]),
        **options,
    )


def publisher_over(app: Any, **ports: Any) -> Any:
    """The stream's publisher over ``app``'s connections, sender and clock, a connection found
    gone disconnected through the app's own use case; ``ports``: its log, timers, outbox,
    presence hook (none unless given)."""
    from harftet.fanout import Publisher

    return Publisher(
        app.stores.connections, app.sender, app.clock, disconnect=app.sockets.disconnect, **ports
    )


class PushedLog:
    """The publisher's log port, keeping what it was given."""

    def __init__(self):
        self.appended = []

    def append(self, table_id, events):
        self.appended.append((table_id, events))


class FakeTimers:
    """The publisher's timers port, keeping what it was asked to schedule."""

    def __init__(self):
        self.scheduled = []

    def schedule(self, timer, now):
        self.scheduled.append(timer)


class Clock:
    """A clock that moves only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Outbox:
    """A WebSocket sender that records every push; ids in ``gone`` answer GoneException."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.gone: set[str] = set()

    def __call__(self, connection_id: str, payload: dict[str, Any]) -> bool:
        if connection_id in self.gone:
            return False
        self.sent.append((connection_id, payload))
        return True

    def to(self, connection_id: str) -> list[dict[str, Any]]:
        return [p for c, p in self.sent if c == connection_id]

    def view(self, connection_id: str, base: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """The view a client of ``connection_id`` holds after every push it was sent (starting
        from ``base``, a view it fetched before), as clients rebuild it."""
        views = rebuilt(self.to(connection_id), base)
        return views[-1] if views else base


def rebuilt(pushes: list[dict[str, Any]], base: dict[str, Any] | None = None) -> list[Any]:
    """The view after each table push in ``pushes``, as a client rebuilds it from ``base``: a
    whole view replaces an older one, a delta applies to it (DeltaError when one does not fit:
    the client would have had to ask for the whole view), a push of a version it holds already
    changes nothing; other messages are skipped."""
    from harftet.api.delta import apply_delta

    views = []
    view = base
    for pushed in pushes:
        if pushed["type"] == "table":
            if view is None or pushed["view"]["version"] >= view["version"]:
                view = pushed["view"]
        elif pushed["type"] == "delta":
            assert view is not None, f"a delta before any view: {pushed}"
            if pushed["version"] > view["version"]:
                view = apply_delta(view, pushed)
        else:
            continue
        views.append(view)
    return views


# -- the Lambda handlers fed the events/ files (tests/handlers, and whoever needs them) --
class LambdaContext(FakeLambdaContext):
    """The local stack's Lambda context (its ARN and log group named by the function), with
    one request id and always 10 s left: the handlers' runs repeat to the letter."""

    def __init__(self, function_name: str = "harftet-RestFunction-1A2B3C4D") -> None:
        super().__init__(function_name, aws_request_id="52fdfc07-2182-154f-163f-5f0f9a621d72")

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def _substitute(value: Any, values: dict[str, str]) -> Any:
    if isinstance(value, str):
        return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), value)
    if isinstance(value, dict):
        return {k: _substitute(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, values) for v in value]
    return value


def placeholders(value: Any) -> set[str]:
    """The placeholder names left anywhere in an event."""
    return set(PLACEHOLDER.findall(json.dumps(value, ensure_ascii=False)))


def ran(args: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    """A command run to its end, its output as text (``options`` as subprocess.run takes
    them); the caller checks its exit status."""
    return subprocess.run(args, capture_output=True, text=True, check=False, **options)


def load_event(name: str, /, body: Any = ..., **values: Any) -> dict[str, Any]:
    """events/<name>.json with its placeholders replaced; ``body`` replaces the body
    (a str as is, anything else as JSON). Without ``token`` the Authorization is dropped."""
    event = json.loads((EVENTS / f"{name}.json").read_text())
    if body is not ...:
        event["body"] = body if isinstance(body, str) or body is None else json.dumps(body)
    event = _substitute(event, {k: str(v) for k, v in values.items() if v is not None})
    if values.get("token") is None:
        for key in ("headers", "multiValueHeaders"):
            if event.get(key):
                event[key].pop("Authorization", None)
        query = event.get("queryStringParameters")
        if query and "token" in query and "{{" in query["token"]:
            del query["token"]
            event["multiValueQueryStringParameters"].pop("token", None)
    left = placeholders(event)
    assert not left, f"placeholders left in {name}: {sorted(left)}"
    return event


@dataclass
class Reply:
    status: int
    body: Any
    raw: str
    headers: dict[str, str]


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def assert_nothing_secret(raw: str, body: Any) -> None:
    """No response ever shows the shuffle seed (its value or a "seed" field)."""
    assert str(SEED) not in raw
    assert "seed" not in {k.lower() for k in _keys(body)}


def routed(
    event: dict[str, Any], method: str, path: str, body: Any = None, token: str | None = None
) -> dict[str, Any]:
    """A copy of an events/rest/ event turned into ``method path`` with a JSON ``body`` and the
    bearer ``token`` (None: no Authorization)."""
    event = copy.deepcopy(event)
    event["httpMethod"] = event["requestContext"]["httpMethod"] = method
    event["path"] = path
    event["requestContext"]["path"] = "/prod" + path
    event["body"] = None if body is None else json.dumps(body)
    for key in ("headers", "multiValueHeaders"):
        event[key].pop("Authorization", None)
    if token is not None:
        event["headers"]["Authorization"] = f"Bearer {token}"
        event["multiValueHeaders"]["Authorization"] = [f"Bearer {token}"]
    return event


class Rest:
    """Invokes the REST handler with events/rest/*.json; every reply is kept in ``replies``.
    ``after`` runs after each invocation (the stream handing what was stored to the fan-out)."""

    def __init__(self, module: Any, after: Callable[[], Any] | None = None) -> None:
        self.module = module
        self.after = after
        self.replies: list[Reply] = []

    def invoke(self, event: dict[str, Any]) -> Reply:
        try:
            result = self.module.handler(copy.deepcopy(event), LambdaContext())
        finally:
            if self.after is not None:
                self.after()
        raw = result.get("body") or ""
        headers = {k: v[-1] for k, v in (result.get("multiValueHeaders") or {}).items()}
        headers.update(result.get("headers") or {})
        reply = Reply(result["statusCode"], json.loads(raw) if raw else None, raw, headers)
        assert_nothing_secret(raw, reply.body)
        self.replies.append(reply)
        return reply

    def __call__(self, name: str, /, body: Any = ..., **values: Any) -> Reply:
        return self.invoke(load_event(f"rest/{name}", body, **values))


# -- faults: botocore's event hooks on real clients, against moto's server ------------------
MOTO_SERVER = """
import sys
from harftet.localstack.dynamo import MotoDynamo
print(MotoDynamo().start(), flush=True)
sys.stdin.read()
"""


@contextmanager
def moto_server() -> Iterator[str]:
    """moto's server as the local stack runs it (serialised, so conditional writes are
    atomic), in its own process (moto's state is global); yields its endpoint URL."""
    process = subprocess.Popen(
        [sys.executable, "-c", MOTO_SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        yield process.stdout.readline().strip()
    finally:
        process.kill()
        process.wait(timeout=10)


class _Body:
    """The raw body of an injected response, as botocore reads it (``stream()``)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self.data


@dataclass(frozen=True)
class Fault:
    """What an injected attempt does instead of reaching the server: answer ``status`` with
    the error ``code`` (and ``extra`` body fields), or with ``lose`` send the request for
    real and then lose the answer (a read timeout after the server acted). ``before`` runs
    first (e.g. another writer slipping in), and the request then goes on when ``code`` is
    empty and ``lose`` is False."""

    status: int = 400
    code: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    lose: bool = False
    before: Callable[[], Any] | None = None


THROTTLED = Fault(400, "ProvisionedThroughputExceededException")
THROTTLING = Fault(400, "ThrottlingException")
INTERNAL = Fault(500, "InternalServerError")


def cancelled(*reasons: str) -> Fault:
    """TransactionCanceledException with one reason code per item of the transaction."""
    return Fault(
        400,
        "TransactionCanceledException",
        {"CancellationReasons": [{"Code": r, "Message": r} for r in reasons]},
    )


class Faults:
    """Fault injection on a real boto3 client through its ``before-send`` hook: the request
    is built, signed, retried and backed off by botocore exactly as in production (a Stubber
    would bypass all of that); a planned fault answers an attempt in the server's place, and
    ``otherwise`` (when given) every other attempt.
    ``attempts`` counts every attempt that reached the hook, by operation."""

    def __init__(self, client: Any, otherwise: Callable[[Any], Any] | None = None) -> None:
        self.otherwise = otherwise  # answers the attempts no fault is planned for (None: send)
        self.attempts: Counter[str] = Counter()
        self.urls: Counter[str] = Counter()  # attempts by request URL
        self.injected: Counter[str] = Counter()
        self.plan: dict[str, list[tuple[str, Fault]]] = {}
        self._lock = threading.Lock()
        self._http = URLLib3Session()
        prefix = client.meta.service_model.service_id.hyphenize()
        self._prefix = prefix
        client.meta.events.register(f"before-send.{prefix}", self._before_send)

    def fail(self, operation: str, fault: Fault, times: int = 1, where: str = "") -> None:
        """The next ``times`` attempts of ``operation`` (e.g. "UpdateItem") whose URL holds
        ``where`` meet ``fault``."""
        with self._lock:
            self.plan.setdefault(operation, []).extend([(where, fault)] * times)

    def clear(self) -> None:
        with self._lock:
            self.plan.clear()
            self.attempts.clear()
            self.urls.clear()
            self.injected.clear()

    def _before_send(self, request: Any, event_name: str, **_: Any) -> Any:
        operation = event_name.rsplit(".", 1)[-1]
        with self._lock:
            self.attempts[operation] += 1
            self.urls[request.url] += 1
            planned = self.plan.get(operation) or []
            found = next((i for i, (where, _) in enumerate(planned) if where in request.url), None)
            fault = planned.pop(found)[1] if found is not None else None
            if fault is not None:
                self.injected[operation] += 1
        if fault is None:
            return None if self.otherwise is None else self.otherwise(request)
        if fault.before is not None:
            fault.before()
        if fault.lose:
            self._http.send(request)  # the server acts ...
            raise ReadTimeoutError(endpoint_url=request.url)  # ... and its answer is lost
        if not fault.code:
            return None
        body = {"__type": f"com.amazonaws.injected#{fault.code}", **fault.extra}
        body["message"] = f"injected {fault.code}"
        headers = {"x-amzn-ErrorType": fault.code, "Content-Type": "application/x-amz-json-1.0"}
        return AWSResponse(request.url, fault.status, headers, _Body(json.dumps(body).encode()))


class Sleeps:
    """Stands in for ``time`` in botocore's endpoint: records each retry's backoff instead
    of sleeping it (``monkeypatch.setattr(botocore.endpoint, "time", Sleeps())``)."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.delays.append(seconds)
