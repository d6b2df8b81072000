"""A game that ends before its last hand: closed by an operator, or abandoned — nobody is
left to play it for (docs/RULES.en.md "A table nobody is left at").

A game is **deserted** when no person sits at it, none holds a right to come back (an
original player who dropped: RULES §4 "a dropped player can always come back"; one who left
voluntarily or was deleted holds none) and — at a live table — no vacant seat is still
within its wait for a substitute. A deserted game ends, as abandoned, where a computer player
would otherwise take the last vacant seat (the wait's end; at a correspondence table the
leave itself, RULES §6: no substitutes are sought): computer players never play a game that
nobody plays. Nobody's rating or record changes: a leaver paid 2·N when they left, and the
losses of left seats go to nobody (RULES §4).
"""

from __future__ import annotations

from .effects import Outcome, begin, changed, note
from .seats import _in_game
from .state import Table

ABANDONED = "abandoned"  # nobody was left to play the game for
BY_OPERATOR = "operator"  # an operator closed the table (docs/DEPLOY.md "Operators")
REASONS = (ABANDONED, BY_OPERATOR)


def has_person(table: Table) -> bool:
    """Whether a person sits at the table."""
    return any(s.occupant is not None and not s.occupant.bot for s in table.seats)


def may_return(table: Table) -> list[str]:
    """The people who hold a right to come back to this game: original players who dropped
    (their seat is held for them, by nobody or by a computer player)."""
    return [
        s.original.player_id
        for s in table.seats
        if s.original is not None and not s.original.bot and s.original_fate == "dropped"
    ]


def waiting_for_substitute(table: Table, now: float) -> bool:
    """Whether a vacant seat of a live game is still within its wait for a substitute."""
    if table.pace != "live":
        return False  # RULES §6: a correspondence table seeks no substitutes
    return any(
        s.occupant is None
        and s.vacant_since is not None
        and s.vacant_since + table.wait_seconds > now
        for s in table.seats
    )


def deserted(table: Table, now: float) -> bool:
    """Whether the game in progress has nobody left to play it for (see the module)."""
    return (
        _in_game(table)
        and not has_person(table)
        and not may_return(table)
        and not waiting_for_substitute(table, now)
    )


def close(table: Table, now: float, reason: str) -> None:
    """End the game in progress on ``table`` (a clone after ``begin``) for ``reason``: the
    totals so far are its result, nobody's rating or record changes (``ratings`` empty, no
    ``points``), and the log's ``gameEnd`` says why (``closed``)."""
    penalties = [seat.penalty for seat in table.seats]
    table.status = "finished"
    table.deadline = None
    table.turn_seat = None
    table.laid = False
    table.break_until = None
    table.ready = []
    table.held = False
    table.result = {"penalties": penalties, "ratings": {}, "closed": reason}
    note(table, now, "gameEnd", None, closed=reason, penalties=penalties)


def closed(table: Table, now: float, reason: str) -> Outcome:
    """``table``'s game ended for ``reason`` as one change (a finished one: unchanged)."""
    if table.status == "finished":
        return Outcome(table)
    new = begin(table.clone())
    close(new, now, reason)
    return changed(new)


def abandoned(table: Table, now: float) -> Outcome | None:
    """``table``'s game ended as abandoned when it is deserted at ``now``; None otherwise."""
    return closed(table, now, ABANDONED) if deserted(table, now) else None


def closed_reason(table: Table) -> str | None:
    """Why a finished game ended early (``ABANDONED``, ``BY_OPERATOR``); None for a game
    played to its end, or one not over."""
    if table.status != "finished" or not table.result:
        return None
    reason = table.result.get("closed")
    return reason if isinstance(reason, str) else None
