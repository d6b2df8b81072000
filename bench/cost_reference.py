"""The reference game (issue 40): an 11-hand Harftet game as people play it, on the counted
local stack, beside today's stress game — for bench/bench_cost_reference.py.

Two people who play like the ``medium`` computer level: at their turn (their own socket's view
shows it) the bench reads the table item and asks the engine's ``medium`` player for the move,
then sends it on the person's socket as the web client does — a lay ends the turn with it
(``"pass": true``, "Aç ve pas": medium always passes after its one lay) — and says "ready"
between hands over REST (the web client's "Sonraki el"). Two ``medium`` computer players at the
table's default ``botSeconds``, two spectators, the table's default ``turnSeconds``. Every one
of the six connections is a WebSocket that applies its pushes as the web client does and pings
by the client's own rule (clients/web/live.js: only after ``QUIET`` of silence either way), so
pings are counted, not assumed. The AWS calls are counted by bench/cost_calls.py in the stack's
processes, as for the stress game.
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

from bench.cost_games import WS_UNIT, Game, _receive

QUIET = 9 * 60.0  # seconds of silence before a client pings (clients/web/live.js QUIET)
OLD_PING_SECONDS = 25.0  # the clients' former ping interval, for the "before" figure
LEVEL = "medium"
READY_WAIT = 0.3  # a person reads the hand's results for a moment, then says ready


@dataclass
class Pings:
    """Pings the clients sent (by the client's rule) and the longest silence a socket saw."""

    sent: int = 0
    pongs: int = 0
    longest_silence: float = 0.0
    last: dict[int, float] = field(default_factory=dict)

    def heard(self, socket_no: int) -> None:
        now = time.monotonic()
        before = self.last.get(socket_no)
        if before is not None:
            self.longest_silence = max(self.longest_silence, now - before)
        self.last[socket_no] = now


def move_body(move: Any) -> dict[str, Any]:
    """The API body of an engine move (a lay ends the turn: ``"pass": true``)."""
    from harftet.engine.moves import Draw, Lay, Pass
    from harftet.tables.hints import lay_json

    if isinstance(move, Draw):
        return {"type": "draw"}
    if isinstance(move, Pass):
        return {"type": "pass"}
    assert isinstance(move, Lay)
    return {"type": "lay", **lay_json(move), "pass": True}


class Reader:
    """Reads a table item straight from the stack's DynamoDB (the bench's own look: not
    counted, not a client's call) to decide a person's move as ``medium`` would."""

    def __init__(self, endpoint: str, table_name: str) -> None:
        import boto3

        self._client = boto3.client(
            "dynamodb",
            endpoint_url=endpoint,
            region_name="us-east-1",
            aws_access_key_id="bench",
            aws_secret_access_key="bench",
        )
        self._name = table_name

    def events(self, log_table: str, table_id: str) -> Counter[str]:
        """The game's logged events by type (and who made them: ``bot`` for a computer
        player's seat), to say what its stored changes were."""
        from harftet.store.items import query_items
        from harftet.store.log import events_of

        found = query_items(
            self._client,
            {
                "TableName": log_table,
                "KeyConditionExpression": "tableId = :t",
                "ExpressionAttributeValues": {":t": {"S": table_id}},
            },
            most=100_000,
        )
        kinds: Counter[str] = Counter()
        for event in (e for item in found for e in events_of(item)):
            who = "computer" if event.get("seat") in (2, 3) else "person"
            kinds[
                f"{event['type']} ({who})" if event.get("seat") is not None else event["type"]
            ] += 1
        return kinds

    def decide(self, table_id: str, version: int, seat: int) -> dict[str, Any] | None:
        from harftet.engine.bot import choose_move
        from harftet.store.table_items import from_item

        item = self._client.get_item(
            TableName=self._name, Key={"tableId": {"S": table_id}}, ConsistentRead=True
        ).get("Item")
        if item is None:
            return None
        stored = from_item(item)
        if stored.version != version or stored.table.turn_seat != seat:
            return None  # moved on meanwhile (a timer): wait for its push
        return move_body(choose_move(stored.table, seat, LEVEL))


async def play_reference(
    base_url: str,
    ws_url: str,
    reader: Reader,
    game: Game,
    seed: int,
    limit: float,
    pings: Pings,
) -> None:
    """Play the reference game on the stack as its six clients would, counting what they send
    and get; ``pings`` counts the pings their rule made them send."""
    import httpx

    client = game.client
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:

        async def call(method: str, path: str, token: str | None = None, body: Any = None) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            request = http.build_request(method, path, json=body, headers=headers)
            reply = await http.send(request)
            client.rest += 1
            client.rest_in += len(request.content or b"")
            client.rest_out += reply.num_bytes_downloaded
            client.statuses[reply.status_code] += 1
            return reply

        game.started = time.time()
        tokens: list[str] = []
        for name in ("Kişi", "Kişi", "Seyirci", "Seyirci"):
            reply = await call("POST", "/players", body={"name": f"{name}{seed}x{len(tokens)}"})
            tokens.append(str(reply.json()["token"]))
        humans, watchers = tokens[:2], tokens[2:]
        body = {"game": "harftet", "seats": 4, "hands": game.hands, "seed": seed}
        table_id = game.table_id = (await call("POST", "/tables", humans[0], body)).json()[
            "tableId"
        ]
        await call("POST", f"/tables/{table_id}/seats/1", humans[1], {})
        for seat in (2, 3):
            await call(
                "POST", f"/tables/{table_id}/seats/{seat}", humans[0], {"bot": True, "level": LEVEL}
            )
        table = _Table(game, pings)
        await table.connect(ws_url, table_id, humans + watchers)
        table.latest = (await call("POST", f"/tables/{table_id}/start", humans[0])).json()
        try:
            await _loop(table, reader, call, humans, watchers, table_id, limit)
            # people's last turn timers (turnSeconds after their last turn) still fire
            await asyncio.sleep(float(table.latest.get("turnSeconds") or 45) + 4)
        finally:
            await table.close()
        game.ended = time.time()


def _tell(received: Counter[str], data: dict[str, Any], seat: int | None) -> None:
    """Count a message a socket got by who got it and what it was (a move's answer, a push
    of one version or of several, a pong)."""
    who = "spectator" if seat is None else "person"
    kind = data.get("type")
    if kind in ("table", "delta") and data.get("moveId"):
        received[f"{who} answer"] += 1
    elif kind in ("table", "delta"):
        received[f"{who} push"] += 1
        versions = len(data.get("steps") or [0])
        received[f"{who} versions pushed"] += versions
    else:
        received[f"{who} {kind}"] += 1


class _Table:
    """The six sockets of the game, their views and their pings."""

    def __init__(self, game: Game, pings: Pings) -> None:
        self.game = game
        self.pings = pings
        self.latest: dict[str, Any] = {}
        self.own: dict[int, dict[str, Any]] = {}
        self.changed = asyncio.Event()
        self.sockets: list[Any] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def connect(self, ws_url: str, table_id: str, tokens: list[str]) -> None:
        from websockets.asyncio.client import connect

        for n, token in enumerate(tokens):
            socket = await connect(f"{ws_url}?token={token}&tableId={table_id}", open_timeout=30)
            self.sockets.append(socket)
            self.game.client.connections += 1
            self.pings.heard(n)
            seat = n if n < 2 else None
            self.tasks.append(asyncio.create_task(self._listen(socket, n, seat)))
            self.tasks.append(asyncio.create_task(self._pinger(socket, n)))

    async def send(self, n: int, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        self.game.client.ws_sent += 1
        self.game.client.actions[str(message.get("action"))] += 1
        self.game.client.ws_sent_bytes += len(text.encode())
        self.pings.heard(n)
        await self.sockets[n].send(text)

    async def _pinger(self, socket: Any, n: int) -> None:
        """The client's rule: a ping only after QUIET seconds without a message either way."""
        with contextlib.suppress(Exception):
            while True:
                quiet_for = time.monotonic() - self.pings.last.get(n, time.monotonic())
                if quiet_for >= QUIET:
                    self.pings.sent += 1
                    await self.send(n, {"action": "ping"})
                    continue
                await asyncio.sleep(QUIET - quiet_for)

    def _seen(self, view: dict[str, Any], seat: int | None) -> None:
        if seat is not None and view["version"] >= self.own.get(seat, {}).get("version", 0):
            self.own[seat] = view
        if not self.latest or view["version"] > self.latest["version"]:
            self.latest = view

    async def _listen(self, socket: Any, n: int, seat: int | None) -> None:
        client = self.game.client
        held: dict[str, Any] | None = None
        with contextlib.suppress(Exception):
            async for message in socket:
                self.pings.heard(n)
                size = len(message.encode() if isinstance(message, str) else message)
                client.pushes += 1
                client.push_bytes += size
                client.push_units += max(1, math.ceil(size / WS_UNIT))
                client.push_sizes.append(size)
                data = json.loads(message)
                if data.get("type") == "pong":
                    self.pings.pongs += 1
                if data.get("type") in ("table", "delta") and data.get("moveId"):
                    client.human_moves += 1
                _tell(client.received, data, seat)
                if data.get("type") not in ("table", "delta"):
                    continue
                if data["type"] == "delta":
                    client.deltas += 1
                held, sync = _receive(held, data)
                if sync:
                    await self.send(n, {"action": "sync"})
                if held is not None:
                    self._seen(held, seat)
                    self.changed.set()

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.sleep(1.0)  # $disconnect reaches the function


async def _loop(
    table: _Table,
    reader: Reader,
    call: Any,
    humans: list[str],
    watchers: list[str],
    table_id: str,
    limit: float,
) -> None:
    """Until the game ends: each person moves at their turn and says ready in a break."""
    deadline = time.monotonic() + limit
    acted: set[tuple[int, int]] = set()
    while time.monotonic() < deadline:
        view = table.latest
        if view["status"] == "finished":
            table.game.finished = True
            return
        version = view["version"]
        if view.get("break"):
            for seat in (0, 1):
                if seat not in view["break"]["ready"] and (version, seat) not in acted:
                    acted.add((version, seat))
                    await asyncio.sleep(READY_WAIT)
                    move = {"type": "ready", "version": version, "moveId": f"r{version}s{seat}"}
                    reply = await call("POST", f"/tables/{table_id}/moves", humans[seat], move)
                    if reply.status_code == 200:
                        table._seen(reply.json(), seat)
                    break  # the next version is the other's to say ready on
            else:
                await _wait(table, call, humans, watchers, table_id)
            continue
        seat: Any = (view.get("turn") or {}).get("seat")
        mine = table.own.get(seat, {}) if seat in (0, 1) else {}
        if (
            view["status"] == "playing"
            and mine.get("version") == version
            and ((version, seat) not in acted)
        ):
            acted.add((version, seat))
            body = await asyncio.to_thread(reader.decide, table_id, version, seat)
            if body is not None:
                table.changed.clear()
                await table.send(
                    seat,
                    {
                        "action": "move",
                        "tableId": table_id,
                        "version": version,
                        "moveId": f"m{version}",
                        **body,
                    },
                )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.changed.wait(), 5.0)
                continue
        await _wait(table, call, humans, watchers, table_id)


async def _wait(
    table: _Table, call: Any, humans: list[str], watchers: list[str], table_id: str
) -> None:
    """Wait for the next push; after 2 s without one, read the table as a client would."""
    table.changed.clear()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(table.changed.wait(), 2.0)
    if table.changed.is_set():
        return
    seat = (table.latest.get("turn") or {}).get("seat")
    who = seat if seat in (0, 1) else None
    token = humans[who] if who is not None else watchers[0]
    got = await call("GET", f"/tables/{table_id}", token)
    if got.status_code == 200:
        table._seen(got.json(), who)
