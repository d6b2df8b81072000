"""A table's whole state as plain data. Transitions live in other modules and never mutate
a state they were given: they return a new one (see ``clone``)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Literal

GameName = Literal["kastet", "harftet"]
Status = Literal["waiting", "playing", "paused", "finished"]
# A declared joker face: Kastet (colour, number), Harftet one letter ("Ş").
KastetFace = tuple[str, int]
Face = KastetFace | str

DEFAULT_GRACE_SECONDS = 120
DEFAULT_WAIT_SECONDS = 120


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile on the table; ``face`` is set for jokers only (their declared face)."""

    id: int
    face: Face | None = None


@dataclass(slots=True)
class Occupant:
    """Somebody sitting in a seat: a person, or a computer player (``bot``)."""

    player_id: str
    name: str
    bot: bool = False
    rating: int = 1000  # rating when they sat down (the 3000 rule)


@dataclass(slots=True)
class Seat:
    occupant: Occupant | None = None
    # The person who held the seat when the game started, and what became of them:
    # None (still there / came back), "dropped" (disconnected, never returned), "left".
    original: Occupant | None = None
    original_fate: str | None = None
    hand: list[int] = field(default_factory=list)
    penalty: int = 0  # total of the hands played so far
    connected: bool = True
    timeouts: int = 0  # turn timeouts in a row
    disconnected_at: float | None = None  # when the occupant was counted disconnected
    vacant_since: float | None = None  # when the seat was offered to substitutes


@dataclass(slots=True)
class HandResult:
    hand: int  # 1-based hand number
    finisher: int | None  # seat, or None for a blocked hand
    penalties: list[int]  # per seat


@dataclass(slots=True)
class Table:
    table_id: str
    game: GameName
    seed: int  # secret: never leaves the server
    manager: str | None
    hands: int = 11
    partners: bool = False
    turn_seconds: int = 45
    grace_seconds: int = DEFAULT_GRACE_SECONDS
    wait_seconds: int = DEFAULT_WAIT_SECONDS
    status: Status = "waiting"
    created_at: float = 0.0
    seats: list[Seat] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)  # top of the pile is the end of the list
    series: list[list[Placed]] = field(default_factory=list)
    pairs: list[list[Placed]] = field(default_factory=list)
    hand_number: int = 0  # 1-based once started; 0 while waiting
    first_seat: int = 0  # who began the current hand
    turn_seat: int | None = None
    laid: bool = False  # the player in turn has laid this turn
    passes: int = 0  # passes without a lay in a row (a full round blocks the hand)
    deadline: float | None = None  # when the turn in progress times out
    hand_results: list[HandResult] = field(default_factory=list)
    # Final points per seat and per player (set when finished), see scoring.
    result: dict[str, object] | None = None

    def clone(self) -> Table:
        """A deep copy that a transition may change freely (several times faster than
        ``copy.deepcopy``; a test checks that the two agree field by field)."""
        return replace(
            self,
            seats=[_clone_seat(s) for s in self.seats],
            pile=list(self.pile),
            series=[list(m) for m in self.series],  # Placed is frozen, its face immutable
            pairs=[list(p) for p in self.pairs],
            hand_results=[replace(r, penalties=list(r.penalties)) for r in self.hand_results],
            result=copy.deepcopy(self.result),
        )

    def seat_of(self, player_id: str) -> int | None:
        """The seat ``player_id`` occupies, or None."""
        for i, seat in enumerate(self.seats):
            if seat.occupant is not None and seat.occupant.player_id == player_id:
                return i
        return None


def _clone_seat(seat: Seat) -> Seat:
    return replace(
        seat,
        occupant=None if seat.occupant is None else replace(seat.occupant),
        original=None if seat.original is None else replace(seat.original),
        hand=list(seat.hand),
    )
