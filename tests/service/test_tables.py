"""The REST use cases over in-process moto: creating, sitting, starting, moving."""

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
from harftet.engine.state import Placed
from harftet.errors import BadRequestError, BannedError, StaleVersionError


def test_a_new_player_starts_at_1000_and_their_token_names_them(service):
    created = service.create_player("Ayşe")
    assert created["rating"] == 1000 and created["name"] == "Ayşe"
    assert service.tokens.verify(created["token"]).player_id == created["playerId"]
    assert service.player(created["playerId"])["gamesPlayed"] == 0


def test_the_creator_manages_the_table_from_seat_0_and_it_shows_in_the_lobby(service):
    ayse = player(service, "Ayşe")
    view = service.create_table(
        ayse, game="harftet", seats=3, hands=5, partners=False, turn_seconds=30
    )
    assert view["manager"] == ayse.player_id and view["seat"] == 0
    assert view["status"] == "waiting" and view["version"] == 1
    assert [s and s["playerId"] for s in view["seats"]] == [ayse.player_id, None, None]
    lobby = service.lobby()
    assert [t["tableId"] for t in lobby["tables"]] == [view["tableId"]]
    assert lobby["cursor"] is None
    assert "seed" not in str(view).lower()


def test_a_seed_is_refused_outside_test_mode(service):
    service.test_mode = False
    with pytest.raises(BadRequestError, match="test mode"):
        service.create_table(
            player(service, "A"),
            game="kastet",
            seats=2,
            hands=1,
            partners=False,
            turn_seconds=45,
            seed=3,
        )


def test_a_taken_seat_cannot_be_taken_again(service):
    a, b = player(service, "A"), player(service, "B")
    table_id = service.create_table(
        a, game="kastet", seats=2, hands=1, partners=False, turn_seconds=45
    )["tableId"]
    with pytest.raises(SeatTakenError):
        service.sit(b, table_id, 0)
    assert service.view(a, table_id)["version"] == 1


def test_only_the_manager_starts_and_only_with_every_seat_taken(service):
    a, b = player(service, "A"), player(service, "B")
    table_id = service.create_table(
        a, game="kastet", seats=2, hands=1, partners=False, turn_seconds=45
    )["tableId"]
    with pytest.raises(WrongStatusError, match="seat 1"):
        service.start(a, table_id)
    service.sit(b, table_id, 1)
    with pytest.raises(NotManagerError):
        service.start(b, table_id)
    view = service.start(a, table_id)
    assert view["status"] == "playing" and len(view["hand"]) == 14


def test_each_player_sees_only_their_own_hand(service):
    table_id, callers = full_table(service)
    views = [service.view(c, table_id) for c in callers]
    hands = [{t["id"] for t in v["hand"]} for v in views]
    for i, view in enumerate(views):
        assert [s["tiles"] for s in view["seats"]] == [14, 14, 14, 14]
        others = set().union(*(h for j, h in enumerate(hands) if j != i))
        assert not others & {t["id"] for t in view["hand"]}
    spectator = service.view(player(service, "Seyirci"), table_id)
    assert "hand" not in spectator and spectator["pile"] == 106 - 56


def test_a_stale_version_is_rejected_with_the_current_view_and_nothing_changes(service):
    table_id, callers = full_table(service)
    caller, view = turn_player(service, table_id, callers)
    with pytest.raises(StaleVersionError) as stale:
        service.move(caller, table_id, view["version"] - 1, "m1", Draw())
    assert stale.value.view["version"] == view["version"]
    assert service.view(caller, table_id) == view


def test_a_repeated_move_id_returns_the_same_answer_and_changes_nothing(service):
    table_id, callers = full_table(service)
    caller, view = turn_player(service, table_id, callers)
    first = service.move(caller, table_id, view["version"], "draw-1", Draw())
    again = service.move(caller, table_id, view["version"], "draw-1", Draw())
    assert again == first and len(first["hand"]) == 15


def test_moving_out_of_turn_or_unseated_is_refused(service):
    table_id, callers = full_table(service)
    caller, view = turn_player(service, table_id, callers)
    other = next(c for c in callers if c != caller)
    with pytest.raises(NotYourTurnError):
        service.move(other, table_id, view["version"], "x", Draw())
    with pytest.raises(NotSeatedError):
        service.move(player(service, "Z"), table_id, view["version"], "y", Draw())
    assert service.view(caller, table_id) == view


def test_an_illegal_lay_names_the_problem_and_changes_nothing(service):
    table_id, callers = full_table(service)
    caller, view = turn_player(service, table_id, callers)
    mine = [t["id"] for t in view["hand"]][:2]
    with pytest.raises(IllegalMoveError):
        service.move(
            caller, table_id, view["version"], "l", Lay(((Placed(mine[0]), Placed(mine[1])),))
        )
    not_mine = next(i for i in range(104) if i not in {t["id"] for t in view["hand"]})
    with pytest.raises(IllegalMoveError, match=f"tile {not_mine}"):
        service.move(caller, table_id, view["version"], "l2", Lay(((Placed(not_mine),),)))
    with pytest.raises(IllegalMoveError):
        service.move(caller, table_id, view["version"], "p", Pass())
    assert service.view(caller, table_id) == view


def test_a_third_abandon_in_a_day_bans_the_player_from_sitting_down(service, clock):
    leaver = player(service, "Kaçak")
    for hands in (1, 11, 11):
        owner = player(service, "Sahip")
        table_id = service.create_table(
            owner, game="kastet", seats=2, hands=hands, partners=False, turn_seconds=45
        )["tableId"]
        service.sit(leaver, table_id, 1)
        service.start(owner, table_id)
        service.leave(leaver, table_id, 1)
        clock.advance(60)
    profile = service.player(leaver.player_id)
    assert profile["gamesAbandoned"] == 3
    assert profile["rating"] == 1000 - 2 - 22 - 22
    assert profile["bannedUntil"] == pytest.approx(clock.now - 60 + 2 * 3600, abs=1)
    other = service.create_table(
        player(service, "X"), game="kastet", seats=2, hands=1, partners=False, turn_seconds=45
    )["tableId"]
    with pytest.raises(BannedError) as banned:
        service.sit(leaver, other, 1)
    assert "sit down again" in str(banned.value)


def test_leaving_several_tables_at_once_cannot_dodge_the_ban(service, clock, monkeypatch):
    leaver = player(service, "Kaçak")
    tables = []
    for _ in range(3):
        owner = player(service, "Sahip")
        table_id = service.create_table(
            owner, game="kastet", seats=2, hands=1, partners=False, turn_seconds=45
        )["tableId"]
        service.sit(leaver, table_id, 1)
        service.start(owner, table_id)
        tables.append(table_id)
    # The three leaves race: each read the player before the others wrote.
    fresh = service.players.get(leaver.player_id)
    real_get = service.players.get
    stale_reads = iter([fresh, fresh])
    monkeypatch.setattr(
        service.players,
        "get",
        lambda pid: (
            next(stale_reads, None) or real_get(pid) if pid == leaver.player_id else real_get(pid)
        ),
    )
    for table_id in tables:
        service.leave(leaver, table_id, 1)
    profile = service.player(leaver.player_id)
    assert profile["gamesAbandoned"] == 3 and profile["rating"] == 1000 - 3 * 2
    assert profile["bannedUntil"] is not None  # all three abandons counted


def _kastet(service, caller):
    return service.create_table(
        caller, game="kastet", seats=2, hands=1, partners=False, turn_seconds=45
    )["tableId"]


def test_a_burst_of_creates_cannot_get_past_three_waiting_tables(service, monkeypatch):
    from harftet.errors import TooManyTablesError

    busy = player(service, "Acele")
    for _ in range(2):
        _kastet(service, busy)
    # Two requests read the player's list of tables before either wrote it.
    client = service.tables._client
    real_get = client.get_item
    stale = real_get(
        TableName=service.tables._players,
        Key={"playerId": {"S": busy.player_id}},
        ConsistentRead=True,
    )["Item"]
    reads = iter([stale])

    def get_item(**kwargs):
        item = next(reads, None) if kwargs["TableName"] == service.tables._players else None
        return {"Item": item} if item is not None else real_get(**kwargs)

    _kastet(service, busy)  # the third: fine
    monkeypatch.setattr(client, "get_item", get_item)
    with pytest.raises(TooManyTablesError):
        _kastet(service, busy)  # read two, found three when its write was refused
    assert len(service.lobby()["tables"]) == 3


def test_the_lobby_summary_names_the_vacant_seats(service):
    table_id, callers = full_table(service, seats=2)
    service.leave(callers[1], table_id, 1)
    [summary] = service.lobby("open")["tables"]
    assert summary["tableId"] == table_id and summary["vacant"] == [1]
    assert service.lobby("playing") == {"tables": [], "cursor": None}
