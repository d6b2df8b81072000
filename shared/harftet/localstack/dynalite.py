"""dynalite (npm): a second, independent DynamoDB implementation, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

DYNALITE = Path(__file__).resolve().parents[3] / "node_modules" / ".bin" / "dynalite"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def dynalite() -> Iterator[str]:
    """dynalite in memory on a free port, for as long as the block runs; yields its URL."""
    if not DYNALITE.exists():
        raise RuntimeError(f"{DYNALITE} is missing: `make test` installs it with npm")
    port = _free_port()
    process = subprocess.Popen(
        [str(DYNALITE), "--host", "127.0.0.1", "--port", str(port), "--createTableMs", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"dynalite did not start on port {port}")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
