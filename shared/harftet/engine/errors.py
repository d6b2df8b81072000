"""Errors the engine raises; each maps to one stable API error code."""

from __future__ import annotations


class EngineError(Exception):
    """A request the rules refuse. Nothing was changed."""

    code = "bad_request"
    status = 400

    def __init__(self, message: str, *, meld: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.meld = meld


class IllegalMoveError(EngineError, ValueError):
    """The move breaks a rule of the game (which meld or tile, and why)."""

    code = "illegal_move"
    status = 422


class NotYourTurnError(EngineError):
    code = "not_your_turn"
    status = 403


class NotSeatedError(EngineError):
    code = "not_seated"
    status = 403


class NotManagerError(EngineError):
    code = "not_manager"
    status = 403


class SeatTakenError(EngineError):
    code = "seat_taken"
    status = 409


class WrongStatusError(EngineError):
    """The table is not in a status where this request makes sense."""

    code = "wrong_status"
    status = 409
