"""Whole games of both kinds replayed through the delta pushes: at every version, for every
seat and a spectator, the delta from the version before applied to the view before is the
full view — and a delta never names a tile its receiver may not see (RULES §5)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import WORDS, rules_of
from leaks import tile_ids

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo: bench is a folder in it

from bench import whole_games
from harftet.api.delta import apply_delta, size, view_delta
from harftet.engine.state import Table
from harftet.engine.view import table_view


def versions(game: str, players: int, hands: int, seed: int) -> Iterator[Table]:
    """Every stored version of a game (bench.whole_games: the push-size bench plays the same),
    on the unit tests' small dictionary."""
    return whole_games.versions(
        game, players, hands, seed, now=1_000_000.0, step=2.0, back_after=1.0, words=WORDS,
        rules=rules_of(game),
    )  # fmt: skip


def view(table: Table, viewer: str | None, version: int) -> dict[str, Any]:
    seen = table_view(table, viewer)
    seen["version"] = version
    normalized: dict[str, Any] = json.loads(json.dumps(seen))  # as a client parses it
    return normalized


@pytest.mark.parametrize(
    ("game", "players", "hands", "seed"), [("kastet", 4, 2, 3), ("harftet", 3, 2, 5)]
)
def test_at_every_version_the_delta_rebuilds_every_receivers_full_view(game, players, hands, seed):
    viewers: list[str | None] = [*(f"p{i}" for i in range(players)), None]
    held: dict[str | None, dict[str, Any]] = {}
    deltas, wholes = [], []
    kinds: set[str] = set()
    for version, table in enumerate(versions(game, players, hands, seed), start=1):
        kinds |= {event["type"] for event in table.recent}
        for viewer in viewers:
            new = view(table, viewer, version)
            if viewer in held:
                old = held[viewer]
                delta = view_delta(old, new)
                assert apply_delta(old, delta) == new, (version, viewer, delta)
                # nothing the receiver could not see, before or after (RULES §5)
                assert tile_ids(delta) <= tile_ids(old) | tile_ids(new), (version, viewer)
                deltas.append(size(delta))
                wholes.append(size({"type": "table", "view": new}))
                held[viewer] = apply_delta(old, json.loads(json.dumps(delta)))  # as sent
            else:
                held[viewer] = new
    assert {"sit", "start", "draw", "lay", "handEnd", "gameEnd"} <= kinds  # all kinds of push
    assert held == {v: view(table, v, version) for v in viewers}  # applied end to end
    deltas.sort()
    assert deltas[len(deltas) // 2] * 5 < sorted(wholes)[len(wholes) // 2]


def test_a_delta_names_no_tile_of_another_hand_or_the_pile_even_when_those_changed():
    tables = list(versions("kastet", 2, 1, 11))
    for version, (before, after) in enumerate(pairwise(tables), start=1):
        if after.hand_results:  # the racks are turned over at the end (RULES §5)
            break
        hidden = set(after.pile) | {t for s in after.seats for t in s.hand}
        delta = view_delta(view(before, None, version), view(after, None, version + 1))
        assert not tile_ids(delta) & hidden, version  # a spectator sees no rack
        hidden -= set(after.seats[0].hand)
        mine = view_delta(view(before, "p0", version), view(after, "p0", version + 1))
        assert not tile_ids(mine) & hidden, version
