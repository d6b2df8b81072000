"""What the stream consumer does for the inbox and the notifications with every batch of a
table's versions: bring its members' inbox items up to the newest version, and queue what
the versions notify (the notifier delivers them)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from harftet.engine.state import Table
from harftet.inbox import InboxStore, left_before_start
from harftet.notify import Notification, NotifyQueue, from_versions


class Outbox:
    def __init__(
        self,
        inbox: InboxStore | None,
        queue: NotifyQueue | None,
        connected: Callable[[str], set[str]],
        clock: Callable[[], float],
    ) -> None:
        self.inbox = inbox
        self.queue = queue
        self.connected = connected
        self.clock = clock

    def publish(self, versions: list[tuple[Table, int]], watching: Iterable[str] = ()) -> None:
        """``versions``: one table's stored versions in this batch, oldest first;
        ``watching``: the players with a socket open on the table (its pushes reach them)."""
        if not versions:
            return
        table, version = versions[-1]
        if self.inbox is not None:
            left = left_before_start(e for t, _ in versions for e in t.recent)
            self.inbox.record(table, version, self.clock(), left, watching)
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
            if taken is None:
                continue
            notes.append(reminder(taken))
        if notes:
            self.queue.send(notes)
        return len(notes)


def reminder(item: dict[str, Any]) -> Notification:
    """The reminder of an inbox item (whose turn it is)."""
    import json

    entry = json.loads(item["entry"]["S"])
    data = {"game": entry["game"], "pace": entry["pace"], "players": [
        p for p in entry["players"] if p is not None
    ], "deadline": entry["deadline"]}  # fmt: skip
    return Notification(
        item["playerId"]["S"], entry["tableId"], int(item["version"]["N"]), "reminder", data
    )


def queue_invitation(player_id: str, stored: Any, from_name: str | None) -> None:
    """A friend's invitation to a player with no open socket: queued for the notifier (at
    most once per player, table, version and kind). Nothing where no queue is set up."""
    from harftet.notify import _about
    from harftet.wiring import _notify_queue

    queue = _notify_queue()
    if queue is None:
        return
    data = {**_about(stored.table), "from": from_name}
    queue.send([Notification(player_id, stored.table.table_id, stored.version, "invitation", data)])
