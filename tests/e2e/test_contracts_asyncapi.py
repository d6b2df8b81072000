"""Every message the local stack sends over the WebSocket is valid for docs/asyncapi.yaml.

Two players at a table connect to the stack's /ws, send the client messages the protocol has
(ping, sync, moves good and bad, an unknown action) and collect what the server sends (whole
views and deltas); each message
is validated (JSON Schema) against the payload of the AsyncAPI message its "type" names, and
so is each client message against its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from e2e_client import Player, new_move_id
from jsonschema import Draft202012Validator
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.e2e

ASYNCAPI = Path(__file__).resolve().parents[2] / "docs" / "asyncapi.yaml"


def _validator(document: dict[str, Any], message: str) -> Draft202012Validator:
    schema = {
        "$ref": f"#/components/messages/{message}/payload",
        "components": document["components"],
    }
    return Draft202012Validator(schema)


def _drain(socket: ClientConnection, seconds: float = 0.6) -> list[dict[str, Any]]:
    """Everything the server sends until it is quiet for ``seconds``."""
    received = []
    while True:
        try:
            received.append(json.loads(socket.recv(timeout=seconds)))
        except TimeoutError:
            return received
        except ConnectionClosed:
            return received


def test_what_the_stack_sends_and_takes_over_the_websocket_matches_the_asyncapi_document(
    local_stack: str,
):
    document = yaml.safe_load(ASYNCAPI.read_text(encoding="utf-8"))
    messages = document["components"]["messages"]
    validators = {name: _validator(document, name) for name in messages}
    owner, guest = Player(local_stack, "Ayşe"), Player(local_stack, "Mehmet")
    table = owner.create_table("kastet", seats=2)
    table_id = table["tableId"]
    assert guest.sit(table_id, 1).status_code == 200
    ws_url = local_stack.replace("http", "ws", 1) + "/ws"
    sockets = {
        p.id: connect(f"{ws_url}?token={p.token}&tableId={table_id}", open_timeout=10, legacy=True)
        for p in (owner, guest)
    }
    sent: list[dict[str, Any]] = []

    def send(player: Player, message: dict[str, Any]) -> None:
        sent.append(message)
        sockets[player.id].send(json.dumps(message))

    try:
        view = owner.start(table_id)
        mover = owner if view["turn"]["seat"] == 0 else guest
        waiter = guest if mover is owner else owner
        send(owner, {"action": "ping"})
        send(
            mover,
            {
                "action": "move",
                "tableId": table_id,
                "version": view["version"],
                "type": "draw",
                "dryRun": True,
                "lang": "tr",
            },
        )  # checked, not made: answered with dryRun
        send(
            waiter,
            {
                "action": "move",
                "tableId": table_id,
                "version": view["version"],
                "moveId": new_move_id(),
                "type": "draw",
            },
        )  # not their turn
        early = _drain(sockets[waiter.id])  # answered before the mover's draw can race it
        send(
            mover,
            {
                "action": "move",
                "tableId": table_id,
                "version": view["version"] - 1,
                "moveId": new_move_id(),
                "type": "draw",
            },
        )  # stale: the error carries the view
        send(
            mover,
            {
                "action": "move",
                "tableId": table_id,
                "version": view["version"],
                "moveId": new_move_id(),
                "type": "draw",
            },
        )
        received = early + [m for socket in sockets.values() for m in _drain(socket)]
        send(
            waiter,
            {
                "action": "move",
                "tableId": table_id,
                "version": view["version"] + 1,
                "moveId": new_move_id(),
                "type": "draw",
            },
        )  # its push is a delta: both sockets hold the version before
        send(guest, {"action": "sync"})  # answered with the whole view
        received += [m for socket in sockets.values() for m in _drain(socket)]
        sockets[owner.id].send(json.dumps({"action": "shout"}))  # not in the protocol
        received += _drain(sockets[owner.id])
    finally:
        for socket in sockets.values():
            socket.close()
        owner.close()
        guest.close()

    for message in sent:
        name = message["action"]
        errors = [e.message for e in validators[name].iter_errors(message)]
        assert not errors, (name, errors, message)
    kinds = {m["type"] for m in received}
    assert kinds == {"table", "delta", "pong", "dryRun", "error"}, received
    for message in received:
        assert message["type"] in messages, message
        errors = [
            f"{list(e.absolute_path)}: {e.message}"
            for e in validators[message["type"]].iter_errors(message)
        ]
        assert not errors, (message["type"], errors[:5])
    # The schemas have teeth: a view without its fields or a pong with extras is refused.
    assert not validators["table"].is_valid({"type": "table", "view": {"tableId": table_id}})
    assert not validators["pong"].is_valid({"type": "pong", "view": {}})
    bad_op = {"type": "delta", "from": 1, "version": 2, "ops": [["/pile", 1, 2]]}
    assert not validators["delta"].is_valid(bad_op)
    tiles_op = {"type": "delta", "from": 1, "version": 2, "ops": [["/hand", "tiles", [3, 104]]]}
    assert validators["delta"].is_valid(tiles_op)  # the short tile form
    assert not validators["delta"].is_valid({**tiles_op, "ops": [["/hand", "tiles", [106]]]})
    assert not validators["delta"].is_valid({"type": "delta", "version": 2, "ops": []})
    codes = {m["error"]["code"] for m in received if m["type"] == "error"}
    assert {"not_your_turn", "stale_version", "bad_request"} <= codes
