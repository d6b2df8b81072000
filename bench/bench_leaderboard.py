"""What the leaderboards cost: DynamoDB capacity units a game end writes (profiles and
board entries, in the table's own transaction) and a leaderboard page reads.

Runs the real service over in-process moto (tables and the board-index GSI from
template.yaml); every DynamoDB request is captured with botocore's event hooks and priced
by DynamoDB's published rules from the sizes of the items it touched (moto does not
report consumed capacity): a transactional write is 2 WCU per started KB, a GSI write
1 WCU per started KB (a changed sort key: delete + put, 2), a query 0.5 RCU per started
4 KB read (eventually consistent), a consistent GetItem 1 RCU per 4 KB.

``python -m bench.bench_leaderboard`` runs it alone and rewrites its RESULTS.md section.
"""

from __future__ import annotations

import math
import os
from decimal import Decimal
from typing import Any

from bench import ROOT, Result, put_section, report
from harftet.engine.options import TableOptions

BOARD_PLAYERS = 2_000  # entries on the board the page reads (8 shards)
# Targets (docs/DEPLOY.md "Leaderboards"): what one player's game end may add in writes,
# and what one page (top 100 + the caller's rank and neighbours) may read.
WRITE_TARGET = 12.0  # WCU per player per game end
READ_TARGET = 25.0  # RCU per page for a caller in the top 100


def _size(value: Any) -> int:
    """DynamoDB's item size rules, close enough: names + UTF-8 strings + numbers."""
    if isinstance(value, dict):
        if set(value) <= {"S", "N", "B", "BOOL", "NULL", "L", "M"} and len(value) == 1:
            kind, inner = next(iter(value.items()))
            if kind == "S":
                return len(inner.encode())
            if kind == "N":
                return len(inner.lstrip("-").replace(".", "")) // 2 + 2
            if kind == "L":
                return 3 + sum(_size(v) + 1 for v in inner)
            if kind == "M":
                return 3 + sum(len(k.encode()) + _size(v) + 1 for k, v in inner.items())
            return 1
        return sum(len(k.encode()) + _size(v) for k, v in value.items())
    return 0


class Meter:
    """Captures requests on a boto3 client and prices them."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        self._params: dict[str, Any] = {}
        client.meta.events.register("provide-client-params.dynamodb.*", self._before)
        client.meta.events.register("after-call.dynamodb.*", self._after)

    def _before(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        self._params = dict(params)

    def _after(self, http_response: Any, parsed: dict[str, Any], model: Any, **_: Any) -> None:
        self.calls.append((model.name, self._params, parsed))

    def reset(self) -> None:
        self.calls = []

    def item(self, table: str, key: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = self.client.get_item(TableName=table, Key=key).get("Item") or {}
        return found


def _wcu(size: int) -> int:
    return max(1, math.ceil(size / 1024))


def game_end_cost(meter: Meter, players_table: str) -> tuple[float, float, dict[str, float]]:
    """(WCU of the whole transaction, RCU of the reads before it, WCU by kind)."""
    calls = list(meter.calls)
    wcu = rcu = 0.0
    kinds: dict[str, float] = {}
    for op, params, _ in calls:
        if op == "GetItem":
            rcu += 1.0  # consistent, every item read here < 4 KB
        if op != "TransactWriteItems":
            continue
        for entry in params["TransactItems"]:
            update = entry["Update"]
            after = meter.item(update["TableName"], update["Key"])
            key = next(iter(update["Key"].values()))["S"]
            kind = key.split("#", 1)[0] if "#" in key else "table/player"
            cost = 2 * _wcu(_size(after))
            if "board" in after:  # the GSI: a changed score deletes and puts (2 writes)
                cost += 2 * _wcu(_size(after))
            kinds[kind] = kinds.get(kind, 0.0) + cost
            wcu += cost
    return wcu, rcu, kinds


def page_cost(meter: Meter, item_size: int) -> tuple[float, int]:
    """(RCU, requests) of the captured page read."""
    rcu = 0.0
    for op, _, parsed in meter.calls:
        if op == "Query":
            read = parsed.get("ScannedCount", parsed.get("Count", 0)) * item_size
            if "Items" in parsed:
                read = sum(_size(i) for i in parsed["Items"])
            rcu += 0.5 * max(1, math.ceil(read / 4096))
        elif op == "GetItem":
            rcu += 0.5
    return rcu, len(meter.calls)


def run() -> list[Result]:
    from moto import mock_aws

    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    import boto3

    from harftet.bootstrap import App, DynamoStores, Settings
    from harftet.engine.effects import changed
    from harftet.engine.scoring import settle
    from harftet.identity import Tokens
    from harftet.store.items import serialize
    from harftet.store.profiles import BASE_RATING, GAMES_KEPT, RATINGS_KEPT, board_key, shard_of
    from harftet.store.schema import create_tables

    names = {
        "TablesTable": "t",
        "PlayersTable": "p",
        "ConnectionsTable": "c",
    }
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_tables(client, names)
        now = [1_800_000_000.0]
        settings = Settings(
            tables_table="t", players_table="p", connections_table="c", test_mode=True
        )
        app = App(
            settings, DynamoStores(client, settings), clock=lambda: now[0],
            signer=Tokens("bench-secret-0123456789abcdefghijklmnopqrstuv"),
        )  # fmt: skip
        callers = [
            app.tokens.verify(app.guests.create_player(f"Oyuncu{i}")["token"]) for i in range(4)
        ]

        def one_game() -> None:
            view = app.tables.create_table(
                callers[0],
                TableOptions(game="kastet", seats=4, hands=11, partners=False, turn_seconds=45),
            )
            for i in range(1, 4):
                app.tables.sit(callers[i], view["tableId"], i)
            app.tables.start(callers[0], view["tableId"])

            def finish(table: Any, at: float) -> Any:
                new = table.clone()
                new.recent = []
                for seat, penalty in zip(new.seats, [10, 20, 30, 40], strict=True):
                    seat.penalty = penalty
                new.status = "finished"
                return changed(new, settle(new))

            meter.reset()
            app.writer.write(view["tableId"], finish)

        meter = Meter(client)
        for _ in range(RATINGS_KEPT + 1):  # fill the profiles: full histories
            one_game()
            now[0] += 600
        first = game_end_cost(meter, "p")
        meter.reset()
        one_game()
        wcu, rcu, kinds = game_end_cost(meter, "p")
        baseline = kinds.get("table/player", 0.0)

        # A board of BOARD_PLAYERS entries, written directly (as game ends would).
        for i in range(BOARD_PLAYERS):
            pid = f"bench{i:06d}"
            client.put_item(
                TableName="p",
                Item=serialize(
                    {
                        "playerId": board_key("kastet", "all", pid),
                        "board": f"kastet#all#{shard_of(pid)}",
                        "pid": pid,
                        "name": f"Oyuncu {i}",
                        "score": Decimal(i % 997 - 900),  # the bench's 4 players stay on top
                    }
                ),
            )
        sample = client.get_item(
            TableName="p", Key={"playerId": {"S": board_key("kastet", "all", "bench000001")}}
        )["Item"]
        item_size = _size(sample)
        profiles = app.profiles
        meter.reset()
        top = profiles.leaderboard(callers[0].player_id, "kastet", "all", 100, None)
        top_rcu, top_calls = page_cost(meter, item_size)
        # A caller far down: its rank counts every entry above it.
        low = "bench000500"
        meter.reset()
        far = profiles.leaderboard(low, "kastet", "all", 100, None)
        far_rcu, far_calls = page_cost(meter, item_size)
        assert top["me"] is not None and top["me"]["rank"] <= 100 and far["me"] is not None
        _ = BASE_RATING, first

    per_player = (wcu - baseline) / 4
    return [
        Result(
            name="leaderboards: a 4-player game end, profile + boards writes per player",
            value=per_player,
            unit="WCU",
            detail=(
                f"whole transaction {wcu:.0f} WCU (table + players {baseline:.0f}; "
                + ", ".join(f"{k} {v:.0f}" for k, v in sorted(kinds.items()))
                + f"; full profiles: {RATINGS_KEPT} changes, {GAMES_KEPT} games)"
                + f"; plus {rcu:.0f} RCU of consistent reads"
            ),
            baseline_name="target per player",
            baseline=WRITE_TARGET,
            goal=1.0,
        ),
        Result(
            name="leaderboards: a page (top 100 + rank + neighbours), caller in the top 100",
            value=top_rcu,
            unit="RCU",
            detail=f"{top_calls} requests over 8 shards; board of {BOARD_PLAYERS} entries",
            baseline_name="target",
            baseline=READ_TARGET,
            goal=1.0,
        ),
        Result(
            name="leaderboards: a page, caller at rank "
            f"{far['me']['rank']} (rank counted, grows with it)",
            value=far_rcu,
            unit="RCU",
            detail=f"{far_calls} requests; ~{item_size} B per entry; capped at 10,000 ahead",
        ),
    ]


SECTION = "## What the leaderboards cost (bench/bench_leaderboard.py)"


def write_section(rows: list[Result], results: Any) -> None:
    """Put this run's rows into RESULTS.md as its own section (replacing the last one)."""
    from datetime import UTC, datetime

    intro = (
        f"Run on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC over in-process moto; capacity "
        "units priced from the items each request touched (DynamoDB's rules; see the module)."
    )
    put_section(results, SECTION, report.section(SECTION, intro, rows))


def main() -> None:
    rows = run()
    print("\n".join(report.row(r) for r in rows))
    write_section(rows, ROOT / "bench" / "RESULTS.md")


if __name__ == "__main__":
    main()
