"""Where the AsyncAPI document's messages travel: the servers, the two channels (one table's
socket, a player's notifications) and the operations on them."""

from __future__ import annotations

from typing import Any

TABLE_CHANNEL = "#/channels/table"


def _refs(*names: str) -> list[dict[str, str]]:
    return [{"$ref": f"{TABLE_CHANNEL}/messages/{name}"} for name in names]


def servers() -> dict[str, Any]:
    """The stack on this machine, a browser's push service, and the deployed WebSocket API."""
    return {
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
    }


def channels(table_messages: dict[str, Any]) -> dict[str, Any]:
    """A player's notifications, and one table's socket with ``table_messages``."""
    return {
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
            "moves are refused) and receives invitations, friends' presence and matches; at most 4 "
            "of them per player.",
            "servers": [{"$ref": "#/servers/local"}, {"$ref": "#/servers/aws"}],
            "messages": table_messages,
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
    }


def operations() -> dict[str, Any]:
    """Who sends what on which channel, and what answers it."""
    return {
        "notify": {
            "action": "send",
            "channel": {"$ref": "#/channels/notifications"},
            "summary": "The server notifies a player who is not at the table.",
            "messages": [{"$ref": "#/channels/notifications/messages/notification"}],
        },
        **_client_operations(),
        **_server_operations(),
    }


def _on_table(
    action: str, summary: str, *messages: str, reply: tuple[str, ...] = ()
) -> dict[str, Any]:
    """An operation on a table's socket: ``receive`` what a client sends (``reply``: what
    answers it), or ``send`` what the server pushes."""
    operation: dict[str, Any] = {
        "action": action,
        "channel": {"$ref": TABLE_CHANNEL},
        "summary": summary,
        "messages": _refs(*messages),
    }
    if reply:
        operation["reply"] = {"channel": {"$ref": TABLE_CHANNEL}, "messages": _refs(*reply)}
    return operation


def _client_operations() -> dict[str, Any]:
    return {
        "ping": _on_table(
            "receive",
            "A client asks whether the connection is alive. Clients ping only after about 9 "
            "minutes without any message in either direction (the idle timeout is 10 minutes), "
            "never while pushes flow: each ping is a paid message in, a call and a pong out.",
            "ping",
            reply=("pong",),
        ),
        "sync": _on_table(
            "receive",
            "A client asks for its whole view (on opening; after a missed push).",
            "sync",
            reply=("table", "error"),
        ),
        "move": _on_table(
            "receive",
            "A client makes a move (like the REST call).",
            "move",
            reply=("dryRun", "error"),
        ),
    }


def _server_operations() -> dict[str, Any]:
    return {
        "table": _on_table(
            "send",
            "The server pushes what changed after every change (the whole view where a "
            "connection may not hold the version before).",
            "delta",
            "table",
        ),
        "phrase": _on_table(
            "send", "The server passes on a phrase a seated player sent.", "phrase"
        ),
        "invitation": _on_table(
            "send", "The server passes on a friend's invitation to a table.", "invitation"
        ),
        "friendRequest": _on_table(
            "send", "The server passes on another player's friend request.", "friendRequest"
        ),
        "presence": _on_table(
            "send", "The server tells a player that a friend's presence changed.", "presence"
        ),
        "matched": _on_table(
            "send",
            "The server tells a player that their search for opponents found a table.",
            "matched",
        ),
        "tournament": _on_table(
            "send",
            "The server tells an entrant that a tournament round seated them.",
            "tournament",
        ),
        "error": _on_table(
            "send",
            "The server refuses a client message (any action but ping, sync and move included).",
            "error",
        ),
    }
