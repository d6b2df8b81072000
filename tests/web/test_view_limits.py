"""The rule limits the table view carries for clients (the web client copies none of them)
say what the engine enforces: each one is checked against the engine's own refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harftet.bounds import client_bounds
from harftet.engine import table as life
from harftet.engine.errors import IllegalMoveError
from harftet.engine.options import TableOptions
from harftet.engine.rules import rules_for
from harftet.engine.state import Occupant
from harftet.engine.view import table_view


def view_of(game: str) -> dict[str, Any]:
    table = life.new_table(
        "t1", Occupant("p0", "Ayşe"), TableOptions(game, seats=2), seed=7, now=0.0
    )  # type: ignore[arg-type]
    return table_view(table, "p0")


def reason(refusal: object) -> str | None:
    return getattr(refusal, "reason", None) if refusal else None


@pytest.mark.parametrize("game", ["kastet", "harftet"])
def test_every_view_carries_the_games_rule_limits(game: str) -> None:
    limits = view_of(game)["limits"]
    assert limits["maxSeries"] == limits["pairsOpenAt"] == 26
    assert limits["handLimit"] == 22
    assert limits["dealSize"] == 14
    assert limits["pairTiles"] == 2
    assert limits["colors"] == ["red", "yellow", "blue", "black"]
    assert ("numbers" in limits) == (game == "kastet")
    assert ("alphabet" in limits) == (game == "harftet")


def test_the_kastet_limits_are_the_ones_the_engine_enforces() -> None:
    limits = view_of("kastet")["limits"]
    rules = rules_for("kastet")
    low, high = limits["numbers"]
    short = [("red", n) for n in range(low, low + limits["minSeries"] - 1)]
    assert reason(rules.check_series(short)) == "meld_too_short"
    assert rules.check_series([*short, ("red", low + len(short))]) is None
    assert rules.check_series([("blue", n) for n in range(low, high + 1)]) is None
    full_set = [(c, 7) for c in limits["colors"][: limits["maxSet"]]]
    assert rules.check_series(full_set) is None
    assert reason(rules.check_series([*full_set, ("red", 7)])) == "bad_meld"
    rules.normalize_face({"color": "red", "number": high})
    with pytest.raises(IllegalMoveError):
        rules.normalize_face({"color": "red", "number": high + 1})
    pair = [("red", 5)] * limits["pairTiles"]
    assert rules.check_pair(pair) is None
    assert reason(rules.check_pair([*pair, ("red", 5)])) == "bad_pair"


def test_the_harftet_limits_are_the_ones_the_engine_enforces() -> None:
    limits = view_of("harftet")["limits"]
    rules = rules_for("harftet")
    assert reason(rules.check_series(["A"] * (limits["minSeries"] - 1))) == "meld_too_short"
    assert rules.check_series(list("KAL")[: limits["minSeries"]]) is None
    assert [rules.normalize_face(c) for c in limits["alphabet"]] == list(limits["alphabet"])
    assert len(limits["alphabet"]) == 29
    for stranger in ("Q", "W", "X", "AR"):
        with pytest.raises(IllegalMoveError):
            rules.normalize_face(stranger)
    assert rules.check_pair(["E", "L"][: limits["pairTiles"]]) is None


def test_the_node_tests_use_the_limits_the_server_sends() -> None:
    """tests/web/limits.json, which the node tests read, is what the views carry (if this fails,
    write it anew from ``rule_limits("kastet")`` and ``rule_limits("harftet")``)."""
    fixture = json.loads((Path(__file__).parent / "limits.json").read_text(encoding="utf-8"))
    assert fixture == {game: view_of(game)["limits"] for game in ("kastet", "harftet")}


def test_the_node_tests_use_the_bounds_the_server_sends() -> None:
    """tests/web/bounds.json, which the node tests read with the catalogue, is GET /texts's
    ``bounds`` (if this fails, write it anew from ``harftet.bounds.client_bounds()``)."""
    fixture = json.loads((Path(__file__).parent / "bounds.json").read_text(encoding="utf-8"))
    assert fixture == client_bounds()
