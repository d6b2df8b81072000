"""Request bodies, validated strictly: unknown fields, wrong types and out-of-range values
are refused with a message that names the field."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any, Literal, cast

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    ValidationInfo,
    WithJsonSchema,
    model_validator,
)

from harftet.api.body import MAX_BODY_BYTES as MAX_BODY_BYTES  # its old home
from harftet.api.names import NAME_SCHEMA, check_name
from harftet.engine import options
from harftet.engine.moves import Draw, Lay, Move, Pass, Ready
from harftet.engine.options import TableOptions
from harftet.engine.search import BotLevel
from harftet.engine.state import DEFAULT_BREAK_SECONDS, Pace, Placed

Name = Annotated[str, AfterValidator(check_name), WithJsonSchema(NAME_SCHEMA)]  # API.md, Identity
MoveId = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[\w.:-]+$")]
TileId = Annotated[StrictInt, Field(ge=0, le=105)]


def _below_2_63(digits: str) -> str:
    """A seed written as a string (API.md v4) holds what an integer seed may: 0 ≤ s < 2^63."""
    if int(digits) >= 2**63:
        raise ValueError("seed must be below 2^63")
    return digits


class Strict(BaseModel):
    # Built on first use: a request pays only for the models it needs (GET requests, the
    # most common first request of a new Lambda instance, pay for none).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _check_option(name: options.OptionName, value: int, info: ValidationInfo) -> int:
    """``value`` within ``options.LIMITS[name]`` — or, for a request validated with
    ``context={"testMode": True}``, down to ``options.TEST_FLOORS`` (the local stack's test
    mode); the engine's message names the field."""
    test_mode = bool(info.context and info.context.get("testMode"))
    try:
        return options.check(name, value, test_mode=test_mode)
    except options.OptionError as error:
        raise ValueError(error.message) from None


def _bounds(name: options.OptionName) -> tuple[AfterValidator, WithJsonSchema]:
    """A whole-number option's check and schema, both from ``options.LIMITS``."""
    low, high = options.LIMITS[name]
    return (
        AfterValidator(partial(_check_option, name)),
        WithJsonSchema({"type": "integer", "minimum": low, "maximum": high}),
    )


_TURN_LOW, _TURN_HIGH = options.LIMITS["turn_seconds"]
TurnSeconds = Annotated[
    StrictInt | None,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": _TURN_LOW, "maximum": _TURN_HIGH},
                {"type": "integer", "enum": list(options.CORRESPONDENCE_TURNS)},
                {"type": "null"},
            ],
            "description": f"live: {_TURN_LOW}-{_TURN_HIGH} (default 45); correspondence: one "
            f"of {', '.join(map(str, options.CORRESPONDENCE_TURNS))} (default 86400)",
        }
    ),
]
Seats = Annotated[StrictInt, *_bounds("seats")]
Hands = Annotated[StrictInt, *_bounds("hands")]
BotSeconds = Annotated[StrictInt, *_bounds("bot_seconds")]
BreakSeconds = Annotated[StrictInt, *_bounds("break_seconds")]
GraceSeconds = Annotated[StrictInt, *_bounds("grace_seconds")]
WaitSeconds = Annotated[StrictInt, *_bounds("wait_seconds")]


def _check_hints(value: bool | int | str) -> bool | int | str:
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            options.check("hints", value)
        except options.OptionError as error:
            raise ValueError(error.message) from None
    return value


_HINT_LOW, _HINT_HIGH = options.LIMITS["hints"]
HintsOption = Annotated[
    StrictBool | StrictInt | Literal["unlimited"],
    Field(union_mode="left_to_right"),
    AfterValidator(_check_hints),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "boolean"},
                {"type": "integer", "minimum": _HINT_LOW, "maximum": _HINT_HIGH},
                {"const": options.UNLIMITED, "type": "string"},
            ],
            "description": "false (off), true (the default budget, 3), hints per player per "
            'hand, or "unlimited" (only with "rated": false)',
        }
    ),
]


class CreatePlayer(Strict):
    name: Name


class CreateTable(Strict):
    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        defer_build=True,
        # Partners sit across from each other: a partner game has exactly 4 seats.
        json_schema_extra={
            "if": {"properties": {"partners": {"const": True}}, "required": ["partners"]},
            "then": {"properties": {"seats": {"const": 4}}},
        },
    )
    game: Literal["harftet", "kastet"]
    seats: Seats = 4
    hands: Hands = 11
    partners: StrictBool = False
    turnSeconds: TurnSeconds = None
    hints: HintsOption = True
    private: StrictBool = Field(False, description="never listed: the tableId is the invitation")
    botSeconds: BotSeconds = Field(1, description="seconds between computer players' moves")
    seed: (
        Annotated[StrictInt, Field(ge=0, lt=2**63)]
        | Annotated[str, StringConstraints(pattern=r"^[0-9]{1,19}$"), AfterValidator(_below_2_63)]
        | None
    ) = Field(
        None,
        description="test mode only: the deal's seed, a number or (API.md v4) "
        "its digits as a string",
    )
    rated: StrictBool = Field(True, description="an unrated table changes no rating or record")
    breakSeconds: BreakSeconds = Field(DEFAULT_BREAK_SECONDS, description="the break between hands")
    graceSeconds: GraceSeconds = Field(
        120, description="how long a disconnected player's seat is held"
    )
    waitSeconds: WaitSeconds = Field(
        120, description="the wait for a substitute before a computer player sits"
    )
    pace: Pace = "live"

    @model_validator(mode="after")
    def _partners_need_four_seats(self) -> CreateTable:
        if self.partners and self.seats != 4:
            raise ValueError("a partner game needs exactly 4 seats")
        return self

    @model_validator(mode="after")
    def _options_fit_together(self, info: ValidationInfo) -> CreateTable:
        test_mode = bool(info.context and info.context.get("testMode"))
        try:
            options.check_turn(self.pace, self.turn_seconds(), test_mode=test_mode)
            options.check_hints(self.hints, self.rated)
        except options.OptionError as error:
            raise ValueError(error.message) from None
        return self

    def seed_value(self) -> int | None:
        """The seed asked for (test mode), as the engine takes it."""
        return None if self.seed is None else int(self.seed)

    def turn_seconds(self) -> int:
        """The turn time asked for, or the default of the table's pace."""
        if self.turnSeconds is not None:
            return self.turnSeconds
        return 86400 if self.pace == "correspondence" else 45

    def options(self) -> TableOptions:
        """The table's options as the engine takes them."""
        return TableOptions(
            game=self.game,
            seats=self.seats,
            hands=self.hands,
            partners=self.partners,
            turn_seconds=self.turn_seconds(),
            hints=self.hints,
            private=self.private,
            bot_seconds=self.botSeconds,
            rated=self.rated,
            break_seconds=self.breakSeconds,
            grace_seconds=self.graceSeconds,
            wait_seconds=self.waitSeconds,
            pace=self.pace,
        )


class SitDown(Strict):
    bot: StrictBool = False
    level: BotLevel | None = Field(
        None, description="a computer player's level (default medium); only with bot"
    )

    @model_validator(mode="after")
    def _a_level_is_for_computer_players(self) -> SitDown:
        if self.level is not None and not self.bot:
            raise ValueError('level is for computer players: send it with "bot": true')
        return self


class KastetFace(Strict):
    color: Literal["red", "yellow", "blue", "black"]
    number: Annotated[StrictInt, Field(ge=1, le=13)]


class TileRef(Strict):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)
    id: TileId
    as_: Annotated[str, StringConstraints(min_length=1, max_length=2)] | KastetFace | None = Field(
        default=None, alias="as"
    )

    def placed(self) -> Placed:
        face = self.as_.model_dump() if isinstance(self.as_, KastetFace) else self.as_
        return Placed(self.id, cast(Any, face))  # the engine normalizes the raw face


Meld = Annotated[list[TileRef], Field(min_length=1, max_length=106)]


class MoveBase(Strict):
    # A table's version counts its changes; bounded as JSON's safe integers are (the body's
    # reader refuses numbers of more than 20 digits before any model sees them).
    version: Annotated[StrictInt, Field(ge=0, le=2**53 - 1)]
    moveId: MoveId | None = Field(None, description="required unless dryRun")
    dryRun: StrictBool = Field(False, description="check the move without making it")

    @model_validator(mode="after")
    def _a_real_move_names_its_id(self) -> MoveBase:
        if self.moveId is None and not self.dryRun:
            raise ValueError("moveId is required (only a dry run may leave it out)")
        return self


class DrawMove(MoveBase):
    type: Literal["draw"]


class PassMove(MoveBase):
    type: Literal["pass"]


class LayMove(MoveBase):
    type: Literal["lay"]
    series: Annotated[list[Meld], Field(max_length=106)]
    pairs: Annotated[list[Meld], Field(max_length=53)] = []
    pass_: StrictBool = Field(
        False,
        alias="pass",
        description="true: the player ends the turn with this lay; the lay and the pass are "
        "one change (one version, one push). Only on a lay.",
    )

    def move(self) -> Lay:
        return Lay(
            series=tuple(tuple(t.placed() for t in meld) for meld in self.series),
            pairs=tuple(tuple(t.placed() for t in meld) for meld in self.pairs),
            end_turn=self.pass_,
        )


class ReadyMove(MoveBase):
    """Between hands: the caller is ready for the next one (RULES §2a)."""

    type: Literal["ready"]


class MoveRequest(Strict):
    body: Annotated[DrawMove | PassMove | LayMove | ReadyMove, Field(discriminator="type")]

    def move(self) -> Move:
        body = self.body
        if isinstance(body, LayMove):
            return body.move()
        if isinstance(body, ReadyMove):
            return Ready()
        return Draw() if isinstance(body, DrawMove) else Pass()


class WsMove(Strict):
    """A move sent over the WebSocket: the REST body plus ``action`` and ``tableId``."""

    action: Literal["move"]
    tableId: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class ReportRequest(Strict):
    """``POST /tables/{id}/reports`` (harftet.moderation)."""

    seat: Annotated[int, Field(ge=0, le=3, strict=True)]
    kind: Literal["insult", "cheating", "other"]
