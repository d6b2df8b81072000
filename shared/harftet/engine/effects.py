"""What a transition asks the outside world to do besides saving the table, and the log
events it reports (API.md "log")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .state import Event, Placed, Table

# Every log event type (API.md). ``seat`` is None for events of the whole table.
EVENT_TYPES = (
    "sit", "stand", "start", "draw", "lay", "pass", "timeout", "leave", "disconnect",
    "reconnect", "substitute", "bot", "continue", "handEnd", "gameEnd",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class RatingChange:
    """Change a player's rating and record. ``reason`` "leave": the 2·N leaver penalty
    (abandoned +1); "game": their share of a finished game's points (played +1)."""

    player_id: str
    delta: int
    reason: Literal["game", "leave"]


@dataclass(slots=True)
class Outcome:
    """A transition's result: the new table, the effects to apply with it atomically, and the
    log events it produced (the same list as ``table.recent``; empty when nothing changed)."""

    table: Table
    effects: list[RatingChange] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def begin(table: Table) -> Table:
    """Start a change on ``table`` (a clone): its ``recent`` events are this change's."""
    table.recent = []
    return table


def note(table: Table, now: float, kind: str, seat: int | None, **data: Any) -> Event:
    """Report one event of the change in progress on ``table`` (a clone after ``begin``)."""
    assert kind in EVENT_TYPES, kind
    table.seq += 1
    event: Event = {
        "seq": table.seq,
        "at": now,
        "hand": table.hand_number,
        "seat": seat,
        "type": kind,
        **data,
    }
    table.recent.append(event)
    return event


def changed(table: Table, effects: list[RatingChange] | None = None) -> Outcome:
    """The outcome of a change made on ``table`` (its events are ``table.recent``)."""
    return Outcome(table, list(effects or ()), list(table.recent))


def placed_json(placed: Placed) -> dict[str, Any]:
    """A tile on the table in the move body's shape: ``{"id"}``, a joker with ``"as"``."""
    if placed.face is None:
        return {"id": placed.id}
    face = placed.face
    shown: Any = {"color": face[0], "number": face[1]} if isinstance(face, tuple) else face
    return {"id": placed.id, "as": shown}


def placed_from_json(value: dict[str, Any]) -> Placed:
    """The inverse of ``placed_json``."""
    face = value.get("as")
    if isinstance(face, dict):
        return Placed(int(value["id"]), (str(face["color"]), int(face["number"])))
    return Placed(int(value["id"]), face)
