"""A bounded soak of the local stack: the mixed seat workload that once stopped the fan-out
for good (seat changes, leaves, substitutes, manager-seated computer players and WebSocket
drops on six tables at once) runs for about a minute; pushes and the log must keep flowing
all along and at the end, and `GET /health` must never report a stuck event source.

Each table is driven by one thread. A watcher connection per table (the manager's) reads
every push; other connections are dropped abruptly (the socket closed without a close frame)
or abandoned open and never read, as a phone that lost its network does.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from typing import Any

import httpx
import pytest
from e2e_client import Player, new_move_id, next_move
from websockets.sync.client import ClientConnection, connect

from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e

TABLES = 6
SOAK_SECONDS = 45.0
PUSH_WAIT = 15.0  # a change must reach a connection within this, even on a loaded machine


def _version(message: dict[str, Any]) -> int | None:
    """The table version a push carries (a full view or a delta)."""
    if message.get("type") == "table":
        return int(message["view"]["version"])
    if message.get("type") == "delta":
        return int(message["version"])
    return None


class Watcher:
    """The manager's connection to one table, read by a thread: the newest version pushed."""

    def __init__(self, stack: RunningStack, player: Player, table_id: str) -> None:
        url = f"{stack.ws_url}?token={player.token}&tableId={table_id}"
        self.ws: ClientConnection = connect(url, open_timeout=20, legacy=True)
        self.version = 0
        self.pushes = 0
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                version = _version(json.loads(raw))
                if version is not None:
                    with self.changed:
                        self.pushes += 1
                        self.version = max(self.version, version)
                        self.changed.notify_all()
        except Exception:  # closed at the end of the test
            return

    def wait_for(self, version: int, seconds: float = PUSH_WAIT) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.version >= version, seconds)


def _drop(stack: RunningStack, player: Player, table_id: str, rng: random.Random) -> Any:
    """Open a connection and lose it: closed abruptly, or left open and never read."""
    url = f"{stack.ws_url}?token={player.token}&tableId={table_id}"
    try:
        ws = connect(url, open_timeout=20, legacy=True)
    except Exception:
        return None  # refused (e.g. past a player's four connections): fine for the workload
    if rng.random() < 0.5:
        raw = ws.socket
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        raw.close()  # a reset, no close frame
        return None
    return ws  # abandoned: kept open, never read


class Driver:
    """One table's workload, in a thread, until the soak ends."""

    def __init__(self, stack: RunningStack, index: int, until: float) -> None:
        self.stack = stack
        self.rng = random.Random(index)
        self.until = until
        self.manager = Player(stack.base_url, f"Yönetici{index}")
        self.people = [Player(stack.base_url, f"Oyuncu{index}x{n}") for n in range(5)]
        self.abandoned: list[Any] = []
        self.tables: list[str] = []
        self.errors: list[str] = []
        self.watchers: dict[str, Watcher] = {}
        self.changes = 0

    def _ok(self, response: httpx.Response, *allowed: int) -> dict[str, Any] | None:
        if response.status_code >= 500:
            self.errors.append(
                f"{response.request.method} {response.request.url}: "
                f"{response.status_code} {response.text[:200]}"
            )
        if response.status_code in (allowed or (200, 201)):
            self.changes += 1
            body: dict[str, Any] = response.json()
            return body
        return None

    def new_table(self) -> str:
        response = self.manager.http.post(
            "/tables",
            json={
                "game": "kastet",
                "seats": 4,
                "hands": 1,
                "partners": False,
                "turnSeconds": 10,
                "botSeconds": 0,
            },
        )
        view = self._ok(response, 201)
        assert view is not None, response.text
        table_id = str(view["tableId"])
        self.tables.append(table_id)
        self.watchers[table_id] = Watcher(self.stack, self.manager, table_id)
        return table_id

    def seat_dance(self, table_id: str) -> None:
        """Sit, stand, sit elsewhere, a computer player seated and removed by the manager."""
        a, b, c = self.rng.sample(self.people, 3)
        base = f"/tables/{table_id}/seats"
        self._ok(a.http.post(f"{base}/1"))
        self._ok(b.http.post(f"{base}/2"))
        self._ok(a.http.delete(f"{base}/1"))
        self._ok(a.http.post(f"{base}/3"))
        self._ok(self.manager.http.post(f"{base}/1", json={"bot": True, "level": "easy"}))
        self._ok(self.manager.http.delete(f"{base}/1"))
        self._ok(c.http.post(f"{base}/1"))
        self._ok(b.http.delete(f"{base}/2"))
        self._ok(self.manager.http.post(f"{base}/2", json={"bot": True, "level": "easy"}))

    def play(self, table_id: str) -> None:
        """Humans move, drop connections, leave; others substitute; until it ends or time's up."""
        base = f"/tables/{table_id}"
        self._ok(self.manager.http.post(f"{base}/start"))
        everyone = [self.manager, *self.people]
        while time.monotonic() < self.until:
            view = self._ok(self.manager.http.get(base))
            if view is None or view["status"] == "finished":
                return
            seats = view["seats"]
            roll = self.rng.random()
            if roll < 0.1:
                person = self.rng.choice(everyone)
                ws = _drop(self.stack, person, table_id, self.rng)
                if ws is not None:
                    self.abandoned.append(ws)
            elif roll < 0.16 and view["status"] == "playing":
                taken = [s["seat"] for s in seats if s and s["playerId"] and not s["bot"]]
                taken = [t for t in taken if t != 0]
                if taken:
                    seat = self.rng.choice(taken)
                    leaver = next((p for p in self.people if p.id == seats[seat]["playerId"]), None)
                    if leaver is not None:
                        self._ok(leaver.http.delete(f"{base}/seats/{seat}"))
            elif view["status"] == "paused" or any(s and s.get("vacant") for s in seats):
                vacant = [s["seat"] for s in seats if s and s.get("vacant")]
                for seat in vacant:
                    if self.rng.random() < 0.5:
                        body = {"bot": True, "level": "easy"}
                        self._ok(
                            self.manager.http.post(f"{base}/seats/{seat}", json=body), 200, 409
                        )
                    else:
                        seated = {s["playerId"] for s in seats if s}
                        free = [p for p in self.people if p.id not in seated]
                        if free:
                            who = self.rng.choice(free)
                            self._ok(who.http.post(f"{base}/seats/{seat}"), 200, 409, 403)
            turn = view.get("turn")
            if turn is not None and view["status"] == "playing":
                seat = seats[turn["seat"]]
                if seat and not seat["bot"]:
                    mover = next((p for p in everyone if p.id == seat["playerId"]), None)
                    if mover is not None:
                        mine = self._ok(mover.http.get(base))
                        if (
                            mine is not None
                            and mine.get("turn")
                            and mine["turn"]["seat"] == mine.get("seat")
                        ):
                            body = {
                                "version": mine["version"],
                                "moveId": new_move_id(),
                                **next_move(mine),
                            }
                            self._ok(mover.http.post(f"{base}/moves", json=body), 200, 409, 422)
            time.sleep(0.15)

    def race_two_tables(self) -> None:
        """Two tables made at once by one player: both transactions write the player's list
        of waiting tables, so one is cancelled and redone — what once stopped the fan-out."""
        racer = Player(self.stack.base_url, "Yarışçı")
        body = {"game": "kastet", "seats": 2, "hands": 1}
        threads = [
            threading.Thread(target=lambda: self._ok(racer.http.post("/tables", json=body), 201))
            for _ in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)

    def run(self) -> None:
        try:
            self.race_two_tables()
            while time.monotonic() < self.until:
                table_id = self.new_table()
                self.seat_dance(table_id)
                self.play(table_id)
        except Exception as error:  # reported by the test
            self.errors.append(f"driver: {error!r}")


def _health(stack: RunningStack) -> tuple[int, dict[str, Any]]:
    response = httpx.get(f"{stack.base_url}/health", timeout=30)
    return response.status_code, response.json()


def test_pushes_and_the_log_keep_flowing_through_a_minute_of_seat_changes_and_drops(
    stack_factory: Any,
) -> None:
    stack = stack_factory("soak", env={"HEALTH_STUCK_SECONDS": "30"})
    until = time.monotonic() + SOAK_SECONDS
    drivers = [Driver(stack, i, until) for i in range(TABLES)]
    threads = [threading.Thread(target=d.run, daemon=True) for d in drivers]
    for thread in threads:
        thread.start()
    samples = []
    while any(t.is_alive() for t in threads):
        time.sleep(5)
        status, body = _health(stack)
        assert status == 200, body  # no event source stuck, at any time
        samples.append(sum(w.pushes for d in drivers for w in d.watchers.values()))
    for thread in threads:
        thread.join(60)
    errors = [e for d in drivers for e in d.errors]
    assert errors == [], errors[:5]
    # pushes kept coming throughout the soak, not just at its start: once they began (the
    # players are made first), every 10 s saw more
    flowing = samples[next((i for i, n in enumerate(samples) if n), len(samples)) :]
    assert len(flowing) >= 4, samples
    assert all(b > a for a, b in zip(flowing, flowing[2:], strict=False)), samples

    # And the fan-out is alive at the end: on every driver's last table, a change is pushed
    # to the watcher and is in the log.
    for driver in drivers:
        table_id = driver.tables[-1]
        watcher = driver.watchers[table_id]
        view = driver.manager.table(table_id)
        if view["status"] == "waiting":
            changed = driver.people[0].http.post(f"/tables/{table_id}/seats/1")
        else:
            changed = driver.manager.http.post(f"/tables/{table_id}/continue")
        version = driver.manager.table(table_id)["version"]
        assert watcher.wait_for(version), (table_id, changed.status_code, watcher.version)
        events = driver.manager.http.get(f"/tables/{table_id}/log").json()["events"]
        assert events, table_id
    status, body = _health(stack)
    assert status == 200, body
    assert all(s["lagSeconds"] < 30 for s in body["sources"]), body
    for driver in drivers:
        for ws in driver.abandoned:
            ws.socket.close()
        for watcher in driver.watchers.values():
            watcher.ws.close()
