"""A table nobody is left at, on the local stack (docs/RULES.en.md "A table nobody is left
at"): real HTTP, a spectator's WebSocket, the stack's own timers and sweeper. Both people of
a live game leave; when the wait for a substitute runs out the game ends as abandoned instead
of being played on by computer players: the spectator is pushed the end, the lobby no longer
lists it, the replay is there, nobody's rating moves again. A correspondence game ends at its
last leave, and the inbox says why."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from e2e_client import Player
from websockets.sync.client import connect

from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e

WAIT = 2  # test mode: the wait for a substitute may go below its floor of 30 s


def _table(p: Player, **extra: Any) -> str:
    body = {"game": "kastet", "seats": 2, "hands": 3, "turnSeconds": 600, "seed": 5, **extra}
    response = p.http.post("/tables", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["tableId"])


def _leave(p: Player, table_id: str, seat: int) -> dict[str, Any]:
    response = p.http.delete(f"/tables/{table_id}/seats/{seat}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_a_live_game_everybody_left_ends_when_the_wait_runs_out(
    local_stack: str, local_stack_info: RunningStack
) -> None:
    a, b, watcher = (
        Player(local_stack, "Ayşe"),
        Player(local_stack, "Barış"),
        Player(local_stack, "İzleyen"),
    )
    table_id = _table(a, waitSeconds=WAIT)
    assert b.sit(table_id, 1).status_code == 200
    a.start(table_id)
    url = f"{local_stack_info.ws_url}?token={watcher.token}&tableId={table_id}"
    with connect(url, open_timeout=10) as ws:
        _leave(a, table_id, 0)
        paused = _leave(b, table_id, 1)
        assert paused["status"] == "paused"
        open_ids = [t["tableId"] for t in watcher.http.get("/tables?status=open").json()["tables"]]
        assert table_id in open_ids  # offered to substitutes while the wait runs
        pushed: list[str] = []
        deadline = time.monotonic() + 60  # the stack's timers (or its 10 s sweeper)
        while time.monotonic() < deadline and not any('"abandoned"' in m for m in pushed):
            try:
                pushed.append(str(ws.recv(timeout=max(0.1, deadline - time.monotonic()))))
            except TimeoutError:
                break
        assert any('"abandoned"' in m for m in pushed), pushed[-3:]  # the spectator is told
    view = watcher.table(table_id)
    assert view["status"] == "finished" and view["closed"] == "abandoned"
    assert view["result"]["ratings"] == {} and view["last"]["type"] == "gameEnd"
    bots = [s for s in view["seats"] if s and s["bot"]]
    assert len(bots) <= 1  # at most the first seat's wait seated one; nobody played on
    open_ids = [t["tableId"] for t in watcher.http.get("/tables?status=open").json()["tables"]]
    assert table_id not in open_ids
    replay = watcher.http.get(f"/tables/{table_id}/replay")
    assert replay.status_code == 200 and replay.json()["result"]["closed"] == "abandoned"
    time.sleep(WAIT + 1)
    assert watcher.table(table_id)["version"] == view["version"]  # nothing happens any more
    for p in (a, b):
        assert p.profile()["rating"] == 1000 - 6  # 2·N once, at the leave
    for p in (a, b, watcher):
        p.close()


def test_a_correspondence_game_ends_at_its_last_leave_and_the_inbox_says_why(
    local_stack: str,
) -> None:
    a, b = Player(local_stack, "Selin"), Player(local_stack, "Tarık")
    table_id = _table(a, pace="correspondence", turnSeconds=86400)
    assert b.sit(table_id, 1).status_code == 200
    a.start(table_id)
    first = _leave(a, table_id, 0)
    assert first["status"] == "playing" and first["seats"][0]["bot"]  # Tarık plays on
    last = _leave(b, table_id, 1)
    assert last["status"] == "finished" and last["closed"] == "abandoned"
    entry: dict[str, Any] = {}
    for _ in range(50):  # the inbox follows the table's stream
        tables = b.http.get("/players/me/tables").json()["tables"]
        entry = next((t for t in tables if t["tableId"] == table_id), {})
        if entry.get("closed"):
            break
        time.sleep(0.2)
    assert entry["status"] == "finished" and entry["closed"] == "abandoned", json.dumps(entry)
    assert entry["last"]["type"] == "gameEnd" and entry["last"]["closed"] == "abandoned"
    for p in (a, b):
        p.close()
