"""The skill rating (harftet.rating, RULES §8; the one source the skill feature and
matchmaking share): OpenSkill's Plackett–Luce model, the tiers a profile shows, and the
fixed ratings of the computer levels."""

from __future__ import annotations

from harftet.rating import (
    TIERS,
    Rating,
    level_rating,
    nearest_level,
    predict_win,
    rate,
    skill_of,
    tier,
)
from harftet.skill.records import ranks_of


def test_a_new_player_is_bronz_with_the_models_default():
    new = skill_of({"playerId": "p"}, "harftet")
    assert new == Rating() and new.games == 0
    assert tier(new) == "bronz"


def test_the_winner_rises_the_loser_falls_and_both_count_a_game():
    (winner,), (loser,) = rate([[Rating()], [Rating()]], [1, 2])
    assert winner.mu > 25 > loser.mu
    assert winner.sigma < Rating().sigma and winner.games == loser.games == 1


def test_a_tie_moves_equal_players_nowhere():
    (a,), (b,) = rate([[Rating()], [Rating()]], [1, 1])
    assert abs(a.mu - 25) < 1e-6 and abs(b.mu - 25) < 1e-6


def test_partners_move_together():
    (a, c), (b, d) = rate([[Rating(), Rating()], [Rating(), Rating()]], [1, 2])
    assert a.mu > 25 and c.mu > 25 and b.mu < 25 and d.mu < 25


def test_beating_a_stronger_computer_gains_more():
    beat_hard = rate([[Rating()], [level_rating("harftet", "hard")]], [1, 2])[0][0]
    beat_easy = rate([[Rating()], [level_rating("harftet", "easy")]], [1, 2])[0][0]
    assert beat_hard.mu > beat_easy.mu > 25


def test_tiers_climb_with_the_conservative_estimate():
    shown = [tier(Rating(mu, 1.0)) for mu in (5, 14, 22, 30, 40)]
    assert shown == list(TIERS)
    assert tier(Rating(40, 8.0)) == "gumus"  # the same mean, less sure: lower


def test_levels_are_ordered_and_the_nearest_is_found():
    for game in ("harftet", "kastet"):
        mus = [level_rating(game, lv).mu for lv in ("easy", "medium", "hard", "expert")]
        assert mus == sorted(mus)
        assert nearest_level(game, Rating()) == "medium"
        assert nearest_level(game, Rating(mu=100)) == "expert"
    assert predict_win([[level_rating("harftet", "hard")], [Rating()]])[0] > 0.5


def test_stored_shape_round_trips():
    rating = Rating(27.123456789, 6.5, 3)
    item = rating.to_item()
    assert item == {"mu": 27.123457, "sigma": 6.5, "games": 3}
    assert Rating.from_item(item).games == 3


def test_places_share_on_equal_penalties():
    assert ranks_of([10, 30, 10, 40]) == [1, 3, 1, 4]
