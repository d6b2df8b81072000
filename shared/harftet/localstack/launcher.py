"""The local stack as a child process (`python -m harftet.localstack`): what the e2e fixtures
and the benchmarks start. `launch` returns once it is ready, with its URLs and its handlers'
environment; `RunningStack.stop` ends it and every worker it forked.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harftet.localstack.stack import DEFAULT_HANDLERS, REPO_ROOT


@dataclass
class RunningStack:
    """A stack started by `launch`: its URLs, its handlers' environment, its log file."""

    base_url: str
    ws_url: str
    dynamodb_endpoint: str
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen[bytes]
    operator_key: str = ""  # what the operator routes take in X-Operator-Key (API.md v4)

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
    handlers = {
        "rest": rest_handler,
        "ws": ws_handler,
        "sweeper": sweeper,
        "fanout": fanout,
        "timer": timer,
    }
    for name, path in handlers.items():
        command += [f"--{name}", str(path) if path is not None else "none"]
    command += _option_arguments(proxy_all, throttle, trust_proxy, sweep_seconds, env or {})
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            command,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=REPO_ROOT,
            start_new_session=True,
        )
    info = _wait_until_ready(process, ready, log_path, timeout)
    return RunningStack(
        base_url=info["base_url"],
        ws_url=info["ws_url"],
        dynamodb_endpoint=info["dynamodb_endpoint"],
        env=info["env"],
        log_path=log_path,
        process=process,
        operator_key=info.get("operator_key", ""),
    )


def _option_arguments(
    proxy_all: bool,
    throttle: str | None,
    trust_proxy: str | None,
    sweep_seconds: float | None,
    env: Mapping[str, str],
) -> list[str]:
    """The command line's options for `launch`'s settings (a setting left at None: none)."""
    arguments = []
    if proxy_all:
        arguments.append("--proxy-all")
    if throttle is not None:
        arguments += ["--throttle", throttle]
    if trust_proxy is not None:
        arguments += ["--trust-proxy", trust_proxy]
    if sweep_seconds is not None:
        arguments += ["--sweep-seconds", str(sweep_seconds)]
    for key, value in env.items():
        arguments += ["--env", f"{key}={value}"]
    return arguments


def _wait_until_ready(
    process: subprocess.Popen[bytes], ready: Path, log_path: Path, timeout: float
) -> dict[str, Any]:
    """What the stack wrote to its ready file; RuntimeError (with its log's end) if it exits
    or takes longer than ``timeout`` seconds, after killing what is left of it."""
    deadline = time.monotonic() + timeout
    while not ready.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            raise RuntimeError(f"the local stack did not start:\n{_tail(log_path, 60)}")
        time.sleep(0.02)
    info: dict[str, Any] = json.loads(ready.read_text())
    return info


def _tail(path: Path, lines: int) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
