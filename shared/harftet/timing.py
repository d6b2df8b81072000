"""When a table's next timed event falls due, and applying one due event.

The engine decides both (``life.next_due``, ``life.sweep(table, now, bot=...)``); this module
is the one place the write path, the store's deadline index and the stream consumer ask, so
they always agree. Until the engine paces computer players itself, a computer player's turn
falls due ``bot_seconds`` (default 1) after the change that gave it the turn.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from harftet.engine import hand
from harftet.engine import table as life
from harftet.engine.effects import Outcome
from harftet.engine.moves import Move
from harftet.engine.state import Table

BotPlayer = Callable[[Table, int], Move]
DEFAULT_BOT_SECONDS = 1

_ENGINE_NEXT_DUE = getattr(life, "next_due", None)
_ENGINE_SWEEPS_BOTS = "bot" in inspect.signature(life.sweep).parameters


def next_due(table: Table) -> float | None:
    """When the next timed event (a timeout, a grace or wait end, a computer player's move)
    falls due, in epoch seconds; None when nothing is timed."""
    if _ENGINE_NEXT_DUE is not None:
        due: float | None = _ENGINE_NEXT_DUE(table)
        return due
    timed = life.next_event_at(table)
    if life.is_bot_turn(table) and table.deadline is not None:
        turn_began = table.deadline - table.turn_seconds
        bot_due = turn_began + getattr(table, "bot_seconds", DEFAULT_BOT_SECONDS)
        timed = bot_due if timed is None else min(timed, bot_due)
    return timed


def due_event(table: Table, now: float, bot: BotPlayer | None = None) -> Outcome | None:
    """The ONE timed event due at ``now`` applied (a computer player's move only with
    ``bot``), or None when nothing is due."""
    if _ENGINE_SWEEPS_BOTS:
        sweep: Any = life.sweep  # the engine's newer signature
        outcome: Outcome | None = sweep(table, now, bot=bot)
        return outcome
    outcome = life.sweep(table, now)
    if outcome is not None or bot is None or not life.is_bot_turn(table):
        return outcome
    due = next_due(table)
    if due is None or due > now:
        return None
    seat = table.turn_seat
    assert seat is not None
    return hand.apply_move(table, seat, bot(table, seat), now)


def bot_player(table: Table, seat: int) -> Move:
    """The computer player's move for ``seat`` (imported on first use: only tables with
    computer players need the search and its word index)."""
    from harftet.engine import bot

    level = getattr(table.seats[seat].occupant, "level", None)
    if level is not None and "level" in inspect.signature(bot.choose_move).parameters:
        choose: Any = bot.choose_move  # the newer signature takes the level
        move: Move = choose(table, seat, level=level)
        return move
    return bot.choose_move(table, seat)
