"""A spectator on the local stack (issue 40): while computer players move, its pushes come
grouped — fewer WebSocket messages than versions — and still show every version, in order,
with no hand in any of them; the seated person is pushed every version at once."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from e2e_client import Player, View, next_move, pushed_version
from websockets.sync.client import connect

from harftet.api.delta import apply_delta
from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e
ROUNDS = 3  # the person's turns played: each followed by three computer players' moves


def versions_shown(view: View, message: dict[str, Any]) -> list[View]:
    """Each version a client shows from one push (a delta's ``steps`` one by one)."""
    if message["type"] == "table":
        return [message["view"]]
    steps = message.get("steps") or [{"version": message["version"], "ops": len(message["ops"])}]
    shown, at = [], 0
    for step in steps:
        ops = message["ops"][at : at + step["ops"]]
        view = apply_delta(view, {"from": view["version"], "version": step["version"], "ops": ops})
        shown.append(view)
        at += step["ops"]
    assert at == len(message["ops"])
    return shown


def test_a_spectator_sees_every_version_in_order_in_fewer_messages_than_versions(
    local_stack_info: RunningStack,
) -> None:
    person, watcher = (
        Player(local_stack_info.base_url, "Ayşe"),
        Player(local_stack_info.base_url, "İzleyici"),
    )
    try:
        table_id = person.create_table("kastet", seats=4, seed=77)["tableId"]
        for seat in (1, 2, 3):
            assert person.sit(table_id, seat, bot=True).status_code == 200
        url = f"{local_stack_info.ws_url}?tableId={table_id}&token="
        mine = connect(url + person.token, open_timeout=10, legacy=True)
        watching = connect(url + watcher.token, open_timeout=10, legacy=True)
        started = person.start(table_id)
        first = watcher.table(table_id)  # the spectator's whole view, as a client syncs
        view, played = started, 0
        while played < ROUNDS:
            message = json.loads(mine.recv(timeout=10))
            if message["type"] == "table":
                view = message["view"]
            elif message["type"] == "delta" and message["from"] == view["version"]:
                view = apply_delta(view, message)
            assert "steps" not in message  # a seated player is never held back
            if view["status"] == "playing" and (view["turn"] or {}).get("seat") == 0:
                moved = person.move(table_id, view["version"], next_move(view))
                assert moved.status_code == 200, moved.text
                played += 1
        while person.table(table_id)["turn"]["seat"] != 0:  # the computer players' turns end
            time.sleep(0.2)
        latest = person.table(table_id)["version"]
        shown: list[View] = [first]
        messages: list[dict[str, Any]] = []
        while shown[-1]["version"] < latest:
            message = json.loads(watching.recv(timeout=10))
            messages.append(message)
            if pushed_version(message) <= shown[-1]["version"]:
                continue  # a version it holds already (its GET came after that push)
            assert "hand" not in message.get("view", {})
            assert all(not op[0].startswith("/hand") for op in message.get("ops", []))
            shown += versions_shown(shown[-1], message)
        versions = [v["version"] for v in shown]
        assert versions == list(range(first["version"], latest + 1))  # each, in order
        assert all(v["last"] is not None for v in shown[1:])  # who made each change
        assert len(messages) < len(versions) - 1, (len(messages), versions)
        assert any(m.get("steps") for m in messages)
        assert shown[-1] == watcher.table(table_id)
        mine.close()
        watching.close()
    finally:
        person.close()
        watcher.close()
