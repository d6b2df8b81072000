"""The whole local stack: moto's DynamoDB with the template's tables, the handlers' environment,
and the emulator served by uvicorn. `serve` runs it in this process (what `make run` does);
launcher.py runs it as a child process (what the e2e fixtures do).
"""

from __future__ import annotations

import ast
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harftet.localstack.environment import QUEUE_NAMES, dynamodb_port, handler_env, queue_url

if TYPE_CHECKING:  # imported where used, after the forkserver has started
    import uvicorn
    from starlette.applications import Starlette

    from harftet.localstack.dynamo import MotoDynamo
    from harftet.localstack.emulator import Emulator
    from harftet.localstack.persist import Journal

REPO_ROOT = Path(__file__).resolve().parents[3]
FUNCTIONS = REPO_ROOT / "functions"
DEFAULT_HANDLERS = {
    "rest": FUNCTIONS / "rest" / "app.py",
    "ws": FUNCTIONS / "ws" / "app.py",
    "sweeper": FUNCTIONS / "sweeper" / "app.py",
    "fanout": FUNCTIONS / "fanout" / "app.py",
    "timer": FUNCTIONS / "timer" / "app.py",
    "notifier": FUNCTIONS / "notifier" / "app.py",
    "leagues": FUNCTIONS / "leagues" / "app.py",
    "matcher": FUNCTIONS / "matcher" / "app.py",
    "keys": FUNCTIONS / "keys" / "app.py",
    "synthetic": FUNCTIONS / "synthetic" / "app.py",
    "tournaments": FUNCTIONS / "tournaments" / "app.py",
    # CodeDeploy's pre-traffic hooks: invoked through the stack's Lambda API (lambda_api.py)
    "pretraffic": FUNCTIONS / "pretraffic" / "app.py",
    "wspretraffic": FUNCTIONS / "wspretraffic" / "app.py",
}
# How often the local schedule invokes the sweeper. AWS runs it once a minute
# (template.yaml's TurnSweepRate): it is the safety net behind the exact SQS timers, arms
# correspondence timers and queues reminders. 10 s keeps a lost timer's delay short on a
# developer's stack; every run makes some 17 index queries, and at 2 s an idle stack spent 7 %
# of a core on them.
SWEEP_SECONDS = 10.0
# How often the local schedule invokes the matcher (one pass over every pool each time). In
# AWS a run each minute makes a pass every 2 s for 50 s (MATCH_WINDOW_SECONDS): the same
# cadence, minus the wait for the next EventBridge minute.
MATCH_SECONDS = 1.0
log = logging.getLogger("harftet.localstack")


def shared_imports(handler_files: list[Path]) -> list[str]:
    """The `harftet.*` modules the handler files import (absolute imports, at any level)."""
    modules: set[str] = set()
    for path in handler_files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            modules.update(n for n in names if n == "harftet" or n.startswith("harftet."))
    # `from harftet.x import name` also lists harftet.x.name, which preload.py tries and skips.
    return sorted(modules)


@dataclass
class StackOptions:
    """How to run the stack; a handler of None is left out."""

    host: str = "127.0.0.1"
    port: int = 3000
    rest_handler: Path | None = DEFAULT_HANDLERS["rest"]
    ws_handler: Path | None = DEFAULT_HANDLERS["ws"]
    sweeper: Path | None = DEFAULT_HANDLERS["sweeper"]
    fanout: Path | None = DEFAULT_HANDLERS["fanout"]
    timer: Path | None = DEFAULT_HANDLERS["timer"]
    notifier: Path | None = DEFAULT_HANDLERS["notifier"]
    leagues: Path | None = DEFAULT_HANDLERS["leagues"]  # on the league schedule, with the sweeper
    matcher: Path | None = DEFAULT_HANDLERS["matcher"]
    keys: Path | None = DEFAULT_HANDLERS["keys"]  # the signing keys' rotation, on its schedule
    synthetic: Path | None = DEFAULT_HANDLERS["synthetic"]  # the synthetic game, on its schedule
    tournaments: Path | None = DEFAULT_HANDLERS["tournaments"]  # with the sweeper
    deploy_hooks: bool = True  # the pre-traffic hooks, invocable (started on first use)
    template: Path | None = None
    sweep_seconds: float = SWEEP_SECONDS
    match_seconds: float = MATCH_SECONDS
    max_concurrency: int = 8
    env: dict[str, str] = field(default_factory=dict)
    ready_file: Path | None = None
    exit_with_parent: bool = False
    access_log: bool = False
    quiet: bool = False
    proxy_all: bool = False  # ignore template.yaml's routes: every path reaches the handler
    throttle: tuple[float, int] | None = None  # REST (rate, burst); None: off, as API.md says
    # X-Forwarded-For is believed only from these proxy addresses ("*": any); none by default,
    # as API Gateway gives the handler the address the connection came from (sourceIp).
    trust_proxy: str | None = None
    data_dir: Path | None = None  # where the tables and the token secret are kept; None: memory
    fresh: bool = False  # empty the data folder first


def serve(options: StackOptions) -> None:
    """Start everything, print where it is, and serve until SIGINT/SIGTERM; then shut down."""
    started = time.perf_counter()
    from harftet.localstack.dynamo import DEFAULT_TABLE_NAMES, MotoDynamo
    from harftet.localstack.runtime import start_forkserver

    sock = _listening_socket(options.host, options.port)
    port = sock.getsockname()[1]
    journal, overrides, operator_key = _kept_data(options)
    # The DynamoDB port is fixed (the API's + 1): for sam local.
    dynamo = MotoDynamo(options.host, dynamodb_port(options.port), journal=journal)
    endpoint = dynamo.bind()
    env = handler_env(
        port=port, dynamodb_endpoint=endpoint, tables=DEFAULT_TABLE_NAMES, overrides=overrides
    )
    # This process takes the handlers' environment too, so that the forkserver can import our
    # shared modules once for every execution environment (they may read it at import time).
    os.environ.update(env)
    # Its imports overlap with ours in _start_app and _server.
    start_forkserver(shared_imports(_handler_files(options)))
    try:
        app, kept = _start_app(options, dynamo, env, operator_key)
        server = _server(app, options)
        urls = {
            "base_url": f"http://{options.host}:{port}",
            "ws_url": f"ws://{options.host}:{port}/ws",
            "play_url": f"http://{options.host}:{port}/play/",
            "dynamodb_endpoint": endpoint,
            "operator_key": operator_key,
        }
        kept_in = (
            f"kept in {options.data_dir} ({kept} items restored)"
            if options.data_dir is not None
            else "in memory"
        )
        threading.Thread(
            target=_announce,
            args=(server, app.state.emulator, options, urls, env, started, kept_in),
            name="announce",
            daemon=True,
        ).start()
        if options.exit_with_parent:
            _exit_with_parent(server)
        server.run(sockets=[sock])
    finally:
        dynamo.stop()
        sock.close()


def _listening_socket(host: str, port: int) -> socket.socket:
    """The API's socket, bound now (0: a free port) so that the handlers' environment can
    name its port; uvicorn serves on it later."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock


def _kept_data(options: StackOptions) -> tuple[Journal | None, dict[str, str], str]:
    """The data folder made ready (emptied when fresh): its journal of the tables, the
    handlers' environment overrides with the token secret kept there, and the operator key
    kept there (no folder: all in memory, the key made for this run)."""
    import secrets

    from harftet.localstack import persist

    journal = None
    overrides = dict(options.env)
    key = secrets.token_urlsafe(32)
    if options.data_dir is not None:
        persist.prepare(options.data_dir, options.fresh)
        journal = persist.Journal(options.data_dir)
        key = persist.operator_key(options.data_dir)
        if not os.environ.get("TOKEN_SECRET"):
            overrides.setdefault("TOKEN_SECRET", persist.token_secret(options.data_dir))
    return journal, overrides, key


def _handler_files(options: StackOptions) -> list[Path]:
    """The handler files the stack runs."""
    every = (
        options.rest_handler,
        options.ws_handler,
        options.sweeper,
        options.fanout,
        options.timer,
        options.notifier,
        options.leagues,
        options.matcher,
        options.keys,
        options.synthetic,
        options.tournaments,
    )
    return [p for p in every if p]


def _start_app(
    options: StackOptions, dynamo: MotoDynamo, env: dict[str, str], operator_key: str
) -> tuple[Starlette, int]:
    """Start DynamoDB with the template's tables (the kept items restored), share the token
    secret with `sam local`, and build the emulator: the app and how many items were kept."""
    from harftet.localstack.dynamo import DEFAULT_TABLE_NAMES, create_tables
    from harftet.localstack.emulator import create_app
    from harftet.localstack.lambda_api import hook_env
    from harftet.localstack.mobile_push import create_applications
    from harftet.localstack.sam_local import share_token_secret
    from harftet.localstack.schedules import synthetic_seconds
    from harftet.localstack.template import read_template

    dynamo.start()
    create_tables(dynamo.client(), DEFAULT_TABLE_NAMES, template_path=options.template)
    create_applications(dynamo.client("sns"))  # mobile push, as the operator sets it up in AWS
    kept = dynamo.restore(DEFAULT_TABLE_NAMES.values())
    if options.port:  # a fixed port, as `sam local --env-vars` expects (moto's SSM is slow)
        share_token_secret(dynamo.endpoint_url, env["TOKEN_SECRET"], options.template, wait=False)
    settings = read_template(options.template)
    if options.proxy_all:
        settings.rest_routes = None
    on_rotated = _key_ring(options, dynamo, env, settings)
    sources = event_sources(dynamo, settings, DEFAULT_TABLE_NAMES)
    if kept:  # what was published before the restart is not published again
        for _, source in sources:
            skip = getattr(source, "skip_existing", None)
            if skip is not None:
                skip()
    app = create_app(
        rest_handler=options.rest_handler,
        ws_handler=options.ws_handler,
        sweeper=options.sweeper,
        fanout=options.fanout,
        timer=options.timer,
        notifier=options.notifier,
        leagues=options.leagues if options.sweeper else None,
        matcher=options.matcher,
        keys=options.keys if on_rotated is not None else None,
        synthetic_game=options.synthetic if synthetic_seconds(env, settings) else None,
        match_seconds=options.match_seconds,
        tournaments=options.tournaments if options.sweeper else None,
        hooks={
            key: (DEFAULT_HANDLERS[key], own)
            for key, own in hook_env(env["REST_URL"], operator_key).items()
        }
        if options.deploy_hooks
        else None,
        event_sources=sources,
        env=env,
        sweep_seconds=options.sweep_seconds,
        max_concurrency=options.max_concurrency,
        settings=settings,
        throttle=options.throttle,
        operator_key=operator_key,
    )
    app.state.emulator.on_keys_rotated = on_rotated
    app.state.emulator.repoint = _repointer(dynamo, settings)
    return app, kept


def _key_ring(
    options: StackOptions, dynamo: MotoDynamo, env: dict[str, str], settings: Any
) -> Callable[[], None] | None:
    """With the keys rotated on a schedule (the template's, or KEY_ROTATION_SECONDS; 0: never):
    the handlers read the key ring from the stack's SSM (moto), as in AWS; a data folder
    keeps the ring across restarts (put back at start, saved after each rotation). The
    handlers' environment ``env`` is completed here; what to do after a rotation (None: no
    rotation)."""
    from harftet.localstack import persist
    from harftet.localstack.sam_local import local_ssm
    from harftet.localstack.schedules import key_rotation_seconds

    if not key_rotation_seconds(env, settings) or options.keys is None:
        return None
    name = settings.token_keys_param or "/harftet/token-keys"
    env.update({"TOKEN_KEYS_PARAM": name, "AWS_ENDPOINT_URL_SSM": dynamo.endpoint_url})
    ssm = local_ssm(dynamo.endpoint_url)
    folder = options.data_dir
    kept = persist.kept_keys(folder) if folder is not None else None
    if kept:
        ssm.put_parameter(Name=name, Value=kept, Type="SecureString", Overwrite=True)
    else:  # moto's SSM takes ~2 s on its first request: not on a player's first sign-in
        threading.Thread(target=ssm.describe_parameters, name="warm-ssm", daemon=True).start()

    def on_rotated() -> None:
        if folder is not None:
            value = ssm.get_parameter(Name=name, WithDecryption=True)["Parameter"]["Value"]
            persist.keep_keys(folder, str(value))

    return on_rotated


def _server(app: Starlette, options: StackOptions) -> uvicorn.Server:
    """uvicorn, set up for the app as API Gateway would front it."""
    import uvicorn

    from harftet.localstack.websocket_api import MAX_WS_MESSAGE

    config = uvicorn.Config(
        app,
        lifespan="on",
        log_level="warning",
        access_log=options.access_log,
        ws_max_size=MAX_WS_MESSAGE,
        timeout_graceful_shutdown=5,
        # uvicorn closes an idle keep-alive connection after 5 s by default; a client that
        # reuses it at that moment gets a reset (the soak test's drivers did, under load).
        # A longer idle time than any client's keeps the closing on the client's side.
        timeout_keep_alive=75,
        # uvicorn believes X-Forwarded-For from 127.0.0.1 by default: on a local stack
        # that is every client, and a header would move a guest to any address.
        proxy_headers=options.trust_proxy is not None,
        forwarded_allow_ips=options.trust_proxy or "",
    )
    # uvicorn's sans-io WebSocket protocol reports a handshake refused with an HTTP answer
    # (the emulator's `$connect` refusal: an expected 401/403) as an error; it is not one.
    logging.getLogger("uvicorn.error").addFilter(_NotAnError())
    return uvicorn.Server(config)


def _announce(
    server: uvicorn.Server,
    emulator: Emulator,
    options: StackOptions,
    urls: Mapping[str, str],
    env: Mapping[str, str],
    started: float,
    kept_in: str,
) -> None:
    """Once the server listens: the banner (unless quiet), and the ready file when asked for."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.01)
    if not options.quiet:
        operators = (
            f"X-Operator-Key: the contents of {options.data_dir / 'operator-key'}"
            if options.data_dir is not None
            else f"X-Operator-Key: {urls['operator_key']}"
        )
        _print_banner(urls, time.perf_counter() - started, emulator, kept_in, operators)
    if options.ready_file is not None:
        _write_json(options.ready_file, {**urls, "env": env, "pid": os.getpid()})


class _NotAnError(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "ASGI callable returned without completing handshake."


def event_sources(dynamo: Any, settings: Any, tables: Mapping[str, str]) -> list[tuple[str, Any]]:
    """The template's queues created in moto, and its event source mappings as local pollers:
    (function folder name, source) pairs."""
    from harftet.localstack.sources import QueueSource

    sqs = dynamo.client("sqs")
    arns: dict[str, str] = {}
    ordered = sorted(settings.queues, key=lambda q: "RedrivePolicy" in settings.queues[q])
    for logical_id in ordered:  # dead-letter queues first: the others name them
        if logical_id not in QUEUE_NAMES:
            continue
        props = settings.queues[logical_id]
        attributes = {
            key: str(props[key])
            for key in ("VisibilityTimeout", "MessageRetentionPeriod", "DelaySeconds")
            if key in props
        }
        redrive = props.get("RedrivePolicy")
        if redrive:
            target = redrive["deadLetterTargetArn"]["Fn::GetAtt"][0]
            attributes["RedrivePolicy"] = json.dumps(
                {"deadLetterTargetArn": arns[target], "maxReceiveCount": redrive["maxReceiveCount"]}
            )
        url = sqs.create_queue(QueueName=QUEUE_NAMES[logical_id], Attributes=attributes)["QueueUrl"]
        arns[logical_id] = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
            "Attributes"
        ]["QueueArn"]
    sources = stream_sources(dynamo, settings, tables)
    for mapping in settings.mappings:
        if mapping.kind == "queue" and mapping.source in arns:
            url = queue_url(dynamo.endpoint_url, mapping.source)
            sources.append((mapping.function, QueueSource(sqs, url, arns[mapping.source], mapping)))
    return sources


def stream_sources(dynamo: Any, settings: Any, tables: Mapping[str, str]) -> list[tuple[str, Any]]:
    """The template's stream mappings of ``tables`` (logical id → name) as local pollers."""
    from harftet.localstack.sources import StreamSource

    sources: list[tuple[str, Any]] = []
    for mapping in settings.mappings:
        if mapping.kind == "stream" and mapping.source in tables:
            described = dynamo.client().describe_table(TableName=tables[mapping.source])
            arn = described["Table"]["LatestStreamArn"]
            stream = StreamSource(dynamo.client("dynamodbstreams"), arn, mapping)
            sources.append((mapping.function, stream))
    return sources


# The functions' variables that name a table, by the table's logical id.
TABLE_VARIABLES = {
    "TABLES_TABLE": "TablesTable",
    "PLAYERS_TABLE": "PlayersTable",
    "CONNECTIONS_TABLE": "ConnectionsTable",
    "LOG_TABLE": "LogTable",
    "MAIL_TABLE": "MailTable",
    "MATCH_TABLE": "MatchTable",
}


def _repointer(dynamo: Any, settings: Any) -> Callable[[Mapping[str, str]], list[tuple[str, Any]]]:
    """The stream sources of the tables a new environment names (PUT /@functions/environment):
    Lambda's event source mappings moved to those tables' streams."""

    def repoint(variables: Mapping[str, str]) -> list[tuple[str, Any]]:
        moved = {TABLE_VARIABLES[k]: v for k, v in variables.items() if k in TABLE_VARIABLES}
        return stream_sources(dynamo, settings, moved)

    return repoint


def _print_banner(
    urls: Mapping[str, str], seconds: float, emulator: Emulator, kept_in: str, operators: str
) -> None:
    handlers = ", ".join(f"{f.spec.name} ← {_relative(f.spec.path)}" for f in emulator.functions)
    print(
        f"Harftet local stack ready in {seconds:.1f} s\n"
        f"  REST API     {urls['base_url']}/\n"
        f"  WebSocket    {urls['ws_url']}   (Management API: {urls['base_url']}/@connections/ID)\n"
        f"  Web client   {urls['play_url']}\n"
        f"  DynamoDB     {urls['dynamodb_endpoint']}   (moto, {kept_in})\n"
        f"  Functions    {handlers or 'none'}\n"
        f"  Operators    {urls['base_url']}/operator/... with {operators}\n"
        "Ctrl-C to stop.",
        flush=True,
    )


def _relative(path: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return path


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(data))
    partial.replace(path)  # atomic: a reader never sees half a file


def _exit_with_parent(server: Any) -> None:
    """Shut down when the process that launched us dies (a killed test run leaves no stack)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        server.should_exit = True

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
