"""Spectators' pushes, grouped (issue 40: WebSocket messages are the game's largest cost).

A version after which a computer player moves within ``HOLD_SECONDS`` holds the spectators'
push back: the next version's push carries both, in one message per spectator — a delta from
the version the spectators hold whose ``steps`` say where each version's operations end, so a
client shows every move in order (clients/web/live.js) and one that knows no ``steps`` applies
the operations all at once and holds the same view. Seated players are never held back.

In the reference game (two people, then two computer players at one second each) a round of
four versions reaches a spectator in two messages: the first person's move alone, then the
second's with both computer players' moves, at most ``2 × botSeconds`` late — a short broadcast
delay. A group carries at most ``MOST_STEPS`` versions, so a table of computer players only is
still watched every few seconds.

What the spectators hold is remembered per table by the process that pushed to them (a bounded
cache, like the seated players' connections). Without it — another execution environment
pushed the version before, or a record of the stream is missing — a version that held nothing
back means the spectators hold it; after one that did, they are sent the whole view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Protocol

from harftet.api.delta import view_delta
from harftet.api.views import stored_view
from harftet.engine import timing
from harftet.store.table_items import StoredTable

HOLD_SECONDS = 2.0  # a computer player's move due this soon after a version holds spectators
MOST_STEPS = 4  # versions one spectators' message carries at most


class Record(Protocol):
    """A stream record (``publisher.Change``): the version stored and the one it replaced."""

    @property
    def stored(self) -> StoredTable: ...

    @property
    def old(self) -> StoredTable | None: ...


def stored_at(stored: StoredTable, before: StoredTable | None = None) -> float | None:
    """When ``stored`` was written, as far as the table tells: its last event's time. A
    version without events (a hint that spends the hand's budget) carries its write time on
    the item (``written_at``: the writer's clock, as an event's would be); one written by a
    release before that does not, but was written after ``before``, the version it replaced:
    that one's time is then the earliest it may have been written, which is all a push needs
    (a socket opened after it gets the whole view). None: not known."""
    recent = stored.table.recent
    at = recent[-1].get("at") if recent else None
    if not isinstance(at, int | float):
        at = stored.written_at
    if at is None and before is not None and before.table.recent:
        at = before.table.recent[-1].get("at")
    return float(at) if isinstance(at, int | float) else None


def holds(stored: StoredTable) -> bool:
    """Whether the spectators' push of ``stored`` waits for the next version: a computer
    player is to move within ``HOLD_SECONDS`` of it."""
    due = timing.bot_due(stored.table)
    at = stored_at(stored)
    return due is not None and at is not None and due - at <= HOLD_SECONDS


@dataclass(slots=True)
class Group:
    """The spectators of a table: the version they hold (``since``; None: not known, they get
    the whole view) and when it was stored at the earliest (``since_at``; None: not known,
    they get the whole view too: a socket opened since may hold a later version), then what
    they were not sent yet — each later version's operations, up to ``version``."""

    since: int | None
    since_at: float | None
    version: int
    ops: list[Any] = field(default_factory=list)
    steps: list[dict[str, int]] = field(default_factory=list)
    unsent: int = 0  # versions not sent yet
    # players seated at any of these versions: not among the spectators then, so they may hold
    # another version (the one they stood up at): sent the whole view
    seated: frozenset[str] = frozenset()

    def delta(self) -> dict[str, Any] | None:
        """The push from ``since`` to ``version`` (None when ``since`` is not known); a group
        of several versions says where each one's operations end (``steps``)."""
        if self.since is None:
            return None
        message: dict[str, Any] = {
            "type": "delta",
            "from": self.since,
            "version": self.version,
            "ops": self.ops,
        }
        if len(self.steps) > 1:
            message["steps"] = self.steps
        return message


def pushed(stored: StoredTable, before: StoredTable | None = None) -> Group:
    """The spectators' group once ``stored`` (which replaced ``before``, when known) was pushed
    to them: they hold it."""
    return Group(stored.version, stored_at(stored, before), stored.version)


def holding(held: Group | None, first: StoredTable | None) -> int | None:
    """The version the spectators hold before a batch whose base is ``first`` (None: not
    known), by what this process remembers (``held``) or else by ``first`` itself."""
    if first is None:
        return None
    if held is not None and held.version == first.version:
        return held.since
    return None if holds(first) else first.version


def extend(held: Group | None, versions: list[Record]) -> Group:
    """``held`` (what this process remembers of the table's spectators) continued by a
    batch's versions, oldest first."""
    first = versions[0].old
    if held is not None and first is not None and held.version == first.version:
        group = Group(
            held.since,
            held.since_at,
            held.version,
            list(held.ops),
            list(held.steps),
            held.unsent,
            held.seated,
        )
    elif first is not None and not holds(first):
        group = pushed(first)  # that version held nothing back: the spectators hold it
    else:
        group = Group(None, None, versions[-1].stored.version)
    for change in versions:
        old = change.old
        group.seated |= _people(change.stored) | (_people(old) if old is not None else set())
        if group.since is None or old is None or old.version != group.version:
            group = Group(None, None, change.stored.version, unsent=group.unsent + 1)
            continue
        delta = view_delta(stored_view(old, None), stored_view(change.stored, None))
        group.ops += delta["ops"]
        group.steps.append({"version": change.stored.version, "ops": len(delta["ops"])})
        group.version = change.stored.version
        group.unsent += 1
    return group


def _people(stored: StoredTable) -> frozenset[str]:
    """The players seated at ``stored``."""
    return frozenset(s.occupant.player_id for s in stored.table.seats if s.occupant is not None)


class Groups:
    """Per table, the spectators' group this process knows (a bounded, thread-safe cache)."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._found: OrderedDict[str, Group] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str) -> Group | None:
        with self._lock:
            return self._found.get(table_id)

    def put(self, table_id: str, group: Group) -> None:
        with self._lock:
            self._found[table_id] = group
            self._found.move_to_end(table_id)
            while len(self._found) > self._size:
                self._found.popitem(last=False)

    def drop(self, table_id: str) -> None:
        with self._lock:
            self._found.pop(table_id, None)
