"""The profiles' fake (tests/fakes/profiles.py) against ``harftet.store.profiles`` over moto:
a profile rewritten only on the counter read, the boards' order, pages and neighbours, a
player's entries and their forgetting, reports and operator bans (tests/store/conftest.py
runs each body on both)."""

from __future__ import annotations

from typing import Any

import pytest
from store_kit import NOW, waiting

from harftet.errors import NotFoundError
from harftet.store.errors import VersionConflictError
from harftet.store.profiles import week_key
from harftet.store.writes import BoardWrite, Commit, PlayerWrite, ProfileWrite

WEEK = week_key(NOW)


def _save(stores: Any, writes: list[PlayerWrite]) -> None:
    """``writes`` with a save of the table t-fake (made on first use), as a game's end."""
    try:
        stored = stores.tables.get("t-fake")
    except NotFoundError:
        stores.tables.create(waiting())
        stored = stores.tables.get("t-fake")
    stores.tables.save(stored, stored.table, Commit(writes=writes, now=NOW))


def _board(stores: Any, scores: dict[str, int], period: str = "all") -> None:
    _save(stores, [BoardWrite("kastet", period, p, p.upper(), s) for p, s in scores.items()])


def _ids(entries: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(str(e["pid"]), int(e["score"])) for e in entries]


def test_a_profile_is_rewritten_only_on_the_counter_read(stores):
    profiles = stores.profiles
    assert profiles.profile("p0") is None
    _save(stores, [ProfileWrite("p0", None, {"n": 1, "played": 1, "h": b"\x01ab"})])
    found = profiles.profile("p0", consistent=True)
    assert int(found["n"]) == 1 and bytes(found["h"]) == b"\x01ab"
    version = stores.tables.get("t-fake").version
    for stale in (None, 0):  # no profile read, or an older one: the whole save is refused
        with pytest.raises(VersionConflictError) as conflict:
            _save(
                stores,
                [ProfileWrite("p0", stale, {"n": 9}), BoardWrite("kastet", "all", "p0", "A", 5)],
            )
        assert conflict.value.current is None
    assert (
        stores.tables.get("t-fake").version == version
        and profiles.entry("kastet", "all", "p0") is None
    )
    _save(stores, [ProfileWrite("p0", 1, {"n": 2, "games": ["x"]}, remove=("h",))])
    found = profiles.profile("p0", consistent=True)
    assert int(found["n"]) == 2 and "h" not in found and found["played"] == 1


def test_board_entries_add_up_and_keep_the_name_and_expiry(stores):
    _save(stores, [BoardWrite("kastet", WEEK, "p0", "Ayşe", 3, expires=int(NOW) + 99)])
    _save(stores, [BoardWrite("kastet", WEEK, "p0", "Ayşe K", -1)])
    entry = stores.profiles.entry("kastet", WEEK, "p0")
    assert int(entry["score"]) == 2 and entry["name"] == "Ayşe K" and entry["pid"] == "p0"
    assert int(entry["expiresAt"]) == int(NOW) + 99
    assert stores.profiles.entry("harftet", WEEK, "p0") is None
    assert stores.profiles.entry("kastet", "all", "p0") is None


def test_a_board_ranks_by_score_then_player_and_pages_after_a_cursor(stores):
    _board(stores, {"e": 5, "b": 9, "c": 5, "d": 1, "a": 5})  # ties by player id
    _board(stores, {"x": 100}, period=WEEK)  # another board
    profiles = stores.profiles
    first = profiles.top("kastet", "all", 3, None)
    assert _ids(first) == [("b", 9), ("a", 5), ("c", 5)]
    last = first[-1]
    rest = profiles.top("kastet", "all", 3, (int(last["score"]), str(last["pid"])))
    assert _ids(rest) == [("e", 5), ("d", 1)]
    assert profiles.top("harftet", "all", 3, None) == []


def test_a_rank_counts_the_scores_above_and_shows_the_neighbours(stores):
    _board(stores, {"a": 5, "b": 9, "c": 5, "d": 1, "e": 7, "f": 3})
    profiles = stores.profiles
    assert profiles.ahead("kastet", "all", 5) == 2 and profiles.ahead("kastet", "all", 9) == 0
    above, below = profiles.around("kastet", "all", 5, 1)
    assert _ids(above) == [("e", 7)] and _ids(below) == [("f", 3)]
    above, below = profiles.around("kastet", "all", 5, 5)
    assert _ids(above) == [("b", 9), ("e", 7)] and _ids(below) == [("f", 3), ("d", 1)]


def test_a_players_entries_and_reports_go_when_they_are_forgotten(stores):
    _board(stores, {"p0": 4, "p1": 2})
    _board(stores, {"p0": 3}, period=WEEK)
    _save(stores, [ProfileWrite("p0", None, {"n": 1})])
    profiles = stores.profiles
    profiles.add_report(
        {"reportId": "r1", "reporter": "p0", "kind": "insult"}, "report#t#1", "d", 5
    )
    found = [(e["game"], e["period"], int(e["score"])) for e in profiles.entries_of("p0", NOW)]
    assert found == sorted([("kastet", "all", 4), ("kastet", WEEK, 3)])
    assert profiles.forget("p0", NOW) == 4  # the profile, two entries, the reports filed
    assert profiles.profile("p0") is None and profiles.entries_of("p0", NOW) == []
    assert profiles.filed("p0") == [] and _ids(profiles.top("kastet", "all", 9, None)) == [
        ("p1", 2)
    ]
    assert profiles.forget("p0", NOW) == 0
    assert [r["reportId"] for r in profiles.reports("d", 9)] == ["r1"]  # the operator's record


def test_reports_are_listed_by_day_newest_first_and_filed_by_their_reporter(stores):
    profiles = stores.profiles
    for at, (rid, who) in enumerate([("r1", "p0"), ("r2", "p1"), ("r3", "p0")]):
        report = {"reportId": rid, "reporter": who, "reported": "px", "kind": "other"}
        profiles.add_report(report, f"report#t#{rid}", "2027-01-15", 100 + at)
    profiles.add_report({"reportId": "r9", "reporter": "p0"}, "report#t#r9", "2027-01-16", 1)
    listed = profiles.reports("2027-01-15", 2)
    assert [r["reportId"] for r in listed] == ["r3", "r2"] and listed[0]["reporter"] == "p0"
    filed = profiles.filed("p0")
    assert [f["reportId"] for f in filed] == ["r1", "r3", "r9"]
    assert all("reporter" not in f for f in filed) and filed[0]["reported"] == "px"
    assert profiles.reports("2027-01-14", 9) == []


def test_an_operator_bans_and_unbans_players_only(stores):
    stores.players.create("p0", "Ayşe", NOW)
    stores.profiles.set_ban("p0", True, NOW)
    assert int(stores.players.get("p0")["operatorBan"]) == int(NOW)
    stores.profiles.set_ban("p0", False, NOW)
    assert "operatorBan" not in stores.players.get("p0")
    for nobody in ("p1", "profile#p0", ""):
        with pytest.raises(NotFoundError):
            stores.profiles.set_ban(nobody, True, NOW)
