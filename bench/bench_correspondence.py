"""What the inbox and notifications cost, in DynamoDB calls and capacity units (moto, in
process; units computed from item sizes with DynamoDB's rounding, as AWS bills them).

    .venv/bin/python -m bench.bench_correspondence

Rows: one inbox load (a player with 20 correspondence and 5 live tables: the first page of
20); the fan-out's inbox writes per table version; one notification delivered to one
browser; and a correspondence table-day (2 players, 24 h turns, each playing once a day),
priced with on-demand prices (us-east-1: $1.25 per million write units, $0.25 per million
read units, SQS $0.40 per million requests).
"""

from __future__ import annotations

import math
import os
import sys
from collections import Counter
from typing import Any

from harftet.engine.options import TableOptions

os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")

WRITE = 1.25e-6
READ = 0.25e-6
SQS = 0.40e-6
NAMES = {
    "TablesTable": "harftet-tables",
    "PlayersTable": "harftet-players",
    "ConnectionsTable": "harftet-connections",
    "LogTable": "harftet-log",
    "MailTable": "harftet-mail",
}


def _size(value: dict[str, Any]) -> int:
    ((kind, v),) = value.items()
    if kind == "S":
        return len(v.encode())
    if kind == "N":
        return len(str(v)) // 2 + 1
    if kind == "B":
        return len(v)
    if kind == "BOOL":
        return 1
    if kind == "M":
        return 3 + sum(len(k) + _size(x) for k, x in v.items())
    if kind == "L":
        return 3 + sum(_size(x) for x in v)
    return 1


def item_size(item: dict[str, Any]) -> int:
    return sum(len(k.encode()) + _size(v) for k, v in item.items())


class Meter:
    """Counts calls and units of one DynamoDB client (botocore event hooks)."""

    def __init__(self, client: Any) -> None:
        self.calls: Counter[str] = Counter()
        self.reads = 0.0
        self.writes = 0.0
        client.meta.events.register("provide-client-params.dynamodb.*", self._params)
        client.meta.events.register("after-call.dynamodb.*", self._after)
        self._last: dict[str, Any] = {}

    def reset(self) -> None:
        self.calls.clear()
        self.reads = self.writes = 0.0

    def _params(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        self._last = params
        if model.name == "PutItem" and params.get("TableName") == NAMES["MailTable"]:
            item = params["Item"]
            units = math.ceil(item_size(item) / 1024)
            self.writes += units
            if "rank" in item:
                self.writes += units  # rank-index (projection ALL)
            if "remind" in item:
                self.writes += 1  # remind-index (keys only)
        elif model.name in ("PutItem", "UpdateItem", "DeleteItem"):
            self.writes += 1

    def _after(self, http_response: Any, parsed: dict[str, Any], model: Any, **_: Any) -> None:
        self.calls[model.name] += 1
        consistent = bool(self._last.get("ConsistentRead"))
        factor = 1.0 if consistent else 0.5
        if model.name == "Query":
            size = sum(item_size(i) for i in parsed.get("Items", []))
            self.reads += max(1, math.ceil(size / 4096)) * factor
        elif model.name == "GetItem":
            size = item_size(parsed.get("Item", {}))
            self.reads += max(1, math.ceil(size / 4096)) * factor


def main() -> None:
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "tests"))
    import boto3
    from moto import mock_aws

    from harftet.bootstrap import App, DynamoStores, Settings
    from harftet.engine.moves import Draw
    from harftet.identity import Caller, Tokens
    from harftet.notify import Notification, from_versions
    from harftet.store.schema import create_tables

    with mock_aws():
        client = boto3.client("dynamodb")
        create_tables(client, NAMES)
        now = [1_800_000_000.0]
        settings = Settings(
            tables_table=NAMES["TablesTable"], players_table=NAMES["PlayersTable"],
            connections_table=NAMES["ConnectionsTable"], mail_table=NAMES["MailTable"],
            test_mode=True,
        )  # fmt: skip
        app = App(
            settings, DynamoStores(client, settings), clock=lambda: now[0],
            signer=Tokens("bench-secret-0123456789-abcdefghijklmnop"),
        )  # fmt: skip
        inbox = app.inbox
        meter = Meter(client)

        def caller(name: str) -> Any:
            return app.tokens.verify(app.guests.create_player(name)["token"])

        me = caller("Ayşe")
        record_calls: list[tuple[int, float]] = []
        for i in range(25):
            host = caller(f"Ev{i}")
            pace = "correspondence" if i < 20 else "live"
            view = app.tables.create_table(
                host,
                TableOptions(
                    game="kastet",
                    seats=2,
                    hands=1,
                    turn_seconds=86400 if pace == "correspondence" else 45,
                    pace=pace,
                ),
                seed=i,
            )
            app.tables.sit(me, view["tableId"], 1)
            app.tables.start(host, view["tableId"])
            stored = app.stores.tables.get(view["tableId"])
            meter.reset()
            inbox.record(stored.table, stored.version, now[0])
            record_calls.append((sum(meter.calls.values()), meter.writes))
        meter.reset()
        page = inbox.tables(me)
        load = (sum(meter.calls.values()), meter.reads, len(page["tables"]))

        subscriptions = app.subscriptions
        subscriptions.resolve = lambda host: ["1.1.1.1"]
        subscriptions.clock = lambda: now[0] - 9 * 3600
        sub = {
            "endpoint": "https://push.example.com/s/1",
            "keys": {"p256dh": "BN" + "A" * 85, "auth": "A" * 22},
            "quietHours": None,
        }
        subscriptions.subscribe(Caller(me.player_id, ""), sub, "tr")
        notifier = app.notifier
        notifier.web = lambda s, p: "sent"
        notifier.names = None
        meter.reset()
        notifier.deliver(Notification(me.player_id, "T1", 9, "gameEnd", {"game": "kastet"}))
        notify = (sum(meter.calls.values()), meter.reads, meter.writes)
        notify_calls = Counter(meter.calls)

        # A correspondence table-day: each of two players plays once (a draw), 24 h turns.
        a, b = caller("Cem"), caller("Deniz")
        view = app.tables.create_table(
            a,
            TableOptions(
                game="kastet",
                seats=2,
                hands=1,
                turn_seconds=86400,
                pace="correspondence",
            ),
            seed=99,
        )
        table_id = view["tableId"]
        app.tables.sit(b, table_id, 1)
        app.tables.start(a, table_id)
        meter.reset()
        versions = 0
        notes = 0
        for who in (a, b):
            now[0] += 6 * 3600
            v = app.tables.view(who, table_id)["version"]
            app.tables.move(who, table_id, v, f"d{v}", Draw())
            stored = app.stores.tables.get(table_id)
            inbox.record(stored.table, stored.version, now[0])
            notes += len(from_versions([(stored.table, stored.version)]))
            versions += 1
        day_writes = meter.writes
    per_version = sum(w for _, w in record_calls) / len(record_calls)
    print("| measurement | calls | units | $ |")
    print("|---|---|---|---|")
    print(
        f"| inbox load (first page: {load[2]} of 25 tables) | {load[0]} Query | "
        f"{load[1]:.1f} read units | {load[1] * READ:.8f} |"
    )
    print(
        f"| inbox upkeep per table version (2 members) | "
        f"{record_calls[0][0]} PutItem | {per_version:.1f} write units | "
        f"{per_version * WRITE:.8f} |"
    )
    print(
        f"| one notification to one browser (notifier side) | {notify[0]} "
        f"({', '.join(f'{n} {k}' for k, n in sorted(notify_calls.items()))}) | "
        f"{notify[1]:.1f} read, {notify[2]:.0f} write units | "
        f"{notify[1] * READ + notify[2] * WRITE + 3 * SQS:.8f} (with SQS) |"
    )
    day = day_writes * WRITE + notes * (notify[1] * READ + notify[2] * WRITE + 3 * SQS)
    print(
        f"| correspondence table-day (2 players, {versions} versions, {notes} notifications) "
        f"| no timer message | {day_writes:.0f} write units (table items and their index, "
        f"inbox items; the log not counted) + the notifications | "
        f"{day:.8f} |"
    )


if __name__ == "__main__":
    main()
