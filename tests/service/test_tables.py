"""The REST use cases over the in-memory stores: creating, sitting, starting, moving."""

from __future__ import annotations

import pytest
from service_helpers import full_table, player, turn_player

from harftet.engine.errors import (
    IllegalMoveError,
    NotManagerError,
    NotSeatedError,
    NotYourTurnError,
    SeatTakenError,
    WrongStatusError,
)
from harftet.engine.moves import Draw, Lay, Pass
from harftet.engine.options import TableOptions
from harftet.engine.state import Placed
from harftet.errors import BadRequestError, BannedError, StaleVersionError


def test_a_new_player_starts_at_1000_and_their_token_names_them(app):
    created = app.guests.create_player("Ayşe")
    assert created["rating"] == 1000 and created["name"] == "Ayşe"
    assert app.tokens.verify(created["token"]).player_id == created["playerId"]
    assert app.guests.player(created["playerId"])["gamesPlayed"] == 0


def test_the_creator_manages_the_table_from_seat_0_and_it_shows_in_the_lobby(app):
    ayse = player(app, "Ayşe")
    view = app.tables.create_table(
        ayse, TableOptions(game="harftet", seats=3, hands=5, partners=False, turn_seconds=30)
    )
    assert view["manager"] == ayse.player_id and view["seat"] == 0
    assert view["status"] == "waiting" and view["version"] == 1
    assert [s and s["playerId"] for s in view["seats"]] == [ayse.player_id, None, None]
    lobby = app.tables.lobby()
    assert [t["tableId"] for t in lobby["tables"]] == [view["tableId"]]
    assert lobby["cursor"] is None
    assert "seed" not in str(view).lower()


def test_a_seed_is_refused_outside_test_mode(app):
    app.tables.test_mode = False
    with pytest.raises(BadRequestError, match="test mode"):
        app.tables.create_table(
            player(app, "A"),
            TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45),
            seed=3,
        )


def test_a_taken_seat_cannot_be_taken_again(app):
    a, b = player(app, "A"), player(app, "B")
    table_id = app.tables.create_table(
        a, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    )["tableId"]
    with pytest.raises(SeatTakenError):
        app.tables.sit(b, table_id, 0)
    assert app.tables.view(a, table_id)["version"] == 1


def test_only_the_manager_starts_and_only_with_every_seat_taken(app):
    a, b = player(app, "A"), player(app, "B")
    table_id = app.tables.create_table(
        a, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    )["tableId"]
    with pytest.raises(WrongStatusError, match="seat 1"):
        app.tables.start(a, table_id)
    app.tables.sit(b, table_id, 1)
    with pytest.raises(NotManagerError):
        app.tables.start(b, table_id)
    view = app.tables.start(a, table_id)
    assert view["status"] == "playing" and len(view["hand"]) == 14


def test_each_player_sees_only_their_own_hand(app):
    table_id, callers = full_table(app)
    views = [app.tables.view(c, table_id) for c in callers]
    hands = [{t["id"] for t in v["hand"]} for v in views]
    for i, view in enumerate(views):
        assert [s["tiles"] for s in view["seats"]] == [14, 14, 14, 14]
        others = set().union(*(h for j, h in enumerate(hands) if j != i))
        assert not others & {t["id"] for t in view["hand"]}
    spectator = app.tables.view(player(app, "Seyirci"), table_id)
    assert "hand" not in spectator and spectator["pile"] == 106 - 56


def test_a_stale_version_is_rejected_with_the_current_view_and_nothing_changes(app):
    table_id, callers = full_table(app)
    caller, view = turn_player(app, table_id, callers)
    with pytest.raises(StaleVersionError) as stale:
        app.tables.move(caller, table_id, view["version"] - 1, "m1", Draw())
    assert stale.value.view["version"] == view["version"]
    assert app.tables.view(caller, table_id) == view


def test_a_repeated_move_id_returns_the_same_answer_and_changes_nothing(app):
    table_id, callers = full_table(app)
    caller, view = turn_player(app, table_id, callers)
    first = app.tables.move(caller, table_id, view["version"], "draw-1", Draw())
    again = app.tables.move(caller, table_id, view["version"], "draw-1", Draw())
    assert again == first and len(first["hand"]) == 15


def test_moving_out_of_turn_or_unseated_is_refused(app):
    table_id, callers = full_table(app)
    caller, view = turn_player(app, table_id, callers)
    other = next(c for c in callers if c != caller)
    with pytest.raises(NotYourTurnError):
        app.tables.move(other, table_id, view["version"], "x", Draw())
    with pytest.raises(NotSeatedError):
        app.tables.move(player(app, "Z"), table_id, view["version"], "y", Draw())
    assert app.tables.view(caller, table_id) == view


def test_an_illegal_lay_names_the_problem_and_changes_nothing(app):
    table_id, callers = full_table(app)
    caller, view = turn_player(app, table_id, callers)
    mine = [t["id"] for t in view["hand"]][:2]
    with pytest.raises(IllegalMoveError):
        app.tables.move(
            caller, table_id, view["version"], "l", Lay(((Placed(mine[0]), Placed(mine[1])),))
        )
    not_mine = next(i for i in range(104) if i not in {t["id"] for t in view["hand"]})
    with pytest.raises(IllegalMoveError, match=f"tile {not_mine}"):
        app.tables.move(caller, table_id, view["version"], "l2", Lay(((Placed(not_mine),),)))
    with pytest.raises(IllegalMoveError):
        app.tables.move(caller, table_id, view["version"], "p", Pass())
    assert app.tables.view(caller, table_id) == view


def test_a_third_abandon_in_a_day_bans_the_player_from_sitting_down(app, clock):
    leaver = player(app, "Kaçak")
    for hands in (1, 11, 11):
        owner = player(app, "Sahip")
        table_id = app.tables.create_table(
            owner,
            TableOptions(game="kastet", seats=2, hands=hands, partners=False, turn_seconds=45),
        )["tableId"]
        app.tables.sit(leaver, table_id, 1)
        app.tables.start(owner, table_id)
        app.tables.leave(leaver, table_id, 1)
        clock.advance(60)
    profile = app.guests.player(leaver.player_id)
    assert profile["gamesAbandoned"] == 3
    assert profile["rating"] == 1000 - 2 - 22 - 22
    assert profile["bannedUntil"] == pytest.approx(clock.now - 60 + 2 * 3600, abs=1)
    other = app.tables.create_table(
        player(app, "X"),
        TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45),
    )["tableId"]
    with pytest.raises(BannedError) as banned:
        app.tables.sit(leaver, other, 1)
    assert "sit down again" in str(banned.value)


def test_leaving_several_tables_at_once_cannot_dodge_the_ban(app, clock, monkeypatch):
    leaver = player(app, "Kaçak")
    tables = []
    for _ in range(3):
        owner = player(app, "Sahip")
        table_id = app.tables.create_table(
            owner, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
        )["tableId"]
        app.tables.sit(leaver, table_id, 1)
        app.tables.start(owner, table_id)
        tables.append(table_id)
    # The three leaves race: each read the player before the others wrote.
    fresh = app.stores.players.get(leaver.player_id)
    real_get = app.stores.players.get
    stale_reads = iter([fresh, fresh])
    monkeypatch.setattr(
        app.stores.players,
        "get",
        lambda pid: (
            next(stale_reads, None) or real_get(pid) if pid == leaver.player_id else real_get(pid)
        ),
    )
    for table_id in tables:
        app.tables.leave(leaver, table_id, 1)
    profile = app.guests.player(leaver.player_id)
    assert profile["gamesAbandoned"] == 3 and profile["rating"] == 1000 - 3 * 2
    assert profile["bannedUntil"] is not None  # all three abandons counted


def test_the_lobby_summary_names_the_vacant_seats(app):
    table_id, callers = full_table(app, seats=2)
    app.tables.leave(callers[1], table_id, 1)
    [summary] = app.tables.lobby("open")["tables"]
    assert summary["tableId"] == table_id and summary["vacant"] == [1]
    assert app.tables.lobby("playing") == {"tables": [], "cursor": None}
