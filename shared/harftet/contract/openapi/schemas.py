"""The shapes several features answer with: a player's view of a table (with what it holds)
and the error body."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from harftet.engine.search import BotLevel
from harftet.errors import ERROR_CODES

ErrorCode = Literal[ERROR_CODES]  # type: ignore[valid-type]


class Tile(BaseModel):
    id: int = Field(ge=0, le=105)
    letter: str | None = Field(None, description="Harftet: one letter or a two-letter tile")
    value: int | None = Field(None, description="Harftet: the tile's points")
    color: Literal["red", "yellow", "blue", "black"] | None = None
    number: int | None = Field(None, ge=1, le=13, description="Kastet: the number")
    joker: bool | None = None
    as_: str | dict[str, Any] | None = Field(None, alias="as", description="a joker's face")


class LogEvent(BaseModel):
    model_config = {"extra": "allow"}
    seq: int
    at: float
    hand: int | None
    seat: int | None = Field(description="null for events of the whole table")
    type: Literal[
        "sit", "stand", "start", "draw", "lay", "pass", "timeout", "leave", "disconnect",
        "reconnect", "substitute", "bot", "continue", "handEnd", "gameEnd",
    ]  # fmt: skip
    tiles: list[int] | None = Field(None, description="lay: the ids that came from the hand")
    version: int | None = Field(
        None, description="the table version this event belongs to (absent on events logged before)"
    )


class SeatView(BaseModel):
    seat: int
    playerId: str | None
    name: str | None
    connected: bool
    bot: bool
    vacant: bool = Field(description="vacated during a game, offered to substitutes")
    tiles: int = Field(description="how many tiles the seat holds")
    penalty: int = Field(description="total penalty of the hands played")
    level: BotLevel | None = Field(None, description="a computer player's level")


class TurnView(BaseModel):
    seat: int
    laid: bool
    deadline: float | None = Field(description="epoch seconds when the turn times out")


class HandResultView(BaseModel):
    hand: int
    finisher: int | None
    penalties: list[int]
    left: dict[str, list[Tile]] = Field(
        description="every seat's remaining tiles when the hand ended (the racks turned over)"
    )


class RuleLimits(BaseModel):
    maxSeries: int = Field(description="melds the series area holds")
    handLimit: int = Field(description="a hand of this many tiles may not draw and may pass")
    dealSize: int = Field(description="tiles dealt to each seat")
    minSeries: int = Field(description="tiles of a Kastet series meld, letters of a Harftet word")
    pairTiles: int = Field(description="tiles of a pair")
    pairsOpenAt: int = Field(
        description="the pair area opens while the series area holds this many"
    )
    colors: list[str] = Field(description="the tile colours")
    numbers: list[int] | None = Field(None, description="Kastet: the lowest and highest number")
    maxSet: int | None = Field(None, description="Kastet: the most tiles of a set")
    alphabet: str | None = Field(
        None, description="Harftet: the letters a joker may stand for, in alphabetical order"
    )


class BreakView(BaseModel):
    until: float = Field(description="when the break ends and the next hand is dealt")
    ready: list[int] = Field(description="the seats that said ready")


class TableView(BaseModel):
    tableId: str
    game: Literal["harftet", "kastet"]
    version: int
    status: Literal["waiting", "playing", "paused", "finished"]
    manager: str | None
    hands: int
    handNumber: int
    partners: bool
    turnSeconds: int
    hints: bool | int | Literal["unlimited"] = Field(
        description='false (off), the hints per player per hand, or "unlimited"'
    )
    private: bool
    botSeconds: int
    createdAt: float
    seats: list[SeatView | None]
    turn: TurnView | None
    pile: int = Field(description="tiles left in the pile")
    series: list[list[Tile]]
    pairs: list[list[Tile]]
    seat: int | None = Field(None, description="the caller's seat; absent for spectators")
    hand: list[Tile] | None = Field(None, description="the caller's own hand only")
    handResults: list[HandResultView]
    result: dict[str, Any] | None = Field(
        description="when finished: penalties, points per seat, rating changes per player "
        '(a game that ended early: no points, no rating changes, and "closed")'
    )
    closed: Literal["abandoned", "operator"] | None = Field(
        None,
        description='why a finished game ended before its last hand: "abandoned" (nobody was '
        'left to play it for: docs/RULES.en.md), "operator" (an operator closed the table); '
        "null for a game played to its end, or not over",
    )
    last: LogEvent | None = Field(description="the event that made this version (as in the log)")
    limits: RuleLimits = Field(description="the rule constants of the game, for clients")
    rated: bool = Field(description="an unrated table changes no rating or record")
    breakSeconds: int = Field(description="the break between hands")
    graceSeconds: int = Field(description="how long a disconnected player's seat is held")
    waitSeconds: int = Field(description="the wait for a substitute before a computer player")
    pace: Literal["live", "correspondence"]
    hintsLeft: int | None = Field(
        description="the caller's hints left this hand; null where unlimited, off, or not seated"
    )
    dealProof: str | None = Field(
        description="SHA-256 (hex) commitment to the current hand's shuffle (docs/DEALS.md); "
        "null before the first deal"
    )
    break_: BreakView | None = Field(
        None, alias="break", description="between hands only: the break (RULES §2a)"
    )


class ErrorDetail(BaseModel):
    code: ErrorCode = Field(description="one of the stable codes (harftet.errors.ERROR_CODES)")
    message: str = Field(
        description="Turkish from the catalogue (GET /texts) when asked for (Accept-Language); "
        "English names what was wrong"
    )
    field: str | None = Field(None, description="bad_request: the request field at fault")
    retryAfter: int | None = Field(None, description="rate_limited: seconds to wait")
    meld: int | None = Field(None, description="illegal_move: index of the offending meld")
    bannedUntil: int | None = None
    reason: str | None = Field(
        None,
        description="illegal_move: why (API.md); too_many_tables: too_many_correspondence when "
        "the caller (or, on a start, a seated player) holds the most running correspondence "
        "tables (RULES §6), absent for the manager's limit of waiting tables",
    )
    max: int | None = Field(None, description="too_many_correspondence: the limit (20)")


class Texts(BaseModel):
    lang: Literal["tr", "en"]
    version: str = Field(description="changes whenever a sentence or a bound does (the ETag)")
    texts: dict[str, str] = Field(
        description="key → sentence: error.<code>, reason.<reason>, phrase.<id>, the labels; "
        "{name} placeholders are filled from a refusal's params"
    )
    bounds: dict[str, Any] = Field(description="the bounds a client shows (name length, options)")


class Error(BaseModel):
    error: ErrorDetail
    view: TableView | None = Field(None, description="stale_version: the current view")
