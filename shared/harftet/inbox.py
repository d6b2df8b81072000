"""The inbox: each player's tables ("Sıra sende" first, then the nearest deadline), read with
one Query on one partition.

Storage: the mail table (template.yaml ``MailTable``), keyed ``playerId`` + ``sk``. A player's
table is the item ``sk = "table#<tableId>"``, written by the stream consumer (the fan-out)
for every table version it publishes, conditionally on its ``version`` (an older version
never overwrites a newer one, a redelivered record writes nothing new). Its ``rank``
attribute orders the local index ``rank-index`` the way the inbox shows it:

    "0#<deadline ms>"   the player's turn (nearest deadline first)
    "1#<deadline ms>"   a running table, somebody else's turn
    "2#<inverse created ms>"   waiting for players (newest first)
    "3#<inverse end ms>"       finished (newest first; TTL removes it after 3 days)

Why the stream and not the table's own transaction: a move is one conditional UpdateItem on
the table item (no transaction, half the write price of one); the inbox of 2-4 players would
make every move a transaction of 3-5 items. The stream already carries every version
exactly once per shard, in order, so the inbox follows within the stream's lag (well under a
second) and the version condition keeps it right under retries.

The same table holds each player's push subscriptions (``sk = "push#<id>"``), mobile devices
(``"device#<id>"``), notification preferences (``"prefs"``) and the markers that make
notifications at-most-once (``"sent#..."``, with TTL): prefixes of their own, in a table of
their own, next to the players table's items.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from botocore.exceptions import ClientError

from harftet.engine.state import Table
from harftet.engine.table import BOT_PREFIX
from harftet.store.tables import WAITING_SECONDS

PAGE = 20
TABLE = "table#"
FINISHED_KEPT_SECONDS = 3 * 24 * 3600  # a finished game stays in the inbox this long
# The reminder index (sparse): the item of the player in turn at a correspondence table
# carries ``remind`` (a shard) and ``remindAt`` (ms), removed once the reminder is sent.
REMIND = "remind"
REMIND_SHARDS = 4
REMIND_BEFORE_SECONDS = 3600  # "1 hour before your deadline"
FAR = 10**15 - 1
# A live table in play changes every few seconds, and its members are at the table: its inbox
# items are written when what the inbox lists or orders them by changes (the status, the
# players, whose turn it is), and otherwise at most once every LIVE_REFRESH_SECONDS (the
# deadline and last move they show may lag that much). Each skipped write is two or three
# write units (the item and its rank-index entry) of every member, at nearly every change.
# A member with a socket open on the table sees its turn there, pushed: their item follows
# only the status and the players, so a turn that passes at a live table (every change or
# two) writes nothing for the people watching it. Once they close the socket, the next version
# brings their item up to date (a live table changes within its turn time).
LIVE_REFRESH_SECONDS = 30.0
MEMO_SIZE = 20_000


def members(table: Table) -> list[str]:
    """The people whose inbox shows ``table``: who sits there, and who held a seat this game
    and may come back (a dropped owner, a leaver)."""
    found: dict[str, None] = {}
    for chair in table.seats:
        for person in (chair.occupant, chair.original):
            if person is not None and not person.bot:
                found[person.player_id] = None
    for pid in table.former:
        if not pid.startswith(BOT_PREFIX):
            found[pid] = None
    return list(found)


def public_last(table: Table) -> dict[str, Any] | None:
    """The event that made this version, as the log shows it (RULES §5)."""
    from harftet.service import public_event

    return public_event(table.recent[-1]) if table.recent else None


def rank(table: Table, player_id: str) -> str:
    """Where ``table`` stands in ``player_id``'s inbox (see the module)."""
    if table.status == "finished":
        ended = table.recent[-1]["at"] if table.recent else table.created_at
        return f"3#{FAR - int(float(ended) * 1000):015d}"
    if table.status == "waiting":
        return f"2#{FAR - int(table.created_at * 1000):015d}"
    deadline = FAR if table.deadline is None else int(table.deadline * 1000)
    return f"{0 if your_turn(table, player_id) else 1}#{deadline:015d}"


def _coarse(table: Table, player_id: str) -> tuple[Any, ...]:
    """What a live table's inbox item lists and orders by, less the deadline and last move:
    (status, players, whose turn)."""
    players = tuple(s.occupant.name if s.occupant else None for s in table.seats)
    return (table.status, players, your_turn(table, player_id))


def your_turn(table: Table, player_id: str) -> bool:
    if table.status != "playing" or table.turn_seat is None:
        return False
    occupant = table.seats[table.turn_seat].occupant
    return occupant is not None and occupant.player_id == player_id


def entry(table: Table, player_id: str) -> dict[str, Any]:
    """What the inbox shows of ``table`` to ``player_id`` (API.md v3)."""
    mine = your_turn(table, player_id)
    return {
        "tableId": table.table_id,
        "game": table.game,
        "pace": table.pace,
        "status": table.status,
        "yourTurn": mine,
        "deadline": table.deadline if mine else None,
        "last": public_last(table),
        "players": [s.occupant.name if s.occupant else None for s in table.seats],
    }


class InboxStore:
    """Inbox items of the mail table (a boto3 low-level DynamoDB client)."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._name = table_name
        # (tableId, playerId) -> (what the inbox shows coarsely, version, when): the items
        # this process wrote for live tables in play (bounded; another process just writes)
        self._written: OrderedDict[tuple[str, str], tuple[tuple[Any, ...], int, float]] = (
            OrderedDict()
        )

    def _fresh(
        self, table: Table, version: int, player_id: str, now: float, watching: bool
    ) -> bool:
        """Whether this process wrote ``player_id``'s item of the live ``table`` lately with
        the same status, players and turn (the turn aside when they are ``watching`` the
        table), so that this version need not be written."""
        if table.pace != "live" or table.status != "playing":
            return False
        key = (table.table_id, player_id)
        seen = self._written.get(key)
        coarse = _coarse(table, player_id)
        same = 2 if watching else 3  # how much of the coarse state must be the same
        return (
            seen is not None
            and seen[0][:same] == coarse[:same]
            and seen[1] < version
            and now - seen[2] < LIVE_REFRESH_SECONDS
        )

    def _remember(self, table: Table, version: int, player_id: str, now: float) -> None:
        key = (table.table_id, player_id)
        if table.pace != "live" or table.status != "playing":
            self._written.pop(key, None)
            return
        self._written[key] = (_coarse(table, player_id), version, now)
        self._written.move_to_end(key)
        while len(self._written) > MEMO_SIZE:
            self._written.popitem(last=False)

    # -- written by the stream consumer -------------------------------------------------
    def record(
        self,
        table: Table,
        version: int,
        now: float,
        left: Iterable[str] = (),
        watching: Iterable[str] = (),
    ) -> int:
        """Bring every member's item to ``version`` (older versions never overwrite newer
        ones; at a live table in play, only as often as the module says, ``watching`` the
        players with a socket open on the table); remove the items of ``left`` (people who
        stood up before the start). Returns the writes made."""
        writes = 0
        here = set(watching)
        for pid in members(table):
            if self._fresh(table, version, pid, now, pid in here):
                continue
            item = self._item(table, version, pid, now)
            names = {"#v": "version"}
            try:
                self._client.put_item(
                    TableName=self._name,
                    Item=item,
                    ConditionExpression="attribute_not_exists(#v) OR #v < :v",
                    ExpressionAttributeNames=names,
                    ExpressionAttributeValues={":v": {"N": str(version)}},
                )
                writes += 1
            except ClientError as error:
                if error.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                    raise
            self._remember(table, version, pid, now)
        keep = set(members(table))
        for pid in dict.fromkeys(left):
            if pid in keep or pid.startswith(BOT_PREFIX):
                continue
            self._delete_older(pid, table.table_id, version)
            writes += 1
        return writes

    def _delete_older(self, player_id: str, table_id: str, version: int) -> None:
        try:
            self._client.delete_item(
                TableName=self._name,
                Key={"playerId": {"S": player_id}, "sk": {"S": TABLE + table_id}},
                ConditionExpression="#v < :v",
                ExpressionAttributeNames={"#v": "version"},
                ExpressionAttributeValues={":v": {"N": str(version)}},
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                raise

    def _item(self, table: Table, version: int, player_id: str, now: float) -> dict[str, Any]:
        shown = entry(table, player_id)
        item: dict[str, Any] = {
            "playerId": {"S": player_id},
            "sk": {"S": TABLE + table.table_id},
            "rank": {"S": rank(table, player_id)},
            "version": {"N": str(version)},
            "pace": {"S": table.pace},
            "status": {"S": table.status},
            "entry": {"S": json.dumps(shown, ensure_ascii=False, separators=(",", ":"))},
        }
        if table.status == "finished":
            item["expiresAt"] = {"N": str(int(now + FINISHED_KEPT_SECONDS))}
        elif table.status == "waiting":  # as the table item: gone a day after it was made
            item["expiresAt"] = {"N": str(int(table.created_at + WAITING_SECONDS))}
        if (
            shown["yourTurn"]
            and table.pace == "correspondence"
            and table.deadline is not None
            and table.deadline - REMIND_BEFORE_SECONDS > now
        ):
            shard = zlib.crc32(f"{player_id}{table.table_id}".encode()) % REMIND_SHARDS
            item[REMIND] = {"S": f"{REMIND}#{shard}"}
            item["remindAt"] = {"N": str(int((table.deadline - REMIND_BEFORE_SECONDS) * 1000))}
        return item

    # -- read by the REST function -------------------------------------------------------
    def page(
        self, player_id: str, now: float, limit: int = PAGE, after: dict[str, Any] | None = None
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """One page of the player's inbox in its order, and where the next page starts."""
        kwargs: dict[str, Any] = {
            "TableName": self._name,
            "IndexName": "rank-index",
            "KeyConditionExpression": "playerId = :p",
            "ExpressionAttributeValues": {":p": {"S": player_id}},
            "ScanIndexForward": True,
            "Limit": limit,
        }
        if after is not None:
            kwargs["ExclusiveStartKey"] = after
        answer = self._client.query(**kwargs)
        entries = []
        for item in answer.get("Items", []):
            expires = item.get("expiresAt")
            if expires is not None and float(expires["N"]) <= now:
                continue  # TTL removes it within a day or two; the inbox no longer shows it
            entries.append(json.loads(item["entry"]["S"]))
        return entries, answer.get("LastEvaluatedKey")

    def item(self, player_id: str, table_id: str) -> dict[str, Any] | None:
        """The raw inbox item (the notifier checks a held "your turn" is still true)."""
        answer = self._client.get_item(
            TableName=self._name,
            Key={"playerId": {"S": player_id}, "sk": {"S": TABLE + table_id}},
            ConsistentRead=True,
        )
        item: dict[str, Any] | None = answer.get("Item")
        return item

    # -- reminders (the sweeper) ---------------------------------------------------------
    def due_reminders(self, now: float, limit: int = 100) -> list[dict[str, Any]]:
        """Inbox items whose "1 hour before your deadline" reminder is due."""
        found: list[dict[str, Any]] = []
        for shard in range(REMIND_SHARDS):
            answer = self._client.query(
                TableName=self._name,
                IndexName="remind-index",
                KeyConditionExpression="#r = :r AND remindAt <= :now",
                ExpressionAttributeNames={"#r": REMIND},
                ExpressionAttributeValues={
                    ":r": {"S": f"{REMIND}#{shard}"},
                    ":now": {"N": str(int(now * 1000))},
                },
                Limit=limit,
            )
            found += answer.get("Items", [])
        return found

    def claim_reminder(self, item: dict[str, Any]) -> dict[str, Any] | None:
        """Take a due reminder off the index (only if it still is the one read); the item
        as it is now when taken, None when another sweeper took it or it moved on."""
        try:
            answer = self._client.update_item(
                TableName=self._name,
                Key={"playerId": item["playerId"], "sk": item["sk"]},
                UpdateExpression="REMOVE #r, remindAt",
                ConditionExpression="remindAt = :at",
                ExpressionAttributeNames={"#r": REMIND},
                ExpressionAttributeValues={":at": item["remindAt"]},
                ReturnValues="ALL_NEW",
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return None
            raise
        taken: dict[str, Any] = answer.get("Attributes", {})
        return taken


def sign_cursor(mac: Callable[[bytes], bytes], key: dict[str, Any]) -> str:
    """An opaque, signed page cursor from a LastEvaluatedKey."""
    plain = {k: v["S"] for k, v in key.items()}
    data = json.dumps(plain, sort_keys=True, separators=(",", ":")).encode()
    return f"{_b64(data)}.{_b64(mac(data)[:16])}"


def read_cursor(mac: Callable[[bytes], bytes], cursor: str, player_id: str) -> dict[str, Any]:
    """The LastEvaluatedKey a cursor carries; ValueError when it is not one we gave out to
    ``player_id``."""
    if len(cursor) > 600 or cursor.count(".") != 1:
        raise ValueError("not a cursor")
    data_part, mac_part = cursor.split(".")
    data = _unb64(data_part)
    if not hmac.compare_digest(_unb64(mac_part), mac(data)[:16]):
        raise ValueError("not a cursor")
    plain = json.loads(data)
    if not isinstance(plain, dict) or plain.get("playerId") != player_id:
        raise ValueError("not a cursor")
    if set(plain) != {"playerId", "sk", "rank"} or not all(
        isinstance(v, str) for v in plain.values()
    ):
        raise ValueError("not a cursor")
    return {k: {"S": v} for k, v in plain.items()}


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def left_before_start(events: Iterable[dict[str, Any]]) -> list[str]:
    """Who stood up in ``events`` (their item goes if they are no longer a member)."""
    return [str(e["playerId"]) for e in events if e.get("type") in ("stand", "leave")]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]
