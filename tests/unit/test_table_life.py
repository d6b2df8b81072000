"""A table's life around the hands: creating, sitting, starting, leaving, presence, substitutes,
the turn timer and the sweeper (RULES.md §2-§4). Every transition goes through ``do``, which
also checks that the table it was given is left exactly as it was."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from engine_helpers import NOW, WORDS, arrange, k, lay, meld, play, rules_of

from harftet.engine import table as life
from harftet.engine.bot import choose_move
from harftet.engine.effects import Outcome, RatingChange
from harftet.engine.errors import (
    EngineError,
    NotManagerError,
    NotSeatedError,
    SeatTakenError,
    WrongStatusError,
)
from harftet.engine.hand import apply_move
from harftet.engine.moves import Draw, Pass, Ready
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant, Table

TURN = 45
GRACE = 120
WAIT = 120


def person(i: int | str, rating: int = 1000) -> Occupant:
    pid = f"p{i}" if isinstance(i, int) else i
    return Occupant(pid, f"Oyuncu {pid}", rating=rating)


def do(fn: Callable[..., Any], table: Table, *args: Any) -> Any:
    """Call a transition and check that it did not change the table it was given."""
    snapshot = copy.deepcopy(table)
    try:
        return fn(table, *args)
    finally:
        assert table == snapshot, f"{fn.__name__} changed its input table"


def created(game: str = "kastet", seats: int = 4, **kw: Any) -> Table:
    """A waiting table created by p0 (seat 0), nobody else seated."""
    options = TableOptions(game, seats=seats, **kw)  # type: ignore[arg-type]
    return life.new_table("t1", person(0), options, seed=7, now=NOW)


def waiting(game: str = "kastet", players: int = 4, **kw: Any) -> Table:
    """A waiting table with every seat taken by p0, p1, ..."""
    table = created(game, players, **kw)
    for i in range(1, players):
        table = do(life.sit, table, i, person(i), NOW).table
    return table


def started(game: str = "kastet", players: int = 4, **kw: Any) -> Table:
    """A game started at NOW by the manager p0."""
    return do(life.start, waiting(game, players, **kw), "p0", NOW).table


def swept(table: Table, now: float) -> Outcome:
    out = do(life.sweep, table, now)
    assert out is not None, f"nothing was due at {now}"
    return out


def time_out(table: Table) -> Table:
    """Let the clock reach the turn deadline; the sweep plays for the player in turn."""
    assert table.status == "playing" and table.deadline is not None
    return swept(table, table.deadline).table


RUN = [k("red", 1), k("red", 2), k("red", 3)]


# --- new_table ---------------------------------------------------------------------------


def test_the_creator_is_manager_at_seat_0_of_a_waiting_table_with_the_default_settings() -> None:
    table = created("harftet")
    assert table.status == "waiting" and table.manager == "p0"
    assert table.seats[0].occupant == person(0)
    assert [s.occupant for s in table.seats[1:]] == [None, None, None]
    assert (table.hands, table.turn_seconds, table.partners) == (11, 45, False)
    assert (table.grace_seconds, table.wait_seconds) == (GRACE, WAIT)
    assert table.hand_number == 0 and table.turn_seat is None and table.deadline is None
    assert table.created_at == NOW and table.seed == 7


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"seats": 1}, "seats must be between 2 and 4, not 1"),
        ({"seats": 5}, "seats must be between 2 and 4, not 5"),
        ({"hands": 0}, "hands must be between 1 and 21, not 0"),
        ({"hands": 22}, "hands must be between 1 and 21, not 22"),
        ({"turn_seconds": 9}, "turnSeconds must be between 10 and 600, not 9"),
        ({"turn_seconds": 601}, "turnSeconds must be between 10 and 600, not 601"),
        ({"break_seconds": 4}, "breakSeconds must be between 5 and 120, not 4"),
        ({"break_seconds": 121}, "breakSeconds must be between 5 and 120, not 121"),
        ({"grace_seconds": 29}, "graceSeconds must be between 30 and 600, not 29"),
        ({"wait_seconds": 601}, "waitSeconds must be between 30 and 600, not 601"),
        ({"hints": 0}, "hints must be between 1 and 20, not 0"),
        ({"hints": 21}, "hints must be between 1 and 20, not 21"),
        ({"hints": "unlimited"}, 'hints "unlimited" is only for unrated tables'),
        ({"pace": "correspondence"}, "turnSeconds of a correspondence table is one of 3600"),
        ({"partners": True, "seats": 3}, "a partner game needs exactly 4 seats"),
        ({"partners": True, "seats": 2}, "a partner game needs exactly 4 seats"),
        ({"game": "tavla"}, 'unknown game "tavla"'),
    ],
)
def test_a_table_outside_the_limits_is_refused_with_a_clear_message(
    settings: dict[str, Any], message: str
) -> None:
    options = TableOptions(**{"seats": 4, "game": "kastet", **settings})
    with pytest.raises(EngineError, match=message) as caught:
        life.new_table("t1", person(0), options, seed=1, now=NOW)
    assert caught.value.code == "bad_request"


@pytest.mark.parametrize(
    "settings",
    [
        {"seats": 2, "hands": 1, "turn_seconds": 10},
        {"seats": 4, "hands": 21, "turn_seconds": 600, "partners": True},
        {"seats": 3, "grace_seconds": 30, "wait_seconds": 600, "break_seconds": 5},
        {"seats": 3, "grace_seconds": 5, "wait_seconds": 7, "test_mode": True},
        {"seats": 2, "pace": "correspondence", "turn_seconds": 86400, "hints": 20},
        {"seats": 2, "rated": False, "hints": "unlimited", "break_seconds": 0, "test_mode": True},
    ],
)
def test_a_table_at_the_limits_is_accepted(settings: dict[str, Any]) -> None:
    test_mode = bool(settings.pop("test_mode", False))
    options = TableOptions("harftet", **settings)
    table = life.new_table("t1", person(0), options, seed=1, now=NOW, test_mode=test_mode)
    assert table.pace == settings.get("pace", "live") and table.rated == settings.get("rated", 1)
    assert table.break_seconds == settings.get("break_seconds", 20)
    assert table.hints == settings.get("hints", 3)
    assert len(table.seats) == settings["seats"]
    assert table.grace_seconds == settings.get("grace_seconds", GRACE)
    assert table.wait_seconds == settings.get("wait_seconds", WAIT)


# --- sit ---------------------------------------------------------------------------------


def test_a_player_sits_on_an_empty_seat_of_a_waiting_table() -> None:
    table = do(life.sit, created(), 2, person(1), NOW).table
    assert table.seats[2].occupant == person(1) and table.seat_of("p1") == 2
    assert table.status == "waiting"


def test_a_taken_seat_cannot_be_taken() -> None:
    table = waiting(players=2)
    with pytest.raises(SeatTakenError, match="seat 1 is taken by Oyuncu p1") as caught:
        do(life.sit, table, 1, person(9), NOW)
    assert caught.value.code == "seat_taken"


def test_a_player_may_change_seats_before_the_start() -> None:
    table = do(life.sit, created(), 1, person(1), NOW).table
    table = do(life.sit, table, 3, person(1), NOW).table
    assert table.seats[1].occupant is None and table.seats[3].occupant == person(1)


def test_sitting_twice_at_the_same_seat_changes_nothing() -> None:
    table = do(life.sit, created(), 1, person(1), NOW).table
    again = do(life.sit, table, 1, person(1), NOW + 5)
    assert again.table is table and again.effects == []


@pytest.mark.parametrize("seat", [-1, 4, 99])
def test_a_seat_that_does_not_exist_is_refused(seat: int) -> None:
    with pytest.raises(EngineError, match=f"seat {seat} does not exist: this table has seats 0-3"):
        do(life.sit, created(), seat, person(1), NOW)


def test_nobody_sits_at_a_finished_table() -> None:
    closed = do(life.leave, created(), "p0", NOW).table
    assert closed.status == "finished"
    with pytest.raises(WrongStatusError, match="the game is over"):
        do(life.sit, closed, 1, person(1), NOW)


def test_during_a_game_a_taken_seat_cannot_be_taken() -> None:
    table = started(players=2)
    with pytest.raises(SeatTakenError):
        do(life.sit, table, 1, person(9), NOW + 1)


def test_during_a_game_a_seated_player_cannot_move_to_a_vacant_seat() -> None:
    table = do(life.leave, started(players=3), "p1", NOW + 1).table
    with pytest.raises(WrongStatusError, match="you already play at seat 2"):
        do(life.sit, table, 1, person(2), NOW + 2)


def test_a_substitute_inherits_the_hand_and_penalty_and_the_table_waits_for_the_manager() -> None:
    table = started(players=3, hands=2)
    table.seats[1].penalty = 37  # as if a hand had been played
    hand = list(table.seats[1].hand)
    table = do(life.leave, table, "p1", NOW + 1).table
    table = do(life.sit, table, 1, person("sub", rating=1500), NOW + 2).table
    chair = table.seats[1]
    assert chair.occupant == person("sub", rating=1500)
    assert chair.hand == hand and chair.penalty == 37
    assert chair.original == person(1) and chair.original_fate == "left"
    assert chair.connected and chair.vacant_since is None
    assert table.status == "paused" and table.deadline is None
    assert life.next_event_at(table) is None  # only the manager's Continue goes on
    table = do(life.continue_game, table, "p0", NOW + 3).table
    assert table.status == "playing" and table.deadline == NOW + 3 + TURN


def test_the_original_player_who_dropped_takes_the_seat_back_and_play_resumes() -> None:
    table = started(players=2, turn_seconds=600)
    table = do(life.disconnect, table, "p1", NOW + 1).table
    table = swept(table, NOW + 1 + GRACE).table
    assert table.seats[1].occupant is None and table.status == "paused"
    table = do(life.sit, table, 1, person(1), NOW + 200).table
    chair = table.seats[1]
    assert chair.occupant == person(1) and chair.original_fate is None
    assert chair.connected and chair.vacant_since is None and chair.disconnected_at is None
    assert table.status == "playing" and table.deadline == NOW + 200 + 600


def test_a_returning_original_waits_for_the_other_vacant_seats() -> None:
    table = started(players=3, turn_seconds=600)
    table = do(life.disconnect, table, "p1", NOW + 1).table
    table = do(life.leave, table, "p2", NOW + 2).table
    table = swept(table, NOW + 1 + GRACE).table
    table = do(life.sit, table, 1, person(1), NOW + 130).table
    assert table.seats[1].occupant == person(1) and table.seats[2].occupant is None
    assert table.status == "paused" and table.deadline is None


def test_the_manager_seats_a_computer_player_and_nobody_else_may() -> None:
    table = do(life.seat_bot, created(), 2, "p0", NOW).table
    bot = table.seats[2].occupant
    assert bot is not None and bot.bot and bot.player_id == "bot:2" and bot.name == "Bilgisayar 3"
    table = do(life.sit, table, 1, person(1), NOW).table
    with pytest.raises(NotManagerError, match="only the table manager"):
        do(life.seat_bot, table, 3, "p1", NOW)


# --- start -------------------------------------------------------------------------------


def test_the_manager_starts_a_full_table_dealing_14_tiles_each() -> None:
    table = do(life.start, waiting("harftet", 3, hands=5), "p0", NOW)
    assert table.effects == []
    table = table.table
    assert table.status == "playing" and table.hand_number == 1
    assert [len(s.hand) for s in table.seats] == [14, 14, 14]
    assert len(table.pile) == 106 - 42
    assert table.turn_seat == 0 and table.deadline == NOW + TURN and not table.laid
    assert [s.original for s in table.seats] == [person(0), person(1), person(2)]
    assert all(s.original_fate is None and s.penalty == 0 for s in table.seats)


def test_the_same_seed_deals_the_same_game() -> None:
    assert started(players=2).seats[0].hand == started(players=2).seats[0].hand


def test_only_the_manager_starts() -> None:
    with pytest.raises(NotManagerError, match="only the table manager can start") as caught:
        do(life.start, waiting(players=2), "p1", NOW)
    assert caught.value.code == "not_manager"


def test_a_table_with_an_empty_seat_does_not_start() -> None:
    table = do(life.sit, created(seats=3), 2, person(2), NOW).table
    with pytest.raises(WrongStatusError, match="seat 1 is still empty: every seat must be taken"):
        do(life.start, table, "p0", NOW)


def test_a_game_starts_only_once() -> None:
    with pytest.raises(WrongStatusError, match="already started"):
        do(life.start, started(players=2), "p0", NOW + 1)


def test_computer_players_seated_before_the_start_play_from_the_first_turn() -> None:
    table = do(life.seat_bot, created(seats=2), 1, "p0", NOW).table
    table = do(life.start, table, "p0", NOW).table
    assert table.seats[1].original is not None and table.seats[1].original.bot
    assert not life.is_bot_turn(table)
    table = play(table, 0, Draw())
    assert life.is_bot_turn(table)
    paused = do(life.leave, table, "p0", NOW + 2).table
    assert not life.is_bot_turn(paused)


# --- leave -------------------------------------------------------------------------------


def test_leaving_a_waiting_table_empties_the_seat_and_costs_nothing() -> None:
    out = do(life.leave, waiting(players=3), "p1", NOW)
    assert out.effects == [] and out.table.seats[1].occupant is None
    assert out.table.status == "waiting"


def test_the_last_person_to_leave_a_waiting_table_closes_it() -> None:
    table = do(life.leave, waiting(players=2), "p0", NOW).table
    assert table.status == "waiting" and table.manager == "p1"
    out = do(life.leave, table, "p1", NOW)
    assert out.table.status == "finished" and out.effects == []


def test_leaving_during_a_game_costs_2n_and_leaves_the_seat_vacant_with_its_hand() -> None:
    table = started(players=4, hands=7)
    hand = list(table.seats[2].hand)
    out = do(life.leave, table, "p2", NOW + 10)
    assert out.effects == [RatingChange("p2", -14, "leave")]
    new = out.table
    chair = new.seats[2]
    assert chair.occupant is None and chair.hand == hand
    assert chair.original == person(2) and chair.original_fate == "left"
    assert chair.vacant_since == NOW + 10
    assert new.status == "paused" and new.deadline is None
    assert new.manager == "p0"


def test_eleven_hands_cost_a_leaver_22_points() -> None:
    out = do(life.leave, started(players=2, hands=11), "p1", NOW + 1)
    assert out.effects == [RatingChange("p1", -22, "leave")]


def test_a_substitute_who_leaves_pays_too_but_the_seat_stays_the_originals() -> None:
    table = do(life.leave, started(players=2, hands=3), "p1", NOW + 1).table
    table = do(life.sit, table, 1, person("sub"), NOW + 2).table
    out = do(life.leave, table, "sub", NOW + 3)
    assert out.effects == [RatingChange("sub", -6, "leave")]
    assert out.table.seats[1].original == person(1)
    assert out.table.seats[1].original_fate == "left"


def test_the_manager_who_leaves_hands_over_to_the_next_seated_human_skipping_bots() -> None:
    table = created()
    table = do(life.seat_bot, table, 1, "p0", NOW).table
    table = do(life.sit, table, 2, person(2), NOW).table
    table = do(life.sit, table, 3, person(3), NOW).table
    table = do(life.start, table, "p0", NOW).table
    table = do(life.leave, table, "p0", NOW + 1).table
    assert table.manager == "p2"
    table = do(life.leave, table, "p2", NOW + 2).table
    assert table.manager == "p3"


def test_the_manager_hand_over_wraps_round_the_seats() -> None:
    table = created()
    table = do(life.sit, table, 1, person(1), NOW).table
    table = do(life.sit, table, 2, person(2), NOW).table
    table = do(life.sit, table, 3, person(3), NOW).table
    table = do(life.leave, table, "p0", NOW).table  # p1 manages
    table = do(life.sit, table, 0, person(0), NOW).table
    table = do(life.leave, table, "p1", NOW).table
    assert table.manager == "p2"
    table = do(life.leave, table, "p3", NOW).table
    table = do(life.leave, table, "p2", NOW).table
    assert table.manager == "p0"


def test_nobody_manages_when_only_computer_players_are_left() -> None:
    table = do(life.seat_bot, created(seats=2), 1, "p0", NOW).table
    table = do(life.start, table, "p0", NOW).table
    assert do(life.leave, table, "p0", NOW + 1).table.manager is None


def test_a_player_who_does_not_sit_at_the_table_cannot_leave_it() -> None:
    with pytest.raises(NotSeatedError, match="you do not sit at this table") as caught:
        do(life.leave, started(players=2), "p9", NOW)
    assert caught.value.code == "not_seated"


# --- continue ----------------------------------------------------------------------------


def test_only_the_manager_continues() -> None:
    table = do(life.leave, started(players=3), "p1", NOW + 1).table
    table = do(life.sit, table, 1, person("sub"), NOW + 2).table
    with pytest.raises(NotManagerError, match="only the table manager can continue"):
        do(life.continue_game, table, "p2", NOW + 3)


def test_a_game_that_is_not_paused_cannot_be_continued() -> None:
    with pytest.raises(WrongStatusError, match=r"not paused \(status playing\)"):
        do(life.continue_game, started(players=2), "p0", NOW + 1)
    with pytest.raises(WrongStatusError, match=r"not paused \(status waiting\)"):
        do(life.continue_game, waiting(players=2), "p0", NOW + 1)


def test_a_game_with_a_vacant_seat_cannot_be_continued() -> None:
    table = do(life.leave, started(players=3), "p2", NOW + 1).table
    with pytest.raises(WrongStatusError, match="seat 2 is still vacant: wait for a substitute"):
        do(life.continue_game, table, "p0", NOW + 2)


# --- disconnect / reconnect --------------------------------------------------------------


def test_a_disconnect_before_the_start_only_marks_the_player_offline() -> None:
    table = do(life.disconnect, waiting(players=2), "p1", NOW).table
    assert not table.seats[1].connected and table.seats[1].disconnected_at is None
    assert life.next_event_at(table) is None


def test_a_disconnect_during_a_game_starts_the_grace_period() -> None:
    table = do(life.disconnect, started(players=2, turn_seconds=600), "p1", NOW + 3).table
    chair = table.seats[1]
    assert not chair.connected and chair.disconnected_at == NOW + 3
    assert chair.occupant == person(1)  # the seat is held
    assert table.status == "playing"
    assert life.next_event_at(table) == NOW + 3 + GRACE


def test_disconnecting_twice_or_as_a_stranger_changes_nothing() -> None:
    table = do(life.disconnect, started(players=2), "p1", NOW + 3).table
    assert do(life.disconnect, table, "p1", NOW + 9).table is table
    assert do(life.disconnect, table, "p9", NOW + 9).table is table


def test_a_player_who_comes_back_within_the_grace_keeps_the_seat() -> None:
    table = do(life.disconnect, started(players=2, turn_seconds=600), "p1", NOW + 3).table
    table = do(life.reconnect, table, "p1", NOW + 50).table
    chair = table.seats[1]
    assert chair.connected and chair.disconnected_at is None and chair.timeouts == 0
    assert do(life.sweep, table, NOW + 3 + GRACE) is None


def test_reconnecting_resets_the_timeouts_in_a_row() -> None:
    table = time_out(started(players=2))
    assert table.seats[0].timeouts == 1 and table.seats[0].connected
    table = do(life.reconnect, table, "p0", NOW + 50).table
    assert table.seats[0].timeouts == 0


def test_reconnecting_while_connected_or_as_a_stranger_changes_nothing() -> None:
    table = started(players=2)
    assert do(life.reconnect, table, "p1", NOW + 1).table is table
    assert do(life.reconnect, table, "p9", NOW + 1).table is table


def test_a_player_who_dropped_takes_the_seat_back_by_reconnecting() -> None:
    table = do(life.disconnect, started(players=2, turn_seconds=600), "p1", NOW + 1).table
    table = swept(table, NOW + 1 + GRACE).table
    table = do(life.reconnect, table, "p1", NOW + 150).table
    assert table.seats[1].occupant == person(1) and table.seats[1].original_fate is None
    assert table.status == "playing" and table.deadline == NOW + 150 + 600


def test_a_player_who_dropped_cannot_take_the_seat_back_from_a_substitute() -> None:
    table = do(life.disconnect, started(players=2, turn_seconds=600), "p1", NOW + 1).table
    table = swept(table, NOW + 1 + GRACE).table
    table = do(life.sit, table, 1, person("sub"), NOW + 130).table
    assert do(life.reconnect, table, "p1", NOW + 140).table is table


def test_a_player_who_left_does_not_come_back_by_reconnecting() -> None:
    table = do(life.leave, started(players=2), "p1", NOW + 1).table
    assert do(life.reconnect, table, "p1", NOW + 2).table is table


# --- the turn timer ----------------------------------------------------------------------


def test_nothing_due_means_no_sweep() -> None:
    table = started(players=2)
    assert do(life.sweep, table, NOW + TURN - 0.001) is None
    assert do(life.sweep, waiting(players=2), NOW + 10_000) is None


def test_a_turn_that_times_out_draws_for_the_player() -> None:
    table = started(players=3)
    out = swept(table, NOW + TURN + 2)  # the sweeper may run a little late
    new = out.table
    assert out.effects == []
    assert len(new.seats[0].hand) == 15 and new.seats[0].hand[-1] == table.pile[-1]
    assert len(new.pile) == len(table.pile) - 1
    assert new.turn_seat == 1 and new.deadline == NOW + TURN + 2 + TURN
    assert new.seats[0].timeouts == 1 and new.seats[0].connected


def test_a_player_at_22_tiles_is_passed_for() -> None:
    table = arrange(started(players=2), {0: list(range(22))})
    new = swept(table, NOW + TURN).table
    assert new.seats[0].hand == list(range(22))
    assert new.turn_seat == 1 and new.passes == 1 and len(new.pile) == len(table.pile)


def test_a_player_is_passed_for_when_the_pile_is_empty() -> None:
    table = arrange(started(players=2), {0: [k("red", 9)]}, pile=0)
    new = swept(table, NOW + TURN).table
    assert new.seats[0].hand == [k("red", 9)] and new.turn_seat == 1 and new.passes == 1


def test_a_player_who_laid_and_timed_out_is_passed_for_and_the_turn_ends() -> None:
    table = arrange(started(players=2), {0: [*RUN, k("blue", 5)]})
    table = play(table, 0, lay(meld(RUN)))
    assert table.laid and table.deadline == NOW + TURN  # a lay does not restart the clock
    new = swept(table, NOW + TURN).table
    assert new.seats[0].hand == [k("blue", 5)] and new.series == [meld(RUN)]
    assert new.turn_seat == 1 and not new.laid and new.passes == 0
    assert new.hand_results == []


def test_a_player_who_laid_every_tile_and_timed_out_finishes_the_hand() -> None:
    table = arrange(started(players=2, hands=2), {0: RUN})
    table = play(table, 0, lay(meld(RUN)))
    assert table.seats[0].hand == []
    new = swept(table, NOW + TURN).table
    (result,) = new.hand_results
    assert result.finisher == 0 and result.penalties[0] == -50
    assert new.seats[0].penalty == -50 and new.seats[1].penalty == result.penalties[1] > 0
    assert new.hand_number == 1 and new.turn_seat is None  # the break between hands
    assert swept(new, new.break_until or 0).table.hand_number == 2


def test_a_timed_out_last_hand_finishes_and_settles_the_game() -> None:
    table = arrange(started(players=2, hands=1), {0: RUN})
    table = play(table, 0, lay(meld(RUN)))
    out = swept(table, NOW + TURN)
    assert out.table.status == "finished" and out.table.turn_seat is None
    assert out.effects == [RatingChange("p0", 1, "game"), RatingChange("p1", -1, "game")]


def test_three_timeouts_in_a_row_count_the_player_as_disconnected() -> None:
    table = started(players=2)
    for _ in range(2):
        table = time_out(time_out(table))  # p0, then p1
    assert table.seats[0].timeouts == 2 and table.seats[0].connected
    when = table.deadline
    table = time_out(table)
    chair = table.seats[0]
    assert chair.timeouts == 3 and not chair.connected and chair.disconnected_at == when
    assert chair.occupant == person(0)  # the seat is held for the grace period
    assert life.next_event_at(table) == min(table.deadline, when + GRACE)


def test_a_real_move_resets_the_timeouts_in_a_row() -> None:
    table = started(players=2)
    table = time_out(time_out(table))
    table = time_out(time_out(table))
    assert table.seats[0].timeouts == 2
    table = apply_move(table, 0, Draw(), NOW + 500).table
    assert table.seats[0].timeouts == 0
    table = time_out(time_out(table))
    assert table.seats[0].timeouts == 1 and table.seats[0].connected


def test_a_player_counted_disconnected_by_timeouts_who_moves_again_keeps_the_seat() -> None:
    table = started(players=2, turn_seconds=10)
    for _ in range(2):
        table = time_out(time_out(table))
    table = time_out(table)
    chair = table.seats[0]
    assert not chair.connected and chair.disconnected_at is not None
    since = chair.disconnected_at
    now = since
    while now < since + GRACE + 60:  # both play every 5 s from now on (p0 over REST alone)
        out = life.sweep(table, now)
        table = out.table if out is not None else table
        if table.status != "playing":
            break
        seat = table.turn_seat
        assert seat is not None
        table = apply_move(table, seat, choose_move(table, seat), now).table
        now += 5
    assert table.seats[0].occupant == person(0)
    assert table.seats[0].connected


def test_a_timer_whose_deadline_moved_does_nothing() -> None:
    table = started(players=2)
    table = apply_move(table, 0, Draw(), NOW + 40).table  # a real move just in time
    assert table.deadline == NOW + 40 + TURN
    assert do(life.sweep, table, NOW + TURN) is None


# --- grace and wait ----------------------------------------------------------------------


def test_after_the_grace_the_seat_of_a_player_who_dropped_is_offered_and_the_game_pauses() -> None:
    table = started(players=3, turn_seconds=600)
    hand = list(table.seats[1].hand)
    table = do(life.disconnect, table, "p1", NOW + 5).table
    assert do(life.sweep, table, NOW + 5 + GRACE - 1) is None
    out = swept(table, NOW + 5 + GRACE)
    assert out.effects == []  # no points are lost for the disconnect itself
    new = out.table
    chair = new.seats[1]
    assert chair.occupant is None and chair.hand == hand
    assert chair.original_fate == "dropped" and chair.vacant_since == NOW + 5 + GRACE
    assert new.status == "paused" and new.deadline is None
    assert life.next_event_at(new) == NOW + 5 + GRACE + WAIT


def test_a_manager_who_drops_hands_over_the_table() -> None:
    table = do(life.disconnect, started(players=3, turn_seconds=600), "p0", NOW).table
    assert swept(table, NOW + GRACE).table.manager == "p1"


def test_when_nobody_sits_during_the_wait_a_computer_player_takes_the_seat_and_play_goes_on() -> (
    None
):
    table = started(players=3, turn_seconds=600)
    table = do(life.disconnect, table, "p1", NOW).table
    table = swept(table, NOW + GRACE).table
    assert do(life.sweep, table, NOW + GRACE + WAIT - 1) is None
    new = swept(table, NOW + GRACE + WAIT).table
    bot = new.seats[1].occupant
    assert bot is not None and bot.bot and bot.player_id == "bot:1"
    assert new.seats[1].original == person(1) and new.seats[1].original_fate == "dropped"
    assert new.seats[1].hand == table.seats[1].hand
    assert new.status == "playing" and new.deadline == NOW + GRACE + WAIT + 600
    assert new.manager == "p0"


def test_a_computer_player_does_not_restart_a_game_that_still_has_a_vacant_seat() -> None:
    table = started(players=3, turn_seconds=600)
    table = do(life.leave, table, "p1", NOW).table
    table = do(life.leave, table, "p2", NOW + 60).table
    table = swept(table, NOW + WAIT).table
    assert table.seats[1].occupant is not None and table.seats[2].occupant is None
    assert table.status == "paused" and table.deadline is None
    table = swept(table, NOW + 60 + WAIT).table
    assert table.status == "playing"


def test_a_leaver_s_seat_also_goes_to_a_computer_player_after_the_wait() -> None:
    table = do(life.leave, started(players=2, turn_seconds=600), "p1", NOW).table
    table = swept(table, NOW + WAIT).table
    assert table.seats[1].occupant is not None and table.seats[1].occupant.bot
    assert table.seats[1].original_fate == "left" and table.status == "playing"


def test_a_computer_players_turn_is_known_to_the_sweeper() -> None:
    table = do(life.leave, started(players=2, turn_seconds=600), "p0", NOW).table
    table = swept(table, NOW + WAIT).table
    assert life.is_bot_turn(table) and table.turn_seat == 0


# --- next_event_at -----------------------------------------------------------------------


def test_the_next_event_is_the_earliest_of_deadline_grace_and_wait() -> None:
    table = started(players=4, turn_seconds=600)
    assert life.next_event_at(table) == NOW + 600
    table = do(life.disconnect, table, "p1", NOW + 10).table
    assert life.next_event_at(table) == NOW + 10 + GRACE
    table = do(life.leave, table, "p2", NOW + 5).table  # paused: the deadline no longer counts
    assert table.status == "paused"
    assert life.next_event_at(table) == NOW + 5 + WAIT
    table = do(life.disconnect, table, "p3", NOW + 6).table
    assert life.next_event_at(table) == NOW + 5 + WAIT
    table = do(life.sit, table, 2, person("sub"), NOW + 7).table
    assert life.next_event_at(table) == NOW + 6 + GRACE
    table = do(life.reconnect, table, "p3", NOW + 8).table
    assert life.next_event_at(table) == NOW + 10 + GRACE


def test_a_waiting_or_finished_table_has_no_next_event() -> None:
    assert life.next_event_at(waiting(players=2)) is None
    assert life.next_event_at(do(life.leave, created(), "p0", NOW).table) is None


# --- the manager and the empty chair ------------------------------------------------------


def test_a_substitute_at_a_table_left_to_computer_players_can_continue_it() -> None:
    table = do(life.seat_bot, created(seats=2), 1, "p0", NOW).table
    table = do(life.start, table, "p0", NOW).table
    table = do(life.leave, table, "p0", NOW + 1).table
    assert table.manager is None and table.status == "paused"
    table = do(life.sit, table, 0, person("sub"), NOW + 2).table
    assert table.manager == "sub"
    table = do(life.continue_game, table, "sub", NOW + 3).table
    assert table.status == "playing"


def test_a_waiting_table_left_to_computer_players_closes_or_passes_to_the_next_human() -> None:
    table = do(life.seat_bot, created(seats=3), 1, "p0", NOW).table
    table = do(life.leave, table, "p0", NOW + 1).table
    if table.status != "finished":
        table = do(life.sit, table, 0, person("late"), NOW + 2).table
        table = do(life.sit, table, 2, person(2), NOW + 3).table
        assert table.manager == "late"
        assert do(life.start, table, "late", NOW + 4).table.status == "playing"


def test_a_player_offline_since_before_the_start_loses_the_seat_after_the_grace() -> None:
    table = do(life.disconnect, waiting(players=2), "p1", NOW).table
    table = do(life.start, table, "p0", NOW).table
    now = NOW
    for _ in range(40):  # p0 plays at once, p1 never does
        if table.status != "playing":
            break
        if table.turn_seat == 0:
            table = apply_move(table, 0, choose_move(table, 0), now).table
        else:
            due = life.next_event_at(table)
            assert due is not None
            now = due
            table = swept(table, now).table
    assert table.seats[1].occupant is None or table.seats[1].occupant.bot
    assert table.seats[1].original_fate == "dropped"


# --- a whole game finished by computer players -------------------------------------------


def play_while_originals_drop(game: str, seed: int) -> tuple[Table, list[RatingChange]]:
    """p1 goes silent at once; when a computer player has taken the last vacated seat, p2
    leaves, then p3 and finally the manager p0 close their connection for good."""
    rules = rules_of(game)
    table = waiting(game, 4, hands=3)
    table.seed = seed
    table = do(life.start, table, "p0", NOW).table
    now = NOW
    effects: list[RatingChange] = []
    silent = {"p1"}
    plan = [("leave", "p2"), ("drop", "p3"), ("drop", "p0")]
    for _ in range(5000):
        if table.status == "finished":
            return table, effects
        vacated = [s for s in table.seats if s.original_fate is not None]
        if plan and all(s.occupant is not None and s.occupant.bot for s in vacated) and vacated:
            how, who = plan.pop(0)
            if how == "leave":
                out = do(life.leave, table, who, now)
            else:
                out = do(life.disconnect, table, who, now)
                silent.add(who)
            table, effects = out.table, effects + out.effects
            continue
        due = life.next_event_at(table)
        if due is not None and due <= now:
            out = swept(table, now)
            table, effects = out.table, effects + out.effects
            continue
        seat = table.turn_seat
        occupant = table.seats[seat].occupant if seat is not None else None
        if table.status == "playing" and occupant and occupant.player_id not in silent:
            assert seat is not None
            move = choose_move(table, seat, WORDS)
            out = apply_move(table, seat, move, now, rules=rules)
            table, effects = out.table, effects + out.effects
            now += 1
            continue
        assert due is not None, "the table is stuck"
        now = due
    raise AssertionError("the game does not end")


@pytest.mark.parametrize(("game", "seed"), [("kastet", 3), ("harftet", 5)])
def test_a_game_whose_players_all_drop_is_finished_by_computer_players(
    game: str, seed: int
) -> None:
    table, effects = play_while_originals_drop(game, seed)
    assert table.status == "finished" and len(table.hand_results) == 3
    assert all(s.occupant is not None and s.occupant.bot for s in table.seats)
    assert [s.original_fate for s in table.seats] == ["dropped", "dropped", "left", "dropped"]
    assert table.manager is None
    assert table.result is not None
    points = table.result["points"]
    assert isinstance(points, list)
    leave, *game_changes = effects
    assert leave == RatingChange("p2", -6, "leave")
    expected = [RatingChange(f"p{i}", p, "game") for i, p in enumerate(points) if p < 0 and i != 2]
    assert expected and game_changes == expected  # a gain goes to nobody, a leaver's loss to nobody
    assert table.result["ratings"] == {c.player_id: c.delta for c in expected}
    assert not any(c.player_id.startswith("bot:") for c in effects)


def test_before_the_start_only_the_manager_takes_a_computer_player_off_its_seat() -> None:
    table = do(life.seat_bot, created(seats=3), 1, "p0", NOW).table
    with pytest.raises(NotManagerError):
        do(life.stand_up, do(life.sit, table, 2, person(2), NOW).table, 1, "p2", NOW)
    emptied = do(life.stand_up, table, 1, "p0", NOW).table
    assert emptied.seats[1].occupant is None and emptied.status == "waiting"


def test_standing_up_from_somebody_elses_seat_is_refused() -> None:
    table = waiting(players=2)
    with pytest.raises(NotSeatedError, match="seat 1"):
        do(life.stand_up, table, 1, "p0", NOW)


# --- table options ---------------------------------------------------------------------------


def test_a_table_keeps_its_options_and_refuses_a_computer_pace_outside_0_to_5() -> None:
    table = created(hints=False, private=True, bot_seconds=0)
    assert (table.hints, table.private, table.bot_seconds) == (False, True, 0)
    plain = created()
    assert (plain.hints, plain.private, plain.bot_seconds) == (3, False, 1)
    for bad in (-1, 6):
        with pytest.raises(EngineError, match=f"botSeconds must be between 0 and 5, not {bad}"):
            created(bot_seconds=bad)


def test_a_computer_player_has_a_level_medium_unless_the_manager_says_otherwise() -> None:
    table = do(life.seat_bot, created(), 1, "p0", NOW).table
    table = do(life.seat_bot, table, 2, "p0", NOW, "hard").table
    levels = [s.occupant.level if s.occupant else None for s in table.seats]
    assert levels == [None, "medium", "hard", None]


# --- the log events of each transition ---------------------------------------------------------


def kinds(out: Outcome) -> list[str]:
    assert out.events == out.table.recent
    seqs = [e["seq"] for e in out.events]
    assert seqs == list(range(out.table.seq - len(seqs) + 1, out.table.seq + 1))
    return [e["type"] for e in out.events]


def test_every_transition_reports_what_happened_as_log_events() -> None:
    table = created(seats=3, turn_seconds=600)
    assert table.recent == [
        {"seq": 1, "at": NOW, "hand": 0, "seat": 0, "type": "sit", "playerId": "p0",
         "name": "Oyuncu p0", "rating": 1000},
    ]  # fmt: skip
    out = do(life.sit, table, 1, person(1), NOW + 1)
    assert kinds(out) == ["sit"] and out.events[0]["seq"] == 2
    out = do(life.sit, out.table, 2, person(1), NOW + 2)
    assert kinds(out) == ["stand", "sit"] and [e["seat"] for e in out.events] == [1, 2]
    table = do(life.sit, out.table, 1, person(2), NOW + 3).table
    out = do(life.start, table, "p0", NOW + 4)
    assert kinds(out) == ["start"] and out.events[0]["seat"] is None
    assert out.events[0]["hand"] == 1 and out.events[0]["first"] == 0
    out = do(apply_move, out.table, 0, Draw(), NOW + 5)
    assert kinds(out) == ["draw"] and set(out.events[0]) == {"seq", "at", "hand", "seat", "type"}
    out = do(life.disconnect, out.table, "p2", NOW + 6)
    assert kinds(out) == ["disconnect"] and out.events[0]["seat"] == 1
    out = do(life.reconnect, out.table, "p2", NOW + 7)
    assert kinds(out) == ["reconnect"]
    out = do(life.leave, out.table, "p1", NOW + 8)
    assert kinds(out) == ["leave"] and out.events[0]["penalty"] == -22
    out = do(life.sit, out.table, 2, person("sub"), NOW + 9)
    assert kinds(out) == ["substitute"] and out.events[0]["playerId"] == "sub"
    out = do(life.continue_game, out.table, "p0", NOW + 10)
    assert kinds(out) == ["continue"] and out.events[0]["seat"] is None
    out = swept(out.table, NOW + 10 + 600)
    assert kinds(out) == ["timeout", "draw"] and out.events[0]["seat"] == 1
    out = do(life.disconnect, out.table, "sub", NOW + 700)
    out = swept(out.table, NOW + 700 + GRACE)
    assert kinds(out) == ["stand"] and out.events[0]["reason"] == "dropped"
    out = swept(out.table, NOW + 700 + GRACE + WAIT)
    assert kinds(out) == ["bot"] and out.events[0]["level"] == "medium"


def test_a_lay_reports_the_hand_tiles_and_the_whole_new_arrangement() -> None:
    table = arrange(started(players=2), {0: [*RUN, k("red", 4), 104]})
    out = do(apply_move, table, 0, lay(meld([*RUN, 104], {104: ("red", 4)})), NOW + 1)
    (event,) = out.events
    assert event["type"] == "lay" and event["tiles"] == sorted([*RUN, 104])
    assert event["series"] == [
        [{"id": t} for t in RUN] + [{"id": 104, "as": {"color": "red", "number": 4}}]
    ]
    assert event["pairs"] == []


def test_the_end_of_a_hand_reports_penalties_and_every_rack_and_the_end_of_the_game_points() -> (
    None
):
    table = arrange(started(players=2, hands=1), {0: RUN})
    table = play(table, 0, lay(meld(RUN)))
    rack = sorted(table.seats[1].hand)
    out = do(apply_move, table, 0, Pass(), NOW + 2)
    assert kinds(out) == ["pass", "handEnd", "gameEnd"]
    end = out.events[1]
    assert end["seat"] == 0 and end["finisher"] == 0 and end["hand"] == 1
    assert end["left"] == {"0": [], "1": rack} and end["penalties"][0] == -50
    assert out.table.hand_results[0].left == {0: [], 1: rack}
    assert out.events[2]["points"] == [1, -1] and out.events[2]["seat"] is None


def test_a_pass_that_ends_a_hand_breaks_and_the_break_end_deals_the_next_one() -> None:
    table = arrange(started(players=2, hands=2), {0: RUN})
    table = play(table, 0, lay(meld(RUN)))
    out = do(apply_move, table, 0, Pass(), NOW + 2)
    assert kinds(out) == ["pass", "handEnd"]
    dealt = swept(out.table, NOW + 2 + out.table.break_seconds)
    assert kinds(dealt) == ["start"]
    assert dealt.events[0]["hand"] == 2 and dealt.events[0]["first"] == 1


def test_a_table_of_computer_players_only_deals_the_next_hand_without_a_break() -> None:
    table = arrange(started(players=2, hands=2), {0: RUN})
    table = play(table, 0, lay(meld(RUN)))
    for pid in ("p0", "p1"):  # nobody left to wait for: both disconnected
        table = do(life.disconnect, table, pid, NOW + 1).table
    out = do(apply_move, table, 0, Pass(), NOW + 2)
    assert kinds(out) == ["pass", "handEnd", "start"] and out.table.hand_number == 2


# --- pacing: one due event per sweep, computer players bot_seconds apart ------------------------


def bot_mover(table: Table, seat: int) -> Any:
    return choose_move(table, seat, WORDS)


def bot_table(bot_seconds: int = 1, players: int = 2, **kw: Any) -> Table:
    """p0 against computer players, p0 to move first."""
    table = created(seats=players, bot_seconds=bot_seconds, turn_seconds=600, **kw)
    for i in range(1, players):
        table = do(life.seat_bot, table, i, "p0", NOW).table
    return do(life.start, table, "p0", NOW).table


def test_a_computer_player_moves_bot_seconds_after_the_change_that_gave_it_the_turn() -> None:
    table = bot_table(bot_seconds=2)
    assert life.next_due(table) == NOW + 600  # p0's turn: only the turn timer
    table = do(apply_move, table, 0, Draw(), NOW + 5).table
    assert life.is_bot_turn(table) and life.bot_due(table) == NOW + 7
    assert life.next_due(table) == NOW + 7 and life.next_event_at(table) == NOW + 605
    assert do(life.sweep, table, NOW + 6.9, bot_mover) is None
    assert do(life.sweep, table, NOW + 7) is None  # without a bot, its moves are the caller's
    out = do(life.sweep, table, NOW + 7, bot_mover)
    assert out is not None and out.events[0]["seat"] == 1
    assert kinds(out) == ["draw"] or kinds(out)[:2] == ["lay", "pass"]  # its whole turn


def test_a_computer_players_lay_and_its_pass_are_one_change_like_a_persons_lay_and_pass() -> None:
    # issue 40: one version, one push for the turn (a person's "pass": true)
    table = bot_table(bot_seconds=1)
    table = arrange(table, {1: [*RUN, k("blue", 9)]}, turn=1)
    table.recent = [{**table.recent[-1], "at": NOW}]
    assert do(life.sweep, table, NOW + 0.9, bot_mover) is None
    out = do(life.sweep, table, NOW + 1, bot_mover)
    assert out is not None and kinds(out) == ["lay", "pass"] and out.events[0]["tiles"] == RUN
    assert out.table.turn_seat == 0 and not out.table.laid
    assert out.table.seats[1].hand == [k("blue", 9)]


def test_a_computer_player_that_does_not_pass_after_its_lay_keeps_its_moves_apart() -> None:
    # a player whose next move is not the pass (Kastet's lay-after-lay looks lay again): the
    # lay stands alone, the next move comes bot_seconds later
    table = bot_table(bot_seconds=1)
    table = arrange(table, {1: [*RUN, k("blue", 9)]}, turn=1)
    table.recent = [{**table.recent[-1], "at": NOW}]

    def goes_on(t: Table, seat: int) -> Any:
        return Draw() if t.laid else bot_mover(t, seat)

    out = do(life.sweep, table, NOW + 1, goes_on)
    assert out is not None and kinds(out) == ["lay"] and out.table.turn_seat == 1
    assert life.next_due(out.table) == NOW + 2


def test_a_computer_player_with_no_pause_is_due_at_once() -> None:
    table = do(apply_move, bot_table(bot_seconds=0, players=3), 0, Draw(), NOW + 3).table
    assert life.next_due(table) == NOW + 3
    out = do(life.sweep, table, NOW + 3, bot_mover)
    assert out is not None and out.events[0]["seat"] == 1
    assert life.next_due(out.table) == NOW + 3  # the next computer player at once too


def test_a_move_the_engine_refuses_from_a_computer_player_becomes_the_timer_s_move() -> None:
    table = do(apply_move, bot_table(), 0, Draw(), NOW + 1).table
    out = do(life.sweep, table, NOW + 2, lambda t, s: lay(meld(RUN)))
    assert out is not None and kinds(out) == ["draw"] and out.table.turn_seat == 0

    def broken(t: Table, s: int) -> Any:
        raise RuntimeError("the search fell over")

    out = do(life.sweep, table, NOW + 2, broken)
    assert out is not None and kinds(out) == ["draw"] and out.table.turn_seat == 0


def test_a_sweep_applies_one_due_event_at_a_time_earliest_first() -> None:
    table = started(players=3)
    table = do(life.disconnect, table, "p2", NOW + 1).table
    late = NOW + 1 + GRACE + 10  # the turn timed out, then the grace ran out: both are due
    out = swept(table, late)
    assert kinds(out) == ["timeout", "draw"] and out.table.seats[2].occupant is not None
    out = swept(out.table, late)
    assert kinds(out) == ["stand"] and out.table.status == "paused"
    assert do(life.sweep, out.table, late) is None
    merged = do(life.sweep_all, table, late)
    assert merged is not None and kinds(merged) == ["timeout", "draw", "stand"]
    assert merged.table.recent == merged.events  # one change: all three are its events
    merged.table.recent = out.table.recent
    assert merged.table == out.table


# --- RULES §4: people coming and going ------------------------------------------------------


def test_a_leaver_who_sits_back_and_later_drops_pays_nothing_more_than_2n() -> None:
    table = started(players=2, hands=1, turn_seconds=600)
    out = do(life.leave, table, "p1", NOW + 1)
    assert out.effects == [RatingChange("p1", -2, "leave")]
    table = do(life.sit, out.table, 1, person(1), NOW + 2).table  # back, as a substitute
    assert table.status == "paused" and table.held
    table = do(life.continue_game, table, "p0", NOW + 3).table
    table = do(life.disconnect, table, "p1", NOW + 4).table
    table = swept(table, NOW + 4 + GRACE).table
    assert table.seats[1].original_fate == "left"
    table = swept(table, NOW + 4 + GRACE + WAIT).table  # a computer player finishes it
    effects: list[RatingChange] = []
    now = NOW + 300
    while table.status != "finished":
        seat = table.turn_seat
        assert seat is not None
        if seat == 0:
            out = do(apply_move, table, 0, choose_move(table, 0, WORDS), now)
        else:
            out = do(life.sweep, table, now + 5, bot_mover)
            assert out is not None
        table, effects, now = out.table, effects + out.effects, now + 5
    assert table.result is not None
    assert [c for c in effects if c.player_id == "p1"] == []  # nothing more, whatever the loss


def test_a_leaver_who_sits_back_and_leaves_again_is_not_charged_twice() -> None:
    table = do(life.leave, started(players=2, hands=5), "p1", NOW + 1).table
    table = do(life.sit, table, 1, person(1), NOW + 2).table
    again = do(life.leave, table, "p1", NOW + 3)
    assert again.effects == [] and again.events[0]["penalty"] == 0


@pytest.mark.parametrize("how", ["wait", "manager"])
def test_a_dropped_player_takes_over_from_a_computer_player_at_once(how: str) -> None:
    table = started(players=3, turn_seconds=600)
    table = do(life.disconnect, table, "p1", NOW).table
    table = swept(table, NOW + GRACE).table
    if how == "wait":
        table = swept(table, NOW + GRACE + WAIT).table
    else:  # the manager seats one the moment the grace ends: it never locks p1 out
        table = do(life.seat_bot, table, 1, "p0", NOW + GRACE).table
    assert table.seats[1].occupant is not None and table.seats[1].occupant.bot
    assert table.status == "playing"
    hand = list(table.seats[1].hand)
    out = do(life.reconnect, table, "p1", NOW + 400)
    assert kinds(out) == ["stand", "reconnect"] and out.events[0]["reason"] == "returned"
    chair = out.table.seats[1]
    assert chair.occupant == person(1) and chair.original_fate is None and chair.hand == hand
    assert out.table.status == "playing"
    by_sitting = do(life.sit, table, 1, person(1), NOW + 400).table
    assert by_sitting.seats[1].occupant == person(1)
    with pytest.raises(SeatTakenError):  # nobody else takes a computer player's seat
        do(life.sit, table, 1, person("sub"), NOW + 400)


def test_a_player_who_left_or_dropped_may_sit_again_only_at_their_own_seat() -> None:
    table = started(players=4, turn_seconds=600, wait_seconds=600)
    table = do(life.leave, table, "p1", NOW + 1).table
    table = do(life.leave, table, "p2", NOW + 2).table
    with pytest.raises(WrongStatusError, match="you played seat 1 of this game"):
        do(life.sit, table, 2, person(1), NOW + 3)
    table = do(life.disconnect, table, "p3", NOW + 3).table
    table = swept(table, NOW + 3 + GRACE).table  # p3 dropped
    with pytest.raises(WrongStatusError, match="you played seat 3 of this game"):
        do(life.sit, table, 2, person(3), NOW + 200)
    table = do(life.sit, table, 2, person("sub"), NOW + 201).table
    table = do(life.leave, table, "sub", NOW + 202).table  # a substitute who left, too
    with pytest.raises(WrongStatusError, match="you played seat 2 of this game"):
        do(life.sit, table, 1, person("sub"), NOW + 203)
    assert do(life.sit, table, 1, person(1), NOW + 204).table.seats[1].occupant == person(1)
    assert do(life.sit, table, 2, person("sub"), NOW + 204).table.seats[2].occupant is not None


def test_a_computer_player_filling_one_seat_does_not_resume_while_a_substitute_waits() -> None:
    table = started(players=3, turn_seconds=600)
    table = do(life.leave, table, "p1", NOW + 1).table
    table = do(life.leave, table, "p2", NOW + 2).table
    table = do(life.sit, table, 1, person("sub"), NOW + 3).table
    table = swept(table, NOW + 2 + WAIT).table  # nobody came to seat 2
    assert table.seats[2].occupant is not None and table.seats[2].occupant.bot
    assert table.status == "paused" and table.held  # sub still waits for Continue
    manager_bot = do(life.leave, started(players=3), "p1", NOW + 1).table
    manager_bot = do(life.leave, manager_bot, "p2", NOW + 1).table
    manager_bot = do(life.sit, manager_bot, 1, person("sub"), NOW + 2).table
    manager_bot = do(life.seat_bot, manager_bot, 2, "p0", NOW + 3).table
    assert manager_bot.status == "paused"
    table = do(life.continue_game, table, "p0", NOW + 200).table
    assert table.status == "playing" and not table.held


def test_a_computer_player_seated_by_the_manager_on_the_last_vacant_seat_resumes_play() -> None:
    table = do(life.leave, started(players=3, turn_seconds=600), "p1", NOW + 1).table
    out = do(life.seat_bot, table, 1, "p0", NOW + 2)
    assert kinds(out) == ["bot"] and out.table.status == "playing"
    assert out.table.deadline == NOW + 2 + 600


# --- practice games ---------------------------------------------------------------------------


def test_a_game_with_a_computer_player_from_the_start_changes_no_rating_and_no_record() -> None:
    table = bot_table(players=3, hands=1)
    assert table.practice
    table = do(life.sit, do(life.leave, table, "p0", NOW + 1).table, 0, person(0), NOW + 2).table
    table = do(life.continue_game, table, "p0", NOW + 3).table
    effects: list[RatingChange] = []
    now = NOW + 10
    while table.status != "finished":
        if table.turn_seat == 0:
            out = do(apply_move, table, 0, choose_move(table, 0, WORDS), now)
        else:
            out = do(life.sweep, table, now, bot_mover)
            assert out is not None
        table, effects, now = out.table, effects + out.effects, now + 1
    assert effects == [] and table.result is not None
    assert table.result["ratings"] == {} and table.result["practice"] is True


def test_a_practice_leaver_pays_nothing_and_a_rated_game_stays_rated_with_a_late_bot() -> None:
    out = do(life.leave, bot_table(players=2), "p0", NOW + 1)
    assert out.effects == [] and out.events[0]["penalty"] == 0
    rated = started(players=2)
    assert not rated.practice
    rated = swept(do(life.leave, rated, "p1", NOW).table, NOW + WAIT).table
    assert rated.seats[1].occupant is not None and rated.seats[1].occupant.bot
    assert not rated.practice


def test_an_unknown_computer_player_level_is_refused() -> None:
    with pytest.raises(EngineError, match='unknown computer player level "grandmaster"') as c:
        do(life.seat_bot, created(), 1, "p0", NOW, "grandmaster")  # type: ignore[arg-type]
    caught = c
    assert caught.value.code == "bad_request"


def test_a_computer_player_whose_turn_runs_out_is_played_for_but_never_drops_out() -> None:
    table = do(apply_move, bot_table(), 0, Draw(), NOW + 1).table
    for _ in range(4):  # nobody gives the sweep a computer player: the timer plays for it
        assert table.turn_seat == 1
        table = time_out(table)
        table = do(apply_move, table, 0, Draw(), table.recent[-1]["at"] + 1).table
    chair = table.seats[1]
    assert chair.occupant is not None and chair.connected and chair.timeouts == 0
    assert table.status == "playing"


def test_a_break_paused_by_a_leaver_goes_on_when_a_computer_player_sits_and_its_end_deals() -> None:
    table = arrange(started(players=2, hands=2), {0: RUN})
    table = play(table, 0, lay(meld(RUN)))
    broke = do(apply_move, table, 0, Pass(), NOW + 2).table
    until = broke.break_until
    assert until is not None
    left = do(life.leave, broke, "p1", NOW + 3).table
    assert left.status == "paused" and left.break_until == until
    assert do(apply_move, left, 0, Ready(), NOW + 4).table.ready == [0]  # marked, not dealt
    resumed = do(life.seat_bot, left, 1, "p0", NOW + 5).table
    assert resumed.status == "playing" and resumed.deadline is None and resumed.turn_seat is None
    assert life.next_event_at(resumed) == until
    dealt = swept(resumed, until)
    assert kinds(dealt) == ["start"] and dealt.table.hand_number == 2
