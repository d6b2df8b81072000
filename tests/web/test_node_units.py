"""The web client's node tests (`node --test`: every module, the screens in happy-dom), run here so
`make test` runs them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
DOM = HERE.parents[1] / "node_modules" / "happy-dom"  # the screens' tests draw in it (dom.mjs)


def test_the_web_clients_node_unit_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: `apt-get install -y nodejs`", pytrace=False)
    if not DOM.is_dir():
        pytest.fail(f"{DOM} missing: run `make test` (it runs npm install)", pytrace=False)
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    assert files, "no tests/web/*.test.mjs found"
    run = subprocess.run(
        [node, "--test", "--test-concurrency=2", *files],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
