"""The restore runbook, performed (docs/DEPLOY.md "Recovery"): every durable table restored
into a new table — from its point-in-time recovery (``--at``, an ISO time or epoch seconds;
the latest restorable time without it) or from AWS Backup recovery points (``--backup
LOGICAL=ARN``) — and the names the stack then runs on printed as the functions' environment.

    python scripts/restore.py --stack harftet --suffix r20261206 [--at 2026-12-06T09:00:00Z]
    python scripts/restore.py --stack harftet --suffix r20261206 --backup TablesTable=arn:...

Tables are found by the stack's outputs (TablesTableName, ...) unless ``--table LOGICAL=NAME``
names them (the local stack: ``--endpoint`` its DynamoDB). A restored table has no stream, TTL,
point-in-time recovery or deletion protection (DynamoDB restores none of them): ``settle()``
turns on what template.yaml declares for its logical id, so the fan-out's stream and the
expiry of transient items come back with the data. ``restore()`` and ``settle()`` are what the
restore drills run (tests/store/test_restore_drill.py in process, and
tests/e2e/test_restore_drill_stack.py on the whole local stack, through this command line).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from collections.abc import Mapping
from typing import Any

DURABLE = ("TablesTable", "PlayersTable", "LogTable", "MailTable")
ENV = {
    "TablesTable": "TABLES_TABLE",
    "PlayersTable": "PLAYERS_TABLE",
    "LogTable": "LOG_TABLE",
    "MailTable": "MAIL_TABLE",
}


def restore(
    client: Any,
    tables: Mapping[str, str],
    suffix: str,
    *,
    at: float | None = None,
    backups: Mapping[str, str] | None = None,
    wait_seconds: float = 1800,
) -> dict[str, str]:
    """Restore each of ``tables`` (logical id → name) into ``<name>-<suffix>``; the new names
    by logical id, once every one is ACTIVE. From ``backups`` (logical id → recovery point
    ARN) where given, else from point-in-time recovery at ``at`` (None: the latest)."""
    backups = backups or {}
    restored = {}
    for logical, name in tables.items():
        target = f"{name}-{suffix}"
        if logical in backups:
            client.restore_table_from_backup(TargetTableName=target, BackupArn=backups[logical])
        elif at is None:
            client.restore_table_to_point_in_time(
                SourceTableName=name, TargetTableName=target, UseLatestRestorableTime=True
            )
        else:
            client.restore_table_to_point_in_time(
                SourceTableName=name,
                TargetTableName=target,
                RestoreDateTime=datetime.datetime.fromtimestamp(at, datetime.UTC),
            )
        restored[logical] = target
    for target in restored.values():
        _wait_active(client, target, wait_seconds)
    return restored


def settle(client: Any, restored: Mapping[str, str], template: Mapping[str, Any]) -> None:
    """Give each restored table (logical id → name) the stream, TTL, point-in-time recovery
    and deletion protection ``template`` (template.yaml, loaded) declares for it."""
    for logical, name in restored.items():
        props = template["Resources"][logical]["Properties"]
        update: dict[str, Any] = {}
        stream = props.get("StreamSpecification")
        if stream:
            update["StreamSpecification"] = {"StreamEnabled": True, **stream}
        if props.get("DeletionProtectionEnabled"):
            update["DeletionProtectionEnabled"] = True
        if update:
            client.update_table(TableName=name, **update)
            _wait_active(client, name, 900)
        ttl = props.get("TimeToLiveSpecification")
        if ttl:
            client.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
        if (props.get("PointInTimeRecoverySpecification") or {}).get("PointInTimeRecoveryEnabled"):
            client.update_continuous_backups(
                TableName=name,
                PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True},
            )


def _wait_active(client: Any, name: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while client.describe_table(TableName=name)["Table"]["TableStatus"] != "ACTIVE":
        if time.monotonic() > deadline:
            raise TimeoutError(f"{name} is not ACTIVE after {seconds} s")
        time.sleep(5)


def environment(restored: Mapping[str, str]) -> dict[str, str]:
    """The functions' environment that points them at the restored tables."""
    return {ENV[logical]: name for logical, name in restored.items()}


def _stack_tables(stack: str) -> dict[str, str]:
    import boto3

    outputs = boto3.client("cloudformation").describe_stacks(StackName=stack)["Stacks"][0]
    found = {o["OutputKey"]: o["OutputValue"] for o in outputs.get("Outputs", [])}
    return {t: found[f"{t}Name"] for t in DURABLE if f"{t}Name" in found}


def _pairs(values: list[str]) -> dict[str, str]:
    return dict(v.split("=", 1) for v in values)


def _when(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", help="the stack whose durable tables to restore")
    parser.add_argument("--table", action="append", default=[], help="LOGICAL=NAME")
    parser.add_argument("--suffix", required=True, help="appended to each restored table's name")
    parser.add_argument("--at", help="point in time (ISO 8601 or epoch seconds); default latest")
    parser.add_argument("--backup", action="append", default=[], help="LOGICAL=RECOVERY_POINT_ARN")
    parser.add_argument("--endpoint", help="DynamoDB endpoint (the local stack)")
    parser.add_argument("--template", help="the stack's template.yaml (default: the repository's)")
    args = parser.parse_args(argv)
    import boto3

    from harftet.store.schema import load_template

    tables = _pairs(args.table) or (_stack_tables(args.stack) if args.stack else {})
    if not tables:
        parser.error("name the tables: --stack or --table LOGICAL=NAME")
    client = boto3.client("dynamodb", endpoint_url=args.endpoint)
    restored = restore(client, tables, args.suffix, at=_when(args.at), backups=_pairs(args.backup))
    settle(client, restored, load_template(args.template))
    json.dump({"restored": restored, "environment": environment(restored)}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
