"""A table's timed events — a turn's timeout, the end of a break, of a grace period or of a
wait for a substitute, and the computer player's move — and ``sweep``, which applies the one
due first. Pure like ``table``: a table in, an ``Outcome`` with a new one out, ``now`` passed
in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import hand
from .effects import Outcome, begin, changed, note
from .ending import ABANDONED, close, deserted
from .moves import Lay, Move, Pass
from .rules import Rules
from .seats import (
    _bot_takes_over,
    _drop_out,
    _hand_over_manager,
    _in_game,
    _note_sit,
    _resume_if_complete,
    bot_occupant,
)
from .state import Table

TIMEOUTS_FOR_DISCONNECT = 3


# What a sweep may be asked to apply for a computer player: its move for the seat in turn.
Bot = Callable[[Table, int], Move]


def next_event_at(table: Table) -> float | None:
    """When the next timed event of this table falls due: turn deadline, break end, grace end
    or wait end, not computer-player moves (``next_due`` adds those)."""
    times = [due for due, _, _ in _timed(table)]
    return min(times) if times else None


def bot_due(table: Table) -> float | None:
    """When the computer player in turn moves: ``bot_seconds`` after the latest change (the
    one that gave it the turn, or its own previous move); None when no computer player is
    to move."""
    if not is_bot_turn(table):
        return None
    last = table.recent[-1]["at"] if table.recent else table.created_at
    return float(last) + table.bot_seconds


def next_due(table: Table) -> float | None:
    """When ``sweep`` (given a ``bot``) next has something to do: the earliest of the timed
    events and the computer player's move."""
    times = [t for t in (next_event_at(table), bot_due(table)) if t is not None]
    return min(times) if times else None


# The kinds of due events, in the order they are applied when due at the same time.
_TIMEOUT, _GRACE, _WAIT, _BOT, _BREAK = 0, 1, 2, 3, 4


def _timed(table: Table) -> list[tuple[float, int, int]]:
    """Every timed event of the table as (when, kind, seat)."""
    events: list[tuple[float, int, int]] = []
    if table.status == "playing" and table.deadline is not None:
        events.append((table.deadline, _TIMEOUT, table.turn_seat or 0))
    if table.status == "playing" and table.break_until is not None:
        events.append((table.break_until, _BREAK, 0))  # the break ends: the next hand
    if _in_game(table):
        for i, chair in enumerate(table.seats):
            if chair.occupant is not None and chair.disconnected_at is not None:
                events.append((chair.disconnected_at + table.grace_seconds, _GRACE, i))
            if chair.occupant is None and chair.vacant_since is not None:
                events.append((chair.vacant_since + table.wait_seconds, _WAIT, i))
    return events


def sweep(
    table: Table, now: float, bot: Bot | None = None, *, rules: Rules | None = None
) -> Outcome | None:
    """Apply the ONE event due earliest at ``now`` — a turn timeout, a grace end, a wait end,
    or (with ``bot``) the move ``bot(table, seat)`` of the computer player in turn — so each
    is its own stored change; None when nothing is due. Without ``bot``, computer-player
    moves are left to the caller. ``rules`` overrides the game's rules (tests)."""
    events = _timed(table)
    due_bot = bot_due(table) if bot is not None else None
    if due_bot is not None and table.turn_seat is not None:
        events.append((due_bot, _BOT, table.turn_seat))
    ready = sorted(e for e in events if e[0] <= now)
    if not ready:
        return None
    _, kind, seat = ready[0]
    if kind == _TIMEOUT:
        return _time_out(table, now, rules)
    if kind == _BOT:
        assert bot is not None
        return _bot_move(table, seat, bot, now, rules)
    new = begin(table.clone())
    if kind == _BREAK:
        hand.deal_next(new, now)
    elif kind == _GRACE:
        _vacate_dropped(new, seat, now)
    elif deserted(new, now):  # nobody is left to play for: the game ends instead
        close(new, now, ABANDONED)
    else:
        chair = new.seats[seat]
        chair.occupant = bot_occupant(seat)
        chair.vacant_since = None
        chair.connected = True
        chair.timeouts = 0
        _note_sit(new, now, "bot", seat, chair.occupant)
        _resume_if_complete(new, now)  # nobody came: the computer players carry on alone
    return changed(new)


def sweep_all(table: Table, now: float) -> Outcome | None:
    """Every timed event due at ``now`` (not computer-player moves) applied as one change:
    the old ``sweep``, for callers that store one change per read."""
    out = sweep(table, now)
    if out is None:
        return None
    events, effects = list(out.events), list(out.effects)
    for _ in range(64):
        more = sweep(out.table, now)
        if more is None:
            break
        out = more
        events += more.events
        effects += more.effects
    out.table.recent = events
    return Outcome(out.table, effects, list(events))


def _bot_move(table: Table, seat: int, bot: Bot, now: float, rules: Rules | None) -> Outcome:
    """The computer player's move, through the one move path. A move the engine refuses —
    or a computer player that fails to find one — is replaced by what the turn timer would
    play (a draw if allowed, else a pass): a broken search must never stop a table. A lay
    after which the player would pass ends the turn with it: the lay and the pass are one
    change (one version, one push), as a person's ``"pass": true`` (issue 40)."""
    try:
        move = bot(table, seat)
        outcome = hand.apply_move(table, seat, move, now, rules=rules)
    except Exception:  # see above
        return hand.apply_move(table, seat, hand.forced_move(table), now, rules=rules)
    if isinstance(move, Lay) and not move.end_turn and _passes_next(outcome.table, seat, bot):
        return hand.apply_move(table, seat, replace(move, end_turn=True), now, rules=rules)
    return outcome


def _passes_next(table: Table, seat: int, bot: Bot) -> bool:
    """Whether the computer player at ``seat``, having laid, passes next (False when its
    search fails: the lay then stands alone, and its next move comes as before)."""
    if table.status != "playing" or table.turn_seat != seat:
        return False
    try:
        return isinstance(bot(table, seat), Pass)
    except Exception:  # the lay stands; the next sweep asks again
        return False


def _time_out(table: Table, now: float, rules: Rules | None = None) -> Outcome:
    """The turn timer ran out: the server plays for the player (draw if allowed, else pass)."""
    seat = table.turn_seat
    assert seat is not None
    outcome = hand.apply_move(table, seat, hand.forced_move(table), now, forced=True, rules=rules)
    new = outcome.table
    chair = new.seats[seat]
    occupant = chair.occupant
    if occupant is None or occupant.bot:  # a computer player never drops out
        return changed(new, list(outcome.effects))
    chair.timeouts += 1
    if new.pace == "correspondence":
        if chair.timeouts >= TIMEOUTS_FOR_DISCONNECT:  # RULES §6: a computer player plays on
            _drop_to_bot(new, seat, now)
        return changed(new, list(outcome.effects))
    if chair.timeouts >= TIMEOUTS_FOR_DISCONNECT and chair.connected:
        chair.connected = False
        chair.disconnected_at = now
        note(new, now, "disconnect", seat, playerId=occupant.player_id, reason="timeouts")
    return changed(new, list(outcome.effects))


def _drop_to_bot(table: Table, index: int, now: float) -> None:
    """Three timeouts in a row at a correspondence table: the owner counts as dropped (RULES
    §4: they may come back, and a loss is theirs if they do not) and a computer player takes
    the seat at once, so the game goes on (RULES §6)."""
    occupant = _drop_out(table, index)
    note(table, now, "stand", index, playerId=occupant.player_id, reason="timeouts")
    _bot_takes_over(table, index, now)
    if table.manager == occupant.player_id:
        _hand_over_manager(table, index)


def _vacate_dropped(table: Table, index: int, now: float) -> None:
    """The grace period ran out: offer the seat to substitutes and pause the game. A player
    who left voluntarily before stays "left" (they paid 2·N once: RULES §4)."""
    occupant = _drop_out(table, index)
    chair = table.seats[index]
    chair.occupant = None
    chair.disconnected_at = None
    chair.connected = True
    chair.timeouts = 0
    chair.vacant_since = now
    table.status = "paused"
    table.deadline = None
    note(table, now, "stand", index, playerId=occupant.player_id, reason="dropped")
    if table.manager == occupant.player_id:
        _hand_over_manager(table, index)


def is_bot_turn(table: Table) -> bool:
    """Whether a computer player is to move now."""
    if table.status != "playing" or table.turn_seat is None:
        return False
    occupant = table.seats[table.turn_seat].occupant
    return occupant is not None and occupant.bot
