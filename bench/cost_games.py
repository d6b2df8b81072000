"""Whole games on the local stack as their clients play them, for bench/bench_cost.py: two
people who draw or pass at once, two computer players and two spectators, all on WebSockets
that apply their delta pushes as the web client does; and a table where nobody moves, to time
how late its timers force the moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

WS_UNIT = 32 * 1024
TURN_SECONDS = 10
HAND_CAP = 22


@dataclass
class Client:
    """What the clients sent and received (API Gateway's side of the bill)."""

    rest: int = 0
    rest_in: int = 0
    rest_out: int = 0
    ws_sent: int = 0
    ws_sent_bytes: int = 0
    pushes: int = 0
    push_bytes: int = 0
    push_units: int = 0
    connections: int = 0
    human_moves: int = 0
    deltas: int = 0
    push_sizes: list[int] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)  # client messages by action (route)
    received: Counter[str] = field(default_factory=Counter)  # messages in, by whom and what


@dataclass
class Game:
    kind: str
    hands: int
    table_id: str = ""
    started: float = 0.0
    ended: float = 0.0
    finished: bool = False
    client: Client = field(default_factory=Client)


def _receive(view: dict[str, Any] | None, message: dict[str, Any]) -> tuple[Any, bool]:
    """A client's view after one push (clients/web/delta.js ``receive``): (view, must sync)."""
    from harftet.api.delta import DeltaError, apply_delta

    if message["type"] == "table":
        whole = message["view"]
        newer = view is None or whole["version"] >= view["version"]
        return (whole if newer else view), False
    if view is not None and message["version"] <= view["version"]:
        return view, False
    if view is None:
        return view, True
    try:
        return apply_delta(view, message), False
    except DeltaError:
        return view, True


async def play(base_url: str, ws_url: str, game: Game, seed: int, limit: float) -> None:
    """Play ``game`` on the stack as its six clients would, counting what they send and get."""
    import httpx
    from websockets.asyncio.client import connect

    client = game.client
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:

        async def call(method: str, path: str, token: str | None = None, body: Any = None) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            request = http.build_request(method, path, json=body, headers=headers)
            reply = await http.send(request)
            client.rest += 1
            client.rest_in += len(request.content or b"")
            client.rest_out += reply.num_bytes_downloaded  # on the wire: gzipped when large
            client.statuses[reply.status_code] += 1
            return reply

        async def player(name: str) -> str:
            reply = await call("POST", "/players", body={"name": name})
            return str(reply.json()["token"])

        game.started = time.time()
        humans = [await player(f"Kişi{seed}x{i}") for i in range(2)]
        watchers = [await player(f"Seyirci{seed}x{i}") for i in range(2)]
        body = {
            "game": game.kind,
            "seats": 4,
            "hands": game.hands,
            "turnSeconds": TURN_SECONDS,
            "botSeconds": 0,
            "seed": seed,
        }
        reply = await call("POST", "/tables", humans[0], body)
        table_id = game.table_id = reply.json()["tableId"]
        await call("POST", f"/tables/{table_id}/seats/1", humans[1], {})
        for seat in (2, 3):
            await call(
                "POST",
                f"/tables/{table_id}/seats/{seat}",
                humans[0],
                {"bot": True, "level": "easy"},
            )
        sockets = []
        for token in humans + watchers:
            sockets.append(
                await connect(f"{ws_url}?token={token}&tableId={table_id}", open_timeout=30)
            )
            client.connections += 1
        start = await call("POST", f"/tables/{table_id}/start", humans[0])
        latest: dict[str, Any] = {"view": start.json()}
        own: dict[int, dict[str, Any]] = {}  # each person's own latest view (hand included)
        changed = asyncio.Event()

        def seen(view: dict[str, Any], seat: int | None) -> None:
            if seat is not None and view["version"] >= own.get(seat, {}).get("version", 0):
                own[seat] = view
            if view["version"] > latest["view"]["version"]:
                latest["view"] = view

        async def listen(socket: Any, seat: int | None) -> None:
            held: dict[str, Any] | None = None  # this socket's view, as a client holds it
            with contextlib.suppress(Exception):
                async for message in socket:
                    size = len(message.encode() if isinstance(message, str) else message)
                    client.pushes += 1
                    client.push_bytes += size
                    client.push_units += max(1, math.ceil(size / WS_UNIT))
                    client.push_sizes.append(size)
                    data = json.loads(message)
                    if data.get("type") in ("table", "delta") and data.get("moveId"):
                        client.human_moves += 1  # the answer to a person's move
                    if data.get("type") not in ("table", "delta"):
                        continue
                    if data["type"] == "delta":
                        client.deltas += 1
                    held, sync = _receive(held, data)
                    if sync:  # a missed push: ask for the whole view, as the clients do
                        client.ws_sent += 1
                        client.actions["sync"] += 1
                        await socket.send(json.dumps({"action": "sync"}))
                    if held is not None:
                        seen(held, seat)
                        changed.set()

        seats: list[int | None] = [0, 1, None, None]
        listeners = [asyncio.create_task(listen(s, n)) for s, n in zip(sockets, seats, strict=True)]
        deadline = time.monotonic() + limit
        acted: set[int] = set()
        try:
            while time.monotonic() < deadline:
                view = latest["view"]
                if view["status"] == "finished":
                    game.finished = True
                    break
                version = view["version"]
                seat = (view.get("turn") or {}).get("seat")
                mine = own.get(seat, {}) if seat in (0, 1) else {}
                # a person moves when their own push (their hand) shows their turn
                if (
                    version not in acted
                    and view["status"] == "playing"
                    and mine.get("version") == version
                ):
                    acted.add(version)
                    tiles = len(mine.get("hand") or [])
                    kind = "draw" if tiles < HAND_CAP and mine.get("pile", 0) > 0 else "pass"
                    # on the person's own socket, as the web client sends it: answered there
                    move = {"type": kind, "version": version, "moveId": f"m{version}"}
                    sent = json.dumps({"action": "move", "tableId": table_id, **move})
                    client.ws_sent += 1
                    client.actions["move"] += 1
                    client.ws_sent_bytes += len(sent.encode())
                    changed.clear()
                    await sockets[seat].send(sent)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait(), 5.0)
                    continue
                elif version not in acted and view["status"] == "paused":
                    acted.add(version)
                    await call("POST", f"/tables/{table_id}/continue", humans[0])
                changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 2.0)
                if not changed.is_set():  # no push for a while: read the table as a client would
                    who = seat if seat in (0, 1) else None
                    token = humans[who] if who is not None else watchers[0]
                    got = await call("GET", f"/tables/{table_id}", token)
                    if got.status_code == 200:
                        seen(got.json(), who)
            # people's last timers (turnSeconds after their last turn) still fire: wait them out
            await asyncio.sleep(TURN_SECONDS + 4)
        finally:
            for socket in sockets:
                await socket.close()
            for task in listeners:
                task.cancel()
            await asyncio.sleep(1.0)  # $disconnect reaches the function
        game.ended = time.time()


async def timeouts(base_url: str, ws_url: str, count: int) -> list[float]:
    """Seconds from each turn's deadline to the spectator's push of the forced move."""
    import httpx
    from websockets.asyncio.client import connect

    late: list[float] = []
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:

        async def token(name: str) -> str:
            return str((await http.post("/players", json={"name": name})).json()["token"])

        a, b, watcher = await token("Uyuyan1"), await token("Uyuyan2"), await token("Bakan")
        headers = {"Authorization": f"Bearer {a}"}
        body = {"game": "kastet", "seats": 2, "hands": 1, "turnSeconds": TURN_SECONDS, "seed": 7}
        table_id = (await http.post("/tables", json=body, headers=headers)).json()["tableId"]
        await http.post(
            f"/tables/{table_id}/seats/1", json={}, headers={"Authorization": f"Bearer {b}"}
        )
        view = (await http.post(f"/tables/{table_id}/start", headers=headers)).json()
        async with connect(
            f"{ws_url}?token={watcher}&tableId={table_id}", open_timeout=30
        ) as socket:
            held: dict[str, Any] | None = None  # the spectator's view, deltas applied
            for _ in range(count):
                due = view["turn"]["deadline"]
                while True:
                    message = json.loads(await asyncio.wait_for(socket.recv(), TURN_SECONDS * 4))
                    if message.get("type") not in ("table", "delta"):
                        continue
                    held, sync = _receive(held, message)
                    if sync:
                        await socket.send(json.dumps({"action": "sync"}))
                    if held is not None and held["version"] > view["version"]:
                        late.append(time.time() - due)
                        view = held
                        break
                if view["status"] != "playing":
                    break
    return late
