"""The in-memory fakes (tests/fakes) behave as the DynamoDB adapters do on the cases the app
relies on: each body runs on moto and on the fakes (the ``stores`` fixture, tests/store's
conftest). Here the tables and the players: optimistic locking, move ids, what a save writes
beside the table, the deadline index and the lobby, the manager's and the holders' limits."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from store_kit import NOW, correspondence, seated, started, waiting

from harftet.engine import table as life
from harftet.engine.effects import RatingChange
from harftet.engine.state import Occupant
from harftet.errors import NotFoundError
from harftet.store.errors import HeldLimitError, VersionConflictError
from harftet.store.holdings import ADDS, HELD
from harftet.store.table_items import MOVES_KEPT, WAITING_SECONDS
from harftet.store.writes import Commit, HoldWrite, RatingWrite, ReleaseWrite


def test_a_lost_save_raises_a_conflict_carrying_the_current_item(stores):
    tables = stores.tables
    tables.create(waiting())
    first = tables.get("t-fake")
    sat = seated(first.table)
    tables.save(first, sat, Commit(move_id="p1:m1"))
    with pytest.raises(VersionConflictError) as conflict:
        tables.save(first, life.sit(first.table, 1, Occupant("p2", "Can"), NOW).table)
    current = conflict.value.current
    assert current is not None and current.version == 2
    assert len(current.moves) == 1 and current.moves["p1:m1"] == 2
    assert tables.get("t-fake").table == sat
    with pytest.raises(NotFoundError):
        tables.get("nope")
    with pytest.raises(NotFoundError):
        tables.get("x" * 65)


def test_a_new_table_never_overwrites_one_with_its_id(stores):
    stores.tables.create(waiting(manager="p0"))
    with pytest.raises(ClientError) as refused:
        stores.tables.create(waiting(manager="p9"))
    assert refused.value.response["Error"]["Code"] == "ConditionalCheckFailedException"
    assert stores.tables.get("t-fake").table.manager == "p0"


def test_many_new_tables_at_once_are_made_once_and_never_overwrite_one(stores):
    """`create_all` (a tournament round's tables): more tables than one transaction takes,
    two of their ids made before (a seating done again) and left as they were; the answer
    names the tables this call made."""
    tables = stores.tables
    tables.create(waiting("t-03", manager="p0"))
    tables.create(waiting("t-30", manager="p0"))
    new = [waiting(f"t-{i:02}", manager="p9") for i in range(40)]
    assert tables.create_all(new) == {f"t-{i:02}" for i in range(40)} - {"t-03", "t-30"}
    assert [tables.get(f"t-{i:02}").table.manager for i in (3, 7, 30, 39)] == [
        "p0", "p9", "p0", "p9",
    ]  # fmt: skip
    assert tables.create_all(new) == set()
    assert tables.get("t-07").version == 1


def test_move_ids_are_kept_with_the_item_each_players_last_ones_only(stores):
    tables = stores.tables
    tables.create(waiting())
    stored = tables.get("t-fake")
    stored = tables.save(stored, stored.table, Commit(move_id="p1:only"))
    for i in range(MOVES_KEPT + 3):
        stored = tables.save(stored, stored.table, Commit(move_id=f"p0:m{i}"))
    moves = tables.get("t-fake").moves
    assert len(moves) == MOVES_KEPT + 1 and "p0:m0" not in moves
    assert moves[f"p0:m{MOVES_KEPT + 2}"] == stored.version
    assert "p0:m1" not in moves and f"p0:m{MOVES_KEPT + 1}" in moves
    assert moves["p1:only"] == 2  # another player's move is not pushed out by p0's


def test_the_socket_answered_is_kept_for_its_version_only(stores):
    tables = stores.tables
    tables.create(waiting())
    stored = tables.save(tables.get("t-fake"), waiting(), Commit(answered="sock-1"))
    assert stored.answered == "sock-1" and tables.get("t-fake").answered == "sock-1"
    tables.save(stored, stored.table)
    assert tables.get("t-fake").answered is None


def test_a_version_without_events_keeps_when_it_was_written_and_the_next_with_events_drops_it(
    stores,
):
    """Issue 40: the fan-out's base time for a delta after a hint (fanout.spectators.stored_at);
    a version whose last event tells it carries nothing more."""
    tables = stores.tables
    tables.create(waiting())
    first = tables.get("t-fake")
    playing = tables.save(first, started(first.table), Commit(now=NOW + 2))
    assert playing.table.recent and tables.get("t-fake").written_at is None
    quiet = playing.table.clone()
    quiet.recent = []  # a change the log does not show (a hint that spends the budget)
    hinted = tables.save(tables.get("t-fake"), quiet, Commit(now=NOW + 7.25))
    assert hinted.written_at == tables.get("t-fake").written_at == NOW + 7.25
    tables.save(hinted, started(first.table), Commit(now=NOW + 9))
    assert tables.get("t-fake").written_at is None


def test_the_version_asking_for_a_timer_is_kept_while_a_message_stands_for_the_deadline(stores):
    tables = stores.tables
    tables.create(waiting())
    assert tables.get("t-fake").due_version is None  # nothing timed while waiting
    first = tables.get("t-fake")
    playing = tables.save(first, started(first.table), Commit(now=NOW + 2))
    assert tables.get("t-fake").due_version == 2
    again = tables.save(playing, playing.table, Commit(now=NOW + 3))  # the deadline stays
    assert tables.get("t-fake").due_version == 2
    asked = tables.get("t-fake").timer_due
    assert asked == int((again.table.deadline or 0) * 1000)  # the message the start asked for
    later = again.table.clone()
    later.deadline = (later.deadline or 0) + 5
    leaning = tables.save(again, later, Commit(now=NOW + 4))
    # a later deadline leans on the message due before it: no version asks, none is sent
    assert tables.get("t-fake").due_version == 2 and tables.get("t-fake").timer_due == asked
    sooner = leaning.table.clone()
    sooner.deadline = NOW + 6  # a computer player's second: a message of its own
    own = tables.save(leaning, sooner, Commit(now=NOW + 5))
    assert tables.get("t-fake").due_version == 5 and tables.get("t-fake").timer_due == asked
    past = own.table.clone()
    past.deadline = asked / 1000 + 30  # once the asked message is near, a move asks again
    tables.save(own, past, Commit(now=asked / 1000 - 1))
    assert tables.get("t-fake").due_version == 6
    assert tables.get("t-fake").timer_due == int(past.deadline * 1000)


def test_rating_updates_land_with_the_save_or_not_at_all(stores):
    tables, players = stores.tables, stores.players
    players.create("p0", "Ayşe", 1000)
    tables.create(waiting())
    first = tables.get("t-fake")
    leave = RatingChange("p0", -4, "leave")
    tables.save(first, first.table, Commit(writes=[RatingWrite(leave, None)], now=1000))
    after = players.get("p0")
    assert int(after["rating"]) == 996 and int(after["gamesAbandoned"]) == 1
    # read before that abandon: the condition on the abandons list fails, nothing is written
    second = tables.get("t-fake")
    with pytest.raises(VersionConflictError) as conflict:
        tables.save(second, second.table, Commit(writes=[RatingWrite(leave, None)], now=1001))
    assert conflict.value.current is None  # a player changed: redo it all from a fresh read
    assert tables.get("t-fake").version == 2 and int(players.get("p0")["rating"]) == 996
    game = RatingChange("p0", 10, "game")
    tables.save(second, second.table, Commit(writes=[RatingWrite(game, after)], now=1002))
    assert int(players.get("p0")["rating"]) == 1006 and int(players.get("p0")["gamesPlayed"]) == 1


def test_a_third_abandon_in_a_day_bans(stores):
    tables, players = stores.tables, stores.players
    players.create("p0", "Ayşe", NOW)
    tables.create(waiting())
    for i in range(3):
        read = players.get("p0")
        stored = tables.get("t-fake")
        leave = RatingWrite(RatingChange("p0", -2, "leave"), read)
        tables.save(stored, stored.table, Commit(writes=[leave], now=NOW + i))
    after = players.get("p0")
    assert int(after["gamesAbandoned"]) == 3 and int(after["bannedUntil"]) > NOW + 2
    assert [int(t) for t in after["abandons"]] == [int(NOW), int(NOW) + 1, int(NOW) + 2]


def test_players_are_made_once_and_read_by_their_own_id_only(stores):
    players = stores.players
    made = players.create("p0", "Ayşe", NOW)
    with pytest.raises(ClientError):
        players.create("p0", "Başka", NOW)
    found = players.get("p0")
    assert found["name"] == "Ayşe" and int(found["rating"]) == 1000 == int(made["rating"])
    assert int(found["gamesPlayed"]) == int(found["gamesAbandoned"]) == 0
    for unknown in ("p1", "", "x" * 65, "profile#p0"):
        with pytest.raises(NotFoundError):
            players.get(unknown)
        assert not players.exists(unknown)
    assert players.exists("p0")


def test_writes_on_a_player_who_is_gone_leave_no_player(stores):
    tables, players = stores.tables, stores.players
    tables.create(waiting())
    stored = tables.get("t-fake")
    game = RatingWrite(RatingChange("gone", -10, "game"))
    stored = tables.save(
        stored, stored.table, Commit(writes=[game, ReleaseWrite("gone", "t-x")], now=NOW)
    )
    with pytest.raises(NotFoundError):
        players.get("gone")  # a count and no name: no player
    assert not players.exists("gone")
    with pytest.raises(VersionConflictError):  # nobody to hold a table
        tables.save(
            stored, stored.table, Commit(writes=[HoldWrite("nobody", "t-fake", 20)], now=NOW)
        )
    assert tables.get("t-fake").version == stored.version


def test_a_held_table_is_added_within_the_limit_and_released_with_a_rating(stores):
    tables, players = stores.tables, stores.players
    players.create("p0", "Ayşe", NOW)
    tables.create(waiting())
    stored = tables.get("t-fake")
    for table_id in ("a", "b"):
        stored = tables.save(stored, stored.table, Commit(writes=[HoldWrite("p0", table_id, 2)]))
    assert set(players.get("p0")[HELD]) == {"a", "b"} and int(players.get("p0")[ADDS]) == 2
    with pytest.raises(VersionConflictError):
        tables.save(stored, stored.table, Commit(writes=[HoldWrite("p0", "c", 2)]))
    assert tables.get("t-fake").version == stored.version  # refused: nothing written
    # a game's end on one player: the points and the release go together
    end = [RatingWrite(RatingChange("p0", 7, "game")), ReleaseWrite("p0", "a")]
    stored = tables.save(stored, stored.table, Commit(writes=end, now=NOW))
    after = players.get("p0")
    assert set(after[HELD]) == {"b"} and int(after["rating"]) == 1007
    tables.save(stored, stored.table, Commit(writes=[ReleaseWrite("p0", "b")]))
    assert players.get("p0").get(HELD) is None  # an empty set is no set


def test_the_due_index_finds_tables_whose_deadline_passed(stores):
    tables = stores.tables
    tables.create(waiting(turn_seconds=30))
    assert tables.next_due() is None and tables.due(NOW + 10**6) == []
    stored = tables.get("t-fake")
    playing = started(stored.table, now=1002)
    stored = tables.save(stored, playing, Commit(now=1002))
    deadline = playing.deadline
    assert deadline is not None
    assert tables.due(deadline - 1) == [] and tables.due(deadline + 1) == ["t-fake"]
    assert tables.next_due() == pytest.approx(deadline, abs=0.001)
    assert tables.due_between(deadline - 10, deadline) == [(pytest.approx(deadline), "t-fake")]
    assert tables.due_between(deadline, deadline + 10) == []  # (start, end]
    assert tables.due_between(deadline - 20, deadline - 10) == []


def test_the_due_index_lists_the_earliest_first_up_to_the_limit(stores):
    tables = stores.tables
    for i, seconds in enumerate([50, 20, 40]):
        table_id = f"t-{i}"
        tables.create(waiting(table_id, f"m{i}", turn_seconds=seconds))
        stored = tables.get(table_id)
        tables.save(stored, started(stored.table, now=NOW), Commit(now=NOW))
    assert tables.due(NOW + 60) == ["t-1", "t-2", "t-0"]
    assert tables.due(NOW + 60, limit=2) == ["t-1", "t-2"]
    assert [t for _, t in tables.due_between(NOW, NOW + 60, limit=2)] == ["t-1", "t-2"]


def _lobby(tables: Any, status: str, now: float = NOW, limit: int = 50) -> list[list[str]]:
    """Every page of a lobby list, as table ids."""
    pages, after = [], None
    while True:
        found, after = tables.lobby_page(status, now, limit, after)
        pages.append([t.table_id for t in found])
        if after is None:
            return pages


def test_the_lobby_lists_each_kind_newest_first_in_pages(stores):
    tables = stores.tables
    for i in range(5):
        tables.create(waiting(f"w{i}", f"m{i}", now=NOW + i))
    tables.create(correspondence("c0", "m9", now=NOW))
    tables.create(waiting("private", "m8", private=True))
    tables.create(waiting("playing", "m7"))
    stored = tables.get("playing")
    tables.save(stored, started(stored.table), Commit(now=NOW + 2))
    assert _lobby(tables, "waiting", NOW + 10, limit=2) == [["w4", "w3"], ["w2", "w1"], ["w0"]]
    assert _lobby(tables, "waiting", NOW + 10) == [["w4", "w3", "w2", "w1", "w0"]]
    assert _lobby(tables, "c:waiting", NOW + 10) == [["c0"]]
    assert _lobby(tables, "playing", NOW + 10) == [["playing"]]
    assert _lobby(tables, "open", NOW + 10) == [[]] and _lobby(tables, "c:playing") == [[]]
    # a day after they were made, waiting tables have left the lobby
    assert _lobby(tables, "waiting", NOW + WAITING_SECONDS + 2.5) == [["w4", "w3"]]


def test_a_manager_makes_tables_up_to_the_limit_of_waiting_ones(stores):
    tables = stores.tables
    stores.players.create("m", "Ayşe", NOW)
    for i in range(3):
        assert tables.create_within_limit(waiting(f"w{i}", "m"), 3, NOW) == 1
    assert tables.create_within_limit(waiting("w3", "m"), 3, NOW) is None
    with pytest.raises(NotFoundError):
        tables.get("w3")  # refused: nothing written
    assert tables.create_within_limit(waiting("other", "n"), 3, NOW) == 1  # theirs are theirs
    # one that started no longer waits: room for another
    stored = tables.get("w0")
    tables.save(stored, started(stored.table), Commit(now=NOW + 2))
    assert tables.create_within_limit(waiting("w4", "m"), 3, NOW + 3) == 1
    # and those a day old no longer count
    later = NOW + WAITING_SECONDS + 10
    for i in range(3):
        assert tables.create_within_limit(waiting(f"x{i}", "m", now=later), 3, later) == 1


def test_a_correspondence_table_made_is_held_by_its_manager_up_to_the_most(stores):
    tables, players = stores.tables, stores.players
    players.create("m", "Ayşe", NOW)
    assert tables.create_within_limit(correspondence("c0", "m"), 3, NOW) == 1
    assert set(players.get("m")[HELD]) == {"c0"} and int(players.get("m")[ADDS]) == 1
    assert tables.held_count("m", NOW) == 1
    assert tables.create_within_limit(waiting("live", "m"), 3, NOW) == 1  # not held
    assert set(players.get("m")[HELD]) == {"c0"}
    # at the most anybody may hold (MAX_HELD, 20): refused, and nothing written
    for i in range(1, 20):
        assert tables.create_within_limit(correspondence(f"c{i}", "m"), 30, NOW) == 1
    assert tables.held_count("m", NOW) == 20
    with pytest.raises(HeldLimitError) as refused:
        tables.create_within_limit(correspondence("c20", "m"), 30, NOW)
    assert refused.value.held == 20 and len(players.get("m")[HELD]) == 20
    with pytest.raises(NotFoundError):
        tables.get("c20")


def test_held_ids_no_longer_held_are_dropped_at_the_limit_only(stores):
    tables, players = stores.tables, stores.players
    players.create("p", "Ayşe", NOW)
    tables.create(correspondence("c0", "m"))
    stored = tables.get("c0")
    holding = seated(stored.table, "p")
    stored = tables.save(stored, holding, Commit(writes=[HoldWrite("p", "c0", 20)]))
    stored = tables.save(stored, holding, Commit(writes=[HoldWrite("p", "gone", 20)]))
    assert tables.held_count("p", NOW) == 2  # below the limit: the set as it is
    assert tables.held_count("p", NOW, limit=2) == 1  # at it: "gone" has no table
    assert set(players.get("p")[HELD]) == {"c0"}
    # a day after it was made, a table still waiting is held by nobody
    assert tables.held_count("p", NOW + WAITING_SECONDS + 1, limit=1) == 0
    assert players.get("p").get(HELD) is None


def _tournament(tid: str = "a1b2c3d4e5f6", **more: Any) -> dict[str, Any]:
    return {
        "tournamentId": tid, "name": "Kupa", "game": "kastet", "seats": 4, "hands": 1,
        "rounds": 2, "round": 0, "status": "registering", "capacity": 4, "turnSeconds": 45,
        "opensAt": int(NOW) - 10, "startsAt": int(NOW) + 600, "entries": 0, "draw": "gizli",
        **more,
    }  # fmt: skip


def test_tournaments_enter_within_capacity_list_by_status_and_step_once(stores):
    """Tournament items (harftet.store.tournaments): entries within capacity and before the
    start, a list per status, each step only from the state it expects, a plan put once, a
    result written with a table's save and counted once, badges, a deleted player made
    anonymous in entries, plan and result, and forgotten."""
    from harftet.store.tournaments import ResultWrite

    t = stores.tournaments
    assert t.create(_tournament()) and not t.create(_tournament(name="again"))
    assert t.create(_tournament("0000000000aa", startsAt=int(NOW) + 60))
    entry = {"name": "Ayşe", "rating": 1000, "at": int(NOW)}
    assert [t.register("a1b2c3d4e5f6", f"p{i}", entry, NOW) for i in range(5)] == [True] * 4 + [
        False
    ]
    assert not t.register("a1b2c3d4e5f6", "p0", entry, NOW)  # entered already
    assert t.unregister("a1b2c3d4e5f6", "p3", NOW) and not t.unregister("a1b2c3d4e5f6", "p3", NOW)
    assert not t.register("a1b2c3d4e5f6", "p9", entry, NOW + 600)  # started
    assert sorted(t.entrants("a1b2c3d4e5f6")) == ["p0", "p1", "p2"]
    assert t.get("a1b2c3d4e5f6")["entries"] == 3 and t.entry("a1b2c3d4e5f6", "p3") is None
    listed, _ = t.page("registering", 10)
    assert [i["tournamentId"] for i in listed] == ["0000000000aa", "a1b2c3d4e5f6"]
    first, after = t.page("registering", 1)
    rest, _ = t.page("registering", 1, after)
    assert [i["tournamentId"] for i in first + rest] == ["0000000000aa", "a1b2c3d4e5f6"]
    assert [i["tournamentId"] for i in t.due("registering", NOW + 100)] == ["0000000000aa"]
    claim = {"status": "running", "round": 1, "phase": "seating"}
    assert t.step("a1b2c3d4e5f6", {"status": "registering"}, claim)
    assert not t.step("a1b2c3d4e5f6", {"status": "registering"}, claim)
    assert [i["tournamentId"] for i in t.page("running", 10)[0]] == ["a1b2c3d4e5f6"]
    assert t.put_plan("a1b2c3d4e5f6", 1, [["p0", "p1", "p2"]]) == [["p0", "p1", "p2"]]
    assert t.put_plan("a1b2c3d4e5f6", 1, [["p2"]]) == [["p0", "p1", "p2"]]
    assert t.proofs("a1b2c3d4e5f6", 1) == []
    t.put_proofs("a1b2c3d4e5f6", 1, ["ab" * 32])
    t.put_proofs("a1b2c3d4e5f6", 1, ["cd" * 32])  # once: the first stays
    assert t.proofs("a1b2c3d4e5f6", 1) == ["ab" * 32]
    assert t.plans("a1b2c3d4e5f6", 2) == {
        1: {"tables": [["p0", "p1", "p2"]], "proofs": ["ab" * 32]}
    }
    stores.tables.create(started(waiting()))
    stored = stores.tables.get("t-fake")
    result = ResultWrite("a1b2c3d4e5f6", 1, 0, ("p0", "p1", "p2", ""), (5, 9, 9, 30), 1234)
    stores.tables.save(stored, stored.table, Commit(writes=[result]))
    [found] = t.results("a1b2c3d4e5f6", 1, 3)
    assert (found["players"], found["penalties"], found["endedMs"]) == (
        ["p0", "p1", "p2", ""], [5, 9, 9, 30], 1234,
    )  # fmt: skip
    assert t.count("a1b2c3d4e5f6", 1, 0) and not t.count("a1b2c3d4e5f6", 1, 0)
    assert not t.count("a1b2c3d4e5f6", 1, 1)  # no result: nothing counted
    assert t.ended("a1b2c3d4e5f6", 1) == 1 and t.ended("a1b2c3d4e5f6", 2) == 0
    t.award("p0", "a1b2c3d4e5f6", "Kupa", 1)
    assert t.of_player("p0") == {
        "ids": ["a1b2c3d4e5f6"], "badges": {"a1b2c3d4e5f6": {"name": "Kupa", "place": 1}},
    }  # fmt: skip
    gone = {"name": "Silinmiş oyuncu", "rating": 1000, "at": 0}
    t.anonymise("a1b2c3d4e5f6", "p0", "deleted-1", gone, 2)  # a deleted player's id goes
    t.anonymise("a1b2c3d4e5f6", "p0", "deleted-2", gone, 2)  # again: nothing more changes
    assert sorted(t.entrants("a1b2c3d4e5f6")) == ["deleted-1", "p1", "p2"]
    assert t.entry("a1b2c3d4e5f6", "deleted-1") == gone
    assert t.plan("a1b2c3d4e5f6", 1) == [["deleted-1", "p1", "p2"]]
    [found] = t.results("a1b2c3d4e5f6", 1, 3)
    assert (found["players"], found["penalties"], found["counted"]) == (
        ["deleted-1", "p1", "p2", ""], [5, 9, 9, 30], True,
    )  # fmt: skip
    t.forget("p0")
    assert t.of_player("p0") == {"ids": [], "badges": {}}
