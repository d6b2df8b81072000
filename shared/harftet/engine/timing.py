"""When a table's next timed event falls due, and applying one due event.

The engine decides both (``life.next_due``, ``life.sweep(table, now, bot=...)``); this module
is the one place the write path, the store's deadline index, the stream consumer and the
timers ask, so they always agree — and the one place that picks the computer players' move.
"""

from __future__ import annotations

from . import table as life
from .effects import Outcome
from .moves import Move
from .state import Table


def next_due(table: Table) -> float | None:
    """When the next timed event (a timeout, a grace or wait end, a computer player's move)
    falls due, in epoch seconds; None when nothing is timed."""
    return life.next_due(table)


def bot_due(table: Table) -> float | None:
    """When the computer player in turn moves (None when no computer player is to move)."""
    return life.bot_due(table)


def due_event(table: Table, now: float, *, bots: bool = False) -> Outcome | None:
    """The ONE timed event due at ``now`` applied — a computer player's move only when
    ``bots`` — or None when nothing is due."""
    return life.sweep(table, now, bot=bot_player if bots else None)


def bot_player(table: Table, seat: int) -> Move:
    """The move of the computer player at ``seat`` (imported on first use: only tables with
    computer players need the search and its word index)."""
    from . import bot

    occupant = table.seats[seat].occupant
    level = occupant.level if occupant is not None and occupant.level else None
    if level is None:
        return bot.choose_move(table, seat)
    return bot.choose_move(table, seat, level)
