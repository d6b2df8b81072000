"""The restore drill on the whole local stack (docs/DEPLOY.md "Recovery"): players write
through the public API, the durable tables are backed up (AWS Backup's on-demand backup: moto's
CreateBackup), lost, restored by the runbook's command (scripts/restore.py) into new tables
with their stream and TTL turned back on, the stack pointed at them (every function's
environment and the fan-out's stream mapping, as `aws lambda update-function-configuration`
and the template's import do), and the game plays on: 0 acknowledged writes lost, and the
pushes flow again from the restored table's stream."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import boto3
import httpx
import pytest
from e2e_client import new_move_id, pushed_version, seated_table
from websockets.sync.client import connect

from harftet.localstack.dynamo import DEFAULT_TABLE_NAMES

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
DURABLE = ("TablesTable", "PlayersTable", "LogTable", "MailTable")
LOCAL = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local"}


def play(players: list[Any], table_id: str, view: dict[str, Any], moves: int) -> list[tuple]:
    """``moves`` draws by whoever's turn it is, each answered 200: (seat, move id, version)."""
    acknowledged = []
    for _ in range(moves):
        seat = view["turn"]["seat"]
        move_id = new_move_id()
        answer = players[seat].move(table_id, view["version"], {"type": "draw"}, move_id=move_id)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        acknowledged.append((seat, move_id, view["version"]))
    return acknowledged


def test_write_back_up_lose_restore_point_the_stack_and_play_on(stack_factory: Any) -> None:
    stack = stack_factory("restore-drill")
    dynamodb = boto3.client(
        "dynamodb", endpoint_url=stack.dynamodb_endpoint, region_name="us-east-1", **{
            k.lower(): v for k, v in LOCAL.items()
        },
    )  # fmt: skip
    players, view = seated_table(stack.base_url, "kastet", ["Ayla", "Bora"])
    table_id = view["tableId"]
    acknowledged = play(players, table_id, players[0].start(table_id), 6)
    before = players[0].table(table_id)
    assert before["version"] == acknowledged[-1][2]

    # back up: what the backup plan makes daily, here on demand
    names = {logical: DEFAULT_TABLE_NAMES[logical] for logical in DURABLE}
    backups = {
        logical: dynamodb.create_backup(TableName=name, BackupName=f"{name}-drill")[
            "BackupDetails"
        ]["BackupArn"]
        for logical, name in names.items()
    }
    # lose: deletion protection off (as it must be by hand), the tables deleted
    for name in names.values():
        dynamodb.update_table(TableName=name, DeletionProtectionEnabled=False)
        dynamodb.delete_table(TableName=name)
    assert players[0].http.get(f"/tables/{table_id}").status_code >= 500

    # restore: the runbook's command, as an operator runs it
    command = [sys.executable, str(REPO / "scripts" / "restore.py"), "--suffix", "drill"]
    command += ["--endpoint", stack.dynamodb_endpoint]
    for logical, name in names.items():
        command += ["--table", f"{logical}={name}", "--backup", f"{logical}={backups[logical]}"]
    env = {**os.environ, **LOCAL, "AWS_DEFAULT_REGION": "us-east-1"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["restored"] == {logical: f"{name}-drill" for logical, name in names.items()}
    restored = dynamodb.describe_table(TableName="harftet-tables-drill")["Table"]
    assert restored["StreamSpecification"]["StreamEnabled"] is True  # the fan-out's source
    assert restored["DeletionProtectionEnabled"] is True
    ttl = dynamodb.describe_time_to_live(TableName="harftet-players-drill")
    assert ttl["TimeToLiveDescription"]["AttributeName"] == "expiresAt"

    # point the stack at them: every function's environment, and the stream mapping
    pointed = httpx.put(
        f"{stack.base_url}/@functions/environment",
        json={"Variables": printed["environment"]},
        headers={"X-Operator-Key": stack.operator_key},
        timeout=60,
    )
    assert pointed.status_code == 200, pointed.text
    assert "fanout <- TablesTable" in pointed.json()["sources"]

    # 0 acknowledged writes lost: the table stands at the last answered version, as it was
    after = players[0].table(table_id)
    assert after == before
    seat, move_id, version = acknowledged[-1]
    again = players[seat].move(table_id, version - 1, {"type": "draw"}, move_id=move_id)
    assert again.status_code == 200 and again.json()["version"] == version  # not applied twice
    for player in players:  # the players came back: their tokens name them
        me = player.http.get("/players/me/tables")
        assert me.status_code == 200 and [t["tableId"] for t in me.json()["tables"]] == [table_id]

    # play on, with a socket open: the pushes come from the restored table's stream
    url = f"{stack.ws_url}?token={players[1].token}&tableId={table_id}"
    with connect(url, open_timeout=30) as ws:
        more = play(players, table_id, after, 4)
        last = more[-1][2]
        assert last == version + 4
        seen = 0
        while seen < last:
            seen = max(seen, pushed_version(json.loads(ws.recv(timeout=30))))
        # read while the socket is open: its closing is a change of its own (the seat away)
        assert players[0].table(table_id)["version"] == last
