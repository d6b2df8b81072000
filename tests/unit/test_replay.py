"""The log and the replay (API.md "log", "replay"; RULES §5): every change reports only
what everyone at the table saw, and a finished game's replay, played through the engine,
rebuilds it exactly."""

from __future__ import annotations

import functools
import json
from decimal import Decimal
from typing import Any

import pytest
from engine_helpers import rules_of
from life_games import Game
from life_games import run_game as play_game

from harftet.engine import replay
from harftet.engine.codec import decode, encode
from harftet.engine.effects import EVENT_TYPES, placed_json
from harftet.engine.errors import WrongStatusError
from harftet.engine.hand import shuffled
from harftet.engine.state import Table

BASE = {"seq", "at", "hand", "seat", "type"}
# What each kind of event may carry besides the base: never a tile, except a lay (its tiles
# are on the table now) and the end of a hand (the racks are turned over).
EXTRA = {
    "sit": {"playerId", "name", "rating"},
    "substitute": {"playerId", "name", "rating"},
    "reconnect": {"playerId", "name", "rating"},
    "bot": {"playerId", "name", "level"},
    "stand": {"playerId", "reason"},
    "leave": {"playerId", "penalty"},
    "disconnect": {"playerId", "reason"},
    "start": {"first"},
    "draw": set(),
    "pass": set(),
    "timeout": set(),
    "continue": set(),
    "lay": {"tiles", "series", "pairs"},
    "handEnd": {"finisher", "penalties", "left"},
    "gameEnd": {"penalties", "points", "closed"},
}


@functools.cache
def run_game(name: str, seed: int, players: int, practice: bool) -> Game:
    """Each seeded game is played once for the whole module (the tests only read it)."""
    return play_game(name, seed, players=players, practice=practice)


GAMES = [
    ("kastet", 1, 4, False),
    ("harftet", 2, 4, False),
    ("kastet", 3, 3, True),
    ("harftet", 4, 2, False),
    ("kastet", 5, 2, True),
    ("harftet", 6, 3, False),
]


@pytest.fixture(scope="module", params=GAMES, ids=lambda p: f"{p[0]}-{p[1]}-{p[2]}")
def game(request: pytest.FixtureRequest) -> Game:
    name, seed, players, practice = request.param
    return run_game(name, seed, players=players, practice=practice)


def ints(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(ints(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(ints(v) for v in value)) if value else set()
    return set()


def test_the_games_use_every_kind_of_event(game: Game) -> None:
    seen = {e["type"] for e in game.events}
    assert {"sit", "start", "draw", "pass", "gameEnd"} <= seen
    # a game everybody left ends abandoned (docs/RULES.en.md), maybe before a hand ended
    assert "handEnd" in seen or game.events[-1].get("closed") == "abandoned"
    assert seen <= set(EVENT_TYPES)
    assert [e["seq"] for e in game.events] == list(range(1, len(game.events) + 1))


def test_together_the_games_leave_no_kind_of_event_untried() -> None:
    seen: set[str] = set()
    for name, seed, players, practice in GAMES:
        seen |= {e["type"] for e in run_game(name, seed, players=players, practice=practice).events}
    assert seen == set(EVENT_TYPES)


def test_no_event_names_a_tile_that_was_not_visible_to_everyone(game: Game) -> None:
    for before, out in game.outcomes:
        after = out.table
        on_table = {p.id for m in (*after.series, *after.pairs) for p in m}
        for event in out.events:
            kind = event["type"]
            assert set(event) - BASE <= EXTRA[kind], event
            assert str(after.seed) not in json.dumps(event)
            if kind == "lay" and any(e["type"] == "handEnd" for e in out.events):
                # a lay that ends the turn and the hand with it (its pass in the same change,
                # issue 40): the table it left is gone, the lay's own melds show every tile
                shown = {p["id"] for m in (*event["series"], *event["pairs"]) for p in m}
                assert set(event["tiles"]) <= shown
                assert set(event["tiles"]) <= set(before.seats[event["seat"]].hand)
            elif kind == "lay":
                assert set(event["tiles"]) <= on_table
                assert set(event["tiles"]) <= set(before.seats[event["seat"]].hand)
                assert event["series"] == [[placed_json(p) for p in m] for m in after.series]
                new_pairs = after.pairs[len(after.pairs) - len(event["pairs"]) :]
                assert event["pairs"] == [[placed_json(p) for p in m] for m in new_pairs]
            elif kind == "handEnd":
                result = next(r for r in after.hand_results if r.hand == event["hand"])
                assert event["left"] == {str(s): v for s, v in result.left.items()}
                assert event["penalties"] == result.penalties
                racks = {t for s in before.seats for t in s.hand}
                assert ints(event["left"]) <= racks  # the racks as they stood at the end
            else:
                assert ints({k: v for k, v in event.items() if k not in BASE}) <= {
                    v for k, v in event.items() if k in ("rating", "penalty", "first")
                } | ints(event.get("penalties")) | ints(event.get("points")) | {0}
        assert decode(encode(after)) == after  # the latest events survive the item


def test_the_view_s_last_is_the_last_event_of_each_change(game: Game) -> None:
    from harftet.engine.view import table_view

    for _, out in game.outcomes[:200]:
        last = out.events[-1] if out.events else None  # a seat saying ready reports none
        assert table_view(out.table, None)["last"] == last


def test_the_deals_follow_the_seed_as_the_engine_dealt_them(game: Game) -> None:
    final = game.table
    deals = replay.deals(final)
    assert len(deals) == final.hand_number
    assert final.hand_number == final.hands or (final.result or {}).get("closed") == "abandoned"
    n = len(final.seats)
    for number, deal in enumerate(deals, start=1):
        ids = shuffled(final.seed, number)
        assert deal["deal"] == {str(s): ids[s * 14 : (s + 1) * 14] for s in range(n)}
        assert deal["pile"] == ids[n * 14 :][::-1]
        assert sorted(deal["pile"] + [t for v in deal["deal"].values() for t in v]) == list(
            range(106)
        )
    first = next(t for t in game.tables if t.hand_number == 1)
    assert deals[0]["deal"] == {str(s): first.seats[s].hand for s in range(n)}
    assert deals[0]["pile"] == first.pile[::-1]


def test_the_replay_played_through_the_engine_rebuilds_the_game_exactly(game: Game) -> None:
    final = game.table
    doc = replay.document(final, game.events)
    doc = json.loads(json.dumps(doc))  # as a client or the store gets it
    assert doc["seed"] == str(final.seed) and doc["result"] == final.result
    assert [h["hand"] for h in doc["hands"]] == list(range(1, final.hand_number + 1))
    rebuilt = replay.play(doc, rules=rules_of(final.game))
    assert rebuilt == final
    assert encode(rebuilt) == encode(final)


def test_a_replay_from_a_store_that_gives_numbers_back_as_decimals_is_exact(game: Game) -> None:
    def as_dynamodb(value: Any) -> Any:  # boto3 reads every number as a Decimal
        if isinstance(value, bool) or value is None or isinstance(value, str):
            return value
        if isinstance(value, int | float):
            return Decimal(str(value))
        if isinstance(value, dict):
            return {k: as_dynamodb(v) for k, v in value.items()}
        return [as_dynamodb(v) for v in value]

    final = game.table
    stored = [as_dynamodb(e) for e in game.events]
    doc = replay.document(final, stored)
    assert doc["hands"][0]["moves"][0] == next(e for e in game.events if e["hand"] == 1)
    assert replay.play(as_dynamodb(doc), rules=rules_of(final.game)) == final


def test_a_replay_that_does_not_follow_is_refused(game: Game) -> None:
    doc = json.loads(json.dumps(replay.document(game.table, game.events)))
    moves = next(h["moves"] for h in doc["hands"] if any(e["type"] == "draw" for e in h["moves"]))
    draw = next(e for e in moves if e["type"] == "draw")
    draw["seat"] = (draw["seat"] + 1) % doc["table"]["seats"]
    with pytest.raises(replay.ReplayError):
        replay.play(doc, rules=rules_of(game.table.game))


def test_a_seed_past_2_to_the_53_travels_as_a_string_and_still_replays() -> None:
    """API.md v4: a browser's JSON.parse rounds 2232832864270805535 to ...500; as a string it
    stays exact, and the document still plays through the engine. The game's tiles come with
    it, by id, for a client to show the deals and moves."""
    g = play_game("kastet", 2232832864270805535 // 7919, players=2, hands=1)
    big = g.table.seed  # life_games seeds the table with 7919·s + 1
    assert 2**53 < big < 2**63
    doc = json.loads(json.dumps(replay.document(g.table, g.events)))
    assert doc["seed"] == str(big)
    assert [t["id"] for t in doc["tiles"]] == list(range(106))
    assert doc["hands"][0]["committed"].endswith(f"|{big}:1")
    assert encode(replay.play(doc, rules=rules_of("kastet"))) == encode(g.table)


def test_there_is_no_replay_before_the_end() -> None:
    g = play_game("kastet", 9, players=2, hands=1)
    playing: Table = next(t for t in g.tables if t.status == "playing")
    with pytest.raises(WrongStatusError, match="only once the game is over"):
        replay.document(playing, g.events)


def test_the_log_never_grows_inside_the_item(game: Game) -> None:
    sizes = [len(encode(t)) for t in game.tables]
    longest = max(len(out.events) for _, out in game.outcomes)
    assert all(len(t.recent) <= longest for t in game.tables)
    assert max(sizes) < 2048
