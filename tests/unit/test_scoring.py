"""Game points from total penalties, and who receives a seat's points."""

from __future__ import annotations

import pytest

from harftet.engine.scoring import partner_points, ranking_points, settle
from harftet.engine.state import Occupant, Seat, Table


def test_eleven_hands_of_harftet_give_22_10_minus_10_minus_22() -> None:
    assert ranking_points([30, -50, 120, 80], 11, 2) == [10, 22, -22, -10]


def test_kastet_counts_the_hands_once() -> None:
    assert ranking_points([1, 2, 3, 4], 11, 1) == [11, 5, -5, -11]


def test_three_and_two_players() -> None:
    assert ranking_points([5, 1, 9], 11, 2) == [0, 22, -22]
    assert ranking_points([9, 1], 3, 1) == [-3, 3]


@pytest.mark.parametrize(
    ("penalties", "points"),
    [
        ([10, 10, 50, 60], [16, 16, -10, -22]),  # (22 + 10) / 2
        ([10, 20, 20, 60], [22, 0, 0, -22]),  # (10 - 10) / 2
        ([10, 10, 10, 60], [7, 7, 7, -22]),  # 22 / 3 = 7.33 → 7
        ([0, 60, 60, 60], [22, -7, -7, -7]),  # -22 / 3 = -7.33 → -7 (toward zero)
        ([5, 5, 5, 5], [0, 0, 0, 0]),
    ],
)
def test_tied_players_share_the_points_of_their_places(
    penalties: list[int], points: list[int]
) -> None:
    assert ranking_points(penalties, 11, 2) == points


def test_ties_among_three_players_round_toward_zero() -> None:
    assert ranking_points([1, 1, 9], 11, 1) == [5, 5, -11]
    assert ranking_points([1, 9, 9], 11, 1) == [11, -5, -5]
    assert ranking_points([4, 4], 11, 1) == [0, 0]


def test_partners_across_the_table_win_or_lose_together() -> None:
    assert partner_points([10, 0, 10, 30], 11, 2) == [22, -22, 22, -22]
    assert partner_points([50, 0, 10, 30], 11, 1) == [-11, 11, -11, 11]
    assert partner_points([10, 20, 20, 10], 11, 2) == [0, 0, 0, 0]


def person(pid: str, *, bot: bool = False, rating: int = 1000) -> Occupant:
    return Occupant(pid, pid.upper(), bot=bot, rating=rating)


def finished(*seats: Seat, game: str = "harftet", hands: int = 11) -> Table:
    return Table(
        "t",
        game,  # type: ignore[arg-type]
        1,
        "a",
        hands=hands,
        status="finished",
        seats=list(seats),
    )


def seat(penalty: int, occupant: Occupant | None, **kw: object) -> Seat:
    return Seat(occupant=occupant, penalty=penalty, **kw)  # type: ignore[arg-type]


def changes(table: Table) -> list[tuple[str, int]]:
    return [(c.player_id, c.delta) for c in settle(table)]


def test_players_who_finish_their_own_seats_get_their_points() -> None:
    table = finished(seat(1, person("a")), seat(2, person("b")), seat(3, person("c")),
                     seat(4, person("d")))  # fmt: skip
    assert changes(table) == [("a", 22), ("b", 10), ("c", -10), ("d", -22)]
    assert table.result == {
        "penalties": [1, 2, 3, 4],
        "points": [22, 10, -10, -22],
        "ratings": {"a": 22, "b": 10, "c": -10, "d": -22},
    }
    assert all(c.reason == "game" for c in settle(table))


def test_a_substitute_takes_the_gain_of_the_seat() -> None:
    sub = seat(1, person("s"), original=person("a"), original_fate="dropped")
    table = finished(sub, seat(9, person("b")), game="kastet")
    assert changes(table) == [("s", 11), ("b", -11)]


def test_a_substitute_rated_above_3000_gains_nothing_but_plays_a_game() -> None:
    strong = seat(1, person("s", rating=3001), original=person("a"), original_fate="left")
    table = finished(strong, seat(9, person("b")), game="kastet")
    assert changes(table) == [("s", 0), ("b", -11)]
    at_cap = seat(1, person("s", rating=3000), original=person("a"), original_fate="left")
    assert changes(finished(at_cap, seat(9, person("b")), game="kastet"))[0] == ("s", 11)


def test_a_loss_is_charged_to_the_player_who_dropped_not_to_the_substitute() -> None:
    sub = seat(9, person("s"), original=person("a"), original_fate="dropped")
    table = finished(seat(1, person("b")), sub, game="kastet")
    assert changes(table) == [("b", 11), ("s", 0), ("a", -11)]
    assert table.result is not None and table.result["ratings"] == {"b": 11, "s": 0, "a": -11}


def test_a_loss_of_a_seat_left_voluntarily_goes_to_nobody() -> None:
    sub = seat(9, person("s"), original=person("a"), original_fate="left")
    assert changes(finished(seat(1, person("b")), sub, game="kastet")) == [("b", 11), ("s", 0)]


def test_computer_players_never_get_points() -> None:
    bot_won = seat(1, person("bot", bot=True), original=person("a"), original_fate="left")
    bot_lost = seat(9, person("bot2", bot=True), original=person("c"), original_fate="dropped")
    table = finished(bot_won, seat(5, person("b")), bot_lost, game="kastet")
    assert changes(table) == [("b", 0), ("c", -11)]


def test_a_player_who_came_back_keeps_their_own_seat() -> None:
    back = seat(9, person("a"), original=person("a"), original_fate=None)
    assert changes(finished(seat(1, person("b")), back, game="kastet")) == [("b", 11), ("a", -11)]


def test_partner_games_settle_by_team() -> None:
    table = finished(*(seat(p, person(n)) for p, n in ((5, "a"), (1, "b"), (5, "c"), (1, "d"))))
    table.partners = True
    assert changes(table) == [("a", -22), ("b", 22), ("c", -22), ("d", 22)]


def test_a_leaver_who_sits_back_down_is_scored_as_a_substitute() -> None:
    from harftet.engine.scoring import settle
    from harftet.engine.state import Occupant, Seat, Table

    back = Occupant("p0", "Dönen")
    table = Table(
        table_id="t",
        game="kastet",
        seed=1,
        manager="p1",
        hands=1,
        status="finished",
        seats=[
            Seat(occupant=back, original=back, original_fate="left", penalty=90),
            Seat(occupant=Occupant("p1", "Kalan"), original=Occupant("p1", "Kalan"), penalty=10),
        ],
    )
    changes = {c.player_id: c.delta for c in settle(table)}
    assert changes == {"p0": 0, "p1": 1}  # no second charge on top of the 2·N already paid


def test_a_practice_game_changes_no_rating_and_no_record() -> None:
    table = finished(seat(1, person("a")), seat(2, person("bot", bot=True)), seat(3, person("c")),
                     game="kastet")  # fmt: skip
    table.practice = True
    assert settle(table) == []  # not even a game played: no record at all
    assert table.result == {
        "penalties": [1, 2, 3],
        "points": [11, 0, -11],
        "ratings": {},
        "practice": True,
    }
