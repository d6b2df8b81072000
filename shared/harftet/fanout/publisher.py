"""After the commit, in one place: every stored table version is published from the tables
table's stream — pushed to each open connection as what changed in its own player's view, its
log events appended, its next timer scheduled — whoever wrote it, even if that writer died
right after.

Records of one table that arrive in one batch are pushed once, at the newest version, so a
connection never gets an older version after a newer one (Lambda hands a shard's batches to
one invocation at a time, in order); the log gets the events of every version.

A push is a delta (``harftet.api.delta``) from the version before the batch — the oldest
record's old image — to the newest, computed once per seat and once for all spectators; a
record without an old image, or a connection opened since that version was stored (it may not
hold it), gets the whole view; a socket that sent the newest version's move over the WebSocket
was answered with its delta by the handler and gets no push of it, one that sent an earlier
version's move of the batch is sent what changed since that version (it holds it). Spectators'
pushes may wait for the next version and then carry both (``harftet.fanout.spectators``: one
message per group of versions while computer players move). Seated players'
connections are posted first, spectators' after:
those the process posted to at the table's last push even before the table's connections are
read (a query that grows with the spectators).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from harftet.api.delta import view_delta
from harftet.api.views import stored_view
from harftet.engine.state import Table
from harftet.fanout import spectators
from harftet.push import Sender, fan_out
from harftet.queues import Timer
from harftet.store.ports import ConnectionStorePort
from harftet.store.table_items import StoredTable, deadline_set, from_stream_image, timers_of

logger = logging.getLogger(__name__)
# A connection registered this recently may not be open yet (API Gateway refuses posts until
# $connect has returned): a GoneException then does not mean it is gone.
YOUNG_SECONDS = 5.0
TABLE_WORKERS = 8
# Clocks of two functions (the $connect that registered a socket, the writer of a version) may
# differ by this much: a socket opened this close to a version may not hold it.
SKEW = 0.01


class LogAppender(Protocol):
    """``harftet.store.log.LogStore``: appends a table's events, idempotent on seq."""

    def append(self, table_id: str, events: list[dict[str, Any]]) -> None: ...


class Outbox(Protocol):
    """``harftet.notify.outbox.Outbox``: inbox items and notifications of table versions."""

    def publish(self, versions: list[tuple[Any, int]], watching: Iterable[str] = ()) -> None: ...


class TimerScheduler(Protocol):
    """``harftet.timers.TimerQueue``."""

    def schedule(self, timer: Timer, now: float) -> None: ...


@dataclass(frozen=True, slots=True)
class Change:
    """One stream record: its sequence number, the table version it stored and the version
    it replaced (the record's old image; None for a new table)."""

    sequence: str
    stored: StoredTable
    old: StoredTable | None = None


@dataclass(slots=True)
class Published:
    """What one batch did: tables published, posts sent, connections found gone, and the
    sequence numbers of records to retry (their table could not be published)."""

    tables: int = 0
    pushed: int = 0
    gone: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def changes_from_stream(event: dict[str, Any]) -> list[Change]:
    """The stored versions in a DynamoDB stream event (INSERT and MODIFY; REMOVEs by TTL and
    records without a new image carry nothing to publish)."""
    changes = []
    for record in event.get("Records") or []:
        data = record.get("dynamodb") or {}
        image = data.get("NewImage")
        if record.get("eventName") in ("INSERT", "MODIFY") and image and "state" in image:
            old_image = data.get("OldImage")
            old = from_stream_image(old_image) if old_image and "state" in old_image else None
            sequence = str(data.get("SequenceNumber", ""))
            changes.append(Change(sequence, from_stream_image(image), old))
    return changes


def by_table(changes: Iterable[Change]) -> dict[str, list[Change]]:
    """Table id → its changes in the batch, oldest version first (each version once)."""
    found: dict[str, dict[int, Change]] = {}
    for change in changes:
        versions = found.setdefault(change.stored.table.table_id, {})
        versions.setdefault(change.stored.version, change)
    return {table_id: [v[n] for n in sorted(v)] for table_id, v in found.items()}


class SeatConnections:
    """The seated players' connections of the tables this process pushed to lately (a
    bounded, thread-safe cache): posted to first, before the table's connections are read."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._found: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._found.get(table_id, ()))

    def put(self, table_id: str, connections: list[dict[str, Any]]) -> None:
        with self._lock:
            self._found[table_id] = list(connections)
            self._found.move_to_end(table_id)
            while len(self._found) > self._size:
                self._found.popitem(last=False)


class Publisher:
    """Publishes stored versions (the stream consumer): pushes, log, timers, inbox and
    notifications, presence. ``disconnect(connection_id)`` is the tables' own use case for a
    socket found gone; ``on_seating(before, after)`` is told every table batch (presence)."""

    def __init__(
        self,
        connections: ConnectionStorePort,
        send: Sender | None,
        clock: Callable[[], float],
        *,
        log: LogAppender | None = None,
        timers: TimerScheduler | None = None,
        outbox: Outbox | None = None,
        disconnect: Callable[[str], object] | None = None,
        on_seating: Callable[[Table | None, Table], object] | None = None,
    ) -> None:
        self.connections = connections
        self.send = send  # the process's one WebSocket sender
        self.clock = clock
        self.log = log
        self.timers = timers
        self.outbox = outbox  # the inbox items and the notifications (harftet.notify.outbox)
        self.disconnect = disconnect
        self.on_seating = on_seating
        self._seats = SeatConnections()
        self._groups = spectators.Groups()  # what each table's spectators hold

    # -- the stream --------------------------------------------------------------------
    def publish(self, changes: Iterable[Change]) -> Published:
        """Publish each table's batch: every version's events to the log, the newest version
        to the connections and the timers. A table that fails is reported in ``failed`` (its
        records are retried), the others are published all the same."""
        tables = by_table(changes)
        result = Published()
        if not tables:
            return result

        def one(versions: list[Change]) -> tuple[int, list[str]] | str:
            try:
                return self._publish_one(versions)
            except Exception:
                table_id = versions[0].stored.table.table_id
                logger.exception("publishing a table failed", extra={"tableId": table_id})
                return min(versions, key=lambda c: int(c.sequence or 0)).sequence

        items = list(tables.values())
        if len(items) == 1:
            outcomes = [one(items[0])]
        else:
            with ThreadPoolExecutor(min(TABLE_WORKERS, len(items))) as pool:
                outcomes = list(pool.map(one, items))
        for outcome in outcomes:
            if isinstance(outcome, str):
                result.failed.append(outcome)
            else:
                result.tables += 1
                result.pushed += outcome[0]
                result.gone += outcome[1]
        return result

    def _publish_one(self, versions: list[Change]) -> tuple[int, list[str]]:
        """Push the newest, schedule its next timer, append every version's events;
        (posts, gone ids)."""
        stored = versions[-1].stored
        table = stored.table
        base = versions[0].old
        pushed, gone, watching = self._push(versions)
        if self.timers is not None and deadline_set([c.stored for c in versions]):
            for due in timers_of(stored, base):
                self.timers.schedule(Timer(table.table_id, stored.version, due), self.clock())
        events = [
            {**event, "version": change.stored.version}  # the version it belongs to
            for change in versions
            for event in change.stored.table.recent
        ]
        if events and self.log is not None:
            self.log.append(table.table_id, events)
        if self.outbox is not None:
            self.outbox.publish([(c.stored.table, c.stored.version) for c in versions], watching)
        if self.on_seating is not None:  # friends may see them sit down or stand up
            self.on_seating(base.table if base else None, table)
        return pushed, gone

    def _push(self, versions: list[Change]) -> tuple[int, list[str], set[str]]:
        """Send every connection of the table what changed in its own player's view since the
        version it holds (the whole view when that is not known) — seated players first:
        those this process posted to last time before it even reads the table's connections,
        then any other seat, then spectators, unless their push waits for the next version
        (``spectators.holds``); drop the gone ones (their players' presence is lost through
        the write path, whose record pushes). (posts, dropped connections, the players the
        posts reached.)"""
        if self.send is None:
            return 0, [], set()
        stored = versions[-1].stored
        table = stored.table
        push = _TablePush(self.send, versions, self.clock())
        held = self._groups.get(table.table_id)
        push.watched = spectators.holding(held, versions[0].old)

        def is_seated(connection: dict[str, Any]) -> bool:
            return table.seat_of(str(connection["playerId"])) is not None

        push.post([c for c in self._seats.get(table.table_id) if is_seated(c)])
        connections = self.connections.for_table(table.table_id)
        push.opened(connections)  # what the table's records say now, not the cache
        seats = [c for c in connections if is_seated(c)]
        push.post(seats)
        others = [c for c in connections if not is_seated(c)]
        watchers = [c for c in others if push.watches(c)]
        push.post([c for c in others if not push.watches(c)])  # stood up in this batch
        if watchers:
            group = spectators.extend(held, versions)
            if spectators.holds(stored) and group.unsent < spectators.MOST_STEPS:
                self._groups.put(table.table_id, group)  # sent with the next version
            else:
                push.spectators = group
                push.post(watchers)
                self._groups.put(table.table_id, spectators.pushed(stored, versions[-1].old))
        else:
            self._groups.drop(table.table_id)
        # remembered for the next push, less any the gateway answered gone
        kept = [c for c in seats if str(c["connectionId"]) not in push.gone]
        self._seats.put(table.table_id, kept)
        dropped = push.dropped()
        for connection_id in dropped:
            if self.disconnect is not None:
                self.disconnect(connection_id)
        reached = {
            str(c["playerId"]) for c in connections if str(c["connectionId"]) not in push.gone
        }
        return push.count(), dropped, reached


class _TablePush:
    """One batch's posts: each connection gets its viewer's delta from the version it holds
    (the batch's base; the whole view for a socket that may not hold it), once; a socket
    that sent one of the batch's moves got that version as its answer and is sent what came
    after it only; spectators are sent their group (``spectators.Group``)."""

    def __init__(self, send: Sender, versions: list[Change], now: float) -> None:
        self.send = send
        self.stored = versions[-1].stored
        old = versions[0].old
        self.base = old if old is not None and old.version < self.stored.version else None
        self.now = now
        # the socket each version's move was answered on -> the newest version it holds so
        self.answered = {c.stored.answered: c.stored for c in versions if c.stored.answered}
        self.spectators: spectators.Group | None = None
        self.watched: int | None = None  # the version spectators held before the batch
        # (viewer, base version; -1: the spectators' group) -> (delta or None, whole view)
        self.payloads: dict[tuple[str | None, int | None], tuple[Any, dict[str, Any]]] = {}
        self.posted: dict[str, float] = {}  # connection id -> when it was opened
        self.gone: list[str] = []
        self.failed = 0

    def watches(self, connection: dict[str, Any]) -> bool:
        """A spectator: neither seated now nor at the batch's base, nor answered a move."""
        player_id = str(connection["playerId"])
        base = self.base
        return (
            self.stored.table.seat_of(player_id) is None
            and (base is None or base.table.seat_of(player_id) is None)
            and str(connection["connectionId"]) not in self.answered
        )

    def message(self, connection: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """(connection id, what it is sent)."""
        connection_id, player_id = str(connection["connectionId"]), str(connection["playerId"])
        own = self.answered.get(connection_id)  # it holds the version its move made
        base = own if own is not None else self.base
        since = spectators.stored_at(base) if base is not None else None
        if self.spectators is not None and self.watches(connection):
            if (None, -1) not in self.payloads:  # one spectators' message for all of them
                whole = {"type": "table", "view": stored_view(self.stored, None)}
                self.payloads[None, -1] = (self.spectators.delta(), whole)
            delta, whole = self.payloads[None, -1]
            since = self.spectators.since_at
            if player_id in self.spectators.seated:  # it holds the version it stood up at
                delta = None
        else:
            # spectators share one view (a player seated before this change has their own)
            was_seated = base is not None and base.table.seat_of(player_id) is not None
            seated = self.stored.table.seat_of(player_id) is not None
            viewer = player_id if seated or was_seated else None
            key = (viewer, base.version if base is not None else None)
            if key not in self.payloads:
                self.payloads[key] = _payloads(self.stored, base, viewer)
            delta, whole = self.payloads[key]
            if seated and not was_seated and base is not None and self.watched != base.version:
                delta = None  # sat down: as a spectator it held a version held back
        if own is not None:
            return connection_id, delta or whole
        # opened after the base was stored: it may not hold that version, so it gets the
        # whole view (connectedAt is to the millisecond; clocks of two functions may differ).
        # When that is not known (a base without events), neither is what it holds: a socket
        # opened a while ago, after the base, holds a later version all the same.
        opened = float(connection.get("connectedAt", 0))
        fresh = since is None or opened + SKEW > since
        return connection_id, whole if fresh or delta is None else delta

    def post(self, group: list[dict[str, Any]]) -> None:
        """Post to those of ``group`` not posted to yet (nor answered on the spot)."""
        answered = self.stored.answered  # the newest version's own answer went there
        group = [
            c
            for c in group
            if str(c["connectionId"]) not in self.posted and str(c["connectionId"]) != answered
        ]
        batch = [self.message(c) for c in group]
        self.posted.update((str(c["connectionId"]), float(c.get("connectedAt", 0))) for c in group)
        lost, errors = fan_out(self.send, batch)
        self.gone.extend(lost)
        self.failed += errors

    def opened(self, connections: list[dict[str, Any]]) -> None:
        """When the posted connections were opened, as the table's records say now."""
        for connection in connections:
            if str(connection["connectionId"]) in self.posted:
                self.posted[str(connection["connectionId"])] = float(
                    connection.get("connectedAt", 0)
                )

    def dropped(self) -> list[str]:
        """The gone connections old enough to be really gone (a young one may not be open
        yet: API Gateway refuses posts until $connect has returned)."""
        return [c for c in self.gone if self.now - self.posted[c] >= YOUNG_SECONDS]

    def count(self) -> int:
        """The posts that reached their socket."""
        return len(self.posted) - len(self.gone) - self.failed


def _payloads(
    stored: StoredTable, base: StoredTable | None, viewer: str | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the delta push, the whole-view push) of ``viewer``; both whole without a base."""
    view = stored_view(stored, viewer)
    whole = {"type": "table", "view": view}
    if base is None:
        return whole, whole
    return view_delta(stored_view(base, viewer), view), whole
