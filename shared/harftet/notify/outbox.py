"""What the stream consumer does for the inbox and the notifications with every batch of a
table's versions: bring its members' inbox items up to the newest version (the inbox's own use
case), and queue what the versions notify (the notifier delivers them); the sweeper's due
reminders; a friend's invitation to a player with no open socket."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from harftet.engine.state import Table
from harftet.queues import NotifyQueue
from harftet.store.inbox import InboxItem
from harftet.store.ports import InboxStorePort
from harftet.store.table_items import StoredTable

from . import Notification, about_table, from_versions

RecordVersions = Callable[[list[tuple[Table, int]], Iterable[str]], object]


@dataclass(eq=False)
class Outbox:
    """Inbox items and notifications of stored table versions."""

    record: RecordVersions | None  # harftet.inbox: the members' items (None: no inbox here)
    queue: NotifyQueue | None
    connected: Callable[[str], set[str]]
    clock: Callable[[], float]
    inbox: InboxStorePort | None = None  # the reminders' index

    def publish(self, versions: list[tuple[Table, int]], watching: Iterable[str] = ()) -> None:
        """``versions``: one table's stored versions in this batch, oldest first;
        ``watching``: the players with a socket open on the table (its pushes reach them)."""
        if not versions:
            return
        if self.record is not None:
            self.record(versions, watching)
        if self.queue is not None:
            notes = from_versions(versions, self.connected)
            if notes:
                self.queue.send(notes)

    def remind(self, now: float) -> int:
        """Queue the "1 hour before your deadline" reminders that are due (the sweeper)."""
        if self.inbox is None or self.queue is None:
            return 0
        notes: list[Notification] = []
        for item in self.inbox.due_reminders(now):
            taken = self.inbox.claim_reminder(item)
            if taken is not None:
                notes.append(reminder(taken))
        if notes:
            self.queue.send(notes)
        return len(notes)

    def invitation(
        self, player_id: str, stored: StoredTable, from_name: str | None, from_id: str = ""
    ) -> None:
        """A friend's invitation to a player with no open socket: queued for the notifier (at
        most once per player, table and inviter: `Notification.key`). Nothing where no queue
        is set up."""
        if self.queue is None:
            return
        data = {**about_table(stored.table), "from": from_name, "by": from_id}
        table_id = stored.table.table_id
        self.queue.send([Notification(player_id, table_id, stored.version, "invitation", data)])


def reminder(item: InboxItem) -> Notification:
    """The reminder of an inbox item (whose turn it is)."""
    entry: dict[str, Any] = item.entry
    data = {
        "game": entry["game"],
        "pace": entry["pace"],
        "players": [p for p in entry["players"] if p is not None],
        "deadline": entry["deadline"],
    }
    return Notification(item.player_id, entry["tableId"], item.version, "reminder", data)
