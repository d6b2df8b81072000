"""The restore drill (docs/DEPLOY.md "Recovery"): players write, the durable tables are
snapshotted (AWS Backup's on-demand backup), lost, restored by the runbook's script into new
tables, the application pointed at them, and the game plays on: 0 acknowledged writes lost."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError
from service_helpers import full_table, turn_player
from testkit import TABLE_NAMES, Clock, app_over, with_mail

from harftet.engine.moves import Draw
from harftet.store.schema import load_template

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "restore.py"


def runbook() -> Any:
    spec = importlib.util.spec_from_file_location("restore_runbook", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(app: Any, table_id: str, callers: list[Any], moves: int, tag: str) -> list[tuple]:
    """``moves`` draws, each answered 200: (move id, version acknowledged)."""
    acknowledged = []
    for n in range(moves):
        caller, view = turn_player(app, table_id, callers)
        move_id = f"{tag}{n}"
        answer = app.tables.move(caller, table_id, view["version"], move_id, Draw())
        acknowledged.append((caller, move_id, view["version"], answer["version"]))
    return acknowledged


def test_write_snapshot_lose_restore_and_play_on_with_no_acknowledged_write_lost(
    dynamodb: Any,
) -> None:
    names = with_mail(dynamodb, TABLE_NAMES)
    clock = Clock()
    app = app_over(dynamodb, names, clock, log=True, mail=True)
    table_id, callers = full_table(app, seats=2)
    acknowledged = play(app, table_id, callers, 6, "before")
    durable = {k: v for k, v in names.items() if k in runbook().DURABLE}

    # snapshot: an on-demand backup of every durable table, as the backup plan makes daily
    backups = {
        logical: dynamodb.create_backup(TableName=name, BackupName=f"{name}-drill")[
            "BackupDetails"
        ]["BackupArn"]
        for logical, name in durable.items()
    }
    before_loss = app.stores.tables.get(table_id)
    # lose: the tables are gone
    for name in durable.values():
        dynamodb.delete_table(TableName=name)
    with pytest.raises(ClientError, match="ResourceNotFound"):
        app.tables.view(callers[0], table_id)

    # restore: the runbook's script, then the application pointed at the new tables
    restored = runbook().restore(dynamodb, durable, "drill", backups=backups, wait_seconds=60)
    assert restored == {logical: f"{name}-drill" for logical, name in durable.items()}
    runbook().settle(dynamodb, restored, load_template())  # what a restore does not bring back
    tables = dynamodb.describe_table(TableName=restored["TablesTable"])["Table"]
    assert tables["StreamSpecification"]["StreamEnabled"] is True
    assert set(runbook().environment(restored)) == {
        "TABLES_TABLE", "PLAYERS_TABLE", "LOG_TABLE", "MAIL_TABLE",
    }  # fmt: skip
    after = app_over(dynamodb, {**names, **restored}, clock, log=True, mail=True)

    # 0 acknowledged writes lost: the table stands at the last answered version, every
    # acknowledged move is remembered at the version it made, and sending it again changes
    # nothing (no move is applied twice)
    last = acknowledged[-1]
    stored = after.stores.tables.get(table_id)
    assert stored.version == last[3]
    assert stored.table == before_loss.table  # every tile where the last answer left it
    retryable = [(f"{who.player_id}:{m}", v) for who, m, _, v in acknowledged]
    retryable = [(key, v) for key, v in retryable if key in before_loss.moves]
    assert retryable and all(stored.moves[key] == v for key, v in retryable)
    caller, move_id, version, _ = last
    after.tables.move(caller, table_id, version, move_id, Draw())
    assert after.stores.tables.get(table_id).version == last[3]
    # the players themselves came back (their tokens name them, their records are there)
    assert after.guests.player(callers[0].player_id)["name"] == callers[0].name
    # play on
    more = play(after, table_id, callers, 4, "after")
    assert more[-1][3] == last[3] + 4
