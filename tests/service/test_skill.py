"""Skill (harftet.skill, RULES §8) over the in-memory stores: a rated game's end writes each
person's OpenSkill rating in the table's own save (the one write path), partners as a team,
a computer seat at its level's fixed rating; a profile shows a tier, never the number."""

from __future__ import annotations

import pytest
from service_helpers import finish, full_table

from harftet.engine.effects import Outcome, RatingChange
from harftet.engine.state import Occupant, Seat, Table
from harftet.rating import Rating, level_rating, skill_of
from harftet.skill import SkillRecords


def skill(app, caller, game="kastet") -> Rating:
    return skill_of(app.stores.players.items[caller.player_id], game)


def test_a_rated_games_end_rates_every_player_in_the_same_save(app):
    table_id, callers = full_table(app, seats=4, hands=5)
    version = app.stores.tables.get(table_id).version
    finish(app, table_id, [10, 20, 30, 40])
    assert app.stores.tables.get(table_id).version == version + 1  # one save: all or nothing
    after = [skill(app, c) for c in callers]
    assert [r.games for r in after] == [1, 1, 1, 1]
    assert after[0].mu > after[1].mu > 25 > after[2].mu > after[3].mu
    assert skill(app, callers[0], "harftet") == Rating()  # the other game is untouched
    item = app.stores.players.items[callers[0].player_id]
    assert item["rating"] == 1005  # points (puan) as the seeds define them


def test_the_profile_shows_a_tier_and_games_never_the_number(app):
    table_id, callers = full_table(app, seats=2, hands=3)
    finish(app, table_id, [0, 50])
    shown = app.profiles.profile(callers[0].player_id)
    assert shown["skill"] == {
        "harftet": {"tier": "bronz", "games": 0},
        "kastet": {"tier": "bronz", "games": 1},
    }
    assert "mu" not in str(shown) and "sigma" not in str(shown)


def test_partners_rise_and_fall_as_a_team(app):
    table_id, callers = full_table(app, seats=4, hands=3, partners=True)
    finish(app, table_id, [10, 40, 12, 40])  # seats 0+2: 22 against 80
    mus = [skill(app, c).mu for c in callers]
    assert mus[0] > 25 and mus[2] > 25 and mus[1] < 25 and mus[3] < 25
    assert abs(mus[0] - mus[2]) < 1e-6


def test_a_concurrent_change_to_the_skill_map_makes_the_save_redo_from_a_fresh_read(app):
    table_id, callers = full_table(app, seats=2, hands=3)
    players = app.stores.players
    real_get = players.get
    raced = []

    def get(player_id):
        item = real_get(player_id)
        if player_id == callers[1].player_id and not raced:  # another game ends meanwhile
            raced.append(1)
            players.items[player_id]["skill"] = {"harftet": Rating(30, 5, 7).to_item()}
        return item

    players.get = get
    finish(app, table_id, [0, 50])
    stored = players.items[callers[1].player_id]["skill"]
    assert stored["harftet"]["games"] == 7  # the other game's rating kept
    assert stored["kastet"]["games"] == 1


def test_an_unrated_table_changes_no_skill(app):
    from service_helpers import player

    from harftet.engine.options import TableOptions

    a, b = player(app, "A"), player(app, "B")
    options = TableOptions(game="kastet", seats=2, hands=1, rated=False)
    table_id = app.tables.create_table(a, options, seed=3)["tableId"]
    app.tables.sit(b, table_id, 1)
    app.tables.start(a, table_id)
    finish(app, table_id, [0, 50])
    assert "skill" not in app.stores.players.items[a.player_id]


def _outcome(level: str) -> Outcome:
    seats = [
        Seat(occupant=Occupant("h1", "İnsan"), penalty=0),
        Seat(occupant=Occupant("bot-1", "Bilgisayar", bot=True, level=level), penalty=30),  # type: ignore[arg-type]
    ]
    table = Table(table_id="t1", game="harftet", seed=1, manager="h1", hands=3, seats=seats)
    table.status = "finished"
    return Outcome(table, [RatingChange("h1", 6, "game")])


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_computer_seat_counts_at_its_levels_fixed_rating_and_gets_no_write(app, level):
    app.stores.players.items["h1"] = {"playerId": "h1", "name": "İnsan"}
    writes = SkillRecords(app.stores.players)(_outcome(level), 0.0)
    (write,) = writes  # the person only: a computer's rating stays fixed
    assert write.player_id == "h1" and write.read is None
    expected = level_rating("harftet", level)
    assert write.rating["mu"] > 25
    beaten = {"easy": 0.0, "hard": 0.0}
    for lv in beaten:
        app.stores.players.items["h1"] = {"playerId": "h1", "name": "İnsan"}
        (w,) = SkillRecords(app.stores.players)(_outcome(lv), 0.0)
        beaten[lv] = w.rating["mu"]
    assert beaten["hard"] > beaten["easy"]
    assert expected.sigma == 1.0
