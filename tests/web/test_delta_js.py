"""The web client's delta.js and the TypeScript client's applyDelta apply the very deltas the
server computes: whole games of both kinds, every seat and a spectator, rebuilt in node and
compared with the server's full views."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from harftet.api.delta import view_delta
from harftet.engine import table as life
from harftet.engine.bot import choose_move
from harftet.engine.hand import apply_move
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant, Table
from harftet.engine.view import table_view

HERE = Path(__file__).parent


@functools.cache
def game(name: str, seed: int) -> list[Table]:
    """Every version of a 2-player, 1-hand game between easy computer players."""
    now = 1_000_000.0
    table = life.new_table(
        "t1", Occupant("p0", "Ayşe"), TableOptions(name, seats=2, hands=1), seed=seed, now=now
    )  # type: ignore[arg-type]
    tables = [table, life.sit(table, 1, Occupant("p1", "Barış"), now).table]
    tables.append(life.start(tables[-1], "p0", now).table)
    while tables[-1].status == "playing":
        now += 2.0
        seat = tables[-1].turn_seat
        assert seat is not None
        tables.append(
            apply_move(tables[-1], seat, choose_move(tables[-1], seat, "easy"), now).table
        )
    return tables


def rebuilt(client: str, cases: list[dict[str, Any]]) -> Any:
    """What ``client`` (apply_deltas.mjs, apply_deltas_ts.mjs) makes of each case's pushes."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: `apt-get install -y nodejs`", pytrace=False)
    run = subprocess.run(
        [node, str(HERE / client)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=HERE.parents[1],  # node_modules/typescript for the TypeScript client
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def view(table: Table, viewer: str | None, version: int) -> dict[str, Any]:
    seen = table_view(table, viewer)
    seen["version"] = version
    parsed: dict[str, Any] = json.loads(json.dumps(seen))
    return parsed


@pytest.mark.parametrize("client", ["apply_deltas.mjs", "apply_deltas_ts.mjs"])
@pytest.mark.parametrize(("name", "seed"), [("kastet", 2), ("harftet", 4)])
def test_the_clients_rebuild_every_view_of_a_whole_game_from_the_servers_deltas(name, seed, client):
    tables = game(name, seed)
    cases, expected = [], []
    for viewer in ("p0", "p1", None):
        views = [view(t, viewer, n) for n, t in enumerate(tables, start=1)]
        pushes: list[dict[str, Any]] = [view_delta(a, b) for a, b in pairwise(views)]
        pushes.insert(len(pushes) // 2, {"type": "pong"})  # other messages in between
        cases.append({"base": views[0], "pushes": pushes})
        expected.append({"view": views[-1], "syncs": 0})
        # a client that missed a push asks for the whole view once, and holds the last it had
        gap = pushes[:3] + pushes[4:]
        cases.append({"base": views[0], "pushes": gap})
        expected.append({"view": views[3], "syncs": len(gap) - 3 - 1})
    assert rebuilt(client, cases) == expected


@pytest.mark.parametrize("client", ["apply_deltas.mjs", "apply_deltas_ts.mjs"])
def test_the_clients_short_tile_form_names_every_tile_as_the_server_writes_it(client):
    """``[p, "tiles", ids]``: each client's table of both games' 106 tiles is the engine's
    (harftet.engine.tiles); an id beyond them or a game without tiles asks for the whole view."""
    from harftet.engine.tiles import tile_json, tiles_for

    cases, expected = [], []
    for name in ("kastet", "harftet"):
        base = {"game": name, "version": 1, "racks": {"0": []}}
        ids = list(range(106))
        push = {"type": "delta", "from": 1, "version": 2, "ops": [["/racks/0", "tiles", ids]]}
        cases.append({"base": base, "pushes": [push]})
        tiles = [tile_json(t) for t in tiles_for(name)]
        expected.append({"view": {**base, "version": 2, "racks": {"0": tiles}}, "syncs": 0})
        for bad in ([["/racks/0", "tiles", [106]]], [["/racks/0", "tile", [1]]]):
            cases.append({"base": base, "pushes": [{**push, "ops": bad}]})
            expected.append({"view": base, "syncs": 1})
    other = {"game": "tavla", "version": 1, "racks": {"0": []}}
    push = {"type": "delta", "from": 1, "version": 2, "ops": [["/racks/0", "tiles", [1]]]}
    cases.append({"base": other, "pushes": [push]})
    expected.append({"view": other, "syncs": 1})
    assert rebuilt(client, cases) == expected


@pytest.mark.parametrize(("name", "seed"), [("kastet", 2), ("harftet", 4)])
def test_the_games_replayed_above_carry_tiles_in_the_short_form(name, seed):
    tables = game(name, seed)
    views = [view(t, "p0", n) for n, t in enumerate(tables, start=1)]
    ops = [op for a, b in pairwise(views) for op in view_delta(a, b)["ops"]]
    assert any(len(op) == 3 and op[1] == "tiles" for op in ops)
