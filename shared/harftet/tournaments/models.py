"""Request and answer bodies of the tournament routes (API.md v4 "Tournaments"), for
validation and the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

LATEST = 4_102_444_800  # 2100-01-01: no tournament starts later


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _round_minutes() -> Any:
    return Field(
        default=None,
        ge=1,
        le=1440,
        description="Minutes between scheduled round starts: round n is scheduled at "
        "startsAt + (n − 1) × roundMinutes and starts then, or when every table of round "
        "n − 1 has ended, whichever is later (RULES §8). Needs rounds ≥ 2. Absent: each "
        "round starts as soon as the last table of the one before ends",
    )


class TournamentRequest(Strict):
    """A new tournament (an operator's): registration from ``opensAt`` (default now) until
    ``startsAt``, when round 1 is seated; later rounds on the ``roundMinutes`` schedule."""

    name: StrictStr = Field(min_length=1, max_length=60)
    game: Literal["harftet", "kastet"]
    seats: Literal[2, 4]
    hands: StrictInt = Field(ge=1, le=21, description="Hands per table")
    rounds: StrictInt = Field(ge=1, le=9)
    capacity: StrictInt = Field(ge=4, le=1024)
    turnSeconds: StrictInt = Field(
        ge=1, le=600, description="A live table's turn time (10–600; test mode from 1)"
    )
    opensAt: StrictInt | None = Field(
        default=None, ge=0, le=LATEST, description="Epoch seconds (default now)"
    )
    startsAt: StrictInt = Field(
        ge=0, le=LATEST, description="Epoch seconds; in test mode it may be now"
    )
    repeat: Literal["daily", "weekly"] | None = Field(
        default=None,
        description="A repeating tournament: the next one is made, a day or a week later, "
        "when this one starts",
    )
    roundMinutes: StrictInt | None = _round_minutes()


class Standing(Strict):
    rank: int
    playerId: str = Field(
        description='A player deleted since (API.md v4 "Deleted players"): an anonymous '
        'id, "deleted-…", and the name "Silinmiş oyuncu" (the catalogue\'s player.deleted)'
    )
    name: str
    points: float
    penalty: int
    tables: int


class TournamentTable(Strict):
    round: int
    tableId: str
    status: Literal["playing", "finished"]
    dealProof: str | None = Field(
        default=None,
        description="SHA-256 commitment to the table's first deal (RULES §5a; null while "
        "being seated): its replay reveals the seed and salt to check every deal",
    )


class Badge(Strict):
    tournamentId: str
    name: str
    place: int


class Mine(Strict):
    """The caller's part: registered, and her table of the round now (null: none)."""

    registered: bool
    tableId: str | None = None


class TournamentSummary(Strict):
    tournamentId: str
    name: str
    game: Literal["harftet", "kastet"]
    seats: Literal[2, 4]
    hands: int
    rounds: int
    round: int
    status: Literal["registering", "running", "finished"]
    opensAt: int
    startsAt: int
    entries: int
    capacity: int
    turnSeconds: int
    repeat: Literal["daily", "weekly"] | None = None
    roundMinutes: int | None = _round_minutes()


class TournamentAnswer(TournamentSummary):
    """A tournament with its standings (people only, best first) and every table so far."""

    standings: list[Standing]
    tables: list[TournamentTable]
    podium: list[Badge] = Field(
        default_factory=list,
        description="Everyone ranked 1–3 once finished (players tied for a place share it)",
    )
    me: Mine | None = None
    nextRoundAt: int | None = Field(
        default=None,
        description="Epoch seconds of the next round's scheduled start (round 1's while "
        "registering); it starts then or when every table of the round now has ended, "
        "whichever is later. Null: no round to come, or it has no time of its own or its "
        "time has passed (it starts as soon as the last table of the round now ends)",
    )


class TournamentPage(Strict):
    tournaments: list[TournamentSummary]
    cursor: str | None = None


class EntryAnswer(Strict):
    tournamentId: str
    playerId: str
    entries: int
