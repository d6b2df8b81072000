"""Deal proofs over whole games of both kinds (RULES §5a, docs/DEALS.md): the proofs every
view showed during play are checked against the replay, and every hand's deal and pile are
recomputed from what the replay reveals, by the documented procedure alone (written out here
from docs/DEALS.md, not taken from the engine); a tampered replay fails."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from life_games import Game, run_game

from harftet.engine import replay
from harftet.engine.view import table_view

FIXTURE = Path(__file__).parents[1] / "web" / "deals.json"


def recompute(doc: dict[str, Any], seen: dict[int, str]) -> list[str]:
    """What is wrong with ``doc`` by docs/DEALS.md ([] when every hand checks out)."""
    wrong = []
    for hand in doc["hands"]:
        number = hand["hand"]
        shuffle_input = f"{doc['seed']}:{number}"
        committed = f"harftet-deal-v1|{doc['salt']}|{shuffle_input}"
        proof = hashlib.sha256(committed.encode("utf-8")).hexdigest()
        if hand["committed"] != committed or hand["dealProof"] != proof:
            wrong.append(f"hand {number}: the replay's commitment")
        if seen.get(number) != proof:
            wrong.append(f"hand {number}: the proof seen during play")
        ids = list(range(106))
        random.Random(shuffle_input).shuffle(ids)
        seats = len(hand["deal"])
        for seat, tiles in hand["deal"].items():
            if tiles != ids[int(seat) * 14 : (int(seat) + 1) * 14]:
                wrong.append(f"hand {number}: seat {seat}'s deal")
        if hand["pile"] != ids[seats * 14 :][::-1]:
            wrong.append(f"hand {number}: the pile")
    return wrong


def proofs_seen(game: Game) -> dict[int, str]:
    """The dealProof every view showed, by hand (each must be one per hand)."""
    seen: dict[int, set[str]] = {}
    for table in game.tables:
        view = table_view(table, None)
        if view["handNumber"]:
            seen.setdefault(view["handNumber"], set()).add(view["dealProof"])
    assert all(len(proofs) == 1 for proofs in seen.values())
    return {number: proofs.pop() for number, proofs in seen.items()}


# Seeds whose churn plays all three hands (harftet 22's ends abandoned in hand 1: everybody left)
@pytest.fixture(scope="module", params=[("kastet", 21, 4), ("harftet", 24, 3)], ids=str)
def finished(request: pytest.FixtureRequest) -> tuple[Game, dict[str, Any]]:
    name, seed, players = request.param
    game = run_game(name, seed, players=players, hands=3)
    return game, replay.document(game.table, game.events)


def test_every_deal_and_pile_of_a_whole_game_follows_from_the_revealed_values(
    finished: tuple[Game, dict[str, Any]],
) -> None:
    game, doc = finished
    seen = proofs_seen(game)
    assert sorted(seen) == [1, 2, 3] and len(doc["hands"]) == 3
    assert recompute(doc, seen) == []
    dealt = [t for t in game.tables if t.recent and t.recent[-1]["type"] == "start"]
    for table, hand in zip(dealt, doc["hands"], strict=True):  # what the engine dealt
        assert {str(i): sorted(s.hand) for i, s in enumerate(table.seats)} == {
            k: sorted(v) for k, v in hand["deal"].items()
        }


@pytest.mark.parametrize("tamper", ["seed", "salt", "pile", "deal", "proof"])
def test_a_tampered_replay_fails_the_check(
    finished: tuple[Game, dict[str, Any]], tamper: str
) -> None:
    game, doc = finished
    bad = copy.deepcopy(doc)
    first = bad["hands"][0]
    if tamper == "seed":
        bad["seed"] = str(int(bad["seed"]) + 1)
    elif tamper == "salt":
        bad["salt"] = "00" * 16
    elif tamper == "pile":
        first["pile"][0], first["pile"][1] = first["pile"][1], first["pile"][0]
    elif tamper == "deal":
        first["deal"]["0"][0], first["pile"][0] = first["pile"][0], first["deal"]["0"][0]
    else:
        first["dealProof"] = hashlib.sha256(b"another deal").hexdigest()
    assert recompute(bad, proofs_seen(game)) != []


def test_no_view_before_the_end_reveals_the_seed_or_the_salt(
    finished: tuple[Game, dict[str, Any]],
) -> None:
    game, doc = finished
    for table in game.tables[:-1]:
        text = json.dumps(table_view(table, "p0"))
        assert doc["salt"] not in text and f'"{doc["seed"]}' not in text


def test_the_web_clients_fixture_is_pythons_shuffle() -> None:
    """tests/web/deals.json: what deal.test.mjs checks the JavaScript port against."""
    fixture = json.loads(FIXTURE.read_text())
    assert len(fixture) >= 5
    for case in fixture:
        ids = list(range(106))
        random.Random(case["input"]).shuffle(ids)
        assert case["ids"] == ids, "regenerate: python tests/unit/test_deal_proofs.py"


if __name__ == "__main__":  # writes tests/web/deals.json
    inputs = ["0:1", "7:2", "42:11", "123456789:5", "9223372036854775807:21", "31337:3"]
    cases = []
    for text in inputs:
        ids = list(range(106))
        random.Random(text).shuffle(ids)
        cases.append({"input": text, "ids": ids})
    FIXTURE.write_text(json.dumps(cases, separators=(",", ":")) + "\n")


def test_computer_players_are_labelled_as_such_in_every_view_and_in_the_replay() -> None:
    game = run_game("kastet", 5, players=3, hands=1, practice=True)
    bots = set()
    for table in game.tables:
        for chair, seat in zip(table.seats, table_view(table, None)["seats"], strict=True):
            if chair.occupant is not None and seat is not None:
                assert seat["bot"] is chair.occupant.bot
                if chair.occupant.bot:
                    bots.add(chair.occupant.player_id)
                    assert seat["level"] and seat["name"].startswith("Bilgisayar")
    assert bots, "the practice game had a computer player"
    doc = replay.document(game.table, game.events)
    events = [*doc["before"], *(e for h in doc["hands"] for e in h["moves"])]
    seated = {e["playerId"]: e["type"] for e in events if e["type"] in ("sit", "bot")}
    assert {p for p, kind in seated.items() if kind == "bot"} == bots
