"""Lambda functions run as Lambda runs them: one invocation at a time per execution environment.

Why processes, not threads: Lambda never runs two invocations in one interpreter at once, and
handlers rely on that. powertools' resolvers keep the current event in a *class* attribute
(`BaseRouter.current_event`), so two requests resolved in threads of one process read each
other's events. Each execution environment here is therefore a worker process that loads the
handler file once (after its environment is set) and then serves invocations one by one; a
function scales out to `max_concurrency` environments, cold-starting them on demand.

Each invocation is bounded by the function's `Timeout` (template.yaml), as in Lambda: a handler
still running then is reported as "Task timed out", its environment is killed (after printing
every thread's stack, so that a hang says where it was) and the next invocation cold-starts a
new one. The workers are plain processes with a pipe each, not a ProcessPoolExecutor: killing
one worker of an executor breaks the whole pool and every invocation in flight in it.

Workers are forked from a forkserver that has already imported boto3 and powertools, so a cold
start costs the handler's own module code only. Events and results cross the process boundary
as JSON, as they do in AWS: a handler returning something JSON can't encode fails here too.
Each worker talks to the emulator over a socket pair, one length-prefixed frame per message, read
through the event loop: a message that arrives in pieces is awaited, never taken for a dead
environment (a blocking `recv()` under uvloop made that a 502 from a healthy stack).
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import importlib.util
import json
import logging
import multiprocessing
import os
import signal
import socket
import struct
import sys
import threading
import time
import traceback
import warnings
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from multiprocessing import forkserver
from pathlib import Path
from typing import Any

from harftet.localstack.lambda_events import FakeLambdaContext

# Imported once by the forkserver, so that every worker forked from it starts warm.
PRELOAD = ["harftet.localstack.runtime", "harftet.localstack.preload"]
PRELOAD_ENV = "HARFTET_LOCAL_PRELOAD"  # more modules for preload.py, comma-separated

Handler = Callable[[dict[str, Any], Any], Any]
log = logging.getLogger("harftet.localstack")


class HandlerError(Exception):
    """The function failed: it raised, could not be loaded, or returned something not JSON."""


@dataclass(frozen=True)
class FunctionSpec:
    """What a worker needs to become an execution environment of one function."""

    name: str
    path: str
    env: Mapping[str, str] = field(default_factory=dict)
    timeout_seconds: float = 30.0
    memory_mb: int = 512

    @property
    def module_name(self) -> str:
        """A module name unique to this function, so two `app.py` files never collide."""
        return "harftet_fn_" + "".join(c if c.isalnum() else "_" for c in self.name)


def load_handler(path: str | Path, module_name: str, attribute: str = "handler") -> Handler:
    """Import a handler file under `module_name` and return its handler function."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load a module from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    handler: Handler = getattr(module, attribute)
    return handler


def start_forkserver(modules: list[str] | None = None) -> None:
    """Start the forkserver now, so that its imports overlap with the rest of the start-up.

    `modules` are imported too (errors ignored). Pass our own modules only when this process
    already has the handlers' environment: they may read it at import time.
    """
    os.environ[PRELOAD_ENV] = ",".join(modules or [])
    multiprocessing.get_context("forkserver").set_forkserver_preload(PRELOAD)
    forkserver.ensure_running()


# --- inside a worker process -----------------------------------------------------------------

_spec: FunctionSpec | None = None
_handler: Handler | None = None


def _init_worker(spec: FunctionSpec) -> None:
    global _spec
    _spec = spec
    # Ctrl-C reaches the whole process group; the parent shuts workers down in order instead.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.update(spec.env)
    os.environ.update(
        AWS_LAMBDA_FUNCTION_NAME=spec.name,
        AWS_LAMBDA_FUNCTION_VERSION="$LATEST",
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE=str(spec.memory_mb),
    )
    os.environ.pop("AWS_PROFILE", None)  # a developer's profile must not override dummy keys
    sys.path.insert(0, str(Path(spec.path).parent))  # the function's code root, as in Lambda
    if os.environ.get("POWERTOOLS_METRICS_DISABLED", "").lower() == "true":
        # powertools still warns "no metrics to publish" when metrics are off: only noise here.
        warnings.filterwarnings("ignore", message="No application metrics to publish")
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(line_buffering=True)
    _load()


def _load() -> None:
    global _handler
    assert _spec is not None
    try:
        _handler = load_handler(_spec.path, _spec.module_name)
    except BaseException:
        # Lambda reports an init failure and retries the init on the next invocation.
        print(f"[ERROR] {_spec.name}: init failed\n{traceback.format_exc()}", file=sys.stderr)


def _ping() -> bool:
    return _handler is not None


def _invoke_in_worker(event_json: str) -> str:
    if _handler is None:
        _load()
    if _handler is None or _spec is None:
        raise HandlerError("Runtime.ImportModuleError: the handler could not be loaded")
    context = FakeLambdaContext(
        function_name=_spec.name,
        timeout_seconds=_spec.timeout_seconds,
        memory_limit_in_mb=_spec.memory_mb,
    )
    try:
        result = _handler(json.loads(event_json), context)
    except Exception as error:
        print(f"[ERROR] {_spec.name}: {traceback.format_exc()}", file=sys.stderr)
        raise HandlerError(f"{type(error).__name__}: {error}") from None
    try:
        return json.dumps(result)
    except (TypeError, ValueError) as error:
        raise HandlerError(f"Runtime.MarshalError: {error}") from None


# --- in the emulator -------------------------------------------------------------------------

# Event sources wait on these while idle: every invocation that ends sets them all, since
# only the stack's functions write what a poller reads (a stream record, a timer message).
_woken: weakref.WeakSet[asyncio.Event] = weakref.WeakSet()


def on_invocations() -> asyncio.Event:
    """An event set each time an invocation of any function ends (the caller clears it)."""
    event = asyncio.Event()
    _woken.add(event)
    return event


def _invocation_ended() -> None:
    for event in list(_woken):
        event.set()


# Lambda gives an execution environment 10 s to initialise; a loaded developer machine (or a
# test suite starting several stacks on two cores) gets more here, apart from the timeout.
INIT_SECONDS = 60.0
# How long a timed-out worker gets to print where it was stuck before it is killed.
DUMP_SECONDS = 0.3


# One frame: its length (8 bytes, big-endian), a kind byte, the data (UTF-8 JSON or text).
_LENGTH = struct.Struct("!Q")
INVOKE, QUIT = b"I", b"Q"  # to a worker
READY, OK, ERROR, EXIT = b"R", b"O", b"E", b"X"  # from a worker


def _frame(kind: bytes, data: bytes = b"") -> bytes:
    return _LENGTH.pack(len(kind) + len(data)) + kind + data


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    """`size` bytes from a blocking socket; None at end of file."""
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(min(size - len(data), 1 << 20))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def _read_frame(sock: socket.socket) -> tuple[bytes, bytes] | None:
    """The next (kind, data) from a blocking socket; None once the other end closed it."""
    header = _read_exactly(sock, _LENGTH.size)
    if header is None:
        return None
    (size,) = _LENGTH.unpack(header)
    body = _read_exactly(sock, size)
    if not body:
        return None
    return body[:1], body[1:]


def _serve(spec: FunctionSpec, sock: socket.socket) -> None:
    """A worker's life: load the handler, say so, then answer invocations one by one."""
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # where it hung, on a timeout
    sock.setblocking(True)
    _init_worker(spec)
    sock.sendall(_frame(READY, b"1" if _ping() else b"0"))
    while True:
        try:
            request = _read_frame(sock)
        except OSError:
            return
        if request is None or request[0] != INVOKE:
            return
        try:
            reply = _frame(OK, _invoke_in_worker(request[1].decode()).encode())
        except HandlerError as error:
            reply = _frame(ERROR, str(error).encode())
        except BaseException as error:
            with contextlib.suppress(Exception):
                text = f"Runtime.ExitError: {type(error).__name__}: {error}"
                sock.sendall(_frame(EXIT, text.encode()))
            return
        try:
            sock.sendall(reply)
        except OSError:
            return


class _Worker:
    """One execution environment: a process and the (non-blocking) socket to it."""

    def __init__(self, spec: FunctionSpec) -> None:
        parent, child = socket.socketpair()
        self.spec = spec  # the configuration it started with
        self.sock = parent
        self.process = multiprocessing.get_context("forkserver").Process(
            target=_serve, args=(spec, child), name=spec.name, daemon=True
        )
        try:
            self.process.start()
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        parent.setblocking(False)
        self.ready = False
        self._buffer = bytearray()

    async def send(self, kind: bytes, data: bytes = b"") -> None:
        """Hand the worker a frame (OSError if its end is closed: it died)."""
        await asyncio.get_running_loop().sock_sendall(self.sock, _frame(kind, data))

    async def receive(self) -> tuple[bytes, bytes]:
        """The worker's next (kind, data), however many pieces it arrives in (EOFError if the
        worker died first)."""
        loop = asyncio.get_running_loop()
        buffer = self._buffer
        while True:
            if len(buffer) >= _LENGTH.size:
                (size,) = _LENGTH.unpack_from(buffer)
                end = _LENGTH.size + size
                if len(buffer) >= end:
                    body = bytes(buffer[_LENGTH.size : end])
                    del buffer[:end]
                    return body[:1], body[1:]
                wanted = end - len(buffer)
            else:
                wanted = _LENGTH.size - len(buffer)
            chunk = await loop.sock_recv(self.sock, min(max(wanted, 1 << 16), 1 << 22))
            if not chunk:
                raise EOFError("the worker closed its end")
            buffer += chunk

    def quit(self) -> None:
        """Ask the worker to exit once it is idle (best effort: it may be gone already)."""
        with contextlib.suppress(OSError):
            self.sock.send(_frame(QUIT))

    def kill(self, dump: bool = False) -> None:
        """End the environment (after printing its threads' stacks when `dump`)."""
        pid = self.process.pid
        if dump and pid is not None and self.process.is_alive():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGUSR1)
                time.sleep(DUMP_SECONDS)
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(1)
        with contextlib.suppress(OSError):
            self.sock.close()


class LambdaFunction:
    """A function: up to `max_concurrency` worker processes, each serving one invocation at a
    time, each invocation bounded by the function's timeout as Lambda bounds it (a timed-out
    environment is killed and replaced; its threads' stacks go to the log first)."""

    def __init__(self, spec: FunctionSpec, max_concurrency: int = 8) -> None:
        self.spec = spec
        self.max_concurrency = max_concurrency
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._slots: asyncio.Semaphore | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.invocations = 0
        self.timeouts = 0

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise HandlerError(f"{self.spec.name} is shut down")
            while self._idle:
                worker = self._idle.pop()
                if worker.process.is_alive():
                    return worker
                self._all.discard(worker)
                worker.kill()
            worker = _Worker(self.spec)
            self._all.add(worker)
            return worker

    async def _take_here(self) -> _Worker:
        """`_take` off the event loop; a caller cancelled meanwhile leaks no worker (the one
        taken for it goes back to the idle list)."""
        taking = asyncio.ensure_future(asyncio.to_thread(self._take))
        try:
            return await asyncio.shield(taking)
        except asyncio.CancelledError:

            def give_back(done: asyncio.Future[_Worker]) -> None:
                if not done.cancelled() and done.exception() is None:
                    self._give_back(done.result())

            taking.add_done_callback(give_back)
            raise

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if self._closed or worker.spec is not self.spec:  # closed, or reconfigured since
                self._all.discard(worker)
                worker.kill()
            else:
                self._idle.append(worker)

    def reconfigure(self, variables: Mapping[str, str]) -> None:
        """`update-function-configuration`: new environments get ``variables``; idle ones end."""
        with self._lock:
            self.spec = replace(self.spec, env={**self.spec.env, **variables})
            idle, self._idle = self._idle, []
            self._all.difference_update(idle)
        for worker in idle:  # a busy one ends when its invocation does (_give_back)
            worker.kill()

    def _drop(self, worker: _Worker, dump: bool = False) -> None:
        with self._lock:
            self._all.discard(worker)
        worker.kill(dump)

    async def _start(self, worker: _Worker) -> bool:
        """Wait for a new worker's init; whether the handler loaded."""
        async with asyncio.timeout(INIT_SECONDS):
            kind, loaded = await worker.receive()
        worker.ready = True
        return kind == READY and loaded == b"1"

    async def warm(self) -> bool:
        """Start one execution environment and load the handler; True if it loaded."""
        worker = await self._take_here()
        try:
            loaded = await self._start(worker) if not worker.ready else True
        except (TimeoutError, EOFError, OSError):
            self._drop(worker)
            return False
        except BaseException:
            self._drop(worker)
            raise
        self._give_back(worker)
        return loaded

    async def _hand(self, request: bytes) -> _Worker:
        """A worker that has taken `request` (a worker that fails meanwhile is dropped).

        A worker that died while idle (its end of the socket is closed, so the request
        cannot be sent) is replaced and the request handed to another one: Lambda never
        gives an invocation to a dead environment. Only a worker that was serving before is
        retried so; a new one that dies during its init fails the invocation."""
        for _ in range(self.max_concurrency + 2):
            worker = await self._take_here()
            new = not worker.ready
            try:
                if new:
                    await self._start(worker)
                await worker.send(INVOKE, request)
            except OSError:
                self._drop(worker)
                if new:
                    raise
                log.warning(
                    "%s: an idle execution environment had exited; replaced", self.spec.name
                )
                continue
            except BaseException:
                self._drop(worker)
                raise
            return worker
        raise HandlerError("Runtime.ExitError: no execution environment would start")

    async def invoke(self, event: dict[str, Any]) -> Any:
        """Invoke the function with an event and return its (JSON round-tripped) result.

        Raises HandlerError when the handler raised, its environment died, or it ran past
        the function's timeout (Lambda's "Task timed out after N seconds")."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_concurrency)
        request = json.dumps(event).encode()
        try:
            return await self._invoke(request)
        finally:
            _invocation_ended()

    async def _invoke(self, request: bytes) -> Any:
        assert self._slots is not None
        async with self._slots:
            self.invocations += 1
            worker: _Worker | None = None
            try:
                worker = await self._hand(request)
                async with asyncio.timeout(self.spec.timeout_seconds):
                    kind, data = await worker.receive()
            except TimeoutError:  # the handler ran too long (or its init did: then it's dropped)
                self.timeouts += 1
                log.error(
                    "%s: Task timed out after %.2f seconds (its stacks are above; the "
                    "execution environment is replaced)",
                    self.spec.name,
                    self.spec.timeout_seconds,
                )
                if worker is not None:
                    await asyncio.to_thread(self._drop, worker, True)
                raise HandlerError(
                    f"Task timed out after {self.spec.timeout_seconds:.2f} seconds"
                ) from None
            except (EOFError, OSError):
                if worker is not None:
                    self._drop(worker)
                raise HandlerError("Runtime.ExitError: the execution environment exited") from None
            except BaseException:
                # Cancelled (the caller went away): the worker may be mid-invocation.
                if worker is not None:
                    self._drop(worker)
                raise
            if kind not in (OK, ERROR):
                self._drop(worker)
                raise HandlerError(data.decode(errors="replace") or "Runtime.ExitError")
            self._give_back(worker)
        if kind == ERROR:
            raise HandlerError(data.decode(errors="replace"))
        return json.loads(data)

    def close(self) -> None:
        """Stop every execution environment of this function."""
        with self._lock:
            self._closed = True
            workers, self._all, self._idle = list(self._all), set(), []
        for worker in workers:
            worker.quit()
        deadline = time.monotonic() + 2
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            worker.kill()
