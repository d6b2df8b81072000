"""The OpenAPI document, generated from the request models and the response shapes below.

Run ``python -m harftet.api.openapi > docs/openapi.json``; a test keeps the committed copy
current.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from harftet.engine.search import BotLevel
from harftet.errors import ERROR_CODES
from harftet.words.info import WORD_LETTERS

from .models import CreatePlayer, CreateTable, DrawMove, LayMove, PassMove, ReadyMove, SitDown

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
        description="when finished: penalties, points per seat, rating changes per player"
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


class InboxEntry(BaseModel):
    tableId: str
    game: Literal["harftet", "kastet"]
    pace: Literal["live", "correspondence"]
    status: Literal["waiting", "playing", "paused", "finished"]
    yourTurn: bool = Field(description="Sıra sende: the caller is to move")
    deadline: float | None = Field(description="the caller's turn deadline; null unless yourTurn")
    last: LogEvent | None = Field(description="the latest event at the table")
    players: list[str | None] = Field(description="names by seat, null where empty")


class Inbox(BaseModel):
    tables: list[InboxEntry] = Field(
        description="the caller's turn first, then the nearest deadline; then waiting tables, "
        "then recently finished ones"
    )
    cursor: str | None = Field(description="the next page's cursor; null on the last page")
    yourTurn: int = Field(description="how many tables on this page wait for the caller")


class PushSubscriptionKeys(BaseModel):
    model_config = {"extra": "forbid"}
    p256dh: str = Field(max_length=200, description="base64url, an uncompressed P-256 key")
    auth: str = Field(max_length=200, description="base64url, 16 bytes")


class QuietHours(BaseModel):
    model_config = {"extra": "forbid"}
    start: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    end: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")


class PushSubscriptionBody(BaseModel):
    """A browser's PushSubscription JSON (and, optionally, the player's notification
    language and quiet hours, Europe/Istanbul; default 23:00-08:00, null for none)."""

    model_config = {"extra": "forbid"}
    endpoint: str = Field(
        max_length=1024, description="https only, on a host with public addresses only"
    )
    expirationTime: float | None = None
    keys: PushSubscriptionKeys
    lang: Literal["tr", "en"] | None = Field(
        None, description="default: Accept-Language when sent, else Turkish"
    )
    quietHours: QuietHours | None = None


class Created(BaseModel):
    id: str
    publicKey: str | None = Field(None, description="the VAPID public key (applicationServerKey)")


class DeviceBody(BaseModel):
    model_config = {"extra": "forbid"}
    platform: Literal["fcm", "apns"]
    token: str = Field(max_length=4096, description="the FCM registration or APNs device token")


class PushKey(BaseModel):
    publicKey: str | None = Field(
        description="the VAPID public key browsers subscribe with; null when Web Push is off"
    )


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
    seed: int = Field(description="the shuffle seed: every deal follows from it")
    salt: str = Field(description="the table's secret salt in every deal proof (hex)")
    table: dict[str, Any] = Field(description="the table's options, as it was created")
    before: list[LogEvent] = Field(description="the events before the first deal")
    hands: list[ReplayHand]
    result: dict[str, Any] | None


class Player(BaseModel):
    playerId: str
    name: str
    rating: int
    gamesPlayed: int
    gamesAbandoned: int
    bannedUntil: int | None


class NewPlayer(Player):
    token: str = Field(description="send as Authorization: Bearer <token>")


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


ERRORS = {
    "400": "bad_request: malformed JSON, wrong types, unknown fields, out-of-range values",
    "401": "unauthorized: missing, forged or expired token",
    "403": "not_your_turn, not_seated, not_manager, banned, hints_off",
    "404": "not_found",
    "405": "method_not_allowed (the Allow header lists the path's methods)",
    "409": "stale_version (with the current view), seat_taken, wrong_status, too_many_tables, "
    "no_hints_left",
    "422": "illegal_move (the message names the meld or tile and why)",
    "429": "rate_limited",
    "503": "busy: the request lost a race too many times; safe to retry",
}

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

PATH_PARAMETERS: dict[str, dict[str, Any]] = {
    "playerId": {"type": "string", "minLength": 1, "maxLength": 64},
    "tableId": {"type": "string", "minLength": 1, "maxLength": 64},
    "seat": {"type": "integer", "minimum": 0, "maximum": 3},
    "id": {"type": "string", "minLength": 1, "maxLength": 64},
    "passkeyId": {"type": "string", "minLength": 1, "maxLength": 1400},
    "word": {  # the 29 letters in either case (circumflexes fold: â → A)
        "type": "string",
        "minLength": 1,
        "maxLength": 32,
        "pattern": f"^[{WORD_LETTERS}]+$",
    },
}

ROUTES: list[tuple[str, str, str, type[BaseModel] | None, str, type[BaseModel], bool]] = [
    # method, path, summary, request model, success status, response model, authenticated
    ("post", "/players", "Create a guest player", CreatePlayer, "201", NewPlayer, False),
    ("get", "/players/{playerId}", "A player's profile", None, "200", Player, True),
    (
        "post",
        "/tables",
        "Create a table (you manage it from seat 0)",
        CreateTable,
        "201",
        TableView,
        True,
    ),
    (
        "get",
        "/tables",
        "The lobby: waiting, open (a vacant seat) or playing tables, a page at a time",
        None,
        "200",
        Lobby,
        True,
    ),
    (
        "get",
        "/tables/{tableId}",
        "The table as the caller may see it",
        None,
        "200",
        TableView,
        True,
    ),
    (
        "post",
        "/tables/{tableId}/seats/{seat}",
        "Sit down (or seat a computer player)",
        SitDown,
        "200",
        TableView,
        True,
    ),
    ("delete", "/tables/{tableId}/seats/{seat}", "Leave the seat", None, "200", TableView, True),
    ("post", "/tables/{tableId}/start", "Start the game (manager)", None, "200", TableView, True),
    (
        "post",
        "/tables/{tableId}/continue",
        "Continue a paused game (manager)",
        None,
        "200",
        TableView,
        True,
    ),
    (
        "post",
        "/tables/{tableId}/moves",
        "Draw, lay or pass (or, with dryRun, check the move without making it)",
        None,
        "200",
        TableView,
        True,
    ),
    (
        "get",
        "/tables/{tableId}/hint",
        "The next meld of the best lay for your seat",
        None,
        "200",
        Hint,
        True,
    ),
    (
        "post",
        "/tables/{tableId}/ticket",
        "A 60 s ticket to open a WebSocket to this table ($connect?ticket=T&tableId=ID)",
        None,
        "201",
        Ticket,
        True,
    ),
    ("get", "/tables/{tableId}/log", "What happened at the table", None, "200", Log, True),
    (
        "get",
        "/tables/{tableId}/replay",
        "The whole game, once it is finished",
        None,
        "200",
        Replay,
        True,
    ),
    (
        "get",
        "/players/me/tables",
        "Your tables (the inbox): yours to play first, then the nearest deadline",
        None,
        "200",
        Inbox,
        True,
    ),
    (
        "post",
        "/players/me/push-subscriptions",
        "Receive notifications in this browser (Web Push)",
        PushSubscriptionBody,
        "201",
        Created,
        True,
    ),
    (
        "post",
        "/players/me/devices",
        "Receive notifications on this phone (FCM or APNs, through SNS)",
        DeviceBody,
        "201",
        Created,
        True,
    ),
    ("get", "/push/key", "The VAPID public key for Web Push", None, "200", PushKey, False),
]


# -- profiles, leaderboards, reports, the operator API (harftet.people) -------------------------
class GameRecord(BaseModel):
    played: int
    won: int = Field(description="games finished with the best points of the table")
    abandoned: int


class RatingChangeView(BaseModel):
    at: int
    delta: int
    game: Literal["kastet", "harftet"]
    tableId: str | None = Field(description="the finished game; null for a leave")


class RecentGame(BaseModel):
    tableId: str
    game: Literal["kastet", "harftet"]
    at: int
    points: int
    won: bool
    replay: str = Field(description="the replay's path, /tables/{id}/replay")


class Profile(BaseModel):
    playerId: str
    name: str
    rating: int
    games: dict[str, GameRecord] = Field(description="per game: kastet, harftet")
    ratingChanges: list[RatingChangeView] = Field(description="the last 50, newest first")
    recentGames: list[RecentGame] = Field(description="the last 20 finished, newest first")


class BoardEntry(BaseModel):
    rank: int | None = Field(description="null past the first 10,000")
    playerId: str
    name: str
    score: int = Field(description="all: rating in this game; week: game points won")


class BoardMe(BoardEntry):
    above: list[BoardEntry] = Field(description="up to 2 players just above")
    below: list[BoardEntry] = Field(description="up to 2 players just below")


class Leaderboard(BaseModel):
    entries: list[BoardEntry]
    me: BoardMe | None
    cursor: str | None


class ReportAccepted(BaseModel):
    reportId: str
    tableId: str
    version: int


class ReportView(ReportAccepted):
    seat: int
    kind: Literal["insult", "cheating", "other"]
    reported: str
    reporter: str
    at: int


class Reports(BaseModel):
    day: str
    reports: list[ReportView]


class BanView(BaseModel):
    playerId: str
    banned: bool


class ClosedTable(BaseModel):
    tableId: str
    status: str


def _people_routes() -> list[tuple[str, str, str, Any, str, type[BaseModel], bool]]:
    from .models import ReportRequest

    iam = " (operator API: AWS_IAM, never a player token)"
    return [
        ("get", "/players/{playerId}/profile", "A player's public profile", None, "200",
         Profile, True),
        ("get", "/leaderboards/{game}", "A leaderboard: top 100, your rank and neighbours",
         None, "200", Leaderboard, True),
        ("post", "/tables/{tableId}/reports", "Report a seat for review", ReportRequest, "202",
         ReportAccepted, True),
        ("get", "/operator/reports", "Reports of a day" + iam, None, "200", Reports, False),
        ("post", "/operator/players/{playerId}/ban", "Ban a player" + iam, None, "200",
         BanView, False),
        ("delete", "/operator/players/{playerId}/ban", "Unban a player" + iam, None, "200",
         BanView, False),
        ("post", "/operator/tables/{tableId}/close", "Close a table" + iam, None, "200",
         ClosedTable, False),
    ]  # fmt: skip


PEOPLE_QUERY: dict[str, list[dict[str, Any]]] = {
    "/leaderboards/{game}": [
        {"name": "period", "in": "query", "schema": {"type": "string", "enum": ["week", "all"]}},
        {
            "name": "limit",
            "in": "query",
            "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 100},
        },
        {"name": "cursor", "in": "query", "schema": {"type": "string", "maxLength": 600}},
    ],
    "/texts": [
        {"name": "lang", "in": "query", "schema": {"type": "string", "enum": ["tr", "en"]}},
    ],
    "/operator/reports": [
        {"name": "day", "in": "query", "schema": {"type": "string", "format": "date"}},
        {
            "name": "limit",
            "in": "query",
            "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 50},
        },
    ],
}
PATH_PARAMETERS["game"] = {"type": "string", "enum": ["kastet", "harftet"]}


def all_routes() -> list[tuple[str, str, str, Any, str, Any, bool]]:
    """Every route the REST API serves: (method, path, summary, request, status, response,
    auth)."""
    return [*ROUTES, *_account_routes(), *_people_routes(), *_word_routes()]


def _account_routes() -> list[tuple[str, str, str, Any, str, Any, bool]]:
    """The routes of harftet.accounts.routes (passkeys, sessions, data, phrases)."""
    from harftet.accounts import models as m

    return [
        ("post", "/players/me/passkeys/options", "Options to register a passkey",
         None, "200", m.PasskeyOptions, True),
        ("post", "/players/me/passkeys", "Register a passkey (the options' challenge, once)",
         m.PasskeyResponse, "201", m.Passkey, True),
        ("get", "/players/me/passkeys", "Your passkeys", None, "200", m.Passkeys, True),
        ("delete", "/players/me/passkeys/{passkeyId}",
         "Remove a passkey (and end the sessions it opened)", None, "204", None, True),
        ("post", "/sessions/passkey/options", "Options to sign in with a passkey",
         None, "200", m.PasskeyOptions, False),
        ("post", "/sessions/passkey", "Sign in with a passkey (any device that has it)",
         m.PasskeyResponse, "200", m.SignedIn, False),
        ("post", "/players/me/transfer-codes",
         "A single-use 10-minute code to sign in on another device", None, "201",
         m.TransferCode, True),
        ("post", "/sessions/transfer", "Sign in with a transfer code", m.TransferSignIn,
         "200", m.SignedIn, False),
        ("post", "/sessions/refresh", "New tokens for a session (the refresh token rotates)",
         m.Refresh, "200", m.SignedIn, False),
        ("delete", "/sessions/current", "Sign out (end this session)", None, "204", None, True),
        ("get", "/players/me/export", "Everything stored about you", None, "200", m.Export,
         True),
        ("delete", "/players/me", "Delete yourself (finished games keep an anonymous seat)",
         None, "204", None, True),
        ("get", "/phrases", "The phrases players may send at a table", None, "200",
         m.PhraseList, False),
        ("get", "/texts", "Every sentence a player reads, in one language (lang=tr|en)", None,
         "200", Texts, False),
        ("get", "/players/me/friends", "Your friend code, friends and requests", None, "200",
         m.Friends, True),
        ("post", "/players/me/friends", "Ask the player of a friend code to be friends",
         m.FriendRequest, "200", m.Friends, True),
        ("post", "/players/me/friends/{playerId}", "Accept a friend request", None, "200",
         m.Friends, True),
        ("delete", "/players/me/friends/{playerId}",
         "Remove a friend, refuse a request or take yours back", None, "204", None, True),
        ("post", "/players/me/blocks/{playerId}", "Block a player", None, "204", None, True),
        ("delete", "/players/me/blocks/{playerId}", "Unblock a player", None, "204", None,
         True),
        ("post", "/tables/{tableId}/invitations",
         "Invite a friend to a table (pushed to their open sockets)", m.Invitation, "202",
         m.Invited, True),
        ("post", "/tables/{tableId}/phrases",
         "Send a phrase to the table (seated players; one every 3 s, 20 a hand)",
         m.SendPhrase, "200", m.PhraseSent, True),
    ]  # fmt: skip


def _word_routes() -> list[tuple[str, str, str, Any, str, Any, bool]]:
    """The routes of harftet.words.routes (look-ups and reports)."""
    from harftet.words import models as w

    return [
        ("get", "/words/{word}",
         "What the game knows of a word: in the list, its kinds and sources, or why not",
         None, "200", w.WordInfo, False),
        ("post", "/words/{word}/reports",
         "Report a word as wrong or missing (10 an hour; once per word and kind counts)",
         w.WordReport, "202", w.WordReported, True),
    ]  # fmt: skip


def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document."""
    schemas: dict[str, Any] = {}

    def ref(model: type[BaseModel]) -> dict[str, str]:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}", by_alias=True)
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    move_body: dict[str, Any] = {
        "oneOf": [ref(DrawMove), ref(PassMove), ref(LayMove), ref(ReadyMove)],
        "discriminator": {"propertyName": "type", "mapping": MOVE_TYPES},  # else: schema names
    }
    for name in ("DrawMove", "PassMove", "LayMove"):
        # As the server checks it: a real move names its id; only a dry run may leave it out.
        schemas[name]["if"] = {"properties": {"dryRun": {"const": True}}, "required": ["dryRun"]}
        schemas[name]["else"] = {
            "required": ["moveId"],
            "properties": {"moveId": {"type": "string"}},
        }
    error = ref(Error)
    paths: dict[str, Any] = {}
    for method, path, summary, request, status, response, auth in all_routes():
        if response is None:  # 204
            answer: dict[str, Any] = {"description": "done (no content)"}
        else:
            success: dict[str, Any] = ref(response)
            if path.endswith("/moves"):
                success = {"oneOf": [success, ref(DryRun)]}
            answer = {"description": "success", "content": _json(success)}
        operation: dict[str, Any] = {
            "summary": summary,
            "responses": {
                status: answer,
                **{
                    code: {"description": text, "content": _json(error)}
                    for code, text in ERRORS.items()
                },
                "405": {
                    "description": ERRORS["405"],
                    "headers": {"Allow": {"required": True, "schema": {"type": "string"}}},
                    "content": _json(error),
                },
            },
        }
        parameters: list[dict[str, Any]] = [
            {"name": name, "in": "path", "required": True, "schema": PATH_PARAMETERS[name]}
            for name in PATH_PARAMETERS
            if "{" + name + "}" in path
        ]
        if path == "/tables" and method == "get":
            parameters += [
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
                {
                    "name": "cursor",
                    "in": "query",
                    "description": "the previous page's cursor (opaque)",
                    "schema": {"type": "string", "maxLength": 600},
                },
            ]
        if path == "/tables" and method == "get":
            parameters.append(
                {
                    "name": "pace",
                    "in": "query",
                    "description": "live (default) or correspondence tables: separate lists",
                    "schema": {"type": "string", "enum": ["live", "correspondence"]},
                }
            )
        if path == "/players/me/tables":
            parameters.append(
                {
                    "name": "cursor",
                    "in": "query",
                    "description": "the previous page's cursor (opaque)",
                    "schema": {"type": "string", "maxLength": 600},
                }
            )
        if path.endswith("/hint"):
            parameters.append(
                {
                    "name": "reveal",
                    "in": "query",
                    "description": "which meld (1-based) to reveal; one already revealed is "
                    "answered again without spending a hint (default: the next)",
                    "schema": {"type": "integer", "minimum": 1, "maximum": 106},
                }
            )
        if path.endswith("/log"):
            parameters.append(
                {
                    "name": "after",
                    "in": "query",
                    "description": "the seq of the last event already read (default 0)",
                    "schema": {"type": "integer", "minimum": 0, "maximum": 999_999_999},
                }
            )
        parameters += PEOPLE_QUERY.get(path, [])
        if parameters:
            operation["parameters"] = parameters
        body = move_body if path.endswith("/moves") else (ref(request) if request else None)
        if body is not None:
            # Sitting down takes no body (only a manager seating a computer player sends one).
            required = not path.endswith("/seats/{seat}")
            operation["requestBody"] = {"required": required, "content": _json(body)}
        if auth:
            operation["security"] = [{"bearer": []}]
        paths.setdefault(path, {})[method] = operation
    paths["/players/me/push-subscriptions/{id}"] = {
        "delete": {
            "summary": "Stop notifications to that browser",
            "parameters": [
                {"name": "id", "in": "path", "required": True, "schema": PATH_PARAMETERS["id"]}
            ],
            "security": [{"bearer": []}],
            "responses": {
                "204": {"description": "removed"},
                **{
                    code: {"description": text, "content": _json(error)}
                    for code, text in ERRORS.items()
                },
            },
        }
    }
    paths["/health"] = {
        "get": {"summary": "Ready check", "responses": {"200": {"description": "ready"}}}
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Harftet",
            "version": "1.0.0",
            "description": "Online tables of Kastet and Harftet. WebSocket: connect to "
            "/ws?token=T&tableId=ID; every change to the table pushes "
            '{"type": "table", "view": TableView}; send {"action": "ping"} or '
            '{"action": "move", "tableId": ID, ...move body}; a move body with "dryRun": true '
            'is answered to that connection only, {"type": "dryRun", "legal": true, "view": ...} '
            'or {"type": "error", "error": {...}}.',
        },
        "paths": paths,
        "components": {
            "schemas": dict(sorted(schemas.items())),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


if __name__ == "__main__":
    print(json.dumps(document(), indent=2, ensure_ascii=False))
