"""The AsyncAPI document's messages: what a client sends on a table's socket, what the server
sends back or pushes, and the notification a browser or phone receives."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MOVES = ("DrawMove", "PassMove", "LayMove", "ReadyMove")
DELTA_OPS = (
    "The operations, applied in order to a copy of the receiver's view at `from` (harftet's "
    "`api/delta.py`, clients/web/delta.js). Each is an array whose first element is a JSON "
    "Pointer (RFC 6901) into the view: `[p]` removes the object member `p` names (an array "
    "element: the later elements move down); `[p, v]` sets it to `v` (an object member is added "
    "or replaced; an array element is replaced, or appended when the index is the array's "
    "length); `[p, i, n, items]` replaces, in the array at `p`, the `n` elements from index `i` "
    'with the array `items`; `[p, "tiles", ids]` sets it to the game\'s tiles with these ids '
    "(0–105), each as the view writes a tile off the table (the short tile form: a tile's id "
    "names its face; the game is the view's `game`) — a list of tiles in a value (a rack turned "
    "over at a hand's end, a new meld) comes so, that value carrying `[]` in its place and this "
    "operation right after it. The view's `version` is not among them: after the last operation "
    "it is the message's `version`."
)


MOVE_ANSWERED = {
    "type": "string",
    "description": "present on the answer to a move sent on this socket: that move's moveId",
}


def _delta_payload() -> dict[str, Any]:
    """{"type": "delta", "from", "version", "ops"}."""
    op = {
        "type": "array",
        "title": "operation",
        "minItems": 1,
        "maxItems": 4,
        # three items only in the short tile form: [pointer, "tiles", ids]
        "anyOf": [
            {"not": {"minItems": 3, "maxItems": 3}},
            {
                "prefixItems": [
                    {"type": "string"},
                    {"const": "tiles"},
                    {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 105}},
                ]
            },
        ],
        "description": "`[pointer]` remove, `[pointer, value]` set, "
        '`[pointer, "tiles", ids]` set in the short tile form, '
        "`[pointer, index, count, items]` splice",
    }
    properties = {
        "from": {
            "type": "integer",
            "minimum": 0,
            "description": "the version of the view this delta applies to",
        },
        "version": {
            "type": "integer",
            "minimum": 1,
            "description": "the view's version once applied",
        },
        "ops": {"type": "array", "items": op, "description": DELTA_OPS},
        "moveId": MOVE_ANSWERED,
        "steps": {
            "type": "array",
            "minItems": 2,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["version", "ops"],
                "properties": {
                    "version": {"type": "integer", "minimum": 1},
                    "ops": {"type": "integer", "minimum": 0},
                },
            },
            "description": "present when the delta carries several stored versions one by one "
            "(a spectator's push, held back while computer players move): each version and "
            "how many of `ops`, in order, take the view from the version before to it. A "
            "client may show each version in turn; applying all of `ops` at once gives the "
            "same view at `version`.",
        },
    }
    return _object("type", "delta", properties, required=("from", "version", "ops"))


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _object(
    key: str,
    value: str,
    properties: dict[str, Any] | None = None,
    *,
    required: Iterable[str] = (),
    closed: bool = True,
) -> dict[str, Any]:
    """A message's payload: an object whose ``key`` (a client's ``action``, the server's
    ``type``) is ``value``, with ``properties`` (``required``: which must be there besides
    ``key``); ``closed``: nothing else may be."""
    payload: dict[str, Any] = {"type": "object"}
    if closed:
        payload["additionalProperties"] = False
    payload["required"] = [key, *required]
    payload["properties"] = {key: {"type": "string", "const": value}, **(properties or {})}
    return payload


def _move_payload(schemas: dict[str, Any]) -> dict[str, Any]:
    """{"action": "move", "tableId", ...one of the REST move bodies}, as the handler reads it."""
    variants = []
    for name in MOVES:
        body = schemas[name]
        variants.append(
            {
                "type": "object",
                "title": f"move ({body['properties']['type']['const']})",
                "additionalProperties": False,
                "required": ["action", "tableId", *body.get("required", [])],
                "properties": {
                    "action": {"type": "string", "const": "move"},
                    "tableId": {"type": "string", "minLength": 1, "maxLength": 64},
                    "lang": {
                        "type": "string",
                        "enum": ["tr", "en"],
                        "description": "the language of an error's message (default: en)",
                    },
                    **body["properties"],
                },
            }
        )
    return {"oneOf": variants}


def _message(name: str, summary: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "title": name,
        "summary": summary,
        "contentType": "application/json",
        "payload": payload,
    }


def table_messages(schemas: dict[str, Any]) -> dict[str, Any]:
    """Every message on a table's socket, by name (``schemas``: the OpenAPI document's)."""
    return {**_requests(schemas), **_views(schemas), **_replies(), **_from_players()}


def _requests(schemas: dict[str, Any]) -> dict[str, Any]:
    """What a client sends: ping, sync and move."""
    return {
        "ping": _message(
            "ping",
            "Are you there? The server answers pong on the same connection. Sent only after "
            "about 9 minutes of silence either way (the idle timeout is 10 minutes).",
            _object("action", "ping"),
        ),
        "sync": _message(
            "sync",
            "Send me the whole view: the server answers a table message on this connection. "
            "A client sends it whenever a delta does not apply to the view it holds (a missed "
            "push), and on opening the socket unless it reads the view there over REST (GET "
            "/tables/{tableId}) once the socket is open, as the web client does: every later "
            "version is pushed, so one of the two suffices (each message costs as a push).",
            _object("action", "sync"),
        ),
        "move": _message(
            "move",
            "A move, exactly as POST /tables/{tableId}/moves takes it. Success is answered on "
            "this socket at once: a delta from the move's version carrying its moveId (a "
            "moveId already applied: the table message, with the moveId), and this socket "
            "gets no other push of that version; every other connection of the table gets "
            "the usual push. A rejection is an error message carrying the moveId.",
            _move_payload(schemas),
        ),
    }


def _views(schemas: dict[str, Any]) -> dict[str, Any]:
    """A player's view: whole, what changed in it, or as a move would make it (a dry run)."""
    return {
        "table": _message(
            "table",
            "This connection's player's whole view: the answer to sync, and the push after a "
            "change to a connection that may not hold the version before it (the first push "
            "after the socket opened, or when the server has no earlier version to compare).",
            _object(
                "type",
                "table",
                {"view": _ref("TableView"), "moveId": MOVE_ANSWERED},
                required=("view",),
                closed=False,
            ),
        ),
        "delta": _message(
            "delta",
            "The table changed: what changed in this connection's player's view since version "
            "`from` (after every stored change, one per computer-player move; several changes "
            "stored at once may come as one delta). A client whose view is not at `from` (a "
            "missed push) sends sync instead of applying it. A spectator's push of a version "
            "after which a computer player moves within 2 s waits for the next version and "
            "comes with it, as one delta with `steps`.",
            _delta_payload(),
        ),
        "dryRun": _message(
            "dryRun",
            "The answer to a move with dryRun: true, to this connection only (nothing is "
            "stored); an illegal one is an error message instead.",
            _object(
                "type",
                "dryRun",
                schemas["DryRun"]["properties"],
                required=schemas["DryRun"].get("required", []),
                closed=False,
            ),
        ),
    }


def _replies() -> dict[str, Any]:
    """The answers to ping and to a refused message."""
    return {
        "pong": _message(
            "pong",
            "The answer to ping.",
            _object("type", "pong"),
        ),
        "error": _message(
            "error",
            "A client message was refused: the REST API's error body (stale_version also "
            "carries the current view).",
            _object(
                "type",
                "error",
                {
                    "error": _ref("ErrorDetail"),
                    "view": {"anyOf": [_ref("TableView"), {"type": "null"}]},
                    "moveId": {
                        "type": "string",
                        "description": "the refused move's moveId, when the message was a move",
                    },
                    "status": {
                        "type": "integer",
                        "description": "the HTTP status the REST API answers the same refusal with",
                    },
                },
                required=("error",),
                closed=False,
            ),
        ),
    }


def _from_players() -> dict[str, Any]:
    """What other players cause: a phrase at the table, an invitation, a friend request, a
    friend's presence, opponents found."""
    return {
        "phrase": _message(
            "phrase",
            "A seated player sent a phrase of the fixed set (POST /tables/{tableId}/phrases; "
            "GET /phrases lists the ids and their Turkish and English text). Never free text; "
            "a client may mute a seat for itself.",
            _object(
                "type",
                "phrase",
                {
                    "seat": {"type": "integer", "minimum": 0, "maximum": 3},
                    "phrase": {"type": "string", "description": "the phrase's id"},
                },
                required=("seat", "phrase"),
            ),
        ),
        "invitation": _message(
            "invitation",
            "A friend invites this connection's player to a table (POST "
            "/tables/{tableId}/invitations): sent to every open socket of theirs, whatever "
            "table it watches.",
            _object(
                "type",
                "invitation",
                {
                    "tableId": {"type": "string"},
                    "from": {"type": "string", "description": "the inviting player's id"},
                },
                required=("tableId", "from"),
            ),
        ),
        "friendRequest": _friend_request(),
        "presence": _presence(),
        "matched": _matched(),
        "tournament": _tournament(),
    }


def _friend_request() -> dict[str, Any]:
    return _message(
        "friendRequest",
        "Another player asked this connection's player to be friends (POST "
        "/players/me/friends with their code): sent to every open socket of theirs, "
        "whatever table it watches, so the request shows without a reload. Never sent "
        "for a request a block holds back; an accepted request is told by presence.",
        _object(
            "type",
            "friendRequest",
            {
                "from": {"type": "string", "description": "the asking player's id"},
                "name": {"type": "string", "description": "the asking player's name"},
            },
            required=("from", "name"),
        ),
    )


def _matched() -> dict[str, Any]:
    return _message(
        "matched",
        "The player's search for opponents (POST /matchmaking) found a table: rated, "
        "live, started with every seat taken. Sent to every open socket of theirs, "
        "whatever table it watches; GET /matchmaking/{ticketId} says the same.",
        _object(
            "type",
            "matched",
            {
                "ticketId": {"type": "string"},
                "tableId": {"type": "string", "description": "the table to open"},
            },
            required=("ticketId", "tableId"),
        ),
    )


def _tournament() -> dict[str, Any]:
    return _message(
        "tournament",
        "A tournament round seated the player (RULES §8): its table is live, rated, hints "
        "off, started. Sent to every open socket of each entrant seated, whatever table it "
        "watches; GET /tournaments/{id} names the table too (me.tableId).",
        _object(
            "type",
            "tournament",
            {
                "tournamentId": {"type": "string"},
                "round": {"type": "integer", "minimum": 1, "maximum": 9},
                "tableId": {"type": "string", "description": "the table to open"},
            },
            required=("tournamentId", "round", "tableId"),
        ),
    )


def _presence() -> dict[str, Any]:
    return _message(
        "presence",
        "A friend's presence changed (RULES §7): they came online (an open connection), "
        "sat down at a table that has not finished while connected to it (status table, "
        "with its game, never its id), stood up or saw the game end (online), or closed "
        "their last connection (away). Sent to every open socket of every friend, only "
        "when it changed; never to a player either of them blocked. A player's own "
        "connection (no tableId) receives it too. New friends get each other's at once.",
        _object(
            "type",
            "presence",
            {
                "playerId": {"type": "string", "description": "the friend's id"},
                "status": {"type": "string", "enum": ["online", "table", "away"]},
                "game": {
                    "type": "string",
                    "enum": ["harftet", "kastet"],
                    "description": "the game at the table, with status table only",
                },
            },
            required=("playerId", "status"),
        ),
    )


def notification() -> dict[str, Any]:
    """Web Push (not the WebSocket): what the notifier sends a browser (RFC 8030, encrypted
    with RFC 8291) and sw-push.js shows; SNS mobile pushes carry the same payload."""
    return _message(
        "notification",
        "A notification to a player (your turn at a correspondence table, 1 hour before your "
        "deadline, a friend's invitation, a game's end): title and body in the player's "
        "language (Turkish by default), and the table it opens.",
        {
            "type": "object",
            "required": ["title", "body", "lang", "kind", "tableId", "url", "tag"],
            "properties": {
                "title": {"type": "string"},
                "body": {"type": "string"},
                "lang": {"type": "string", "enum": ["tr", "en"]},
                "kind": {
                    "type": "string",
                    "enum": ["turn", "reminder", "invitation", "gameEnd", "tournament"],
                },
                "tableId": {"type": "string"},
                "url": {"type": "string", "description": "the web client's link to the table"},
                "tag": {"type": "string", "description": "a newer one of a tag replaces it"},
            },
        },
    )
