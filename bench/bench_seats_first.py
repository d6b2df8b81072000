"""Seats first: how long a move takes to reach the other seat's socket with a full gallery of
spectators on the table, against the same with none — on the local stack, over loopback.

Two started 2-seat Kastet tables on one local stack: one watched by nobody, one by
``--spectators`` (198: a table holds 200 connections, two of them the seats'). Each round the
player in turn on each table draws (the tables alternate which goes first); the time from
sending the move to the other seat's push of the new version is one sample. A round waits
until every spectator has that version too, so no round starts while the fan-out still posts
the last one. The first rounds warm up and are not counted.

Goal (issue 19): with spectators ≤ 1.2× the time without (medians).

Run: ``.venv/bin/python -m bench.bench_seats_first [--spectators 198] [--rounds 14]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench import Result, median

SPECTATORS = 198
ROUNDS = 14  # two players draw 8 times each before the 22-tile cap: 16 rounds at most
WARM_UP = 2
GOAL = 1.2
CONNECT_CONCURRENCY = 8
WAIT_SECONDS = 20.0


def _version(message: dict[str, Any]) -> int | None:
    if message.get("type") == "table":
        version: int = message["view"]["version"]
        return version
    if message.get("type") == "delta":
        return int(message["version"])
    return None


@dataclass
class Socket:
    """One connection and the newest version pushed to it (with when it arrived)."""

    ws: ClientConnection
    version: int = 0
    arrived: dict[int, float] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        async for raw in self.ws:
            version = _version(json.loads(raw))
            if version is not None and version > self.version:
                self.version = version
                self.arrived[version] = time.perf_counter()
                self.changed.set()

    async def until(self, version: int) -> float:
        """When the push of ``version`` (or a later one) arrived."""
        while self.version < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), WAIT_SECONDS)
        return min(t for v, t in self.arrived.items() if v >= version)


@dataclass
class Table:
    table_id: str
    tokens: list[str]
    seats: list[Socket]
    watchers: list[Socket]


async def _player(http: httpx.AsyncClient, name: str) -> str:
    answer = await http.post("/players", json={"name": name})
    answer.raise_for_status()
    token: str = answer.json()["token"]
    return token


async def _open(ws_url: str, token: str, table_id: str, tasks: list[asyncio.Task[None]]) -> Socket:
    ws = await connect(f"{ws_url}?token={token}&tableId={table_id}", open_timeout=30)
    socket = Socket(ws)
    tasks.append(asyncio.create_task(socket.read()))
    return socket


async def _table(
    http: httpx.AsyncClient, ws_url: str, seed: int, spectators: int, tasks: list[Any]
) -> Table:
    tokens = [await _player(http, f"Oyuncu {seed}-{i}") for i in range(2)]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    body = {"game": "kastet", "seats": 2, "hands": 1, "turnSeconds": 600, "seed": seed}
    created = await http.post("/tables", json=body, headers=auth[0])
    created.raise_for_status()
    table_id = created.json()["tableId"]
    (await http.post(f"/tables/{table_id}/seats/1", headers=auth[1])).raise_for_status()
    (await http.post(f"/tables/{table_id}/start", headers=auth[0])).raise_for_status()
    seats = [await _open(ws_url, token, table_id, tasks) for token in tokens]
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def watcher(n: int) -> Socket:
        async with gate:
            token = await _player(http, f"İzleyici {n}")
            return await _open(ws_url, token, table_id, tasks)

    watchers = list(await asyncio.gather(*(watcher(n) for n in range(spectators))))
    return Table(table_id, tokens, seats, watchers)


async def _round(http: httpx.AsyncClient, table: Table) -> float:
    """One draw by the player in turn: seconds until the other seat's push of it."""
    view = (
        await http.get(
            f"/tables/{table.table_id}", headers={"Authorization": f"Bearer {table.tokens[0]}"}
        )
    ).json()
    seat, version = view["turn"]["seat"], view["version"]
    body = {"version": version, "moveId": f"m{version}", "type": "draw"}
    headers = {"Authorization": f"Bearer {table.tokens[seat]}"}
    sent = time.perf_counter()
    moved = await http.post(f"/tables/{table.table_id}/moves", json=body, headers=headers)
    moved.raise_for_status()
    arrived = await table.seats[1 - seat].until(version + 1)
    for socket in table.watchers:  # the fan-out has finished this version everywhere
        await socket.until(version + 1)
    return arrived - sent


async def _measure(base_url: str, ws_url: str, spectators: int, rounds: int) -> dict[str, Any]:
    tasks: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        alone = await _table(http, ws_url, 101, 0, tasks)
        watched = await _table(http, ws_url, 102, spectators, tasks)
        times: dict[str, list[float]] = {"alone": [], "watched": []}
        for n in range(rounds):
            order = [("alone", alone), ("watched", watched)]
            for name, table in order if n % 2 else order[::-1]:
                took = await _round(http, table)
                if n >= WARM_UP:
                    times[name].append(took)
        for table in (alone, watched):
            for socket in [*table.seats, *table.watchers]:
                await socket.ws.close()
    for task in tasks:
        task.cancel()
    return {"spectators": spectators, "rounds": rounds - WARM_UP, **times}


def measure(spectators: int = SPECTATORS, rounds: int = ROUNDS) -> dict[str, Any]:
    """Start a local stack, play the rounds, stop it; the samples (seconds)."""
    from harftet.localstack.launcher import launch

    logging.getLogger("httpx").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="bench-seats-") as workdir:
        stack = launch(Path(workdir), env={"LOG_LEVEL": "WARNING"}, timeout=120)
        try:
            return asyncio.run(_measure(stack.base_url, stack.ws_url, spectators, rounds))
        finally:
            stack.stop()


def to_results(summary: dict[str, Any]) -> list[Result]:
    """The RESULTS.md row: the watched table's median against the lone table's."""
    watched = [t * 1000 for t in summary["watched"]]
    alone = [t * 1000 for t in summary["alone"]]
    return [
        Result(
            name=f"seats first: a move reaches the other seat, {summary['spectators']} spectators",
            value=median(watched),
            unit="ms",
            detail=f"max {max(watched):.0f} ms; {summary['rounds']} moves, local stack",
            baseline_name="no spectators",
            baseline=median(alone),
            baseline_detail=f"max {max(alone):.0f} ms",
            goal=GOAL,
        )
    ]


def run() -> list[Result]:
    """``make bench``: the row."""
    return to_results(measure())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=SPECTATORS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    for result in to_results(measure(args.spectators, args.rounds)):
        print(
            f"{result.name}: {result.value:.0f} ms ({result.detail}); {result.baseline_name} "
            f"{result.baseline:.0f} ms; {result.ratio:.2f}× (goal ≤ {GOAL}×)"
        )


if __name__ == "__main__":
    main()
