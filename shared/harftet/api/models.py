"""Request bodies, validated strictly: unknown fields, wrong types and out-of-range values
are refused with a message that names the field."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)

from harftet.api.body import MAX_BODY_BYTES as MAX_BODY_BYTES  # its old home
from harftet.api.names import NAME_SCHEMA, check_name
from harftet.engine.moves import Draw, Lay, Move, Pass
from harftet.engine.search import BotLevel
from harftet.engine.state import Placed

Name = Annotated[str, AfterValidator(check_name), WithJsonSchema(NAME_SCHEMA)]  # API.md, Identity
MoveId = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[\w.:-]+$")]
TileId = Annotated[StrictInt, Field(ge=0, le=105)]


class Strict(BaseModel):
    # Built on first use: a request pays only for the models it needs (GET requests, the
    # most common first request of a new Lambda instance, pay for none).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


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
    seats: Annotated[StrictInt, Field(ge=2, le=4)] = 4
    hands: Annotated[StrictInt, Field(ge=1, le=21)] = 11
    partners: StrictBool = False
    turnSeconds: Annotated[StrictInt, Field(ge=10, le=600)] = 45
    hints: StrictBool = Field(True, description="players may ask for hints")
    private: StrictBool = Field(False, description="never listed: the tableId is the invitation")
    botSeconds: Annotated[StrictInt, Field(ge=0, le=5)] = Field(
        1, description="seconds between computer players' moves"
    )
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = None

    @model_validator(mode="after")
    def _partners_need_four_seats(self) -> CreateTable:
        if self.partners and self.seats != 4:
            raise ValueError("a partner game needs exactly 4 seats")
        return self


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
        return Placed(self.id, face)  # the engine normalizes the raw face


Meld = Annotated[list[TileRef], Field(min_length=1, max_length=106)]


class MoveBase(Strict):
    version: Annotated[StrictInt, Field(ge=0)]
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

    def move(self) -> Lay:
        return Lay(
            series=tuple(tuple(t.placed() for t in meld) for meld in self.series),
            pairs=tuple(tuple(t.placed() for t in meld) for meld in self.pairs),
        )


class MoveRequest(Strict):
    body: Annotated[DrawMove | PassMove | LayMove, Field(discriminator="type")]

    def move(self) -> Move:
        body = self.body
        if isinstance(body, LayMove):
            return body.move()
        return Draw() if isinstance(body, DrawMove) else Pass()


class WsMove(Strict):
    """A move sent over the WebSocket: the REST body plus ``action`` and ``tableId``."""

    action: Literal["move"]
    tableId: Annotated[str, StringConstraints(min_length=1, max_length=64)]
