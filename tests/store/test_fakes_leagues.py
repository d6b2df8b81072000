"""The skill map and the league items (harftet.store.writes SkillWrite, harftet.store.leagues)
over moto and in the fakes (tests/fakes/leagues.py, players.py): each written in a table's
save on the condition it states, a lost condition refusing the whole save; the roll-over's
conditional writes; every read a GetItem (tests/store/conftest.py runs each body on both)."""

from __future__ import annotations

from typing import Any

import pytest
from store_kit import NOW
from store_kit import save_writes as _save

from harftet.engine.effects import RatingChange
from harftet.store.errors import VersionConflictError
from harftet.store.leagues import Member, MemberWrite, OpenWrite, PlaceWrite
from harftet.store.writes import PlayerWrite, RatingWrite, SkillWrite

W = "2027-W02"


def _skill(stores: Any, pid: str) -> dict[str, Any]:
    found = stores.players.get(pid).get("skill") or {}
    return {g: {k: float(v) for k, v in r.items()} for g, r in found.items()}


def test_the_skill_map_is_written_with_the_rating_only_on_the_map_read(stores):
    stores.players.create("c1.a", "Ayşe", NOW)
    first = {"mu": 27.5, "sigma": 7.25, "games": 1}
    change = RatingWrite(RatingChange("c1.a", 5, "game"))
    _save(stores, [change, SkillWrite("c1.a", "kastet", None, first)])
    assert _skill(stores, "c1.a") == {"kastet": first}
    assert int(stores.players.get("c1.a")["rating"]) == 1005
    version = stores.tables.get("t-fake").version
    with pytest.raises(VersionConflictError):  # read before the first: the save is refused
        _save(stores, [SkillWrite("c1.a", "harftet", None, first)])
    assert stores.tables.get("t-fake").version == version
    read = stores.players.get("c1.a")["skill"]
    second = {"mu": 24.0, "sigma": 7.0, "games": 1}
    _save(stores, [SkillWrite("c1.a", "harftet", read, second)])
    assert _skill(stores, "c1.a") == {"kastet": first, "harftet": second}


def _join(pid: str, division: str, new: bool = True, points: int = 10) -> Member:
    return Member(pid, pid.upper(), points, 1000, new)


def test_a_division_is_made_joined_and_scored_in_a_tables_save(stores):
    leagues = stores.leagues
    assert leagues.place("kastet", "p1") is None and leagues.opened("kastet", W, "bronz") is None
    _save(stores, [
        PlaceWrite("kastet", "p1", W, "bronz", "bronz-1", None),
        PlaceWrite("kastet", "p2", W, "bronz", "bronz-1", None),
        OpenWrite("kastet", W, "bronz", 1, 2, None),
        MemberWrite("kastet", W, "bronz-1", "bronz",
                    (_join("p1", "bronz-1"), _join("p2", "bronz-1", points=-10)), True, 99),
    ])  # fmt: skip
    assert leagues.opened("kastet", W, "bronz") == (1, 2)
    place = leagues.place("kastet", "p1")
    assert (place["week"], place["tier"], place["division"]) == (W, "bronz", "bronz-1")
    _save(stores, [
        PlaceWrite("kastet", "p3", W, "bronz", "bronz-1", None),
        OpenWrite("kastet", W, "bronz", 1, 3, (1, 2)),
        MemberWrite("kastet", W, "bronz-1", "bronz",
                    (_join("p3", "bronz-1"), Member("p1", "P1", 6, 2000, False)), False),
    ])  # fmt: skip
    division = leagues.division("kastet", W, "bronz-1")
    assert division["m"]["p1"] == {"name": "P1", "pts": 16, "g": 2, "at": 2000}
    assert division["m"]["p3"]["pts"] == 10 and division["v"] == 2
    (listed,) = leagues.divisions("kastet", W, ["bronz-1", "bronz-2"])
    assert listed["division"] == "bronz-1"
    for stale in (
        [OpenWrite("kastet", W, "bronz", 1, 4, (1, 2))],  # the count moved on
        [PlaceWrite("kastet", "p1", W, "gumus", "gumus-1", None)],  # p1 has a place
        [MemberWrite("kastet", W, "bronz-1", "bronz", (_join("p1", "bronz-1"),), False)],
        [MemberWrite("kastet", W, "bronz-1", "bronz", (_join("p9", "x"),), True)],  # exists
    ):
        with pytest.raises(VersionConflictError):
            _save(stores, stale)
    assert leagues.division("kastet", W, "bronz-1")["v"] == 2


def test_the_roll_over_writes_only_while_the_place_is_that_weeks(stores):
    leagues = stores.leagues
    _save(stores, [
        PlaceWrite("kastet", "p1", W, "bronz", "bronz-1", None),
        OpenWrite("kastet", W, "bronz", 1, 1, None),
        MemberWrite("kastet", W, "bronz-1", "bronz", (_join("p1", "bronz-1"),), True),
    ])  # fmt: skip
    assert leagues.earned("kastet", "p1", W, "gumus") is True
    assert leagues.place("kastet", "p1")["next"] == "gumus"
    assert leagues.earned("kastet", "p1", "2027-W01", "elmas") is False
    assert leagues.earned("kastet", "nobody", W, "elmas") is False
    assert leagues.mark_rolled("kastet", W, "bronz-1", 0) is False  # v is 1
    assert leagues.mark_rolled("kastet", W, "bronz-1", 1) is True
    with pytest.raises(VersionConflictError):  # a rolled division takes no more points
        _save(stores, [MemberWrite("kastet", W, "bronz-1", "bronz",
                                   (Member("p1", "P1", 6, 2000, False),), False)])  # fmt: skip
    assert not leagues.week_done("kastet", W)
    leagues.mark_done("kastet", W, 5)
    assert leagues.week_done("kastet", W)
    _save(stores, [PlaceWrite("kastet", "p1", "2027-W03", "gumus", "gumus-1", W)])
    assert "next" not in leagues.place("kastet", "p1")


def _week_of_two_divisions(stores: Any) -> None:
    """Two Gümüş divisions of 12 (points 12 … 1), as a week's game ends leave them."""
    for d in (1, 2):
        division = f"gumus-{d}"
        pids = [f"p{d}x{i:02d}" for i in range(12)]
        members = tuple(Member(p, p.upper(), 12 - i, 1000 + i, True) for i, p in enumerate(pids))
        writes: list[PlayerWrite] = [
            PlaceWrite("kastet", p, W, "gumus", division, None) for p in pids
        ]
        read = None if d == 1 else (1, 12)
        writes += [
            OpenWrite("kastet", W, "gumus", d, 12, read),
            MemberWrite("kastet", W, division, "gumus", members, True),
        ]
        _save(stores, writes)


def _places(stores: Any) -> dict[str, Any]:
    return {
        f"p{d}x{i:02d}": stores.leagues.place("kastet", f"p{d}x{i:02d}").get("next")
        for d in (1, 2)
        for i in range(12)
    }


def test_a_roll_over_that_dies_half_way_resumes_and_a_second_run_writes_nothing(stores):
    from harftet.leagues import Leagues
    from harftet.leagues.weeks import end_of

    _week_of_two_divisions(stores)
    leagues = Leagues(stores.leagues, lambda: end_of(W) + 60)
    leagues.roll_over.workers = 1
    real = stores.leagues.earned
    calls: list[Any] = []

    def dies(*args: Any) -> bool:
        calls.append(args)
        if len(calls) == 13:  # the second division, half-way
            raise RuntimeError("the function died here")
        return bool(real(*args))

    stores.leagues.earned = dies
    with pytest.raises(RuntimeError):
        leagues.roll_over(W)
    assert stores.leagues.division("kastet", W, "gumus-1").get("rolled") is True
    assert not stores.leagues.division("kastet", W, "gumus-2").get("rolled")
    stores.leagues.earned = real
    assert leagues.roll_over(W) == {"week": W, "status": "done", "divisions": 1, "players": 12}
    expected = {"altin"} | {None} | {"bronz"}
    assert set(_places(stores).values()) == expected
    for d in (1, 2):  # in each: the top 5 up, the bottom 5 down, the middle 2 stay
        moved = [_places(stores)[f"p{d}x{i:02d}"] for i in range(12)]
        assert moved == ["altin"] * 5 + [None] * 2 + ["bronz"] * 5
    written = []
    stores.leagues.earned = lambda *args: written.append(args) or True
    assert leagues.roll_over(W)["divisions"] == 0 and written == []


def test_a_players_league_data_is_read_and_forgotten_across_weeks(stores):
    leagues = stores.leagues
    w3 = "2027-W03"
    _save(stores, [
        PlaceWrite("kastet", "p1", W, "bronz", "bronz-1", None),
        PlaceWrite("kastet", "p2", W, "bronz", "bronz-1", None),
        OpenWrite("kastet", W, "bronz", 1, 2, None),
        MemberWrite("kastet", W, "bronz-1", "bronz",
                    (_join("p1", "bronz-1"), _join("p2", "bronz-1", points=-10)), True, 99),
    ])  # fmt: skip
    _save(stores, [
        PlaceWrite("kastet", "p1", w3, "gumus", "gumus-1", W),
        OpenWrite("kastet", w3, "gumus", 1, 1, None),
        MemberWrite("kastet", w3, "gumus-1", "gumus", (_join("p1", "gumus-1"),), True, 99),
    ])  # fmt: skip
    assert leagues.of_player("kastet", "nobody") is None
    mine = leagues.of_player("kastet", "p1")
    assert (mine["week"], mine["tier"], mine["division"]) == (w3, "gumus", "gumus-1")
    assert mine["divisions"] == [
        {"week": W, "division": "bronz-1", "name": "P1", "pts": 10, "g": 1, "at": 1000},
        {"week": w3, "division": "gumus-1", "name": "P1", "pts": 10, "g": 1, "at": 1000},
    ]  # her own entries only: p2's is not hers
    leagues.forget("kastet", "p1")
    leagues.forget("kastet", "p1")  # idempotent
    leagues.forget("kastet", "nobody")
    assert leagues.place("kastet", "p1") is None and leagues.of_player("kastet", "p1") is None
    assert list(leagues.division("kastet", W, "bronz-1")["m"]) == ["p2"]
    assert leagues.division("kastet", w3, "gumus-1")["m"] == {}
    assert leagues.place("kastet", "p2")["division"] == "bronz-1"
    assert leagues.division("kastet", W, "bronz-1")["v"] == 1  # the roll-over's v untouched
