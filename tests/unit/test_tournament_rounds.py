"""The tournament's pure rules (RULES §8 "Tournaments"): tournament points per place with
ties sharing, standings with their tie-breaks, the even tables computer players fill, the
random first round from the tournament's own secret, Swiss rounds that never seat a group
twice when it can be avoided — examples, then properties over many tournaments."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from harftet.tournaments.standings import (
    BOT,
    Result,
    place_halves,
    podium,
    retired,
    shown,
    standings,
)
from harftet.tournaments.swiss import (
    first_round,
    groups_of,
    rng_for,
    swiss_round,
    table_sizes,
)


def test_places_give_3_2_1_0_and_2_0_and_ties_share():
    assert place_halves([10, 20, 30, 40]) == [6, 4, 2, 0]  # ×2: 3, 2, 1, 0
    assert place_halves([40, 30, 20, 10]) == [0, 2, 4, 6]
    assert place_halves([5, 5, 30, 40]) == [5, 5, 2, 0]  # 2.5 each for the shared first
    assert place_halves([5, 5, 5, 40]) == [4, 4, 4, 0]  # (3 + 2 + 1) / 3
    assert place_halves([7, 7, 7, 7]) == [3, 3, 3, 3]  # 1.5 each
    assert place_halves([3, 9]) == [4, 0] and place_halves([9, 9]) == [2, 2]


def test_standings_by_points_then_penalty_then_the_earlier_finish():
    results = [
        Result(1, 0, ("a", "b", BOT, "c"), (10, 20, 30, 40), 1000),
        Result(1, 1, ("d", "e", "f", BOT), (10, 20, 30, 40), 2000),
    ]
    rows = standings(["a", "b", "c", "d", "e", "f", "g"], results)
    # a and d: 3 points, penalty 10 — a finished earlier; g played nothing yet
    assert [r.player_id for r in rows] == ["a", "d", "b", "e", "f", "g", "c"]
    table = shown(rows, {"a": "Ayşe"})
    assert table[0] == {"rank": 1, "playerId": "a", "name": "Ayşe", "points": 3,
                        "penalty": 10, "tables": 1}  # fmt: skip
    assert [r["rank"] for r in table] == [1, 2, 3, 4, 5, 6, 7]
    assert podium(rows) == [("a", 1), ("d", 2), ("b", 3)]


def test_equal_standings_share_a_rank_and_a_leaver_is_out():
    results = [
        Result(1, 0, ("a", "b"), (5, 5), 1000),
        Result(1, 1, ("c", "d"), (5, 5), 1000, frozenset({"d"})),
    ]
    rows = standings(["a", "b", "c", "d"], results)
    assert [r["rank"] for r in shown(rows, {})] == [1, 1, 1]
    assert "d" not in [r.player_id for r in rows]  # left a table: out of the tournament
    assert [r.points for r in rows] == [1, 1, 1]


def test_the_podium_holds_everyone_ranked_one_to_three_and_an_entrant_out_is_not_listed():
    results = [Result(1, 0, ("a", "b", "c", "d"), (0, 10, 20, 20), 1000)]
    rows = standings(["a", "b", "c", "d", "e"], results)
    assert podium(rows) == [("a", 1), ("b", 2), ("c", 3), ("d", 3)]  # tied with the third
    tied_first = standings("abcd", [Result(1, 0, ("a", "b", "c", "d"), (5, 5, 5, 9), 1)])
    assert podium(tied_first) == [("a", 1), ("b", 1), ("c", 1)]  # the fourth is 4th
    entrants = {"a": {"name": "A"}, "b": {"name": "B", "out": True}, "e": {}}
    assert retired(entrants) == {"b"}
    assert [r.player_id for r in standings(entrants, results, retired(entrants))] == ["a", "e"]


def test_tables_are_as_even_as_can_be():
    assert table_sizes(5, 4) == [3, 2] and table_sizes(8, 4) == [4, 4]
    assert table_sizes(9, 4) == [3, 3, 3] and table_sizes(7, 2) == [2, 2, 2, 1]
    assert table_sizes(1, 4) == [1] and table_sizes(0, 4) == []
    assert len(table_sizes(1024, 4)) == 256


def test_the_draw_comes_from_the_tournaments_secret_and_is_the_same_when_redone():
    people = [f"p{i}" for i in range(12)]
    once = first_round(people, 4, rng_for("secret", "t1", 1))
    assert once == first_round(people, 4, rng_for("secret", "t1", 1))
    assert once != first_round(people, 4, rng_for("other", "t1", 1))
    assert once != first_round(people, 4, rng_for("secret", "t1", 2))


def test_swiss_seats_the_top_four_together_unless_they_met():
    ranked = [f"p{i}" for i in range(8)]
    assert swiss_round(ranked, 4, set()) == [ranked[:4], ranked[4:]]
    met = {frozenset(ranked[:4])}
    tables = swiss_round(ranked, 4, met)
    assert frozenset(tables[0]) not in met and tables[0][:3] == ranked[:3]
    assert sorted(tables[0] + tables[1]) == sorted(ranked)


def test_a_repeat_that_cannot_be_avoided_is_accepted():
    ranked = ["a", "b"]
    assert swiss_round(ranked, 2, {frozenset(ranked)}) == [["a", "b"]]


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, int, int, int]:
    seats = draw(st.sampled_from([2, 4]))
    people = draw(st.integers(min_value=1, max_value=70))
    rounds = draw(st.integers(min_value=1, max_value=4))
    return seats, people, rounds, draw(st.integers(0, 2**32))


def _play(seats: int, people: int, rounds: int, seed: int):
    """Rounds seated as the tournament seats them, each table ending at random."""
    rng = random.Random(seed)
    entrants = [f"p{i:03}" for i in range(people)]
    results: list[Result] = []
    met: set[frozenset[str]] = set()
    every: list[list[list[str]]] = []
    for r in range(1, rounds + 1):
        if r == 1:
            tables = first_round(entrants, seats, rng_for("s", "t", 1))
        else:
            tables = swiss_round([row.player_id for row in standings(entrants, results)],
                                 seats, met)  # fmt: skip
        every.append(tables)
        for i, table in enumerate(tables):
            players = tuple(table) + (BOT,) * (seats - len(table))
            penalties = tuple(rng.randint(0, 60) for _ in players)
            results.append(Result(r, i, players, penalties, rng.randint(0, 10**6)))
        met.update(groups_of(tables))
    return entrants, every, results


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_everyone_is_seated_exactly_once_each_round_and_tables_are_full(t):
    seats, people, rounds, seed = t
    entrants, every, _ = _play(seats, people, rounds, seed)
    for tables in every:
        seated = [p for table in tables for p in table]
        assert sorted(seated) == entrants
        assert all(1 <= len(table) <= seats for table in tables)
        assert max(map(len, tables)) - min(map(len, tables)) <= 1
        assert len(tables) == -(-people // seats)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_no_group_sits_together_twice_when_there_are_enough_people(t):
    seats, people, rounds, seed = t
    if people < 4 * seats:  # small fields may have to repeat
        return
    _, every, _ = _play(seats, people, rounds, seed)
    seen: set[frozenset[str]] = set()
    for tables in every:
        for group in groups_of(tables):
            assert group not in seen
            seen.add(group)


@settings(max_examples=100, deadline=None)
@given(tournaments())
def test_standings_equal_a_recomputation_from_the_results(t):
    seats, people, rounds, seed = t
    entrants, _, results = _play(seats, people, rounds, seed)
    rows = standings(entrants, results)
    for row in rows:
        mine = [(r, r.players.index(row.player_id)) for r in results
                if row.player_id in r.players]  # fmt: skip
        assert row.halves == sum(place_halves(r.penalties)[s] for r, s in mine)
        assert row.penalty == sum(r.penalties[s] for r, s in mine)
        assert row.tables == len(mine) == rounds
    keys = [(-r.halves, r.penalty, r.last_ms) for r in rows]
    assert keys == sorted(keys)
    shared = [sum(place_halves(r.penalties)) for r in results]
    scale = {4: 12, 2: 4}[seats]
    assert all(total == scale for total in shared)  # ties share: the points add up
