"""A table's options and their bounds (RULES §4b, API.md v3), declared once: the engine
checks them here, and the API's request model and OpenAPI document derive theirs from
these (``harftet.api.models``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from .errors import EngineError
from .state import DEFAULT_BREAK_SECONDS, DEFAULT_HINTS, GameName, Hints, Pace

Bounds = tuple[int, int]


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What a table's creator chooses (RULES §4b), with the defaults a choice left out
    takes; ``grace_seconds`` and ``wait_seconds`` None: the table's own defaults. Checked
    against their bounds when a table is made (``table.new_table``)."""

    game: GameName
    seats: int = 4
    hands: int = 11
    partners: bool = False
    turn_seconds: int = 45
    grace_seconds: int | None = None
    wait_seconds: int | None = None
    hints: Hints = True
    private: bool = False
    bot_seconds: int = 1
    rated: bool = True
    break_seconds: int = DEFAULT_BREAK_SECONDS
    pace: Pace = "live"


OptionName = Literal[
    "seats",
    "hands",
    "turn_seconds",
    "bot_seconds",
    "break_seconds",
    "grace_seconds",
    "wait_seconds",
    "hints",
]
# Inclusive bounds of each whole-number option ("hints": a budget per player per hand).
LIMITS: Final[dict[OptionName, Bounds]] = {
    "seats": (2, 4),
    "hands": (1, 21),
    "turn_seconds": (10, 600),  # a live table's
    "bot_seconds": (0, 5),
    "break_seconds": (5, 120),
    "grace_seconds": (30, 600),
    "wait_seconds": (30, 600),
    "hints": (1, 20),
}
# What the local stack's test mode accepts below the bounds, so that tests need not wait.
TEST_FLOORS: Final[dict[OptionName, int]] = {
    "turn_seconds": 1,
    "break_seconds": 0,
    "grace_seconds": 1,
    "wait_seconds": 1,
}
# A correspondence table's turn time: one of these (1 h, 12 h, 1 day, 3 days; RULES §6).
CORRESPONDENCE_TURNS: Final = (3600, 43200, 86400, 259200)
PACES: Final[tuple[Pace, ...]] = get_args(Pace)
UNLIMITED: Final = "unlimited"
# The API's name of each option (errors name the field as the client sent it).
API_NAMES: Final[dict[str, str]] = {
    "seats": "seats",
    "hands": "hands",
    "turn_seconds": "turnSeconds",
    "bot_seconds": "botSeconds",
    "break_seconds": "breakSeconds",
    "grace_seconds": "graceSeconds",
    "wait_seconds": "waitSeconds",
    "hints": "hints",
    "pace": "pace",
}


class OptionError(EngineError):
    """A table option out of its bounds (400 ``bad_request``, naming the field)."""


def low(name: OptionName, test_mode: bool = False) -> int:
    """The smallest value ``name`` may take (test mode may go lower)."""
    bound = LIMITS[name][0]
    return min(bound, TEST_FLOORS.get(name, bound)) if test_mode else bound


def check(name: OptionName, value: Any, *, test_mode: bool = False) -> int:
    """``value`` if it is a whole number within ``name``'s bounds; OptionError otherwise."""
    lowest, highest = low(name, test_mode), LIMITS[name][1]
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= highest:
        raise OptionError(
            f"{API_NAMES[name]} must be between {lowest} and {highest}, not {value!r}"
        )
    return value


def check_turn(pace: Pace, turn_seconds: Any, *, test_mode: bool = False) -> int:
    """The turn time of a table of ``pace``: live within bounds, correspondence one of
    ``CORRESPONDENCE_TURNS`` (test mode: any from the live floor up)."""
    if pace not in PACES:
        raise OptionError(f'pace must be "live" or "correspondence", not {pace!r}')
    if pace == "correspondence":
        if turn_seconds in CORRESPONDENCE_TURNS and not isinstance(turn_seconds, bool):
            return int(turn_seconds)
        if not test_mode:
            choices = ", ".join(map(str, CORRESPONDENCE_TURNS))
            raise OptionError(
                f"turnSeconds of a correspondence table is one of {choices}, not {turn_seconds!r}"
            )
    return check("turn_seconds", turn_seconds, test_mode=test_mode)


def check_hints(hints: Any, rated: bool) -> Hints:
    """The hints option made canonical: False, a budget (``True`` is the default one), or
    "unlimited" (only at an unrated table, RULES §4a)."""
    if hints is True:
        return DEFAULT_HINTS
    if hints is False:
        return False
    if hints == UNLIMITED:
        if rated:
            raise OptionError('hints "unlimited" is only for unrated tables ("rated": false)')
        return UNLIMITED
    return check("hints", hints)


def hint_budget(hints: Hints) -> int | None:
    """Hints a player may take per hand: None where unlimited, 0 where off."""
    if hints is True:
        return DEFAULT_HINTS
    if hints is False:
        return 0
    if hints == UNLIMITED:
        return None
    return int(hints)
