"""A table's life around the hands: seats, start, leaving, presence, substitutes and time.

Every function is pure: it takes a table (never changed) and returns an ``Outcome`` with a
new one, or raises an ``EngineError`` subclass. ``now`` is always passed in (epoch seconds),
so a test controls the clock.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable

from . import hand
from .effects import Outcome, RatingChange, begin, changed, note
from .errors import (
    EngineError,
    NotManagerError,
    NotSeatedError,
    SeatTakenError,
    WrongStatusError,
)
from .moves import Move
from .options import LIMITS as LIMITS  # the bounds' home is options.py
from .options import OptionError, check, check_hints, check_turn
from .rules import Rules
from .state import (
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    DEFAULT_BREAK_SECONDS,
    BotLevel,
    GameName,
    Hints,
    Occupant,
    Pace,
    Seat,
    Table,
)

TIMEOUTS_FOR_DISCONNECT = 3
# Everyone who left a seat during the game (``former``: seat) and who paid the leave penalty
# (``paid``) is remembered until the game ends — no cap: one seat per player per game and one
# charge per leave hold however many people came and went (RULES §4). They are remembered by
# a tag, not by id, to keep the item small: 32 bits of BLAKE2b keyed with the table's id, six
# base64 characters (a departure adds about 12 bytes to the compressed item: a game that saw
# 60 people leave still stays under 2 KB). Two of a table's leavers share a tag with odds of
# n²/2³³ (under one in a million for 90 leavers), and ids are the server's random ones, so a
# tag cannot be aimed at.
TAG_BYTES = 4
BOT_PREFIX = "bot:"


# What a sweep may be asked to apply for a computer player: its move for the seat in turn.
Bot = Callable[[Table, int], Move]


def new_table(
    table_id: str,
    game: GameName,
    creator: Occupant,
    *,
    seed: int,
    now: float,
    seats: int = 4,
    hands: int = 11,
    partners: bool = False,
    turn_seconds: int = 45,
    grace_seconds: int | None = None,
    wait_seconds: int | None = None,
    hints: Hints = True,
    private: bool = False,
    bot_seconds: int = 1,
    rated: bool = True,
    break_seconds: int = DEFAULT_BREAK_SECONDS,
    pace: Pace = "live",
    salt: str = "",
    test_mode: bool = False,
) -> Table:
    """A waiting table; its creator is the manager and sits at seat 0 (the log's first
    event, a ``sit``, is its ``recent``). Options out of their bounds (options.py; test mode
    may go below some) raise OptionError naming the field."""
    if game not in ("kastet", "harftet"):
        raise EngineError(f'unknown game "{game}": choose "harftet" or "kastet"')
    check("seats", seats)
    check("hands", hands)
    check("bot_seconds", bot_seconds)
    turn_seconds = check_turn(pace, turn_seconds, test_mode=test_mode)
    check("break_seconds", break_seconds, test_mode=test_mode)
    for name, value in (("grace_seconds", grace_seconds), ("wait_seconds", wait_seconds)):
        if value is not None:
            check(name, value, test_mode=test_mode)  # type: ignore[arg-type]
    if not isinstance(rated, bool):
        raise OptionError(f"rated must be true or false, not {rated!r}")
    if partners and seats != 4:
        raise EngineError("a partner game needs exactly 4 seats")
    table = Table(
        table_id=table_id,
        game=game,
        seed=seed,
        manager=creator.player_id,
        hands=hands,
        partners=partners,
        turn_seconds=turn_seconds,
        created_at=now,
        seats=[Seat() for _ in range(seats)],
        hints=check_hints(hints, rated),
        private=private,
        bot_seconds=bot_seconds,
        rated=rated,
        break_seconds=break_seconds,
        pace=pace,
        salt=salt,
    )
    if grace_seconds is not None:
        table.grace_seconds = grace_seconds
    if wait_seconds is not None:
        table.wait_seconds = wait_seconds
    table.seats[0].occupant = creator
    _note_sit(table, now, "sit", 0, creator)
    return table


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


def start(table: Table, player_id: str, now: float) -> Outcome:
    """The manager starts the game once every seat is taken. A computer player seated
    before the start makes it a practice game (no rating, no record: RULES §4)."""
    if table.manager != player_id:
        raise NotManagerError("only the table manager can start the game")
    if table.status != "waiting":
        raise WrongStatusError(f"the game has already started (status {table.status})")
    empty = _vacant_seats(table)
    if empty:
        raise WrongStatusError(f"seat {empty[0]} is still empty: every seat must be taken")
    new = begin(table.clone())
    for chair in new.seats:
        chair.original = chair.occupant
        if not chair.connected:  # gone since before the start: the grace period runs now
            chair.disconnected_at = now
    new.practice = not new.rated or any(
        s.occupant is not None and s.occupant.bot for s in new.seats
    )
    new.status = "playing"
    new.hand_number = 1
    hand.deal(new, now)  # reports the "start"
    return changed(new)


def continue_game(table: Table, player_id: str, now: float) -> Outcome:
    """The manager resumes a paused game once every vacated seat is taken again."""
    if table.manager != player_id:
        raise NotManagerError("only the table manager can continue the game")
    if table.status != "paused":
        raise WrongStatusError(f"the game is not paused (status {table.status})")
    empty = _vacant_seats(table)
    if empty:
        raise WrongStatusError(f"seat {empty[0]} is still vacant: wait for a substitute")
    new = begin(table.clone())
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


def bot_occupant(seat: int, level: BotLevel = DEFAULT_BOT_LEVEL) -> Occupant:
    """The computer player that takes ``seat``."""
    return Occupant(
        player_id=f"{BOT_PREFIX}{seat}", name=f"Bilgisayar {seat + 1}", bot=True, level=level
    )


def _bot_move(table: Table, seat: int, bot: Bot, now: float, rules: Rules | None) -> Outcome:
    """The computer player's move, through the one move path. A move the engine refuses —
    or a computer player that fails to find one — is replaced by what the turn timer would
    play (a draw if allowed, else a pass): a broken search must never stop a table."""
    try:
        move = bot(table, seat)
        return hand.apply_move(table, seat, move, now, rules=rules)
    except Exception:  # see above
        return hand.apply_move(table, seat, hand.forced_move(table), now, rules=rules)


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


def is_bot_turn(table: Table) -> bool:
    """Whether a computer player is to move now."""
    if table.status != "playing" or table.turn_seat is None:
        return False
    occupant = table.seats[table.turn_seat].occupant
    return occupant is not None and occupant.bot
