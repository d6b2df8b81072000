"""Who sits where, for a table's transitions (``table``) and its timed events (``sweep``):
the seats, the manager, computer players taking a seat over, and the leavers a table
remembers by tag. The helpers that change a table change the one they are given: their
callers pass a clone.
"""

from __future__ import annotations

import base64
import hashlib

from .effects import note
from .errors import EngineError
from .state import DEFAULT_BOT_LEVEL, BotLevel, Occupant, Table

# Everyone who left a seat during the game (``former``: seat) and who paid the leave penalty
# (``paid``) is remembered until the game ends — no cap: one seat per player per game and one
# charge per leave hold however many people came and went (RULES §4). They are remembered by
# a tag, not by id, to keep the item small: 32 bits of BLAKE2b keyed with the table's id, six
# base64 characters (a departure adds about 12 bytes to the compressed item: a game that saw
# 60 people leave still stays under 2 KB). Two of a table's leavers share a tag with odds of
# n²/2³³ (under one in a million for 90 leavers), and ids are the server's random ones, so a
# tag cannot be aimed at.
TAG_BYTES = 4
TAG_CHARS = -(-TAG_BYTES * 4 // 3)  # its unpadded URL-safe base64: 6 characters
BOT_PREFIX = "bot:"


def _note_sit(table: Table, now: float, kind: str, seat: int, occupant: Occupant) -> None:
    """Report somebody taking ``seat``: enough to seat them again in a replay."""
    if occupant.bot:
        note(
            table, now, "bot", seat, playerId=occupant.player_id, name=occupant.name,
            level=occupant.level,
        )  # fmt: skip
    else:
        note(
            table, now, kind, seat, playerId=occupant.player_id, name=occupant.name,
            rating=occupant.rating,
        )  # fmt: skip


def seat_index(table: Table, seat: int) -> int:
    """``seat`` if the table has it; EngineError otherwise."""
    if not 0 <= seat < len(table.seats):
        last = len(table.seats) - 1
        raise EngineError(f"seat {seat} does not exist: this table has seats 0-{last}")
    return seat


def _in_game(table: Table) -> bool:
    return table.status in ("playing", "paused")


def _vacant_seats(table: Table) -> list[int]:
    return [i for i, s in enumerate(table.seats) if s.occupant is None]


def _hand_over_manager(table: Table, from_seat: int) -> None:
    """The next seated human (in seat order after ``from_seat``) becomes manager."""
    n = len(table.seats)
    for step in range(1, n + 1):
        occupant = table.seats[(from_seat + step) % n].occupant
        if occupant is not None and not occupant.bot:
            table.manager = occupant.player_id
            return
    table.manager = None


def _resume_if_complete(table: Table, now: float) -> None:
    """Unpause a table that no longer needs anybody: every seat taken and no human
    substitute waiting for the manager's Continue (RULES §4 "Resuming") — unless no person
    is left to press it."""
    nobody = all(s.occupant is None or s.occupant.bot for s in table.seats)
    if table.status == "paused" and not _vacant_seats(table) and (not table.held or nobody):
        table.status = "playing"
        _restart_clock(table, now)


def _restart_clock(table: Table, now: float) -> None:
    """A game that resumes: the turn clock starts again — or, between hands, the break goes
    on until its end or the next ready (who said ready is not logged, so a replay could not
    tell a deal here from none)."""
    if table.break_until is None:
        table.deadline = now + table.turn_seconds


def _returning(table: Table, seat: int, player_id: str) -> bool:
    """Whether ``player_id`` is the original of ``seat`` who dropped and may take it back
    (from nobody, or from a computer player: never from a human substitute)."""
    chair = table.seats[seat]
    original, occupant = chair.original, chair.occupant
    return (
        _in_game(table)
        and original is not None
        and original.player_id == player_id
        and chair.original_fate == "dropped"
        and (occupant is None or occupant.bot)
    )


def bot_occupant(seat: int, level: BotLevel = DEFAULT_BOT_LEVEL) -> Occupant:
    """The computer player that takes ``seat``."""
    return Occupant(
        player_id=f"{BOT_PREFIX}{seat}", name=f"Bilgisayar {seat + 1}", bot=True, level=level
    )


def _drop_out(table: Table, index: int) -> Occupant:
    """The occupant of ``index`` drops out (a grace period or three timeouts ran out): the
    seat's owner counts as dropped (RULES §4: they may come back, and a loss is theirs if
    they do not; one who left before stays "left"), and a person may sit again only there.
    Returns who dropped; the seat is the caller's to fill or vacate."""
    chair = table.seats[index]
    occupant = chair.occupant
    assert occupant is not None
    original = chair.original
    if (
        original is not None
        and original.player_id == occupant.player_id
        and chair.original_fate is None
    ):
        chair.original_fate = "dropped"
    if not occupant.bot:
        _remember(table, occupant.player_id, index)
    return occupant


def _bot_takes_over(table: Table, index: int, now: float) -> None:
    """A computer player sits on ``index`` of a running correspondence table (no pause)."""
    chair = table.seats[index]
    chair.occupant = bot_occupant(index)
    chair.vacant_since = None
    chair.disconnected_at = None
    chair.connected = True
    chair.timeouts = 0
    _note_sit(table, now, "bot", index, chair.occupant)


def tag(table: Table, player_id: str) -> str:
    """How ``table`` remembers ``player_id`` in ``former`` and ``paid`` (see TAG_BYTES)."""
    digest = hashlib.blake2b(
        player_id.encode("utf-8", "surrogatepass"),
        digest_size=TAG_BYTES,
        key=table.table_id.encode("utf-8", "surrogatepass")[:64],
    ).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def _former_seat(table: Table, player_id: str) -> int | None:
    """The seat ``player_id`` left during this game, if they left one."""
    seat = table.former.get(tag(table, player_id))
    return table.former.get(player_id) if seat is None else seat


def _has_paid(table: Table, player_id: str) -> bool:
    """Whether ``player_id`` already paid the leave penalty in this game."""
    return tag(table, player_id) in table.paid or player_id in table.paid


def _remember(table: Table, player_id: str, seat: int) -> None:
    """``player_id`` left ``seat`` during this game: they may sit again only there."""
    table.former.pop(player_id, None)
    table.former[tag(table, player_id)] = seat
