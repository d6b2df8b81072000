"""The sweeper handler (functions/sweeper/app.py) fed events/sweeper/scheduled.json: tables
whose turn deadline has passed are played for (a forced draw), the others are left alone."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def test_a_table_whose_turn_ran_out_is_played_for_and_one_not_due_is_untouched(api, sweeper, clock):
    due = api.game(turnSeconds=30)
    later = api.game(turnSeconds=600)
    waiting_owner = api.player()
    waiting = api.table(waiting_owner)["tableId"]
    sleeper, before = api.turn(due)
    untouched = {p.id: api.view(p, later.table_id) for p in later.players}
    waiting_before = api.view(waiting_owner, waiting)
    clock.advance(29)
    assert sweeper() == {"swept": 0}
    clock.advance(2)
    assert sweeper() == {"swept": 1}
    after = api.view(sleeper, due.table_id)
    assert after["version"] == before["version"] + 1
    assert len(after["hand"]) == 15 and after["pile"] == before["pile"] - 1  # a forced draw
    assert after["turn"]["seat"] != before["turn"]["seat"]
    assert after["turn"]["deadline"] == pytest.approx(clock.now + 30)
    assert {p.id: api.view(p, later.table_id) for p in later.players} == untouched
    assert api.view(waiting_owner, waiting) == waiting_before
    assert sweeper() == {"swept": 0}  # the new deadline is not due yet


def test_the_sweep_is_pushed_to_the_tables_sockets(api, ws, sweeper, clock, outbox):
    game = api.game(turnSeconds=10)
    for i, player in enumerate(game.players):
        ws("connect", token=player.token, tableId=game.table_id, connectionId=f"c{i}")
    _, before = api.turn(game)
    held = [api.view(player, game.table_id) for player in game.players]
    clock.advance(11)
    assert sweeper() == {"swept": 1}
    for i, player in enumerate(game.players):
        [pushed] = outbox.to(f"c{i}")
        assert pushed["type"] in ("table", "delta")
        assert outbox.view(f"c{i}", held[i])["version"] == before["version"] + 1
        assert outbox.view(f"c{i}", held[i]) == api.view(player, game.table_id)


def test_three_timeouts_in_a_row_show_the_sleeper_disconnected(api, sweeper, clock):
    game = api.game(turnSeconds=10)
    sleeper, _ = api.turn(game)
    seat = game.players.index(sleeper)
    for n in range(3):
        clock.advance(11)
        assert sweeper() == {"swept": 1}  # the sleeper times out
        mover, view = api.turn(game)
        assert mover != sleeper
        reply = api.move("move-draw", mover, game, view, f"m{n}")
        assert reply.status == 200
    assert api.view(game.players[0], game.table_id)["seats"][seat]["connected"] is False


def test_a_late_move_after_the_sweep_gets_409_with_the_swept_table(api, sweeper, clock):
    game = api.game(turnSeconds=30)
    sleeper, before = api.turn(game)
    clock.advance(31)
    assert sweeper() == {"swept": 1}
    reply = api.move("move-draw", sleeper, game, before, "late")
    assert reply.status == 409 and reply.body["error"]["code"] == "stale_version"
    assert len(reply.body["view"]["hand"]) == 15  # the server drew for them
    assert reply.body["view"] == api.view(sleeper, game.table_id)


def test_a_table_left_by_a_dropped_player_gets_a_computer_player_in_the_end(
    api, ws, sweeper, clock
):
    game = api.game()
    owner, guest = game.players
    ws("connect", token=guest.token, tableId=game.table_id, connectionId="c1")
    ws("disconnect", connectionId="c1")
    clock.advance(121)
    assert sweeper()["swept"] == 1  # the grace period ran out: the seat is offered
    view = api.view(owner, game.table_id)
    assert view["status"] == "paused" and view["seats"][1]["vacant"] is True
    clock.advance(121)
    assert sweeper()["swept"] == 1  # nobody came: a computer player sits
    view = api.view(owner, game.table_id)
    assert view["seats"][1]["bot"] is True and view["status"] in ("playing", "finished")
