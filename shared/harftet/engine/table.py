"""A table's life around the hands: seats, start, leaving, presence, substitutes and time.

Every function is pure: it takes a table (never changed) and returns an ``Outcome`` with a
new one, or raises an ``EngineError`` subclass. ``now`` is always passed in (epoch seconds),
so a test controls the clock.
"""

from __future__ import annotations

from . import hand
from .effects import Outcome, RatingChange
from .errors import (
    EngineError,
    NotManagerError,
    NotSeatedError,
    SeatTakenError,
    WrongStatusError,
)
from .state import GameName, Occupant, Seat, Table

TIMEOUTS_FOR_DISCONNECT = 3
BOT_PREFIX = "bot:"

LIMITS = {"seats": (2, 4), "hands": (1, 21), "turn_seconds": (10, 600)}


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
) -> Table:
    """A waiting table; its creator is the manager and sits at seat 0."""
    if game not in ("kastet", "harftet"):
        raise EngineError(f'unknown game "{game}": choose "harftet" or "kastet"')
    for name, value in (("seats", seats), ("hands", hands), ("turn_seconds", turn_seconds)):
        low, high = LIMITS[name]
        if not low <= value <= high:
            raise EngineError(f"{name} must be between {low} and {high}, not {value}")
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
    )
    if grace_seconds is not None:
        table.grace_seconds = grace_seconds
    if wait_seconds is not None:
        table.wait_seconds = wait_seconds
    table.seats[0].occupant = creator
    return table


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
    """Unpause a table that no longer needs anybody (used when an original comes back)."""
    if table.status == "paused" and not _vacant_seats(table):
        table.status = "playing"
        table.deadline = now + table.turn_seconds


def sit(table: Table, seat: int, occupant: Occupant, now: float) -> Outcome:
    """Sit down: before the start, or on a vacant seat during a game (as a substitute)."""
    seat = seat_index(table, seat)
    if table.status == "finished":
        raise WrongStatusError("the game is over: nobody can sit down any more")
    current = table.seat_of(occupant.player_id)
    if current == seat:
        return Outcome(table)
    target = table.seats[seat]
    if target.occupant is not None:
        raise SeatTakenError(f"seat {seat} is taken by {target.occupant.name}")
    if current is not None and _in_game(table):
        raise WrongStatusError(f"you already play at seat {current} of this table")
    new = table.clone()
    if current is not None:  # before the start a player may change seats
        new.seats[current].occupant = None
    chair = new.seats[seat]
    chair.occupant = occupant
    chair.connected = True
    chair.timeouts = 0
    chair.disconnected_at = None
    chair.vacant_since = None
    if new.manager is None and not occupant.bot:
        new.manager = occupant.player_id  # a table left to computer players gets a manager
    original = chair.original
    if (
        _in_game(new)
        and original is not None
        and original.player_id == occupant.player_id
        and chair.original_fate != "left"  # a leaver who comes back sits as a substitute
    ):
        chair.original_fate = None  # the dropped original player takes the seat back
        _resume_if_complete(new, now)
    # A substitute: the table stays paused until the manager presses Continue.
    return Outcome(new)


def seat_bot(table: Table, seat: int, player_id: str, now: float) -> Outcome:
    """The manager fills an empty seat with a computer player."""
    if table.manager != player_id:
        raise NotManagerError("only the table manager can seat a computer player")
    return sit(table, seat, bot_occupant(seat), now)


def leave(table: Table, player_id: str, now: float) -> Outcome:
    """Stand up. During a game: −2·N at once, the seat becomes vacant, the game pauses."""
    index = table.seat_of(player_id)
    if index is None:
        raise NotSeatedError("you do not sit at this table")
    if table.status == "finished":
        return Outcome(table)
    new = table.clone()
    chair = new.seats[index]
    effects: list[RatingChange] = []
    if _in_game(new):
        effects.append(RatingChange(player_id, -2 * new.hands, "leave"))
        if chair.original is not None and chair.original.player_id == player_id:
            chair.original_fate = "left"
        chair.vacant_since = now
        chair.disconnected_at = None
        new.status = "paused"
        new.deadline = None
    chair.occupant = None
    chair.connected = True
    chair.timeouts = 0
    if new.manager == player_id:
        _hand_over_manager(new, index)
    if new.status == "waiting" and all(s.occupant is None or s.occupant.bot for s in new.seats):
        new.status = "finished"  # a waiting table with no human left closes
    return Outcome(new, effects)


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
    """The manager starts the game once every seat is taken."""
    if table.manager != player_id:
        raise NotManagerError("only the table manager can start the game")
    if table.status != "waiting":
        raise WrongStatusError(f"the game has already started (status {table.status})")
    empty = _vacant_seats(table)
    if empty:
        raise WrongStatusError(f"seat {empty[0]} is still empty: every seat must be taken")
    new = table.clone()
    for chair in new.seats:
        chair.original = chair.occupant
        if not chair.connected:  # gone since before the start: the grace period runs now
            chair.disconnected_at = now
    new.status = "playing"
    new.hand_number = 1
    hand.deal(new, now)
    return Outcome(new)


def continue_game(table: Table, player_id: str, now: float) -> Outcome:
    """The manager resumes a paused game once every vacated seat is taken again."""
    if table.manager != player_id:
        raise NotManagerError("only the table manager can continue the game")
    if table.status != "paused":
        raise WrongStatusError(f"the game is not paused (status {table.status})")
    empty = _vacant_seats(table)
    if empty:
        raise WrongStatusError(f"seat {empty[0]} is still vacant: wait for a substitute")
    new = table.clone()
    new.status = "playing"
    new.deadline = now + new.turn_seconds
    return Outcome(new)


def disconnect(table: Table, player_id: str, now: float) -> Outcome:
    """The player's last live connection closed: the seat is held for the grace period."""
    index = table.seat_of(player_id)
    if index is None or not table.seats[index].connected:
        return Outcome(table)
    new = table.clone()
    chair = new.seats[index]
    chair.connected = False
    chair.disconnected_at = now if _in_game(new) else None
    return Outcome(new)


def reconnect(table: Table, player_id: str, now: float) -> Outcome:
    """The player is back: their seat is theirs again, or they take it back if still vacant."""
    index = table.seat_of(player_id)
    if index is not None:
        chair = table.seats[index]
        if chair.connected and chair.timeouts == 0:
            return Outcome(table)
        new = table.clone()
        chair = new.seats[index]
        chair.connected = True
        chair.disconnected_at = None
        chair.timeouts = 0
        return Outcome(new)
    for i, chair in enumerate(table.seats):
        original = chair.original
        if (
            chair.occupant is None
            and original is not None
            and original.player_id == player_id
            and chair.original_fate == "dropped"
        ):
            return sit(table, i, original, now)
    return Outcome(table)


def next_event_at(table: Table) -> float | None:
    """When the next timed event of this table falls due (for the sweeper's index)."""
    times: list[float] = []
    if table.status == "playing" and table.deadline is not None:
        times.append(table.deadline)
    if _in_game(table):
        for chair in table.seats:
            if chair.occupant is not None and chair.disconnected_at is not None:
                times.append(chair.disconnected_at + table.grace_seconds)
            if chair.occupant is None and chair.vacant_since is not None:
                times.append(chair.vacant_since + table.wait_seconds)
    return min(times) if times else None


def sweep(table: Table, now: float) -> Outcome | None:
    """Apply the timed events that are due at ``now``; None when nothing is due."""
    due = next_event_at(table)
    if due is None or due > now:
        return None
    new = table.clone()
    effects: list[RatingChange] = []
    if new.status == "playing" and new.deadline is not None and new.deadline <= now:
        new, effects = _time_out(new, now)
    if _in_game(new):
        for i, chair in enumerate(new.seats):
            occupant = chair.occupant
            if (
                occupant is not None
                and chair.disconnected_at is not None
                and chair.disconnected_at + new.grace_seconds <= now
            ):
                _vacate_dropped(new, i, now)
        bot_sat = False
        for i, chair in enumerate(new.seats):
            if (
                chair.occupant is None
                and chair.vacant_since is not None
                and chair.vacant_since + new.wait_seconds <= now
            ):
                chair.occupant = bot_occupant(i)
                chair.vacant_since = None
                chair.connected = True
                chair.timeouts = 0
                bot_sat = True
        if bot_sat and new.status == "paused" and not _vacant_seats(new):
            new.status = "playing"  # nobody came: the computer players carry on alone
            new.deadline = now + new.turn_seconds
    return Outcome(new, effects)


def bot_occupant(seat: int) -> Occupant:
    """The computer player that takes ``seat``."""
    return Occupant(player_id=f"{BOT_PREFIX}{seat}", name=f"Bilgisayar {seat + 1}", bot=True)


def _time_out(table: Table, now: float) -> tuple[Table, list[RatingChange]]:
    """The turn timer ran out: the server plays for the player (draw if allowed, else pass)."""
    seat = table.turn_seat
    assert seat is not None
    outcome = hand.apply_move(table, seat, hand.forced_move(table), now, forced=True)
    new = outcome.table
    chair = new.seats[seat]
    chair.timeouts += 1
    if chair.timeouts >= TIMEOUTS_FOR_DISCONNECT and chair.connected:
        chair.connected = False
        chair.disconnected_at = now
    return new, list(outcome.effects)


def _vacate_dropped(table: Table, index: int, now: float) -> None:
    """The grace period ran out: offer the seat to substitutes and pause the game."""
    chair = table.seats[index]
    occupant = chair.occupant
    assert occupant is not None
    if chair.original is not None and chair.original.player_id == occupant.player_id:
        chair.original_fate = "dropped"
    chair.occupant = None
    chair.disconnected_at = None
    chair.connected = True
    chair.timeouts = 0
    chair.vacant_since = now
    table.status = "paused"
    table.deadline = None
    if table.manager == occupant.player_id:
        _hand_over_manager(table, index)


def is_bot_turn(table: Table) -> bool:
    """Whether a computer player is to move now."""
    if table.status != "playing" or table.turn_seat is None:
        return False
    occupant = table.seats[table.turn_seat].occupant
    return occupant is not None and occupant.bot
