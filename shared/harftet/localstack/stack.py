"""The whole local stack: moto's DynamoDB with the template's tables, the handlers' environment,
and the emulator served by uvicorn. `serve` runs it in this process (what `make run` does);
`launch` runs it as a child process and returns its URLs (what the e2e fixtures do).
"""

from __future__ import annotations

import ast
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harftet.localstack.environment import QUEUE_NAMES, dynamodb_port, handler_env, queue_url

REPO_ROOT = Path(__file__).resolve().parents[3]
FUNCTIONS = REPO_ROOT / "functions"
DEFAULT_HANDLERS = {
    "rest": FUNCTIONS / "rest" / "app.py",
    "ws": FUNCTIONS / "ws" / "app.py",
    "sweeper": FUNCTIONS / "sweeper" / "app.py",
    "fanout": FUNCTIONS / "fanout" / "app.py",
    "timer": FUNCTIONS / "timer" / "app.py",
    "notifier": FUNCTIONS / "notifier" / "app.py",
}
# How often the local schedule invokes the sweeper. AWS runs it once a minute
# (template.yaml's TurnSweepRate): it is the safety net behind the exact SQS timers, arms
# correspondence timers and queues reminders. 10 s keeps a lost timer's delay short on a
# developer's stack; every run makes some 17 index queries, and at 2 s an idle stack spent 7 %
# of a core on them.
SWEEP_SECONDS = 10.0
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
    template: Path | None = None
    sweep_seconds: float = SWEEP_SECONDS
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
    from harftet.localstack import persist
    from harftet.localstack.dynamo import DEFAULT_TABLE_NAMES, MotoDynamo
    from harftet.localstack.runtime import start_forkserver
    from harftet.localstack.sam_local import share_token_secret

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((options.host, options.port))
    port = sock.getsockname()[1]
    journal = None
    overrides = dict(options.env)
    if options.data_dir is not None:
        persist.prepare(options.data_dir, options.fresh)
        journal = persist.Journal(options.data_dir)
        if not os.environ.get("TOKEN_SECRET"):
            overrides.setdefault("TOKEN_SECRET", persist.token_secret(options.data_dir))
    # The DynamoDB port is fixed (the API's + 1): for sam local.
    dynamo = MotoDynamo(options.host, dynamodb_port(options.port), journal=journal)
    endpoint = dynamo.bind()
    env = handler_env(
        port=port, dynamodb_endpoint=endpoint, tables=DEFAULT_TABLE_NAMES, overrides=overrides
    )
    # This process takes the handlers' environment too, so that the forkserver can import our
    # shared modules once for every execution environment (they may read it at import time).
    os.environ.update(env)
    handlers = [
        p
        for p in (
            options.rest_handler,
            options.ws_handler,
            options.sweeper,
            options.fanout,
            options.timer,
            options.notifier,
        )
        if p
    ]
    start_forkserver(shared_imports(handlers))  # its imports overlap with ours below
    import uvicorn

    from harftet.localstack.dynamo import create_tables
    from harftet.localstack.emulator import create_app
    from harftet.localstack.template import read_template
    from harftet.localstack.websocket_api import MAX_WS_MESSAGE

    try:
        dynamo.start()
        create_tables(dynamo.client(), DEFAULT_TABLE_NAMES, template_path=options.template)
        kept = dynamo.restore(DEFAULT_TABLE_NAMES.values())
        if options.port:  # a fixed port, as `sam local --env-vars` expects (moto's SSM is slow)
            share_token_secret(endpoint, env["TOKEN_SECRET"], options.template, wait=False)
        settings = read_template(options.template)
        if options.proxy_all:
            settings.rest_routes = None
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
            event_sources=sources,
            env=env,
            sweep_seconds=options.sweep_seconds,
            max_concurrency=options.max_concurrency,
            settings=settings,
            throttle=options.throttle,
        )
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
        server = uvicorn.Server(config)
        urls = {
            "base_url": f"http://{options.host}:{port}",
            "ws_url": f"ws://{options.host}:{port}/ws",
            "play_url": f"http://{options.host}:{port}/play/",
            "dynamodb_endpoint": endpoint,
        }
        kept_in = (
            f"kept in {options.data_dir} ({kept} items restored)"
            if options.data_dir is not None
            else "in memory"
        )

        def announce() -> None:
            while not server.started:
                if server.should_exit:
                    return
                time.sleep(0.01)
            if not options.quiet:
                _print_banner(urls, time.perf_counter() - started, app.state.emulator, kept_in)
            if options.ready_file is not None:
                _write_json(options.ready_file, {**urls, "env": env, "pid": os.getpid()})

        threading.Thread(target=announce, name="announce", daemon=True).start()
        if options.exit_with_parent:
            _exit_with_parent(server)
        server.run(sockets=[sock])
    finally:
        dynamo.stop()
        sock.close()


class _NotAnError(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "ASGI callable returned without completing handshake."


def event_sources(dynamo: Any, settings: Any, tables: Mapping[str, str]) -> list[tuple[str, Any]]:
    """The template's queues created in moto, and its event source mappings as local pollers:
    (function folder name, source) pairs."""
    from harftet.localstack.sources import QueueSource, StreamSource

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
    sources: list[tuple[str, Any]] = []
    for mapping in settings.mappings:
        if mapping.kind == "stream" and mapping.source in tables:
            described = dynamo.client().describe_table(TableName=tables[mapping.source])
            arn = described["Table"]["LatestStreamArn"]
            stream = StreamSource(dynamo.client("dynamodbstreams"), arn, mapping)
            sources.append((mapping.function, stream))
        elif mapping.kind == "queue" and mapping.source in arns:
            url = queue_url(dynamo.endpoint_url, mapping.source)
            sources.append((mapping.function, QueueSource(sqs, url, arns[mapping.source], mapping)))
    return sources


def _print_banner(urls: Mapping[str, str], seconds: float, emulator: Any, kept_in: str) -> None:
    handlers = ", ".join(f"{f.spec.name} ← {_relative(f.spec.path)}" for f in emulator.functions)
    print(
        f"Harftet local stack ready in {seconds:.1f} s\n"
        f"  REST API     {urls['base_url']}/\n"
        f"  WebSocket    {urls['ws_url']}   (Management API: {urls['base_url']}/@connections/ID)\n"
        f"  Web client   {urls['play_url']}\n"
        f"  DynamoDB     {urls['dynamodb_endpoint']}   (moto, {kept_in})\n"
        f"  Functions    {handlers or 'none'}\n"
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


# --- a stack in a child process ------------------------------------------------------------------


@dataclass
class RunningStack:
    """A stack started by `launch`: its URLs, its handlers' environment, its log file."""

    base_url: str
    ws_url: str
    dynamodb_endpoint: str
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen[bytes]

    def log_tail(self, lines: int = 60) -> str:
        """The end of the stack's combined stdout/stderr."""
        return _tail(self.log_path, lines)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the stack (SIGINT, then SIGKILL of its process group if it lingers)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout)
        # Its own session: the group is the stack and the workers it forked.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout)


def launch(
    workdir: Path,
    *,
    rest_handler: Path | None = DEFAULT_HANDLERS["rest"],
    ws_handler: Path | None = DEFAULT_HANDLERS["ws"],
    sweeper: Path | None = DEFAULT_HANDLERS["sweeper"],
    fanout: Path | None = DEFAULT_HANDLERS["fanout"],
    timer: Path | None = DEFAULT_HANDLERS["timer"],
    env: Mapping[str, str] | None = None,
    sweep_seconds: float | None = None,
    proxy_all: bool = False,
    throttle: str | None = None,
    trust_proxy: str | None = None,
    port: int = 0,
    data_dir: Path | None = None,
    timeout: float = 60.0,  # a loaded CI machine may start several stacks at once
) -> RunningStack:
    """Run `python -m harftet.localstack` on a free port and wait until /health says ready."""
    workdir.mkdir(parents=True, exist_ok=True)
    ready = workdir / "ready.json"
    ready.unlink(missing_ok=True)
    log_path = workdir / "stack.log"
    command = [sys.executable, "-m", "harftet.localstack", "--port", str(port), "--quiet"]
    command += ["--data", str(data_dir) if data_dir is not None else "none"]
    command += ["--ready-file", str(ready), "--exit-with-parent"]
    for option, path in (
        ("--rest", rest_handler),
        ("--ws", ws_handler),
        ("--sweeper", sweeper),
        ("--fanout", fanout),
        ("--timer", timer),
    ):
        command += [option, str(path) if path is not None else "none"]
    if proxy_all:
        command.append("--proxy-all")
    if throttle is not None:
        command += ["--throttle", throttle]
    if trust_proxy is not None:
        command += ["--trust-proxy", trust_proxy]
    if sweep_seconds is not None:
        command += ["--sweep-seconds", str(sweep_seconds)]
    for key, value in (env or {}).items():
        command += ["--env", f"{key}={value}"]
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            command,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=REPO_ROOT,
            start_new_session=True,
        )
    deadline = time.monotonic() + timeout
    while not ready.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            raise RuntimeError(f"the local stack did not start:\n{_tail(log_path, 60)}")
        time.sleep(0.02)
    info = json.loads(ready.read_text())
    return RunningStack(
        base_url=info["base_url"],
        ws_url=info["ws_url"],
        dynamodb_endpoint=info["dynamodb_endpoint"],
        env=info["env"],
        log_path=log_path,
        process=process,
    )


def _tail(path: Path, lines: int) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
