"""The running correspondence tables a player holds: RULES §6's limit (20), exact.

The player item (players table) carries ``corrHeld``, the string set of the ids of the
correspondence tables the player holds, and ``corrAdds``, a number raised by every addition.
A table write that changes who holds the table carries, in the same TransactWriteItems as the
table's write on its version, one Update per player: an ADD, conditioned on
``size(corrHeld) < 20``, or a DELETE. So the set moves exactly when the table does:

* a burst of joins or creates by one player: DynamoDB serialises the transactions on the
  player item; only as many as fit pass the size condition, the others are cancelled, redone
  from a fresh read and refused (409 ``too_many_tables``), their tables untouched;
* a retry of a transaction whose answer was lost: its ClientRequestToken (or, where it is not
  honoured, the table's own token check) writes it once; and a set, unlike a counter, cannot
  count one table twice;
* a stream record redelivered: nothing is written from the stream.

Who holds a table (`harftet.engine.seating.holders`): a correspondence table not finished,
its seated people and the owner of a seat a computer player keeps for them (RULES §6: three
timeouts; they may take it back). A player who leaves, is removed before the start or
deletes their account stops holding it; a game's end or an operator's close ends it for
everybody; a table still waiting a day after it was made no longer counts (it has left the
lobby, and TTL removes it).

Only TTL removes a table without a write: an id whose table is gone, over or no longer
theirs is dropped when the set is full (`HeldTables.held_count`), conditioned on
``corrAdds`` so that an addition in between is never dropped with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from botocore.exceptions import ClientError

from harftet.bounds import CORRESPONDENCE_TABLES_MAX
from harftet.engine.seating import holders
from harftet.engine.state import Table

from .errors import VersionConflictError

HELD = "corrHeld"
ADDS = "corrAdds"
# RULES §6: the most running correspondence tables one player holds (harftet.inbox says it too).
MAX_HELD = CORRESPONDENCE_TABLES_MAX
_CLAUSE = re.compile(r"\b(SET|REMOVE|ADD|DELETE)\s+")


def _key(player_id: str) -> dict[str, Any]:
    return {"playerId": {"S": player_id}}


def hold(player_id: str, table_id: str, limit: int = MAX_HELD) -> dict[str, Any]:
    """The Update (without TableName) that adds ``table_id`` to the player's set, only while
    it holds fewer than ``limit`` (and the player exists)."""
    return {
        "Key": _key(player_id),
        "UpdateExpression": "ADD #held :held, #adds :one",
        "ConditionExpression": "attribute_exists(playerId) AND "
        "(attribute_not_exists(#held) OR size(#held) < :most)",
        "ExpressionAttributeNames": {"#held": HELD, "#adds": ADDS},
        "ExpressionAttributeValues": {
            ":held": {"SS": [table_id]},
            ":one": {"N": "1"},
            ":most": {"N": str(limit)},
        },
    }


def release(player_id: str, table_id: str) -> dict[str, Any]:
    """The Update (without TableName) that takes ``table_id`` out of the player's set."""
    return {
        "Key": _key(player_id),
        "UpdateExpression": "DELETE #held :held",
        "ExpressionAttributeNames": {"#held": HELD},
        "ExpressionAttributeValues": {":held": {"SS": [table_id]}},
    }


def _clauses(expression: str) -> dict[str, list[str]]:
    parts = _CLAUSE.split(" " + expression)
    found: dict[str, list[str]] = {}
    for verb, body in zip(parts[1::2], parts[2::2], strict=True):
        found.setdefault(verb, []).append(body.strip().rstrip(","))
    return found


def merged(updates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``updates`` with those on one item made one (a transaction touches an item once): a
    player's rating change and their table leaving their set, at a game's end or a leave."""
    by_item: dict[tuple[str | None, str], dict[str, Any]] = {}
    conditions: dict[tuple[str | None, str], list[str]] = {}  # each item's, in order
    for update in updates:
        key = (update.get("TableName"), repr(sorted(update["Key"].items())))
        first = by_item.get(key)
        if update.get("ConditionExpression"):
            conditions.setdefault(key, []).append(update["ConditionExpression"])
        if first is None:
            by_item[key] = update
            continue
        names = {**first.get("ExpressionAttributeNames", {})}
        values = {**first.get("ExpressionAttributeValues", {})}
        for given, into in ((update.get("ExpressionAttributeNames", {}), names),
                            (update.get("ExpressionAttributeValues", {}), values)):  # fmt: skip
            clash = set(given) & set(into)
            assert not clash, f"placeholders used twice on one item: {sorted(clash)}"
            into.update(given)
        clauses = _clauses(first["UpdateExpression"])
        for verb, bodies in _clauses(update["UpdateExpression"]).items():
            clauses.setdefault(verb, []).extend(bodies)
        together = {
            **first,
            "UpdateExpression": " ".join(f"{v} {', '.join(b)}" for v, b in clauses.items()),
            "ExpressionAttributeValues": values,
        }
        if names:
            together["ExpressionAttributeNames"] = names
        by_item[key] = together
    for key, each in conditions.items():  # one level of parentheses: DynamoDB refuses more
        if len(each) > 1:
            by_item[key] = {
                **by_item[key],
                "ConditionExpression": " AND ".join(f"({c})" for c in each),
            }
    return list(by_item.values())


class HeldTables:
    """Mixed into TableStore: how many tables a player holds, stale ids dropped."""

    _client: Any
    _players: str
    _tables: Callable[..., list[Table]]  # LobbyPages'

    def _player_item(self, player_id: str, names: dict[str, str]) -> dict[str, Any]:
        """The attributes ``names`` of the player item, strongly consistent ({}: none)."""
        item: dict[str, Any] = self._client.get_item(
            TableName=self._players,
            Key=_key(player_id),
            ConsistentRead=True,
            ProjectionExpression=", ".join(names),
            ExpressionAttributeNames=names,
        ).get("Item", {})
        return item

    def held_count(self, player_id: str, now: float, limit: int = MAX_HELD) -> int:
        """How many correspondence tables the player holds (strongly consistent). Below
        ``limit`` the set is taken as it is; at the limit each id is checked against its table
        and the stale ones are dropped (see the module)."""
        key = _key(player_id)
        names = {"#held": HELD, "#adds": ADDS}
        for _ in range(10):
            item = self._player_item(player_id, names)
            ids = sorted(item.get(HELD, {}).get("SS", []))
            if len(ids) < limit:
                return len(ids)
            tables = {t.table_id: t for t in self._tables(ids, consistent=True)}
            stale = [i for i in ids if i not in tables or player_id not in holders(tables[i], now)]
            if not stale:
                return len(ids)
            adds = item.get(ADDS)
            try:
                self._client.update_item(
                    TableName=self._players,
                    Key=key,
                    UpdateExpression="DELETE #held :stale",
                    ConditionExpression="#adds = :adds" if adds else "attribute_not_exists(#adds)",
                    ExpressionAttributeNames=names,
                    ExpressionAttributeValues={
                        ":stale": {"SS": stale},
                        **({":adds": adds} if adds else {}),
                    },
                )
            except ClientError as error:
                if error.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                    raise
                continue  # a table was added in between: count again
            return len(ids) - len(stale)
        raise VersionConflictError(None)
