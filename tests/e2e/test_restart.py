"""`make run` remembers: a stack with a data folder is killed (kill -9, as a crash) and
started again at once on the same port; the same player (same token) and the same table
answer, and the stack goes on working. `--fresh` starts empty.
"""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import httpx
import pytest
from e2e_client import Player

from harftet.localstack import persist
from harftet.localstack.launcher import launch

pytestmark = pytest.mark.e2e


def _two_free_ports() -> int:
    """A port P with P + 1 free too (the stack's DynamoDB takes the next one)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue
    raise RuntimeError("no two free ports in a row")


def test_a_crashed_stack_restarts_at_once_on_its_port_and_remembers(tmp_path: Path) -> None:
    port, data = _two_free_ports(), tmp_path / "data"
    first = launch(tmp_path / "first", port=port, data_dir=data, sweeper=None, timeout=120)
    try:
        ayse, baris = Player(first.base_url, "Ayşe"), Player(first.base_url, "Barış")
        table = ayse.create_table("kastet", seats=2)
        seated = baris.sit(table["tableId"], 1)
        assert seated.status_code == 200, seated.text
        before = ayse.table(table["tableId"])
        # The operator key is written at the first start, readable by its owner only.
        key_file = data / persist.OPERATOR_KEY
        assert key_file.read_text() == first.operator_key and first.operator_key
        assert key_file.stat().st_mode & 0o077 == 0
    finally:
        os.killpg(first.process.pid, signal.SIGKILL)  # a crash: nothing is shut down in order
        first.process.wait(10)
    # A line of the wrong shape and one torn short (issue 35): the stack still starts.
    with (data / persist.JOURNAL).open("ab") as journal:
        journal.write(b'{}\n{"target": "DynamoDB_20120810.PutItem", "bo')

    started = time.monotonic()
    second = launch(tmp_path / "second", port=port, data_dir=data, sweeper=None, timeout=120)
    try:
        assert second.base_url == first.base_url  # the same port, no Errno 98
        (aside,) = data.glob("dynamodb.set-aside-*.jsonl")
        said = [line for line in second.log_tail(400).splitlines() if str(aside) in line]
        assert len(said) == 1 and "2 damaged line(s) set aside" in said[0], said
        assert time.monotonic() - started < 60
        again = httpx.Client(base_url=second.base_url, timeout=30)
        again.headers["Authorization"] = f"Bearer {ayse.token}"  # the token still signs in
        profile = again.get(f"/players/{ayse.id}")
        assert profile.status_code == 200 and profile.json()["name"] == "Ayşe"
        view = again.get(f"/tables/{table['tableId']}")
        assert view.status_code == 200, view.text
        assert view.json() == before  # the same table, at the same version
        # and it goes on: the manager starts the game
        started_game = again.post(f"/tables/{table['tableId']}/start")
        assert started_game.status_code == 200, started_game.text
        assert started_game.json()["version"] == before["version"] + 1
        assert second.operator_key == first.operator_key  # kept: the operator's tools go on
        reports = again.get("/operator/reports", headers={"X-Operator-Key": first.operator_key})
        assert reports.status_code == 200, reports.text
        health = again.get("/health")
        assert health.status_code == 200, health.text
    finally:
        second.stop()


def test_fresh_forgets_what_the_data_folder_holds(tmp_path: Path) -> None:
    persist.prepare(tmp_path, fresh=False)
    secret = persist.token_secret(tmp_path)
    assert persist.token_secret(tmp_path) == secret  # kept
    assert (tmp_path / persist.SECRET).stat().st_mode & 0o077 == 0
    key = persist.operator_key(tmp_path)
    (tmp_path / persist.JOURNAL).write_text("{}\n")
    persist.prepare(tmp_path, fresh=True)
    assert not (tmp_path / persist.JOURNAL).exists()
    assert persist.token_secret(tmp_path) != secret
    assert persist.operator_key(tmp_path) == key  # the operator's tools keep working
