"""A table's whole state as plain data. Transitions live in other modules and never mutate
a state they were given: they return a new one (see ``clone``)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

GameName = Literal["kastet", "harftet"]
Status = Literal["waiting", "playing", "paused", "finished"]
Pace = Literal["live", "correspondence"]
# A table's hints (RULES §4a): False (off), a budget per player per hand, or "unlimited".
# ``True`` (an item written before budgets) counts as the default budget.
Hints = bool | int | Literal["unlimited"]
# A declared joker face: Kastet (colour, number), Harftet one letter ("Ş").
KastetFace = tuple[str, int]
Face = KastetFace | str
BotLevel = Literal["easy", "medium", "hard", "expert"]
"""The computer players' levels, weakest first (RULES §4a): ``easy``, ``medium`` and ``hard``
model a person (Kolay, Orta, Zor); ``expert`` is the full search (Usta). Declared here once
(an occupant's level is part of a table); the API's models and documents derive theirs from
it, through ``harftet.engine.search``."""
BOT_LEVELS: tuple[BotLevel, ...] = get_args(BotLevel)
DEFAULT_BOT_LEVEL: BotLevel = "medium"

DEFAULT_GRACE_SECONDS = 120
DEFAULT_WAIT_SECONDS = 120
DEFAULT_BOT_SECONDS = 1
DEFAULT_BREAK_SECONDS = 20
DEFAULT_HINTS = 3
# A log event (API.md "log"): {"seq", "at", "hand", "seat", "type", ...}, plain JSON.
Event = dict[str, Any]


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
    level: BotLevel | None = None  # a computer player's level; None for a person


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
    # Hints this hand (RULES §4a): how many were spent, how many melds of the best lay of the
    # position ``hint_mark`` names were revealed (a new position starts again at its first).
    hints_used: int = 0
    hint_shown: int = 0
    hint_mark: int = 0


@dataclass(slots=True)
class HandResult:
    hand: int  # 1-based hand number
    finisher: int | None  # seat, or None for a blocked hand
    penalties: list[int]  # per seat
    # Every seat's remaining tiles when the hand ended (sorted ids; [] for the finisher):
    # the racks are turned over, shown to everyone (RULES §5).
    left: dict[int, list[int]] = field(default_factory=dict)


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
    # Table options (API.md): hints allowed, never listed in the lobby, computer-player pace.
    hints: Hints = True
    private: bool = False
    bot_seconds: int = DEFAULT_BOT_SECONDS
    # A computer player sat before the start: no rating or record changes (RULES §4).
    practice: bool = False
    # A human substitute sat during the pause: only the manager's Continue resumes.
    held: bool = False
    # Who left or dropped a seat during this game, and which (one seat per player per game),
    # and who already paid the 2·N leave penalty (they pay it once).
    former: dict[str, int] = field(default_factory=dict)
    paid: list[str] = field(default_factory=list)
    # The log: the last seq used, and the events of the latest change only (the log itself
    # is kept outside the table item).
    seq: int = 0
    recent: list[Event] = field(default_factory=list)
    # Table options (RULES §4b): an unrated table changes no rating or record; the break
    # between hands; live or correspondence (what the latter changes lives elsewhere).
    rated: bool = True
    break_seconds: int = DEFAULT_BREAK_SECONDS
    pace: Pace = "live"
    # The break between hands (RULES §2a): when it ends (None: no break), who said ready.
    break_until: float | None = None
    ready: list[int] = field(default_factory=list)
    # Secret (never leaves the server before the game ends): hex of >= 128 random bits mixed
    # into every hand's deal commitment, so the seed cannot be searched from it (RULES §5a).
    salt: str = ""

    def clone(self) -> Table:
        """A deep copy that a transition may change freely (several times faster than
        ``copy.deepcopy``; a test checks that the two agree field by field)."""
        return replace(
            self,
            seats=[_clone_seat(s) for s in self.seats],
            pile=list(self.pile),
            series=[list(m) for m in self.series],  # Placed is frozen, its face immutable
            pairs=[list(p) for p in self.pairs],
            hand_results=[
                replace(
                    r, penalties=list(r.penalties), left={k: list(v) for k, v in r.left.items()}
                )
                for r in self.hand_results
            ],
            result=copy.deepcopy(self.result),
            former=dict(self.former),
            paid=list(self.paid),
            recent=list(self.recent),  # events are never changed once made
            ready=list(self.ready),
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
