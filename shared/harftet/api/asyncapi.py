"""The AsyncAPI 3.0 document of the WebSocket protocol, with the OpenAPI document's schemas.

Run ``python -m harftet.api.asyncapi > docs/asyncapi.yaml``; a test keeps the committed copy
current, has the AsyncAPI parser (npm ``@asyncapi/parser``) validate it, and checks the
messages the local stack sends against it.

The schemas (the table view, the errors, the move bodies) are those of ``docs/openapi.json``,
copied under the same ``#/components/schemas/`` names, so one definition serves both APIs.
"""

from __future__ import annotations

import sys
from typing import Any

from harftet.api.openapi import document as openapi_document

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
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", "from", "version", "ops"],
        "properties": {
            "type": {"type": "string", "const": "delta"},
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
        },
    }


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


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


def document() -> dict[str, Any]:
    """The whole AsyncAPI 3.0 document."""
    schemas = openapi_document()["components"]["schemas"]
    messages = {
        "ping": _message(
            "ping",
            "Are you there? The server answers pong on the same connection.",
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["action"],
                "properties": {"action": {"type": "string", "const": "ping"}},
            },
        ),
        "sync": _message(
            "sync",
            "Send me the whole view: the server answers a table message on this connection. "
            "A client sends it when it opens the socket and whenever a delta does not apply "
            "to the view it holds (a missed push).",
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["action"],
                "properties": {"action": {"type": "string", "const": "sync"}},
            },
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
        "table": _message(
            "table",
            "This connection's player's whole view: the answer to sync, and the push after a "
            "change to a connection that may not hold the version before it (the first push "
            "after the socket opened, or when the server has no earlier version to compare).",
            {
                "type": "object",
                "required": ["type", "view"],
                "properties": {
                    "type": {"type": "string", "const": "table"},
                    "view": _ref("TableView"),
                    "moveId": MOVE_ANSWERED,
                },
            },
        ),
        "delta": _message(
            "delta",
            "The table changed: what changed in this connection's player's view since version "
            "`from` (after every stored change, one per computer-player move; several changes "
            "stored at once may come as one delta). A client whose view is not at `from` (a "
            "missed push) sends sync instead of applying it.",
            _delta_payload(),
        ),
        "dryRun": _message(
            "dryRun",
            "The answer to a move with dryRun: true, to this connection only (nothing is "
            "stored); an illegal one is an error message instead.",
            {
                "type": "object",
                "required": ["type", *schemas["DryRun"].get("required", [])],
                "properties": {
                    "type": {"type": "string", "const": "dryRun"},
                    **schemas["DryRun"]["properties"],
                },
            },
        ),
        "pong": _message(
            "pong",
            "The answer to ping.",
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["type"],
                "properties": {"type": {"type": "string", "const": "pong"}},
            },
        ),
        "error": _message(
            "error",
            "A client message was refused: the REST API's error body (stale_version also "
            "carries the current view).",
            {
                "type": "object",
                "required": ["type", "error"],
                "properties": {
                    "type": {"type": "string", "const": "error"},
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
            },
        ),
        "phrase": _message(
            "phrase",
            "A seated player sent a phrase of the fixed set (POST /tables/{tableId}/phrases; "
            "GET /phrases lists the ids and their Turkish and English text). Never free text; "
            "a client may mute a seat for itself.",
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["type", "seat", "phrase"],
                "properties": {
                    "type": {"type": "string", "const": "phrase"},
                    "seat": {"type": "integer", "minimum": 0, "maximum": 3},
                    "phrase": {"type": "string", "description": "the phrase's id"},
                },
            },
        ),
        "invitation": _message(
            "invitation",
            "A friend invites this connection's player to a table (POST "
            "/tables/{tableId}/invitations): sent to every open socket of theirs, whatever "
            "table it watches.",
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["type", "tableId", "from"],
                "properties": {
                    "type": {"type": "string", "const": "invitation"},
                    "tableId": {"type": "string"},
                    "from": {"type": "string", "description": "the inviting player's id"},
                },
            },
        ),
        "presence": _message(
            "presence",
            "A friend's presence changed (RULES §7): they came online (an open connection), "
            "sat down at a table that has not finished while connected to it (status table, "
            "with its game, never its id), stood up or saw the game end (online), or closed "
            "their last connection (away). Sent to every open socket of every friend, only "
            "when it changed; never to a player either of them blocked. A player's own "
            "connection (no tableId) receives it too. New friends get each other's at once.",
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["type", "playerId", "status"],
                "properties": {
                    "type": {"type": "string", "const": "presence"},
                    "playerId": {"type": "string", "description": "the friend's id"},
                    "status": {"type": "string", "enum": ["online", "table", "away"]},
                    "game": {
                        "type": "string",
                        "enum": ["harftet", "kastet"],
                        "description": "the game at the table, with status table only",
                    },
                },
            },
        ),
    }
    channel_messages = {name: {"$ref": f"#/components/messages/{name}"} for name in messages}
    table_channel = "#/channels/table"
    # Web Push (not the WebSocket): what the notifier sends a browser (RFC 8030, encrypted
    # with RFC 8291) and sw-push.js shows; SNS mobile pushes carry the same payload.
    messages["notification"] = _message(
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
                "kind": {"type": "string", "enum": ["turn", "reminder", "invitation", "gameEnd"]},
                "tableId": {"type": "string"},
                "url": {"type": "string", "description": "the web client's link to the table"},
                "tag": {"type": "string", "description": "a newer one of a tag replaces it"},
            },
        },
    )

    def refs(*names: str) -> list[dict[str, str]]:
        return [{"$ref": f"{table_channel}/messages/{name}"} for name in names]

    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Harftet WebSocket API",
            "version": "1.0.0",
            "description": "Live tables of Kastet and Harftet. A connection watches one table: "
            "after every change to it the server pushes each connection what changed in its own "
            "player's view (a delta from the version before), or the whole view where the "
            "connection may not hold that version. Clients send ping, sync (the whole view, "
            "on opening and after a missed push) and move. The REST API (docs/openapi.json) "
            "does everything else; the schemas are shared with it.",
        },
        "defaultContentType": "application/json",
        "servers": {
            "local": {
                "host": "127.0.0.1:3000",
                "pathname": "/ws",
                "protocol": "ws",
                "description": "make run (PORT, default 3000)",
            },
            "push": {
                "host": "{pushService}",
                "protocol": "https",
                "description": "a browser's push service (the endpoint of its subscription, "
                "POST /players/me/push-subscriptions); Web Push, RFC 8030/8291/8292",
                "variables": {"pushService": {"description": "the subscription's host"}},
            },
            "aws": {
                "host": "{apiId}.execute-api.{region}.amazonaws.com",
                "pathname": "/{stage}",
                "protocol": "wss",
                "description": "the WebSocketUrl output of the deployed stack",
                "variables": {
                    "apiId": {"description": "the WebSocket API's id"},
                    "region": {"default": "us-east-1"},
                    "stage": {"default": "prod"},
                },
            },
        },
        "channels": {
            "notifications": {
                "address": None,
                "title": "A player's notifications",
                "description": "Web Push messages to each subscribed browser (and SNS mobile "
                "pushes to each registered device), at most one per table, version and kind.",
                "servers": [{"$ref": "#/servers/push"}],
                "messages": {"notification": {"$ref": "#/components/messages/notification"}},
            },
            "table": {
                "address": None,
                "title": "One table",
                "description": "Connect with ?ticket=T&tableId=ID (a 60 s ticket of POST "
                "/tables/{tableId}/ticket) or ?token=T&tableId=ID. A bad token or an unknown "
                "table is refused at connect; so is a connection beyond a player's 4 to one "
                "table or a table's 200. Nothing can be sent before the connect completes: a "
                "client sends sync once the socket is open to get its whole view, and the first "
                "push after that is whole too; every later push is a delta. Without tableId "
                "(?token=T) the connection is the player's own: it watches no table (sync and "
                "moves are refused) and receives invitations and friends' presence; at most 4 "
                "of them per player.",
                "servers": [{"$ref": "#/servers/local"}, {"$ref": "#/servers/aws"}],
                "messages": channel_messages,
                "bindings": {
                    "ws": {
                        "method": "GET",
                        "query": {
                            "type": "object",
                            "properties": {
                                "token": {
                                    "type": "string",
                                    "description": "the token of POST /players (or a ticket)",
                                },
                                "ticket": {
                                    "type": "string",
                                    "description": "a ticket of POST /tables/{tableId}/ticket",
                                },
                                "tableId": {"type": "string", "minLength": 1, "maxLength": 64},
                            },
                        },
                        "bindingVersion": "0.1.0",
                    }
                },
            },
        },
        "operations": {
            "notify": {
                "action": "send",
                "channel": {"$ref": "#/channels/notifications"},
                "summary": "The server notifies a player who is not at the table.",
                "messages": [{"$ref": "#/channels/notifications/messages/notification"}],
            },
            "ping": {
                "action": "receive",
                "channel": {"$ref": table_channel},
                "summary": "A client asks whether the connection is alive.",
                "messages": refs("ping"),
                "reply": {"channel": {"$ref": table_channel}, "messages": refs("pong")},
            },
            "sync": {
                "action": "receive",
                "channel": {"$ref": table_channel},
                "summary": "A client asks for its whole view (on opening; after a missed push).",
                "messages": refs("sync"),
                "reply": {"channel": {"$ref": table_channel}, "messages": refs("table", "error")},
            },
            "move": {
                "action": "receive",
                "channel": {"$ref": table_channel},
                "summary": "A client makes a move (like the REST call).",
                "messages": refs("move"),
                "reply": {"channel": {"$ref": table_channel}, "messages": refs("dryRun", "error")},
            },
            "table": {
                "action": "send",
                "channel": {"$ref": table_channel},
                "summary": "The server pushes what changed after every change (the whole view "
                "where a connection may not hold the version before).",
                "messages": refs("delta", "table"),
            },
            "phrase": {
                "action": "send",
                "channel": {"$ref": table_channel},
                "summary": "The server passes on a phrase a seated player sent.",
                "messages": refs("phrase"),
            },
            "invitation": {
                "action": "send",
                "channel": {"$ref": table_channel},
                "summary": "The server passes on a friend's invitation to a table.",
                "messages": refs("invitation"),
            },
            "presence": {
                "action": "send",
                "channel": {"$ref": table_channel},
                "summary": "The server tells a player that a friend's presence changed.",
                "messages": refs("presence"),
            },
            "error": {
                "action": "send",
                "channel": {"$ref": table_channel},
                "summary": "The server refuses a client message (any action but ping, sync and "
                "move included).",
                "messages": refs("error"),
            },
        },
        "components": {"messages": messages, "schemas": schemas},
    }


def dump(doc: dict[str, Any]) -> str:
    """The document as YAML (keys in the order written, long lines kept whole)."""
    import yaml

    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=1_000_000)


if __name__ == "__main__":
    sys.stdout.write(dump(document()))
