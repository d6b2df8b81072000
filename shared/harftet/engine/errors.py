"""Errors the engine raises; each maps to one stable API error code.

An illegal move also carries a stable ``reason`` (API.md: ``not_a_word``, ``not_in_hand`` …)
and the ``params`` a client needs to say it in its own words (``meld``, ``pair``, ``word``,
``tile``, ``count``, ``max``); `harftet.api.messages` says it in Turkish or English.
"""

from __future__ import annotations

from typing import Any

REASONS = (
    # the move itself
    "unknown_move",
    "must_draw_or_lay",
    "already_laid",
    "hand_full",
    "pile_empty",
    # a lay as a whole
    "too_many_series",
    "table_tile_missing",
    "nothing_added",
    "pairs_closed",
    # one tile of a lay
    "unknown_tile",
    "duplicate_tile",
    "pair_frozen",
    "pair_from_series",
    "not_in_hand",
    "joker_face_missing",
    "bad_joker_face",
    "not_a_joker",
    # one meld or pair of a lay
    "meld_too_short",
    "bad_meld",
    "not_a_word",
    "bad_pair",
)
"""Every ``IllegalMoveError.reason`` the engine gives (API.md lists the common ones)."""


class Refusal(str):
    """Why a meld or pair is refused: reads as its English text, and carries a stable
    ``reason`` and its ``params`` for `IllegalMoveError` (``check_series`` returns one)."""

    reason: str
    params: dict[str, Any]

    def __new__(cls, text: str, reason: str, **params: Any) -> Refusal:
        self = super().__new__(cls, text)
        self.reason = reason
        self.params = params
        return self


class Coded(Exception):
    """A refusal with a stable API error ``code``: a subclass names its own in its header
    (``class SeatTakenError(EngineError, code="seat_taken")``) or keeps its parent's."""

    code = "bad_request"

    def __init_subclass__(cls, *, code: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code


class EngineError(Coded):
    """A request the rules refuse. Nothing was changed."""

    game: str | None = None  # the table's game, set by the write path (its tiles' names)

    def __init__(self, message: str, *, meld: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.meld = meld


class IllegalMoveError(EngineError, ValueError, code="illegal_move"):
    """The move breaks a rule of the game (which meld or tile, and why).

    ``reason`` is one of `REASONS`; ``params`` holds what the reason's message names
    (``meld`` is also kept on ``.meld`` for the API body).
    """

    def __init__(
        self,
        message: str,
        *,
        meld: int | None = None,
        reason: str = "illegal_move",
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, meld=meld)
        self.reason = reason
        self.params: dict[str, Any] = dict(params or {})


class NotYourTurnError(EngineError, code="not_your_turn"):
    """It is another seat's turn."""


class NotSeatedError(EngineError, code="not_seated"):
    """The caller has no seat at this table."""


class NotManagerError(EngineError, code="not_manager"):
    """Only the table's manager may do this."""


class SeatTakenError(EngineError, code="seat_taken"):
    """Somebody already sits in that seat."""


class WrongStatusError(EngineError, code="wrong_status"):
    """The table is not in a status where this request makes sense."""


class NoHintsLeftError(EngineError, code="no_hints_left"):
    """The player took every hint the table allows this hand (RULES §4a)."""
