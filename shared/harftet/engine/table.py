"""A table's life around the hands: seats, start, leaving, presence, substitutes and time.

Every function is pure: it takes a table (never changed) and returns an ``Outcome`` with a
new one, or raises an ``EngineError`` subclass. ``now`` is always passed in (epoch seconds),
so a test controls the clock.

Who sits where (the manager, computer players taking over, the leavers remembered by tag)
lives in ``seats``, the timed events and ``sweep`` in ``sweep``; both are importable from
here too.
"""

from __future__ import annotations

from . import hand
from .effects import Outcome, RatingChange, begin, changed, note
from .ending import ABANDONED, close, deserted
from .errors import (
    EngineError,
    NotManagerError,
    NotSeatedError,
    SeatTakenError,
    WrongStatusError,
)
from .options import LIMITS as LIMITS  # the bounds' home is options.py
from .options import OptionError, TableOptions, check, check_hints, check_turn
from .seats import (
    BOT_PREFIX,
    TAG_BYTES,
    _bot_takes_over,
    _former_seat,
    _hand_over_manager,
    _has_paid,
    _in_game,
    _note_sit,
    _remember,
    _restart_clock,
    _resume_if_complete,
    _returning,
    _vacant_seats,
    bot_occupant,
    seat_index,
    tag,
)
from .state import (
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    BotLevel,
    Occupant,
    Seat,
    Status,
    Table,
)
from .sweep import (
    TIMEOUTS_FOR_DISCONNECT,
    Bot,
    bot_due,
    is_bot_turn,
    next_due,
    next_event_at,
    sweep,
    sweep_all,
)

# Callers reach a table's whole life here (``life.sit``, ``life.sweep``, ``life.tag``).
__all__ = [
    "BOT_PREFIX",
    "LIMITS",
    "TAG_BYTES",
    "TIMEOUTS_FOR_DISCONNECT",
    "Bot",
    "bot_due",
    "bot_occupant",
    "continue_game",
    "disconnect",
    "is_bot_turn",
    "leave",
    "new_table",
    "next_due",
    "next_event_at",
    "reconnect",
    "seat_bot",
    "seat_index",
    "sit",
    "stand_up",
    "start",
    "sweep",
    "sweep_all",
    "tag",
    "take_back",
]


def new_table(
    table_id: str,
    creator: Occupant,
    options: TableOptions,
    *,
    seed: int,
    now: float,
    salt: str = "",
    test_mode: bool = False,
) -> Table:
    """A waiting table with ``options``; its creator is the manager and sits at seat 0 (the
    log's first event, a ``sit``, is its ``recent``). Options out of their bounds
    (options.py; test mode may go below some) raise OptionError naming the field."""
    o = options
    _check_game(o.game, o.seats, o.hands)
    check("bot_seconds", o.bot_seconds)
    turn_seconds = check_turn(o.pace, o.turn_seconds, test_mode=test_mode)
    _check_waits(o.break_seconds, o.grace_seconds, o.wait_seconds, test_mode=test_mode)
    _check_scoring(o.rated, o.partners, o.seats)
    table = Table(
        table_id=table_id,
        game=o.game,
        seed=seed,
        manager=creator.player_id,
        hands=o.hands,
        partners=o.partners,
        turn_seconds=turn_seconds,
        created_at=now,
        seats=[Seat() for _ in range(o.seats)],
        hints=check_hints(o.hints, o.rated),
        private=o.private,
        bot_seconds=o.bot_seconds,
        rated=o.rated,
        break_seconds=o.break_seconds,
        pace=o.pace,
        salt=salt,
    )
    if o.grace_seconds is not None:
        table.grace_seconds = o.grace_seconds
    if o.wait_seconds is not None:
        table.wait_seconds = o.wait_seconds
    table.seats[0].occupant = creator
    _note_sit(table, now, "sit", 0, creator)
    return table


def _check_game(game: str, seats: int, hands: int) -> None:
    """A game of ours, its seats and hands within their bounds."""
    if game not in ("kastet", "harftet"):
        raise EngineError(f'unknown game "{game}": choose "harftet" or "kastet"')
    check("seats", seats)
    check("hands", hands)


def _check_waits(
    break_seconds: int, grace_seconds: int | None, wait_seconds: int | None, *, test_mode: bool
) -> None:
    """The break between hands, and the grace and wait periods when set, within bounds."""
    check("break_seconds", break_seconds, test_mode=test_mode)
    for name, value in (("grace_seconds", grace_seconds), ("wait_seconds", wait_seconds)):
        if value is not None:
            check(name, value, test_mode=test_mode)  # type: ignore[arg-type]


def _check_scoring(rated: bool, partners: bool, seats: int) -> None:
    """Rated is true or false; partners play at 4 seats."""
    if not isinstance(rated, bool):
        raise OptionError(f"rated must be true or false, not {rated!r}")
    if partners and seats != 4:
        raise EngineError("a partner game needs exactly 4 seats")


def sit(table: Table, seat: int, occupant: Occupant, now: float) -> Outcome:
    """Sit down: before the start, or on a vacant seat during a game (as a substitute, or
    as the original player who dropped and comes back, taking over from a computer player)."""
    seat = seat_index(table, seat)
    if table.status == "finished":
        raise WrongStatusError("the game is over: nobody can sit down any more")
    pid = occupant.player_id
    current = table.seat_of(pid)
    if current == seat:
        return Outcome(table)
    target = table.seats[seat]
    back = not occupant.bot and _returning(table, seat, pid)
    if target.occupant is not None and not back:
        raise SeatTakenError(f"seat {seat} is taken by {target.occupant.name}")
    if current is not None and _in_game(table):
        raise WrongStatusError(f"you already play at seat {current} of this table")
    former = _former_seat(table, pid)
    if _in_game(table) and former is not None and former != seat:
        raise WrongStatusError(
            f"you played seat {former} of this game: you may sit again only there"
        )
    new = begin(table.clone())
    if current is not None:  # before the start a player may change seats
        new.seats[current].occupant = None
        note(new, now, "stand", current, playerId=pid)
    chair = new.seats[seat]
    if back and chair.occupant is not None:  # the computer player stands up for them
        note(new, now, "stand", seat, playerId=chair.occupant.player_id, reason="returned")
    chair.occupant = occupant
    chair.connected = True
    chair.timeouts = 0
    chair.disconnected_at = None
    chair.vacant_since = None
    new.former.pop(tag(new, pid), None)
    new.former.pop(pid, None)  # as tables stored before tags remember them
    if new.manager is None and not occupant.bot:
        new.manager = pid  # a table left to computer players gets a manager
    if back:
        chair.original_fate = None  # the dropped original player takes the seat back
        _note_sit(new, now, "reconnect", seat, occupant)
        _resume_if_complete(new, now)
    elif not _in_game(new):
        _note_sit(new, now, "sit", seat, occupant)
    elif occupant.bot:
        _note_sit(new, now, "bot", seat, occupant)
        _resume_if_complete(new, now)  # a computer player sitting resumes by itself
    else:
        # A human substitute (a returning leaver too): paused until the manager continues.
        new.held = new.status == "paused"
        _note_sit(new, now, "substitute", seat, occupant)
    return changed(new)


def seat_bot(
    table: Table, seat: int, player_id: str, now: float, level: BotLevel = DEFAULT_BOT_LEVEL
) -> Outcome:
    """The manager fills an empty seat with a computer player of ``level``."""
    if table.manager != player_id:
        raise NotManagerError("only the table manager can seat a computer player")
    if level not in BOT_LEVELS:
        choices = ", ".join(f'"{name}"' for name in BOT_LEVELS)
        raise EngineError(f'unknown computer player level "{level}": choose {choices}')
    return sit(table, seat, bot_occupant(seat, level), now)


def leave(table: Table, player_id: str, now: float) -> Outcome:
    """Stand up. During a game: −2·N at once (once per player and game; never in a practice
    game), the seat becomes vacant with its hand, the game pauses."""
    index = table.seat_of(player_id)
    if index is None:
        raise NotSeatedError("you do not sit at this table")
    if table.status == "finished":
        return Outcome(table)
    new = begin(table.clone())
    chair = new.seats[index]
    effects: list[RatingChange] = []
    occupant = chair.occupant
    assert occupant is not None
    if _in_game(new):
        penalty = 0
        if not new.practice and not occupant.bot and not _has_paid(new, player_id):
            penalty = -2 * new.hands
            effects.append(RatingChange(player_id, penalty, "leave"))
            new.paid = [*new.paid, tag(new, player_id)]
        if (
            chair.original is not None
            and chair.original.player_id == player_id
            and chair.original_fate is None
        ):
            chair.original_fate = "left"
        if not occupant.bot:
            _remember(new, player_id, index)
        chair.vacant_since = now
        chair.disconnected_at = None
        new.status = "paused"
        new.deadline = None
        note(new, now, "leave", index, playerId=player_id, penalty=penalty)
        if new.pace == "correspondence":  # RULES §6: no pause, no substitutes sought
            new.status, new.deadline = table.status, table.deadline
            chair.occupant = None
            if deserted(new, now):  # nobody left to play for: no computer player sits
                close(new, now, ABANDONED)
                return changed(new, effects)
            _bot_takes_over(new, index, now)
            if new.manager == player_id:
                _hand_over_manager(new, index)
            return changed(new, effects)
    else:
        note(new, now, "stand", index, playerId=player_id)
    chair.occupant = None
    chair.connected = True
    chair.timeouts = 0
    if new.manager == player_id:
        _hand_over_manager(new, index)
    if new.status == "waiting" and all(s.occupant is None or s.occupant.bot for s in new.seats):
        new.status = "finished"  # a waiting table with no human left closes
    return changed(new, effects)


def stand_up(table: Table, seat: int, player_id: str, now: float) -> Outcome:
    """``player_id`` leaves ``seat``; before the start the manager may also take a computer
    player off it."""
    occupant = table.seats[seat_index(table, seat)].occupant
    if occupant is not None and occupant.bot and table.status == "waiting":
        if table.manager != player_id:
            raise NotManagerError("only the table manager can remove a computer player")
        return leave(table, occupant.player_id, now)
    if table.seat_of(player_id) != seat:
        raise NotSeatedError(f"you do not sit at seat {seat}")
    return leave(table, player_id, now)


# What the manager does to a table in each status, and why it is refused: the table is not in
# that status; a seat is not taken.
_MANAGER_BEGINS = {
    "waiting": ("start", "the game has already started", "empty: every seat must be taken"),
    "paused": ("continue", "the game is not paused", "vacant: wait for a substitute"),
}


def _begun_by_manager(table: Table, player_id: str, status: Status) -> Table:
    """A clone of ``table`` that begins to play: its manager asks, in ``status``, with every
    seat taken."""
    verb, not_now, untaken = _MANAGER_BEGINS[status]
    if table.manager != player_id:
        raise NotManagerError(f"only the table manager can {verb} the game")
    if table.status != status:
        raise WrongStatusError(f"{not_now} (status {table.status})")
    empty = _vacant_seats(table)
    if empty:
        raise WrongStatusError(f"seat {empty[0]} is still {untaken}")
    return begin(table.clone())


def start(table: Table, player_id: str, now: float, *, matched: bool = False) -> Outcome:
    """The manager starts the game once every seat is taken. A computer player seated
    before the start makes it a practice game (no rating, no record: RULES §4) — except at a
    ``matched`` table (matchmaking, RULES §8), rated with its computer players counted at
    their level."""
    new = _begun_by_manager(table, player_id, "waiting")
    for chair in new.seats:
        chair.original = chair.occupant
        if not chair.connected:  # gone since before the start: the grace period runs now
            chair.disconnected_at = now
    new.practice = not new.rated or (
        not matched and any(s.occupant is not None and s.occupant.bot for s in new.seats)
    )
    new.status = "playing"
    new.hand_number = 1
    hand.deal(new, now)  # reports the "start"
    return changed(new)


def continue_game(table: Table, player_id: str, now: float) -> Outcome:
    """The manager resumes a paused game once every vacated seat is taken again."""
    new = _begun_by_manager(table, player_id, "paused")
    new.status = "playing"
    new.held = False
    note(new, now, "continue", None)
    _restart_clock(new, now)
    return changed(new)


def disconnect(table: Table, player_id: str, now: float) -> Outcome:
    """The player's last live connection closed: the seat is held for the grace period."""
    index = table.seat_of(player_id)
    if index is None or not table.seats[index].connected or table.status == "finished":
        return Outcome(table)
    if table.pace == "correspondence":  # RULES §6: the seat is theirs, connected or not
        return Outcome(table)
    new = begin(table.clone())
    chair = new.seats[index]
    chair.connected = False
    chair.disconnected_at = now if _in_game(new) else None
    note(new, now, "disconnect", index, playerId=player_id)
    return changed(new)


def reconnect(table: Table, player_id: str, now: float) -> Outcome:
    """The player is back: their seat is theirs again, or they take it back if it is vacant
    or a computer player holds it (a dropped player can always come back). At a
    correspondence table opening it changes nothing: its owner takes a seat back by moving
    or by sitting down (RULES §6)."""
    if table.status == "finished" or table.pace == "correspondence":
        return Outcome(table)
    index = table.seat_of(player_id)
    if index is not None:
        chair = table.seats[index]
        if chair.connected and chair.timeouts == 0:
            return Outcome(table)
        new = begin(table.clone())
        chair = new.seats[index]
        chair.connected = True
        chair.disconnected_at = None
        chair.timeouts = 0
        note(new, now, "reconnect", index, playerId=player_id)
        return changed(new)
    for i, chair in enumerate(table.seats):
        if _returning(table, i, player_id):
            assert chair.original is not None
            return sit(table, i, chair.original, now)
    return Outcome(table)


def take_back(table: Table, player_id: str, now: float) -> Outcome | None:
    """At a correspondence table, the dropped owner of a seat a computer player holds takes
    it back (their move does it: RULES §6); None when ``player_id`` has no such seat."""
    if table.pace != "correspondence":
        return None
    for i in range(len(table.seats)):
        if _returning(table, i, player_id):
            original = table.seats[i].original
            assert original is not None
            return sit(table, i, original, now)
    return None
