"""Profiles, leaderboards, reports and operator bans: extra items in the players table
(`harftet.profiles`, `harftet.moderation`; a game's end writes profiles and boards through
`harftet.store.writes`, in the table's own transaction).

Every item here lives in the players table under a key that can never be a player id
(player ids are ``<cell>.<hex>``; these start with a word and ``#``):

- ``profile#<playerId>``: per-game counters and the bounded histories (the last 50 rating
  changes, the last 20 finished games; one binary attribute, `harftet.store.history`), rewritten
  whole at each game end in the table's own transaction, on the condition that its counter
  ``n`` is still the one read (a lost race redoes the whole write, like the leaver's
  abandons list).
- ``board#<game>#<period>#<playerId>``: a player's score on one board (``all``: rating in
  that game, 1000 + the sum of its game points; ``w<monday>``: game points won that week).
  ``ADD score`` needs no read. Each carries ``board = <game>#<period>#<shard>`` and the
  sparse ``board-index`` (HASH board, RANGE score) sorts each shard: a board is spread over
  ``SHARDS`` index partitions (no hot partition on write), merged on read (no scan).
- ``report#<tableId>#<at>#<rand>``: a player report, listed by day through the same index
  (``board = reports#<day>``, ``score = at``); ``filed#<reporter>`` lists the reports a
  player filed (their export shows them).
"""

from __future__ import annotations

import zlib
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from botocore.exceptions import ClientError

from harftet.errors import NotFoundError

from .items import deserialize, serialize

SHARDS = 8
INDEX = "board-index"
RATINGS_KEPT = 50
GAMES_KEPT = 20
RANK_COUNT_CAP = 10_000  # beyond this many players ahead the rank is not counted (null)
WEEK_TTL = 8 * 7 * 24 * 3600  # a weekly board's items expire eight weeks after its end
ISTANBUL = ZoneInfo("Europe/Istanbul")
BASE_RATING = 1000
FILED = "filed#"  # the reports a player filed: one list per player, read by the export


def week_key(now: float) -> str:
    """``w<YYYY-MM-DD>``: the Monday (Europe/Istanbul) that starts the week of ``now``."""
    local = datetime.fromtimestamp(now, ISTANBUL)
    monday = local.date() - timedelta(days=local.weekday())
    return f"w{monday.isoformat()}"


def week_end(now: float) -> float:
    """The epoch second the week of ``now`` ends (next Monday 00:00 Istanbul)."""
    local = datetime.fromtimestamp(now, ISTANBUL)
    monday = local.date() - timedelta(days=local.weekday()) + timedelta(days=7)
    return datetime(monday.year, monday.month, monday.day, tzinfo=ISTANBUL).timestamp()


def shard_of(player_id: str) -> int:
    return zlib.crc32(player_id.encode()) % SHARDS


def profile_key(player_id: str) -> str:
    return f"profile#{player_id}"


def board_key(game: str, period: str, player_id: str) -> str:
    return f"board#{game}#{period}#{player_id}"


def filed_keys(filed: list[dict[str, Any]]) -> list[str]:
    """The keys of the report items a player filed (their ``filed#`` list's entries)."""
    keys = []
    for entry in filed:
        if entry.get("key"):
            keys.append(str(entry["key"]))
        elif entry.get("tableId") and entry.get("reportId"):  # filed before keys were noted
            keys.append(f"report#{entry['tableId']}#{entry['reportId']}")
    return keys


class ProfileStore:
    """The items above, over the players table's client and name."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self.name = table_name

    # -- profiles ---------------------------------------------------------------------
    def profile(self, player_id: str, consistent: bool = False) -> dict[str, Any] | None:
        response = self._client.get_item(
            TableName=self.name,
            Key={"playerId": {"S": profile_key(player_id)}},
            ConsistentRead=consistent,
        )
        item = response.get("Item")
        return deserialize(item) if item else None

    # -- boards -----------------------------------------------------------------------

    def entry(self, game: str, period: str, player_id: str) -> dict[str, Any] | None:
        item = self._client.get_item(
            TableName=self.name, Key={"playerId": {"S": board_key(game, period, player_id)}}
        ).get("Item")
        return deserialize(item) if item else None

    def _query(self, board: str, condition: str, values: dict[str, Any], **kw: Any) -> list:
        response = self._client.query(
            TableName=self.name,
            IndexName=INDEX,
            KeyConditionExpression=f"board = :b AND {condition}" if condition else "board = :b",
            ExpressionAttributeValues=serialize({":b": board, **values}),
            **kw,
        )
        return [deserialize(i) for i in response.get("Items", [])]

    def top(
        self, game: str, period: str, limit: int, after: tuple[int, str] | None
    ) -> list[dict[str, Any]]:
        """The best ``limit`` entries (score desc, player id asc) after ``after``: one query
        per shard, merged."""
        found: list[dict[str, Any]] = []
        for shard in range(SHARDS):
            board = f"{game}#{period}#{shard}"
            if after is None:
                items = self._query(board, "", {}, ScanIndexForward=False, Limit=limit)
            else:
                # Ties at the cursor's score may be several: read past them, then filter.
                items = self._query(
                    board, "score <= :s", {":s": after[0]}, ScanIndexForward=False,
                    Limit=limit + 20,
                )  # fmt: skip
                items = [i for i in items if _order(i) > (-after[0], after[1])]
            found.extend(items)
        found.sort(key=_order)
        return found[:limit]

    def ahead(self, game: str, period: str, score: int) -> int | None:
        """How many entries have a higher score (None past RANK_COUNT_CAP): COUNT queries."""
        total = 0
        for shard in range(SHARDS):
            kwargs: dict[str, Any] = {}
            while True:
                response = self._client.query(
                    TableName=self.name,
                    IndexName=INDEX,
                    KeyConditionExpression="board = :b AND score > :s",
                    ExpressionAttributeValues=serialize(
                        {":b": f"{game}#{period}#{shard}", ":s": score}
                    ),
                    Select="COUNT",
                    **kwargs,
                )
                total += int(response.get("Count", 0))
                if total > RANK_COUNT_CAP:
                    return None
                last = response.get("LastEvaluatedKey")
                if not last:
                    break
                kwargs["ExclusiveStartKey"] = last
        return total

    def around(self, game: str, period: str, score: int, n: int) -> tuple[list, list]:
        """Up to ``n`` entries just above and just below ``score`` (ties excluded)."""
        above: list[dict[str, Any]] = []
        below: list[dict[str, Any]] = []
        for shard in range(SHARDS):
            board = f"{game}#{period}#{shard}"
            above += self._query(board, "score > :s", {":s": score}, Limit=n)
            below += self._query(
                board, "score < :s", {":s": score}, ScanIndexForward=False, Limit=n
            )
        above.sort(key=_order)
        below.sort(key=_order)
        return above[-n:], below[:n]

    def _board_keys(self, player_id: str, now: float) -> list[str]:
        """Every board entry of the player that may still exist (all-time, and the weeks
        whose entries have not expired)."""
        keys = []
        weeks = {week_key(now - 7 * 24 * 3600 * k) for k in range(WEEK_TTL // (7 * 24 * 3600) + 2)}
        for game in ("kastet", "harftet"):
            keys += [board_key(game, period, player_id) for period in ("all", *sorted(weeks))]
        return keys

    def entries_of(self, player_id: str, now: float) -> list[dict[str, Any]]:
        """The player's board entries (``game``, ``period`` added): BatchGetItem by key."""
        keys = self._board_keys(player_id, now)
        found = []
        for start in range(0, len(keys), 100):
            request: dict[str, Any] = {
                self.name: {"Keys": [{"playerId": {"S": k}} for k in keys[start : start + 100]]}
            }
            while request:
                response = self._client.batch_get_item(RequestItems=request)
                for raw in response.get("Responses", {}).get(self.name, []):
                    item = deserialize(raw)
                    _, game, period, _ = str(item["playerId"]).split("#", 3)
                    found.append({**item, "game": game, "period": period})
                request = response.get("UnprocessedKeys") or {}
        return sorted(found, key=lambda i: (i["game"], i["period"]))

    def filed(self, player_id: str) -> list[dict[str, Any]]:
        """The reports the player filed (``filed#<playerId>``), oldest first."""
        item = self._client.get_item(
            TableName=self.name, Key={"playerId": {"S": FILED + player_id}}, ConsistentRead=True
        ).get("Item")
        return list(deserialize(item).get("r") or []) if item else []

    def forget(self, player_id: str, now: float) -> int:
        """Delete the player's profile, every board entry that may still exist and the list
        of reports they filed, and those reports (API.md v4: nothing they filed remains): for
        ``DELETE /players/me``. Returns how many items were deleted."""
        keys = [profile_key(player_id), FILED + player_id, *self._board_keys(player_id, now)]
        keys += filed_keys(self.filed(player_id))
        deleted = 0
        for key in keys:
            old = self._client.delete_item(
                TableName=self.name, Key={"playerId": {"S": key}}, ReturnValues="ALL_OLD"
            )
            deleted += 1 if old.get("Attributes") else 0
        return deleted

    # -- reports ----------------------------------------------------------------------
    def add_report(self, report: dict[str, Any], key: str, day: str, at: int) -> None:
        item = {**report, "playerId": key, "board": f"reports#{day}", "score": at}
        self._client.put_item(TableName=self.name, Item=serialize(item))
        filed = {k: v for k, v in report.items() if k != "reporter"}  # for the export
        filed["key"] = key  # for the deletion
        self._client.update_item(
            TableName=self.name,
            Key={"playerId": {"S": FILED + str(report["reporter"])}},
            UpdateExpression="SET r = list_append(if_not_exists(r, :none), :one)",
            ExpressionAttributeValues=serialize({":none": [], ":one": [filed]}),
        )

    def reports(self, day: str, limit: int) -> list[dict[str, Any]]:
        items = self._query(f"reports#{day}", "", {}, ScanIndexForward=False, Limit=limit)
        return items

    # -- operator bans ----------------------------------------------------------------
    def set_ban(self, player_id: str, banned: bool, now: float) -> None:
        """Ban or unban a player; NotFoundError when there is no such player."""
        if not 0 < len(player_id) <= 64 or "#" in player_id:  # "#": not a player's key
            raise NotFoundError(f"no player {player_id[:64]}")
        if banned:
            expression = "SET operatorBan = :at"
            values: dict[str, Any] = {":at": {"N": str(int(now))}}
        else:
            expression, values = "REMOVE operatorBan", {}
        kwargs: dict[str, Any] = {}
        if values:
            kwargs["ExpressionAttributeValues"] = values
        try:
            self._client.update_item(
                TableName=self.name,
                Key={"playerId": {"S": player_id}},
                UpdateExpression=expression,
                ConditionExpression="attribute_exists(playerId)",
                **kwargs,
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                raise NotFoundError(f"no player {player_id}") from error
            raise


def _order(item: dict[str, Any]) -> tuple[int, str]:
    return (-int(item.get("score", 0)), str(item.get("pid", "")))
