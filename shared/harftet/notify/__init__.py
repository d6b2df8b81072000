"""Notifications: produced from the tables stream (the outbox) into a queue, delivered by the
notifier function (Web Push, SNS mobile push), at most once per (player, table, version,
kind).

Kinds: ``turn`` (your turn at a correspondence table), ``reminder`` (1 hour before your
deadline; from the inbox's reminder index, swept with the turn deadlines), ``invitation``
(a friend's invitation: an ``invitation`` event, when the table log carries one), ``gameEnd``,
``tournament`` (a tournament round seated the player: harftet.tournaments).
A live table notifies only players with no open socket to it.

A notification carries no hidden information (RULES §5): the table, the game, the seats'
names and, at the end, the final points everyone sees.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from harftet.engine.ending import closed_reason
from harftet.engine.seating import members, your_turn
from harftet.engine.state import Table

Kind = Literal["turn", "reminder", "invitation", "gameEnd", "tournament"]
KINDS: tuple[str, ...] = ("turn", "reminder", "invitation", "gameEnd", "tournament")


@dataclass(frozen=True, slots=True)
class Notification:
    """One thing to tell one player; ``data`` holds what the texts need (no hidden tiles)."""

    player_id: str
    table_id: str
    version: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """What makes it unique: (player, table, version, kind); an invitation is one per
        (player, table, inviter) whatever the table's version when it was sent."""
        if self.kind == "invitation" and self.data.get("by"):
            return f"{self.table_id}#invitation#{self.data['by']}"
        return f"{self.table_id}#{self.version}#{self.kind}"

    def body(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def parse(cls, body: str) -> Notification:
        """A notification from a queue message; ValueError when it is not one."""
        data = json.loads(body)
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise ValueError("not a notification")
        return cls(
            str(data["player_id"]),
            str(data["table_id"]),
            int(data["version"]),
            str(data["kind"]),
            dict(data.get("data") or {}),
        )


def about_table(table: Table) -> dict[str, Any]:
    """What a notification says of a table: its game, pace and players' names."""
    return {
        "game": table.game,
        "pace": table.pace,
        "players": [s.occupant.name for s in table.seats if s.occupant is not None],
    }


def from_version(
    table: Table, version: int, connected: Callable[[str], set[str]] | None = None
) -> list[Notification]:
    """What the stored ``version`` of ``table`` (its ``recent`` events) notifies.
    ``connected(table_id)`` gives the players with an open socket to the table (a live
    table notifies only the others)."""
    out: list[Notification] = []
    about = about_table(table)
    online: set[str] | None = None

    def offline(pid: str) -> bool:
        nonlocal online
        if table.pace == "correspondence":
            return True
        if online is None:
            online = connected(table.table_id) if connected is not None else set()
        return pid not in online

    kinds = {e.get("type") for e in table.recent}
    if table.status == "finished" and "gameEnd" in kinds:
        ratings = (table.result or {}).get("ratings")
        closed = closed_reason(table)  # ended early: the notification says why
        ended = {**about, "closed": closed} if closed else about
        for pid in members(table):
            if offline(pid):
                mine = ratings.get(pid) if isinstance(ratings, dict) else None
                out.append(
                    Notification(pid, table.table_id, version, "gameEnd", {**ended, "points": mine})
                )
    elif table.pace == "correspondence" and table.status == "playing" and table.recent:
        seat = table.turn_seat
        if seat is not None and (table.recent[-1].get("seat") != seat or "start" in kinds):
            occupant = table.seats[seat].occupant
            if occupant is not None and not occupant.bot and your_turn(table, occupant.player_id):
                data = {**about, "deadline": table.deadline}
                out.append(Notification(occupant.player_id, table.table_id, version, "turn", data))
    for event in table.recent:
        if event.get("type") == "invitation":
            invited = event.get("to") or event.get("invitee") or event.get("playerId")
            if isinstance(invited, str) and invited and offline(invited):
                data = {**about, "from": event.get("fromName") or event.get("from")}
                out.append(Notification(invited, table.table_id, version, "invitation", data))
    return out


def from_versions(
    versions: Iterable[tuple[Table, int]], connected: Callable[[str], set[str]] | None = None
) -> list[Notification]:
    """Every version's notifications; a ``turn`` only for the newest version of a table (an
    older one in the same batch has already been played)."""
    items = list(versions)
    out: list[Notification] = []
    for i, (table, version) in enumerate(items):
        newest = all(t.table_id != table.table_id for t, _ in items[i + 1 :])
        for n in from_version(table, version, connected):
            if n.kind != "turn" or newest:
                out.append(n)
    return out
