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

import dataclasses
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from harftet import cursors
from harftet.engine.ending import closed_reason
from harftet.engine.seating import DELETED_NAME, has_left, is_deleted, members, your_turn
from harftet.engine.state import Table
from harftet.engine.table import BOT_PREFIX
from harftet.engine.view import public_event
from harftet.errors import BadRequestError
from harftet.identity import Caller
from harftet.store.inbox import REMIND_SHARDS, InboxItem
from harftet.store.ports import InboxStorePort
from harftet.store.table_items import WAITING_SECONDS

PAGE = 20
FINISHED_KEPT_SECONDS = 3 * 24 * 3600  # a finished game stays in the inbox this long
# The reminder index (sparse): the item of the player in turn at a correspondence table
# carries a shard and when to remind (ms), removed once the reminder is sent.
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
INVITED_KEPT_SECONDS = 24 * 3600  # an invitation to a table one is not seated at lists it


def public_last(table: Table) -> dict[str, Any] | None:
    """The event that made this version, as the log shows it (RULES §5)."""
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


def entry(table: Table, player_id: str) -> dict[str, Any]:
    """What the inbox shows of ``table`` to ``player_id`` (API.md v3; ``left``: they left it
    during the game and sit there no more)."""
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
        "deleted": deleted_seats(table),
        "left": has_left(table, player_id),
        "closed": closed_reason(table),  # why it ended early, if it did (API.md v4)
    }


def deleted_seats(table: Table) -> list[int]:
    """The seats of ``table`` whose player was deleted (their stored name is the server's
    Turkish one: a client names them in its reader's language)."""
    return [
        i
        for i, s in enumerate(table.seats)
        if s.occupant and is_deleted(s.occupant.player_id, s.occupant.name)
    ]


def shown(entry: dict[str, Any]) -> dict[str, Any]:
    """A stored entry as the inbox lists it: one stored before entries had ``deleted`` gets it
    from the names (a deleted player's is DELETED_NAME; their id was not kept in the entry)."""
    if "deleted" in entry:
        return entry
    names = entry.get("players") or []
    return {**entry, "deleted": [i for i, n in enumerate(names) if n == DELETED_NAME]}


def inbox_item(table: Table, version: int, player_id: str, now: float) -> InboxItem:
    """``player_id``'s item of ``table`` at ``version``: what it shows, where it stands, when
    it goes, and when to remind them of their turn."""
    shown = entry(table, player_id)
    expires = None
    if table.status == "finished":
        expires = int(now + FINISHED_KEPT_SECONDS)
    elif table.status == "waiting":  # as the table item: gone a day after it was made
        expires = int(table.created_at + WAITING_SECONDS)
    shard = remind_at = None
    if (
        shown["yourTurn"]
        and table.pace == "correspondence"
        and table.deadline is not None
        and table.deadline - REMIND_BEFORE_SECONDS > now
    ):
        shard = zlib.crc32(f"{player_id}{table.table_id}".encode()) % REMIND_SHARDS
        remind_at = int((table.deadline - REMIND_BEFORE_SECONDS) * 1000)
    return InboxItem(
        player_id, table.table_id, version, rank(table, player_id), table.pace, table.status,
        shown, expires, shard, remind_at,
    )  # fmt: skip


def _coarse(table: Table, player_id: str) -> tuple[Any, ...]:
    """What a live table's inbox item lists and orders by, less the deadline and last move:
    (status, players, whose turn)."""
    players = tuple(s.occupant.name if s.occupant else None for s in table.seats)
    return (table.status, players, your_turn(table, player_id))


def left_before_start(events: Iterable[dict[str, Any]]) -> list[str]:
    """Who stood up in ``events`` (their item goes if they are no longer a member)."""
    return [str(e["playerId"]) for e in events if e.get("type") in ("stand", "leave")]


class Inbox:
    """Each player's list of tables: written from the stream, read a page at a time."""

    def __init__(self, store: InboxStorePort, mac: cursors.Mac, clock: Callable[[], float]) -> None:
        self.store = store
        self.mac = mac
        self.clock = clock
        # (tableId, playerId) -> (what the inbox shows coarsely, version, when): the items
        # this process wrote for live tables in play (bounded; another process just writes)
        self._written: OrderedDict[tuple[str, str], tuple[tuple[Any, ...], int, float]] = (
            OrderedDict()
        )

    # -- written by the stream consumer -------------------------------------------------
    def record_versions(
        self, versions: list[tuple[Table, int]], watching: Iterable[str] = ()
    ) -> int:
        """Bring the members' items to the newest of one table's ``versions`` (oldest first;
        those who stood up in any of them lose theirs); the writes made."""
        table, version = versions[-1]
        left = left_before_start(e for t, _ in versions for e in t.recent)
        return self.record(table, version, self.clock(), left, watching)

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
            writes += self.store.put(inbox_item(table, version, pid, now))
            self._remember(table, version, pid, now)
        keep = set(members(table))
        for pid in dict.fromkeys(left):
            if pid in keep or pid.startswith(BOT_PREFIX):
                continue
            self.store.delete_older(pid, table.table_id, version)
            writes += 1
        return writes

    # -- written by the request itself (read-your-writes) ---------------------------------
    def note(self, table: Table, version: int, player_id: str) -> bool:
        """List ``table`` at ``version`` in ``player_id``'s inbox now, not when the stream
        gets there (API.md v4: a table the caller created or sat at is in the very next
        request); the version condition keeps the stream's newer writes. Whether written."""
        return self.store.put(inbox_item(table, version, player_id, self.clock()))

    def note_invited(self, table: Table, version: int, player_id: str) -> bool:
        """List ``table`` in the inbox of a player invited to it (API.md v4). Not a member,
        the stream does not follow it for them: it goes after INVITED_KEPT_SECONDS (sooner
        as the table's own item would), or becomes theirs when they sit down."""
        if player_id in members(table):
            return self.note(table, version, player_id)
        item = inbox_item(table, version, player_id, self.clock())
        until = int(self.clock() + INVITED_KEPT_SECONDS)
        expires = until if item.expires_at is None else min(item.expires_at, until)
        return self.store.put(dataclasses.replace(item, expires_at=expires))

    def _fresh(
        self, table: Table, version: int, player_id: str, now: float, watching: bool
    ) -> bool:
        """Whether this process wrote ``player_id``'s item of the live ``table`` lately with
        the same status, players and turn (the turn aside when they are ``watching`` the
        table), so that this version need not be written."""
        if table.pace != "live" or table.status != "playing":
            return False
        seen = self._written.get((table.table_id, player_id))
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

    # -- read by the REST function -------------------------------------------------------
    def tables(self, caller: Caller, cursor: str | None = None) -> dict[str, Any]:
        """One page of the caller's tables: their turn first, then the nearest deadline."""
        after = self._read_cursor(cursor, caller.player_id) if cursor is not None else None
        items, last = self.store.page(caller.player_id, PAGE, after)
        now = self.clock()
        # TTL removes an expired item within a day or two; the inbox no longer shows it
        entries = [shown(i.entry) for i in items if i.expires_at is None or i.expires_at > now]
        return {
            "tables": entries,
            "cursor": cursors.sign(self.mac, last) if last else None,
            "yourTurn": sum(1 for e in entries if e["yourTurn"]),
        }

    def _read_cursor(self, cursor: str, player_id: str) -> dict[str, str]:
        """The store's page key a cursor carries, if we gave it out to ``player_id``."""
        bad = BadRequestError(
            "cursor is not one your inbox gave out: start from the first page", field="cursor"
        )
        try:
            plain = cursors.read(self.mac, cursor)
        except cursors.CursorError as error:
            raise bad from error
        if not isinstance(plain, dict) or plain.get("playerId") != player_id:
            raise bad
        if set(plain) != {"playerId", "sk", "rank"} or not all(
            isinstance(v, str) for v in plain.values()
        ):
            raise bad
        return plain
