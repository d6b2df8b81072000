"""Request and answer bodies of the matchmaking routes (API.md v4 "Matchmaking"), for
validation and the OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, WithJsonSchema

WAIT_BOUNDS = (5, 120)  # the wait before computer players take the empty seats, seconds
WAIT_TEST_FLOOR = 0  # the local stack's test mode may wait less (RULES §4b)
# The bounds are checked where test mode is known (service.Matchmaking.open); the schema states
# them for clients and the fuzzer.
Wait = Annotated[
    StrictInt,
    WithJsonSchema({"type": "integer", "minimum": WAIT_BOUNDS[0], "maximum": WAIT_BOUNDS[1]}),
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class TicketRequest(Strict):
    """Look for opponents of the caller's skill for a rated, live game."""

    game: Literal["harftet", "kastet"]
    seats: Literal[2, 4]
    waitSeconds: Wait | None = Field(
        default=None,
        description="How long to wait for people before computer players of the nearest "
        "level take the empty seats: 5–120 s (default 30; test mode from 0)",
    )


class TicketAnswer(Strict):
    """A search for opponents: waiting (also while its table is being set), matched (with
    the table, rated and live, started with every seat taken) or cancelled."""

    ticketId: str
    status: Literal["waiting", "matched", "cancelled"]
    tableId: str | None = Field(default=None, description="The table, once matched")
