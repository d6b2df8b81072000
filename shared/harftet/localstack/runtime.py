"""Lambda functions run as Lambda runs them: one invocation at a time per execution environment.

Why processes, not threads: Lambda never runs two invocations in one interpreter at once, and
handlers rely on that. powertools' resolvers keep the current event in a *class* attribute
(`BaseRouter.current_event`), so two requests resolved in threads of one process read each
other's events. Each execution environment here is therefore a worker process that loads the
handler file once (after its environment is set) and then serves invocations one by one; a
function scales out to `max_concurrency` environments, cold-starting them on demand.

Workers are forked from a forkserver that has already imported boto3 and powertools, so a cold
start costs the handler's own module code only. Events and results cross the process boundary
as JSON, as they do in AWS: a handler returning something JSON can't encode fails here too.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import multiprocessing
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import forkserver
from pathlib import Path
from typing import Any

from harftet.localstack.lambda_events import FakeLambdaContext

# Imported once by the forkserver, so that every worker forked from it starts warm.
PRELOAD = ["harftet.localstack.runtime", "harftet.localstack.preload"]
PRELOAD_ENV = "HARFTET_LOCAL_PRELOAD"  # more modules for preload.py, comma-separated

Handler = Callable[[dict[str, Any], Any], Any]


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


class LambdaFunction:
    """A function: a pool of worker processes, each serving one invocation at a time."""

    def __init__(self, spec: FunctionSpec, max_concurrency: int = 8) -> None:
        self.spec = spec
        self.max_concurrency = max_concurrency
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise HandlerError(f"{self.spec.name} is shut down")
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.max_concurrency,
                    mp_context=multiprocessing.get_context("forkserver"),
                    initializer=_init_worker,
                    initargs=(self.spec,),
                )
            return self._pool

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def _submit(self, fn: Callable[..., Any], *args: Any) -> tuple[ProcessPoolExecutor, Future]:
        pool = self._executor()
        try:
            return pool, pool.submit(fn, *args)
        except BrokenProcessPool:
            self._discard(pool)
            pool = self._executor()
            return pool, pool.submit(fn, *args)

    def warm(self) -> bool:
        """Start one execution environment and load the handler; True if it loaded."""
        pool, future = self._submit(_ping)
        try:
            return bool(future.result())
        except BrokenProcessPool:
            self._discard(pool)
            return False

    async def invoke(self, event: dict[str, Any]) -> Any:
        """Invoke the function with an event and return its (JSON round-tripped) result."""
        pool, future = self._submit(_invoke_in_worker, json.dumps(event))
        try:
            result = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # A worker died (os._exit, a crash): Lambda replaces the environment; so do we.
            self._discard(pool)
            raise HandlerError("Runtime.ExitError: the execution environment exited") from None
        return json.loads(result)

    def close(self) -> None:
        """Stop every execution environment of this function."""
        with self._lock:
            pool, self._pool, self._closed = self._pool, None, True
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
