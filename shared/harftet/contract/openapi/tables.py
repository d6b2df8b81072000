"""The tables: the lobby, a table's life (sit, start, move, continue, leave), hints, the
WebSocket ticket, the log and the replay."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from harftet.api.models import CreateTable, DrawMove, LayMove, PassMove, ReadyMove, SitDown
from harftet.contract.openapi.components import Components
from harftet.contract.openapi.route import CURSOR, Route
from harftet.contract.openapi.schemas import LogEvent, TableView


class Ticket(BaseModel):
    ticket: str = Field(description="for $connect?ticket=T&tableId=ID, instead of ?token=")
    expiresAt: int = Field(description="Unix seconds; the ticket opens no connection after it")


class LobbyEntry(BaseModel):
    tableId: str
    game: str
    status: str
    seats: int
    taken: int
    players: list[str | None]
    manager: str | None
    hands: int
    partners: bool
    turnSeconds: int
    createdAt: float
    vacant: list[int] = Field(description="seat numbers anyone may take now")
    pace: Literal["live", "correspondence"] = "live"


class Lobby(BaseModel):
    tables: list[LobbyEntry] = Field(description="newest first")
    cursor: str | None = Field(description="the next page's cursor; null on the last page")


class DryRun(BaseModel):
    legal: Literal[True]
    view: TableView = Field(
        description="the caller's view as it would be, at the unchanged version; a draw's "
        "tile is left out of the hand, and a move that would end the hand shows the view "
        "as it is now"
    )
    endsHand: bool | None = Field(None, description="true when the move would end the hand")


class LayBody(BaseModel):
    series: list[list[dict[str, Any]]] = Field(description="the whole new series area")
    pairs: list[list[dict[str, Any]]] = Field(description="the new pairs only")


class HintTile(BaseModel):
    id: int
    as_: Any = Field(None, alias="as", description="a joker's declared face")
    from_: Literal["hand", "table"] = Field(alias="from")


class Hint(BaseModel):
    version: int = Field(
        description="the table's version after the hint (a hint that reveals "
        "a meld is a change: it spends the budget)"
    )
    lay: LayBody | None = Field(
        description="where hints are unlimited: the whole lay in the move body's shape; else null"
    )
    meld: list[HintTile] | None = Field(
        description="the next meld of the best lay (null when no lay is possible)"
    )
    shed: int = Field(description="the hand value the whole lay removes (a joker counting 50)")
    meldShed: int = Field(
        description="the hand value the revealed meld alone removes: its tiles from the "
        "caller's hand (a joker counting 50); 0 when no meld is revealed"
    )
    tiles: list[int] = Field(
        description="ids of the caller's tiles the lay uses (unlimited) or the revealed melds use"
    )
    hintsLeft: int | None = Field(description="hints left this hand; null where unlimited")
    revealed: int = Field(description="melds of this position's lay revealed so far")
    area: Literal["series", "pairs"] | None = Field(
        description="where the revealed meld goes: a series meld (new or changed) or a new pair"
    )


class Log(BaseModel):
    events: list[LogEvent] = Field(description="oldest first, up to 500: ask again after the last")


class ReplayHand(BaseModel):
    hand: int = Field(description="the hand's number, 1 upwards")
    deal: dict[str, list[int]] = Field(description="each seat's dealt tiles")
    pile: list[int] = Field(description="in drawing order, the first tile drawn first")
    moves: list[LogEvent]
    committed: str = Field(description="what the hand's dealProof is the SHA-256 of")
    dealProof: str = Field(description="the commitment the views showed (docs/DEALS.md)")


class Replay(BaseModel):
    seed: str = Field(
        pattern=r"^[0-9]{1,19}$",
        description="the shuffle seed, a 63-bit integer written as a string (API.md v4: "
        "JSON.parse would round it): every deal follows from it",
    )
    salt: str = Field(description="the table's secret salt in every deal proof (hex)")
    table: dict[str, Any] = Field(description="the table's options, as it was created")
    before: list[LogEvent] = Field(description="the events before the first deal")
    hands: list[ReplayHand]
    result: dict[str, Any] | None
    tiles: list[dict[str, Any]] = Field(
        description="the game's 106 tiles by id (deals, piles and moves name tiles by id)"
    )


# The move body's "type" → its schema (without a mapping, a discriminator's values are the
# schema names, "DrawMove"...: what generated clients such as openapi-typescript then expect).
MOVE_TYPES = {
    t: f"#/components/schemas/{m}"
    for t, m in [
        ("draw", "DrawMove"),
        ("pass", "PassMove"),
        ("lay", "LayMove"),
        ("ready", "ReadyMove"),
    ]
}

LOBBY_QUERY = (
    {
        "name": "status",
        "in": "query",
        "description": "waiting (default): to join; open: paused with a vacant "
        "seat, for substitutes; playing: running, to watch",
        "schema": {"type": "string", "enum": ["waiting", "open", "playing"]},
    },
    {
        "name": "limit",
        "in": "query",
        "schema": {"type": "integer", "minimum": 1, "maximum": 50, "default": 50},
    },
    CURSOR,
    {
        "name": "pace",
        "in": "query",
        "description": "live (default) or correspondence tables: separate lists",
        "schema": {"type": "string", "enum": ["live", "correspondence"]},
    },
)
HINT_QUERY = (
    {
        "name": "reveal",
        "in": "query",
        "description": "which meld (1-based) to reveal; one already revealed is "
        "answered again without spending a hint (default: the next)",
        "schema": {"type": "integer", "minimum": 1, "maximum": 106},
    },
)
LOG_QUERY = (
    {
        "name": "after",
        "in": "query",
        "description": "the seq of the last event already read (default 0)",
        "schema": {"type": "integer", "minimum": 0, "maximum": 999_999_999},
    },
)


def routes() -> list[Route]:
    """The tables' routes."""
    return [
        Route("post", "/tables", "Create a table (you manage it from seat 0)", CreateTable, "201",
              TableView, True),
        Route("get", "/tables",
              "The lobby: waiting, open (a vacant seat) or playing tables, a page at a time",
              None, "200", Lobby, True, LOBBY_QUERY),
        Route("get", "/tables/{tableId}", "The table as the caller may see it", None, "200",
              TableView, True),
        Route("post", "/tables/{tableId}/seats/{seat}", "Sit down (or seat a computer player)",
              SitDown, "200", TableView, True),
        Route("delete", "/tables/{tableId}/seats/{seat}", "Leave the seat", None, "200",
              TableView, True),
        Route("post", "/tables/{tableId}/start", "Start the game (manager)", None, "200",
              TableView, True),
        Route("post", "/tables/{tableId}/continue", "Continue a paused game (manager)", None,
              "200", TableView, True),
        # The body is move_body's, and a dry run is answered with DryRun.
        Route("post", "/tables/{tableId}/moves",
              "Draw, lay or pass (or, with dryRun, check the move without making it)",
              None, "200", TableView, True),
        Route("get", "/tables/{tableId}/hint", "The next meld of the best lay for your seat",
              None, "200", Hint, True, HINT_QUERY),
        Route("post", "/tables/{tableId}/ticket",
              "A 60 s ticket to open a WebSocket to this table ($connect?ticket=T&tableId=ID)",
              None, "201", Ticket, True),
        Route("get", "/tables/{tableId}/log", "What happened at the table", None, "200", Log,
              True, LOG_QUERY),
        Route("get", "/tables/{tableId}/replay", "The whole game, once it is finished", None,
              "200", Replay, True),
    ]  # fmt: skip


def move_body(components: Components) -> dict[str, Any]:
    """The moves' request body: one of the four moves, told apart by their "type"."""
    body: dict[str, Any] = {
        "oneOf": [components.ref(m) for m in (DrawMove, PassMove, LayMove, ReadyMove)],
        "discriminator": {"propertyName": "type", "mapping": MOVE_TYPES},  # else: schema names
    }
    for name in ("DrawMove", "PassMove", "LayMove", "ReadyMove"):
        # As the server checks it: a real move names its id; only a dry run may leave it out.
        schema = components.schemas[name]
        schema["if"] = {"properties": {"dryRun": {"const": True}}, "required": ["dryRun"]}
        schema["else"] = {"required": ["moveId"], "properties": {"moveId": {"type": "string"}}}
    return body
