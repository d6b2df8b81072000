"""The tables table: one item per table (`table_items`), written only by a conditional write
on its version.

Every attribute counts in a write unit (1 KB): the item stays ≤ 1 KB for a playing table
(bench/bench_cost.py measures it over whole games).

``tx``: the ClientRequestToken of the last transaction that wrote the item. Transactions are
idempotent: each TransactWriteItems carries a ClientRequestToken (AWS then answers a retry of
one that succeeded — its answer lost — with success, without writing again), and the store
recognises its own write where the token is not honoured (moto; or a retry past the token's
ten minutes): a table created is found under its new id, and a table update finds its own
token and version in the item the failed condition returns.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from botocore.exceptions import ClientError

from harftet.engine import codec
from harftet.engine.state import Table
from harftet.engine.timing import next_due
from harftet.errors import BusyError, NotFoundError

from .errors import VersionConflictError
from .holdings import HeldTables, merged
from .items import query_items
from .lobby import LobbyPages, request_token
from .table_items import (
    ANSWERED,
    DUE,
    LOBBY_KEYS,
    MOVES,
    OLD_MOVES,
    TIMER,
    WRITTEN,
    IndexKeys,
    Moves,
    StoredTable,
    from_item,
    moves_value,
    number,
    timer_asked,
)
from .transient import TRANSIENT_REASONS, busy
from .writes import NO_COMMIT, Commit, to_update

MAX_ID = 64
CREATED_AT_ONCE = 25  # new tables per transaction of `create_all` (DynamoDB allows 100)
TX = "tx"  # the item attribute holding the last transaction's ClientRequestToken


AGAIN = {"None", "ConditionalCheckFailed", *TRANSIENT_REASONS}  # a cancelled creation: again


def _reasons(error: ClientError) -> list[Any]:
    if error.response.get("Error", {}).get("Code") != "TransactionCanceledException":
        return []
    return list(error.response.get("CancellationReasons") or [])


class TableStore(LobbyPages, HeldTables):
    """Reads and writes table items with optimistic locking."""

    def __init__(
        self,
        client: Any,
        table_name: str,
        players_table: str,
        index: IndexKeys | None = None,
        *,
        write_format: int | None = None,
        lean_timers: bool = True,
    ) -> None:
        self._client = client
        self._name = table_name
        self._players = players_table
        self.index = index or IndexKeys()
        # the codec's format written (the one before while a new format's first deploy rolls
        # out: docs/DEPLOY.md "State that migrates"); both are read
        self.write_format = write_format or codec.FORMAT
        # a deadline may lean on a timer message asked for before (table_items.timer_asked)
        self.lean_timers = lean_timers

    def get(self, table_id: str) -> StoredTable:
        """The table, read strongly consistently; NotFoundError if there is none."""
        if not 0 < len(table_id) <= MAX_ID:
            raise NotFoundError(f"no table {table_id[:MAX_ID]}")
        try:
            response = self._client.get_item(
                TableName=self._name, Key={"tableId": {"S": table_id}}, ConsistentRead=True
            )
        except ClientError as error:
            raise busy(error) from error
        item = response.get("Item")
        if item is None:
            raise NotFoundError(f"no table {table_id}")
        return from_item(item)

    def _exists(self, table: Table) -> bool:
        """Whether ``table``'s id is stored with ``table``'s manager (our own creation)."""
        try:
            return self.get(table.table_id).table.manager == table.manager
        except NotFoundError:
            return False

    def create(self, table: Table) -> int:
        """Write a new table at version 1; fails if the id exists."""
        self._client.put_item(**self._new_item(table))
        return 1

    def create_all(self, tables: list[Table]) -> set[str]:
        """Each of ``tables`` written at version 1 unless its id exists: the ids written by
        this call. One TransactWriteItems of conditional puts per ``CREATED_AT_ONCE`` tables
        (a round of a tournament: hundreds of tables in a dozen calls); a put whose id exists
        cancels its transaction, which is sent again without it; a transaction cancelled by
        a conflict or throttling is sent again (a few times, then BusyError)."""
        written: set[str] = set()
        for start in range(0, len(tables), CREATED_AT_ONCE):
            written |= self._create_some(tables[start : start + CREATED_AT_ONCE])
        return written

    def _create_some(self, tables: list[Table]) -> set[str]:
        pending = {table.table_id: self._new_item(table) for table in tables}
        for attempt in range(5):
            if not pending:
                return set()
            try:
                self._client.transact_write_items(
                    TransactItems=[{"Put": item} for item in pending.values()]
                )
            except ClientError as error:
                codes = [str(r.get("Code") or "None") for r in _reasons(error)]
                if len(codes) != len(pending) or not set(codes) <= AGAIN:
                    raise busy(error) from error
                pending = {  # an id made before (a seating done again) is left out
                    table_id: item
                    for (table_id, item), code in zip(pending.items(), codes, strict=True)
                    if code != "ConditionalCheckFailed"
                }
                if set(codes) & TRANSIENT_REASONS:  # another writer on an item: a moment
                    time.sleep(0.05 * 2**attempt)
                continue
            return set(pending)
        raise BusyError("the tables could not be created now: try again")

    def _new_item(self, table: Table) -> dict[str, Any]:
        now = time.time()
        sets, _ = self.index.fields(table, now)
        due_version, timer_due = timer_asked(None, table, 1, now)
        if due_version is not None and timer_due is not None:
            sets |= {"dueV": number(due_version), TIMER: number(timer_due)}
        item = {
            "tableId": {"S": table.table_id},
            "version": number(1),
            "state": {"B": codec.encode(table, self.write_format)},
            MOVES: moves_value(Moves()),
            **sets,
        }
        return {
            "TableName": self._name,
            "Item": item,
            "ConditionExpression": "attribute_not_exists(tableId)",
        }

    def save(self, stored: StoredTable, table: Table, commit: Commit = NO_COMMIT) -> StoredTable:
        """Write ``table`` over ``stored`` if nobody wrote in between, with what ``commit``
        carries (the move, the players' writes in the same transaction, the answered
        connection). Raises VersionConflictError carrying the current item."""
        at = time.time() if commit.now is None else commit.now
        version = stored.version + 1
        moves = stored.moves.remember(commit.move_id, version)
        updates = merged([to_update(write, at) for write in commit.writes])
        token = request_token() if updates else None
        update, timer, key = self._update(stored, table, moves, at, commit.answered, token)
        try:
            if token is not None:  # a transaction: it marks the item, to know it again
                self._client.transact_write_items(
                    TransactItems=[{"Update": update}]
                    + [{"Update": {"TableName": self._players, **u}} for u in updates],
                    ClientRequestToken=token,
                )
            else:
                self._client.update_item(**update)
        except ClientError as error:
            if token is not None and self._landed(error, table.table_id, token, version):
                return StoredTable(
                    table, version, moves, answered=commit.answered, index_deadline=key
                )
            raise self._conflict(error, table.table_id) from error
        written = None if table.recent else round(at * 1000) / 1000
        return StoredTable(table, version, moves, timer[0], commit.answered, key, timer[1], written)

    def _update(
        self,
        stored: StoredTable,
        table: Table,
        moves: Moves,
        now: float,
        answered: str | None,
        token: str | None,
    ) -> tuple[dict[str, Any], tuple[int | None, int | None], int | None]:
        """The conditional UpdateItem that stores ``table`` over ``stored``; the item's
        (``dueV``, ``tq``) then (``timer_asked``) and the deadline index key it holds."""
        version = stored.version + 1
        sets, removes, key = self._changed_index(stored, table, now)
        due_version, timer_due = timer_asked(stored, table, version, now, self.lean_timers)
        if due_version == version and timer_due is not None:  # it asks for a timer message
            sets |= {"dueV": number(version), TIMER: number(timer_due)}
        sets |= {"version": number(version), "state": {"B": codec.encode(table, self.write_format)}}
        # The kept ids are written every time (a few dozen bytes: no extra write unit), so an
        # item of the former shape moves its ids over and drops the old map in one write.
        sets[MOVES] = moves_value(moves)
        removes.append(OLD_MOVES)  # free on items without it
        if answered is not None:
            sets[ANSWERED] = {"S": answered}
        else:
            removes.append(ANSWERED)  # free on items without it
        if not table.recent:  # no event tells when it was written: the item does (fan-out)
            sets[WRITTEN] = number(round(now * 1000))
        else:
            removes.append(WRITTEN)  # free on items without it
        if token is not None:
            sets[TX] = {"S": token}
        names = {f"#a{i}": key for i, key in enumerate([*sets, *removes])}
        values = {f":a{i}": value for i, value in enumerate(sets.values())}
        values[":expected"] = number(stored.version)
        expression = "SET " + ", ".join(f"#a{i} = :a{i}" for i in range(len(sets)))
        if removes:
            first = len(sets)
            expression += " REMOVE " + ", ".join(f"#a{first + i}" for i in range(len(removes)))
        names["#v"] = "version"
        update = {
            "TableName": self._name,
            "Key": {"tableId": {"S": table.table_id}},
            "UpdateExpression": expression,
            "ConditionExpression": "#v = :expected",
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
        return update, (due_version, timer_due), key

    def _changed_index(
        self, stored: StoredTable, after: Table, now: float
    ) -> tuple[dict[str, Any], list[str], int | None]:
        """The index attributes to SET and REMOVE for ``after``, less the keys it writes again
        with the value the item holds: an index key written again with the value it holds
        would still be an index write (DynamoDB does not promise to skip it). A move leaves the
        lobby keys as they are; a change that keeps the deadline (a draw, a chat, a reconnect)
        writes neither the deadline index (it projects keys only) nor dueV (so no timer is
        sent); one that moves it to where the index key still stands for it
        (``IndexKeys.keeps``) writes dueV only. And the deadline index key the item then
        holds (None: none, or not known)."""
        sets, removes = self.index.fields(after, now)
        was, _ = self.index.fields(stored.table, now)
        for name in [*LOBBY_KEYS.values(), "createdAt", "due"]:
            if name in sets and was.get(name) == sets[name]:
                del sets[name]
        due = next_due(after)
        exact = after.pace == "correspondence"
        if due is None or "due" in sets:  # out of the index, or (re)entering it: write it
            return sets, removes, int(sets["deadline"]["N"]) if due is not None else None
        if self.index.keeps(stored.index_deadline, due, exact):
            del sets["deadline"]  # the key the item holds stands for this deadline too
            return sets, removes, stored.index_deadline
        return sets, removes, int(sets["deadline"]["N"])

    def _landed(self, error: ClientError, table_id: str, token: str, version: int) -> bool:
        """Whether a cancelled transaction is our own, already written: its answer was lost
        and botocore sent it again, and the table item holds its token at its version."""
        reasons = error.response.get("CancellationReasons") or []
        if not reasons or reasons[0].get("Code") != "ConditionalCheckFailed":
            return False
        item: Any = reasons[0].get("Item")
        if not item:  # some implementations do not return the old item
            item = self._client.get_item(
                TableName=self._name, Key={"tableId": {"S": table_id}}, ConsistentRead=True
            ).get("Item")
        if not item:
            return False
        mark = item.get(TX) or {}
        stored = item.get("version") or {}
        return bool(mark.get("S") == token and stored.get("N") == str(version))

    def _conflict(self, error: ClientError, table_id: str) -> Exception:
        """Turn a lost race into VersionConflictError with the current item (no second read
        where DynamoDB returned it)."""
        code = error.response.get("Error", {}).get("Code")
        item: Any = error.response.get("Item")
        if code == "TransactionCanceledException":
            reasons = error.response.get("CancellationReasons") or []
            if any(r.get("Code") == "TransactionConflict" for r in reasons):
                return VersionConflictError(None)  # another transaction on an item: redo it all
            failed = [r.get("Code") == "ConditionalCheckFailed" for r in reasons]
            if any(failed[1:]) and not failed[0]:
                return VersionConflictError(None)  # a player changed since read: redo it all
            if not failed or not failed[0]:
                return busy(error)
            item = reasons[0].get("Item")
        elif code != "ConditionalCheckFailedException":
            return busy(error)
        current = from_item(item) if item else None
        if current is None:  # some implementations do not return the old item
            try:
                current = self.get(table_id)
            except NotFoundError:
                current = None
        return VersionConflictError(current)

    # -- the deadline index (the sweeper, the far timers) ---------------------------------
    def due(self, now: float, limit: int = 100) -> list[str]:
        """Ids of tables whose next timed event is due at ``now``, earliest first (sparse index
        queries, one per shard, side by side; never a Scan)."""

        def shard(n: int) -> list[tuple[int, str]]:
            kwargs = self._deadline_query(n, "#t <= :now", {":now": number(int(now * 1000))})
            kwargs["Limit"] = limit
            found = query_items(self._client, kwargs, most=limit)
            return [(int(i["deadline"]["N"]), i["tableId"]["S"]) for i in found]

        found = [entry for entries in self._shards(shard) for entry in entries]
        return [table_id for _, table_id in sorted(found)[:limit]]

    def due_between(self, start: float, end: float, limit: int = 1000) -> list[tuple[float, str]]:
        """(deadline, tableId) of the tables whose next timed event falls in (start, end]:
        correspondence deadlines coming within SQS's reach (harftet.timers.far)."""

        def shard(n: int) -> list[tuple[float, str]]:
            window = {":a": number(int(start * 1000) + 1), ":b": number(int(end * 1000))}
            kwargs = self._deadline_query(n, "#t BETWEEN :a AND :b", window)
            page = self._client.query(**kwargs, Limit=limit)
            return [(int(i["deadline"]["N"]) / 1000, i["tableId"]["S"]) for i in page["Items"]]

        return sorted(entry for entries in self._shards(shard) for entry in entries)[:limit]

    def next_due(self) -> float | None:
        """When the earliest timed event of any table falls due (epoch seconds), or None."""

        def shard(n: int) -> list[int]:
            page = self._client.query(**self._deadline_query(n, None, {}), Limit=1)
            return [int(item["deadline"]["N"]) for item in page.get("Items", [])]

        deadlines = [d for found in self._shards(shard) for d in found]
        return min(deadlines) / 1000 if deadlines else None

    def _deadline_query(
        self, shard: int, condition: str | None, values: dict[str, Any]
    ) -> dict[str, Any]:
        """A Query of one deadline shard (``condition`` on ``#t``, the deadline)."""
        names = {"#d": "due"}
        if condition is not None:
            names["#t"] = "deadline"
        return {
            "TableName": self._name,
            "IndexName": "deadline-index",
            "KeyConditionExpression": "#d = :due" + (f" AND {condition}" if condition else ""),
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": {":due": {"S": f"{DUE}#{shard}"}, **values},
        }

    def _shards(self, query: Any) -> list[Any]:
        """``query(shard)`` for every deadline shard, 8 at a time (boto3 clients are
        thread-safe; one short invocation reads them all)."""
        with ThreadPoolExecutor(min(8, self.index.shards)) as pool:
            return list(pool.map(query, range(self.index.shards)))

    def lobby(self, now: float, limit: int = 50) -> list[Table]:
        """Waiting tables made in the last day, newest first (sparse index query)."""
        return self.lobby_page("waiting", now, limit)[0]
