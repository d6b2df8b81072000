"""Every way a request can be refused: one class per stable code, every code in one list
(`ERROR_CODES`), and each code's HTTP status in one map (`STATUS`).

An error carries its code, never its status: `harftet.api.errors` answers with
``STATUS[code]``. The engine's own refusals (`harftet.engine.errors`) are among them; every
other layer raises the classes below. A test holds this list against the OpenAPI and
AsyncAPI documents and against the catalogue of sentences (`harftet.texts`: one
``error.<code>`` sentence per code, in every language).
"""

from __future__ import annotations

import time
from typing import Any, Final

from .engine.errors import (
    REASONS,
    Coded,
    EngineError,
    IllegalMoveError,
    NoHintsLeftError,
    NotManagerError,
    NotSeatedError,
    NotYourTurnError,
    SeatTakenError,
    WrongStatusError,
)

__all__ = [
    "ERROR_CODES",
    "REASONS",
    "STATUS",
    "AlreadyWaitingError",
    "BadRequestError",
    "BannedError",
    "BusyError",
    "EngineError",
    "ForbiddenError",
    "HarftetError",
    "HintsOffError",
    "IllegalMoveError",
    "NoHintsLeftError",
    "NotFoundError",
    "NotManagerError",
    "NotSeatedError",
    "NotYourTurnError",
    "OperatorBannedError",
    "RateLimitedError",
    "RegistrationClosedError",
    "SeatTakenError",
    "StaleVersionError",
    "TooManyConnectionsError",
    "TooManyHeldError",
    "TooManyTablesError",
    "TournamentFullError",
    "UnauthorizedError",
    "WrongStatusError",
    "code_of",
]

# code → HTTP status: the one place a refusal becomes a status (API.md "Errors").
STATUS: Final[dict[str, int]] = {
    "bad_request": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "banned": 403,
    "not_your_turn": 403,
    "not_seated": 403,
    "not_manager": 403,
    "hints_off": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "stale_version": 409,
    "seat_taken": 409,
    "wrong_status": 409,
    "too_many_tables": 409,
    "no_hints_left": 409,
    "already_waiting": 409,
    "tournament_full": 409,
    "registration_closed": 409,
    "illegal_move": 422,
    "rate_limited": 429,
    "internal": 500,
    "busy": 503,
}
ERROR_CODES: Final[tuple[str, ...]] = tuple(STATUS)
"""Every error code an answer or a push may carry."""


class HarftetError(Coded):
    """A refusal that is not the engine's: ``code`` names it (one of `ERROR_CODES`)."""


class BadRequestError(HarftetError, code="bad_request"):
    """A well-formed request the API refuses (a value out of range, a seed outside test
    mode); ``field`` names the request field when one is at fault."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class UnauthorizedError(HarftetError, code="unauthorized"):
    """No token, a bad or expired one, or one of a player that no longer exists."""


class ForbiddenError(HarftetError, code="forbidden"):
    """The caller may not use this route (an operator route without the operator's key)."""


class NotFoundError(HarftetError, code="not_found"):
    """No such table, player or item (as far as the caller may know)."""


class BannedError(HarftetError, code="banned"):
    """The player may not sit down until ``until`` (epoch seconds; RULES §4: leavers)."""

    reason: str | None = None

    def __init__(self, until: float) -> None:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(until))
        super().__init__(f"you left too many games: you may sit down again at {stamp}")
        self.until: float | None = until


class OperatorBannedError(BannedError):
    """An operator banned the player: no sitting down, no new tables, no end given."""

    reason = "banned_operator"

    def __init__(self) -> None:
        HarftetError.__init__(self, "an operator has banned your player: you may not sit down")
        self.until = None


class StaleVersionError(HarftetError, code="stale_version"):
    """The client's version is not the table's: it must resync from ``view``."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__("the table has changed since your version: resync from the view")
        self.view = view


class HintsOffError(HarftetError, code="hints_off"):
    """The table was created with hints off."""


class TooManyTablesError(HarftetError, code="too_many_tables"):
    """The caller already manages as many waiting tables as anybody may (``max``)."""

    reason: str | None = None

    def __init__(self, message: str, *, most: int) -> None:
        super().__init__(message)
        self.params: dict[str, Any] = {"max": most}


class TooManyHeldError(TooManyTablesError):
    """A player already holds as many running correspondence tables as anybody may (RULES
    §6; counted exactly by ``harftet.store.holdings``)."""

    reason = "too_many_correspondence"

    def __init__(self, who: str | None, held: int, most: int) -> None:
        subject = "you already play" if who is None else f"{who} already plays"
        super().__init__(
            f"{subject} {held} correspondence tables: at most {most} may run at once, "
            "finish or leave one first",
            most=most,
        )


class AlreadyWaitingError(HarftetError, code="already_waiting"):
    """The player already holds a matchmaking ticket."""


class TournamentFullError(HarftetError, code="tournament_full"):
    """The tournament has as many entries as its capacity."""


class RegistrationClosedError(HarftetError, code="registration_closed"):
    """The tournament takes no entries (or withdrawals) now: before it opens, or started."""


class RateLimitedError(HarftetError, code="rate_limited"):
    """Over a budget: try again after ``retry_after`` seconds."""

    def __init__(self, kind: str, retry_after: int) -> None:
        super().__init__(f"too many {kind} requests: try again in {retry_after} s")
        self.kind = kind
        self.retry_after = retry_after


class BusyError(HarftetError, code="busy"):
    """Too many writers at once (or DynamoDB throttling after the SDK's retries): safe to
    send again."""


class TooManyConnectionsError(HarftetError, code="rate_limited"):
    """A WebSocket beyond the limits of a player's or a table's connections (refused at
    ``$connect`` with 429)."""


def code_of(error: BaseException) -> str | None:
    """The stable code of a refusal (None: not one of ours, an internal error)."""
    if isinstance(error, HarftetError | EngineError):
        return error.code
    return None
