"""The lobby's pages (two sparse indexes, `table_items.LOBBY_INDEXES`) and the one write that
creates a table within its manager's limit of waiting tables; mixed into `TableStore`."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from botocore.exceptions import ClientError

from harftet.engine import codec
from harftet.engine.state import Table
from harftet.engine.view import lobby_status

from .errors import HeldLimitError, VersionConflictError
from .holdings import ADDS, HELD, MAX_HELD, holders
from .items import query_items
from .table_items import (
    CORRESPONDENCE_LOBBY,
    LOBBY_INDEXES,
    LOBBY_KEYS,
    WAITING_SECONDS,
    LobbyKey,
    number,
)

WAITING = "waitingTables"  # the player item's list of the waiting tables they made


def request_token() -> str:
    """A fresh ClientRequestToken (1–36 characters): 16 hex digits, 64 random bits."""
    return secrets.token_hex(8)


class LobbyPages:
    """Mixed into TableStore: lobby pages and the manager's limit of waiting tables."""

    _client: Any
    _name: str
    _players: str
    held_count: Callable[..., int]  # HeldTables'
    _player_item: Callable[..., dict[str, Any]]  # HeldTables'

    def _new_item(self, table: Table) -> dict[str, Any]:
        raise NotImplementedError

    def _exists(self, table: Table) -> bool:
        raise NotImplementedError

    def lobby_page(
        self, status: str, now: float, limit: int = 50, after: LobbyKey | None = None
    ) -> tuple[list[Table], LobbyKey | None]:
        """Up to ``limit`` listed tables of ``status``, newest first, after ``after``; and the
        key to start the next page from (None on the last page)."""
        base = status.removeprefix(CORRESPONDENCE_LOBBY)
        pace = "live" if base == status else "correspondence"
        key = LOBBY_KEYS[base]
        items = self._lobby_items(status, key, now, limit, after)
        more = len(items) > limit
        items = items[:limit]
        last = (int(items[-1]["createdAt"]["N"]), items[-1]["tableId"]["S"]) if more else None
        if key == "lobby":
            tables = [codec.decode(i["state"]["B"]) for i in items]
        else:
            tables = self._tables([i["tableId"]["S"] for i in items])
        return [t for t in tables if lobby_status(t) == base and t.pace == pace], last

    def _lobby_items(
        self, status: str, key: str, now: float, limit: int, after: LobbyKey | None
    ) -> list[dict[str, Any]]:
        """Up to ``limit + 1`` index items of ``status`` after ``after`` (one more tells that
        another page follows)."""
        condition = "#k = :k"
        names = {"#k": key}
        values: dict[str, Any] = {":k": {"S": status}}
        if key == "lobby":  # a waiting table leaves the lobby after a day
            condition += " AND #c >= :since"
            names["#c"] = "createdAt"
            values[":since"] = number(int((now - WAITING_SECONDS) * 1000))
        kwargs: dict[str, Any] = {
            "TableName": self._name,
            "IndexName": LOBBY_INDEXES[key],
            "KeyConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
            "ScanIndexForward": False,
            "Limit": limit + 1,
        }
        if after is not None:
            kwargs["ExclusiveStartKey"] = {
                key: {"S": status},
                "createdAt": number(after[0]),
                "tableId": {"S": after[1]},
            }
        return query_items(self._client, kwargs, most=limit + 1)

    def _tables(self, ids: list[str], consistent: bool = False) -> list[Table]:
        """The tables of ``ids`` that exist, in that order (BatchGetItem)."""
        found: dict[str, Table] = {}
        keys = [{"tableId": {"S": i}} for i in dict.fromkeys(ids)]
        while keys:
            batch, keys = keys[:100], keys[100:]
            request: dict[str, Any] = {
                self._name: {
                    "Keys": batch,
                    "ProjectionExpression": "tableId, #s",
                    "ExpressionAttributeNames": {"#s": "state"},
                    "ConsistentRead": consistent,
                }
            }
            for _ in range(8):
                answer = self._client.batch_get_item(RequestItems=request)
                for item in answer.get("Responses", {}).get(self._name, []):
                    found[item["tableId"]["S"]] = codec.decode(item["state"]["B"])
                request = answer.get("UnprocessedKeys") or {}
                if not request:
                    break
                time.sleep(0.05)
        return [found[i] for i in ids if i in found]

    def create_within_limit(self, table: Table, limit: int, now: float) -> int | None:
        """Create ``table`` unless its manager already holds ``limit`` waiting tables (None
        then). The player item lists the tables they made; each is checked against the table
        itself, and the list is written in the same transaction as the new table, on the list
        read, so that no burst of requests gets past the limit. A correspondence table also
        joins the manager's held tables in that write (HeldLimitError when they hold the most
        anybody may: ``harftet.store.holdings``)."""
        manager = table.manager
        assert manager is not None
        holds_it = manager in holders(table, now)
        for _ in range(10):
            if holds_it:
                count = self.held_count(manager, now)
                if count >= MAX_HELD:
                    raise HeldLimitError(manager, count)
            old = self._player_item(manager, {"#w": WAITING}).get(WAITING)
            waiting = self._still_waiting(manager, [v["S"] for v in old["L"]] if old else [], now)
            if len(waiting) >= limit:
                return None
            update = self._waiting_update(manager, old, [*waiting, table.table_id], holds_it)
            if self._create_with(table, update):
                return 1
        raise VersionConflictError(None)

    def _still_waiting(self, manager: str, ids: list[str], now: float) -> list[str]:
        """Those of ``ids`` that are still waiting tables of ``manager`` (read consistently)."""
        return [
            t.table_id
            for t in self._tables(ids, consistent=True)
            if t.status == "waiting"
            and t.manager == manager
            and t.created_at > now - WAITING_SECONDS
        ]

    def _waiting_update(
        self, manager: str, old: dict[str, Any] | None, ids: list[str], holds_it: bool
    ) -> dict[str, Any]:
        """The manager's Update: the list of waiting tables, on the list read; and the held
        set's ADD on its size when the new table is a correspondence table they hold."""
        names = {"#w": WAITING}
        values: dict[str, Any] = {":new": {"L": [{"S": i} for i in ids]}}
        expression = "SET #w = :new"
        condition = "attribute_not_exists(#w)"
        if old is not None:
            condition = "#w = :old"
            values[":old"] = old
        if holds_it:  # a failure on the size: counted again by the caller
            expression += " ADD #held :held, #adds :one"
            condition += " AND (attribute_not_exists(#held) OR size(#held) < :most)"
            names |= {"#held": HELD, "#adds": ADDS}
            values |= {
                ":held": {"SS": [ids[-1]]},
                ":one": {"N": "1"},
                ":most": {"N": str(MAX_HELD)},
            }
        return {
            "TableName": self._players,
            "Key": {"playerId": {"S": manager}},
            "UpdateExpression": expression,
            "ConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
        }

    def _create_with(self, table: Table, update: dict[str, Any]) -> bool:
        """Put the new table with ``update`` in one transaction; False to count again."""
        try:
            self._client.transact_write_items(
                TransactItems=[{"Put": self._new_item(table)}, {"Update": update}],
                ClientRequestToken=request_token(),
            )
        except ClientError as error:
            codes = [r.get("Code") for r in error.response.get("CancellationReasons") or []]
            if codes and codes[0] == "ConditionalCheckFailed" and self._exists(table):
                # The new id (random) is taken: by this very transaction, whose answer was
                # lost and which botocore sent again. It is written: say so.
                return True
            if (
                len(codes) == 2
                and codes[1] == "ConditionalCheckFailed"
                and codes[0] in (None, "None")
            ):
                return False  # another table of theirs landed in between: count again
            if "TransactionConflict" in codes:
                return False  # another transaction on one of the items: redo it all
            raise
        return True
