"""Whole games played over real HTTP against the local stack, by human clients only.

Each client acts only when the view's turn is its own seat, with the version of its latest view
and a fresh moveId: it lays the melds it finds, else draws, else passes. The hand ends by a
finish or a blocked round; the scores are then checked against RULES.md §2-§3 from what each
player saw of their own hand.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from e2e_client import (
    FINISH_PENALTY,
    Player,
    View,
    hand_value,
    next_move,
    ranking_points,
    seated_table,
    table_tile_ids,
)

pytestmark = pytest.mark.e2e

MAX_MOVES = 2000
TILE_COUNT = 106


class Game:
    """A table and its human players; remembers each player's last hand seen in each hand."""

    def __init__(self, players: list[Player], table_id: str) -> None:
        self.players = players
        self.table_id = table_id
        self.last_hand: dict[tuple[int, int], list[dict[str, Any]]] = {}  # (seat, hand) -> tiles
        self.last_pile: dict[int, int] = {}  # hand -> tiles left in the pile
        self.moves = 0
        self.kinds: dict[str, int] = {}

    def seen(self, view: View) -> View:
        """Note what a player's own view shows of their hand."""
        if view["status"] in ("playing", "finished") and "seat" in view:
            self.last_hand[(view["seat"], view["handNumber"])] = view["hand"]
            self.last_pile[view["handNumber"]] = view["pile"]
        return view

    def play_to_the_end(self) -> View:
        view = self.seen(self.players[0].table(self.table_id))
        for seat, player in enumerate(self.players[1:], start=1):
            assert self.seen(player.table(self.table_id))["seat"] == seat
        mine: View | None = None
        while view["status"] != "finished":
            assert self.moves < MAX_MOVES, "the game did not end within the move budget"
            assert view["status"] == "playing", view["status"]
            if "break" in view:  # between hands: everybody says ready, the next is dealt
                view, mine = self.all_ready(view), None
                continue
            seat = view["turn"]["seat"]
            player = self.players[seat]
            if mine is None or mine["seat"] != seat or mine["version"] != view["version"]:
                mine = self.seen(player.table(self.table_id))  # the player in turn looks
            assert mine["turn"]["seat"] == mine["seat"] == seat
            body = next_move(mine)
            response = player.move(self.table_id, mine["version"], body)
            assert response.status_code == 200, (body, response.text)
            self.moves += 1
            self.kinds[body["type"]] = self.kinds.get(body["type"], 0) + 1
            # Pass keeps the hand as it was: the hand it ended is the one already noted.
            view = response.json()
            assert view["version"] > mine["version"]
            mine = self.seen(view) if body["type"] != "pass" else None
        return view

    def all_ready(self, view: View) -> View:
        """Every player says ready (RULES §2a): no clock ran, the last one deals at once."""
        assert view["turn"] is None and view["break"]["ready"] == []
        for seat, player in enumerate(self.players):
            current = player.table(self.table_id)
            assert current["handNumber"] == view["handNumber"] and "break" in current
            response = player.move(self.table_id, current["version"], {"type": "ready"})
            assert response.status_code == 200, response.text
            view = response.json()
            if seat < len(self.players) - 1:
                assert view["break"]["ready"] == list(range(seat + 1))
        assert "break" not in view and view["turn"]["deadline"] is not None
        return self.seen(view)


@pytest.fixture
def closing() -> Iterator[list[Player]]:
    players: list[Player] = []
    yield players
    for player in players:
        player.close()


@pytest.mark.parametrize(
    ("game", "seats", "hands", "seed"),
    [
        pytest.param("kastet", 4, 1, 20240611, id="kastet-4-players-1-hand"),
        pytest.param("harftet", 4, 1, 20240611, id="harftet-4-players-1-hand"),
        pytest.param("harftet", 2, 2, 7, id="harftet-2-players-2-hands"),
        pytest.param("kastet", 2, 2, 7, id="kastet-2-players-2-hands"),
    ],
)
def test_a_whole_game_played_over_http_is_scored_by_the_rules(
    local_stack: str, closing: list[Player], game: str, seats: int, hands: int, seed: int
) -> None:
    started = time.monotonic()
    names = ["Ayşe", "Barış", "Cem", "Deniz"][:seats]
    players, view = seated_table(local_stack, game, names, hands=hands, seed=seed)
    closing.extend(players)
    table_id = view["tableId"]
    view = players[0].start(table_id)
    assert view["status"] == "playing" and view["handNumber"] == 1
    assert len(view["hand"]) == 14

    state = Game(players, table_id)
    final = state.play_to_the_end()
    assert final["status"] == "finished"
    assert final["turn"] is None
    assert state.kinds.get("draw", 0) > 0

    finals = [player.table(table_id) for player in players]
    for seat, mine in enumerate(finals):
        assert mine["seat"] == seat
        assert mine["version"] == final["version"]
        assert mine["seats"][seat]["tiles"] == len(mine["hand"])
        assert mine["hand"] == state.last_hand[(seat, hands)]  # the pass changed nothing
    # Every tile is in exactly one place: the hands, the table, the pile.
    hand_ids = [t["id"] for mine in finals for t in mine["hand"]]
    on_table = table_tile_ids(final)
    assert len(hand_ids) == len(set(hand_ids))
    assert not set(hand_ids) & on_table
    assert len(hand_ids) + len(on_table) + final["pile"] == TILE_COUNT

    # Per hand: the finisher −50, every other seat the values left in its hand.
    results = final["handResults"]
    assert [r["hand"] for r in results] == list(range(1, hands + 1))
    for result in results:
        number, finisher = result["hand"], result["finisher"]
        left = [state.last_hand[(seat, number)] for seat in range(seats)]
        if finisher is not None:
            assert left[finisher] == []
        else:  # a blocked hand: everybody was at the cap or the pile was empty
            assert all(len(tiles) == 22 for tiles in left) or state.last_pile[number] == 0
        expected = [
            FINISH_PENALTY if seat == finisher else sum(hand_value(game, t) for t in tiles)
            for seat, tiles in enumerate(left)
        ]
        assert result["penalties"] == expected, (number, finisher)

    totals = [sum(r["penalties"][seat] for r in results) for seat in range(seats)]
    assert [s["penalty"] for s in final["seats"]] == totals
    points = ranking_points(totals, hands, game)
    assert final["result"]["penalties"] == totals
    assert final["result"]["points"] == points
    assert sum(points) == 0 or len(set(totals)) < seats

    for player, gained in zip(players, points, strict=True):
        profile = players[0].profile(player.id)
        assert profile["rating"] == 1000 + gained, (player, totals, points)
        assert profile["gamesPlayed"] == 1
        assert profile["gamesAbandoned"] == 0
    elapsed = time.monotonic() - started
    print(f"{game} {seats}p {hands}h: {state.moves} moves {state.kinds} in {elapsed:.1f} s")
    assert elapsed < 300  # a hang guard only: speed is measured in bench/, not timed in tests
