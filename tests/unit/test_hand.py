"""Playing a hand: dealing, drawing, laying, passing, finishing and blocked hands."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from engine_helpers import (
    LENIENT,
    NOW,
    arrange,
    k,
    lay,
    letter_ids,
    make_table,
    meld,
    places,
    play,
    rejected,
    twenty_six_runs,
)

from harftet.engine import table as life
from harftet.engine.codec import encode
from harftet.engine.errors import EngineError, NotYourTurnError, WrongStatusError
from harftet.engine.hand import (
    apply_move,
    deal,
    forced_move,
    legal_to_draw,
    legal_to_pass_without_lay,
)
from harftet.engine.moves import Draw, Pass, Ready
from harftet.engine.state import HandResult, Placed, Table

RED, YELLOW, BLUE, BLACK = "red", "yellow", "blue", "black"
# Joker faces as a client sends them (Placed.face holds the raw JSON value until normalised).
PINK_3: Any = {"color": "pink", "number": 3}
RED_6: Any = {"color": "red", "number": 6}
BLUE_13: Any = {"color": "blue", "number": 13}


def kastet(hand: list[int], *, players: int = 2, **kw: object) -> Table:
    return arrange(make_table("kastet", players), {0: hand}, **kw)  # type: ignore[arg-type]


# --- dealing ------------------------------------------------------------------------------


def test_each_player_is_dealt_14_tiles_and_the_rest_form_the_pile() -> None:
    table = make_table("harftet", 4)
    assert [len(s.hand) for s in table.seats] == [14, 14, 14, 14]
    assert len(table.pile) == 106 - 56
    assert sorted(places(table)) == list(range(106))
    assert table.turn_seat == 0 and table.first_seat == 0 and table.deadline == NOW + 45


def test_the_same_seed_deals_the_same_tiles_and_another_seed_does_not() -> None:
    assert make_table(seed=5) == make_table(seed=5)
    assert make_table(seed=5).seats[0].hand != make_table(seed=6).seats[0].hand


def test_the_first_player_rotates_each_hand() -> None:
    table = make_table("kastet", 3)
    firsts = []
    for number in (1, 2, 3, 4):
        table.hand_number = number
        deal(table, NOW)
        firsts.append((table.first_seat, table.turn_seat))
    assert firsts == [(0, 0), (1, 1), (2, 2), (0, 0)]


def test_every_hand_of_a_game_is_shuffled_differently() -> None:
    table = make_table("kastet")
    first = list(table.seats[0].hand)
    table.hand_number = 2
    deal(table, NOW)
    assert table.seats[0].hand != first


# --- drawing and passing ------------------------------------------------------------------


def test_drawing_takes_the_top_of_the_pile_and_ends_the_turn() -> None:
    table = make_table("kastet")
    top = table.pile[-1]
    new = play(table, 0, Draw())
    assert new.seats[0].hand[-1] == top and len(new.pile) == len(table.pile) - 1
    assert new.turn_seat == 1 and new.deadline == NOW + 1 + 45
    assert len(table.seats[0].hand) == 14  # the table given was not changed


def test_a_player_must_draw_or_lay_while_the_pile_has_tiles() -> None:
    table = make_table("kastet")
    assert not legal_to_pass_without_lay(table, 0)
    rejected(table, 0, Pass(), "draw or lay: you may pass without laying only with 22 tiles")


def test_a_player_holding_22_tiles_may_not_draw_but_may_pass() -> None:
    table = kastet(list(range(22)))
    assert not legal_to_draw(table, 0)
    rejected(table, 0, Draw(), "you hold 22 tiles")
    new = play(table, 0, Pass())
    assert new.turn_seat == 1 and new.passes == 1 and len(new.seats[0].hand) == 22


def test_nobody_draws_from_an_empty_pile_but_anybody_may_pass() -> None:
    table = kastet([k(RED, 5)], pile=0)
    rejected(table, 0, Draw(), "the pile is empty")
    assert play(table, 0, Pass()).turn_seat == 1


def test_a_player_who_laid_may_not_draw() -> None:
    table = kastet([k(RED, 1), k(RED, 2), k(RED, 3), k(RED, 9)])
    new = play(table, 0, lay(meld([k(RED, 1), k(RED, 2), k(RED, 3)])))
    assert new.laid and new.turn_seat == 0
    rejected(new, 0, Draw(), "you may not draw after a lay")


def test_it_must_be_your_turn() -> None:
    table = make_table("kastet")
    error = rejected(table, 1, Draw(), "it is seat 0's turn", error=NotYourTurnError)
    assert error.code == "not_your_turn"


def test_nobody_moves_unless_the_table_is_playing() -> None:
    table = make_table("kastet")
    table.status = "paused"
    rejected(table, 0, Draw(), "paused", error=WrongStatusError)


def test_the_turn_timer_draws_when_it_may_and_passes_otherwise() -> None:
    table = kastet([k(RED, 1), k(RED, 2), k(RED, 3), k(RED, 9)])
    assert forced_move(table) == Draw()
    laid = play(table, 0, lay(meld([k(RED, 1), k(RED, 2), k(RED, 3)])))
    assert forced_move(laid) == Pass()
    assert forced_move(kastet(list(range(22)))) == Pass()


def test_a_move_of_the_player_resets_their_timeouts_but_a_timed_out_move_does_not() -> None:
    table = make_table("kastet")
    table.seats[0].timeouts = 2
    assert apply_move(table, 0, Draw(), NOW).table.seats[0].timeouts == 0
    assert apply_move(table, 0, Draw(), NOW, forced=True).table.seats[0].timeouts == 2


# --- laying: the examples of the rules ----------------------------------------------------


def harftet_with_sarki() -> tuple[Table, list[int], int]:
    """ŞARKI on the table; seat 0 (in turn) holds a K and an R."""
    sarki = letter_ids("ŞARKI")
    k2, r2 = letter_ids("KR", avoid=set(sarki))
    table = arrange(make_table("harftet", 2), {0: [k2, r2]}, [meld(sarki)])
    return table, sarki, k2


def test_table_sarki_and_a_k_from_hand_make_ark_and_sik() -> None:
    table, (s, a, r, kk, i), k2 = harftet_with_sarki()
    new = play(table, 0, lay(meld([a, r, kk]), meld([s, i, k2])))
    assert new.series == [meld([a, r, kk]), meld([s, i, k2])]
    assert len(new.seats[0].hand) == 1 and new.laid
    assert table.series == [meld([s, a, r, kk, i])]  # the table given was not changed


def test_a_z_from_hand_turns_alim_into_zalim() -> None:
    alim = letter_ids("ALİM")
    (z,) = letter_ids("Z")
    table = arrange(make_table("harftet", 2), {0: [z, *letter_ids("EV", set(alim))]}, [meld(alim)])
    new = play(table, 0, lay(meld([z, *alim])))
    assert new.series == [meld([z, *alim])] and len(new.seats[0].hand) == 2


def test_a_joker_counts_as_its_declared_letter_in_any_case() -> None:
    alim = letter_ids("ALİM")
    table = arrange(make_table("harftet", 2), {0: [104]}, [meld(alim)])
    new = play(table, 0, lay([Placed(104, "z"), *meld(alim)]))
    assert new.series[0][0] == Placed(104, "Z")


def test_a_player_may_lay_several_times_in_a_turn_then_pass() -> None:
    hand = [k(RED, 1), k(RED, 2), k(RED, 3), k(RED, 4), k(BLUE, 9)]
    table = kastet(hand)
    once = play(table, 0, lay(meld(hand[:3])))
    twice = play(once, 0, lay(meld(hand[:4])))
    after = play(twice, 0, Pass())
    assert after.series == [meld(hand[:4])] and after.seats[0].hand == [k(BLUE, 9)]
    assert after.turn_seat == 1 and not after.laid and after.passes == 0


def test_a_kastet_joker_fills_a_gap_and_may_be_declared_again_when_moved() -> None:
    table = kastet([k(RED, 5), k(RED, 7), 104, k(RED, 6), k(BLUE, 8), k(YELLOW, 8)])
    run = [Placed(k(RED, 5)), Placed(104, RED_6), Placed(k(RED, 7))]
    first = play(table, 0, lay(run))
    assert first.series[0][1] == Placed(104, (RED, 6))
    moved = lay(
        meld([k(RED, 5), k(RED, 6), k(RED, 7)]),
        [Placed(k(BLUE, 8)), Placed(k(YELLOW, 8)), Placed(104, (BLACK, 8))],
    )
    again = play(first, 0, moved)
    assert again.series[1][2] == Placed(104, (BLACK, 8)) and again.seats[0].hand == []


def test_a_joker_on_the_table_sent_without_a_face_keeps_the_one_it_had() -> None:
    run = [Placed(k(RED, 5)), Placed(104, (RED, 6)), Placed(k(RED, 7))]
    table = kastet([k(RED, 8)], series=[run])
    new = play(
        table, 0, lay([Placed(k(RED, 5)), Placed(104), Placed(k(RED, 7)), Placed(k(RED, 8))])
    )
    assert new.series == [[*run, Placed(k(RED, 8))]]


# --- laying: every reason a lay is refused ------------------------------------------------


def test_an_unknown_tile_is_refused() -> None:
    table, sarki, k2 = harftet_with_sarki()
    error = rejected(table, 0, lay(meld(sarki), meld([k2, 106])), "unknown tile id 106")
    assert error.meld == 1 and "series meld 2 (index 1)" in error.message


def test_a_tile_may_appear_only_once() -> None:
    table, sarki, k2 = harftet_with_sarki()
    rejected(table, 0, lay(meld([*sarki, k2]), meld([k2])), "tile .* appears more than once")


def test_a_tile_from_another_hand_is_refused() -> None:
    table, sarki, _k2 = harftet_with_sarki()
    other = table.seats[1].hand[0]
    error = rejected(table, 0, lay(meld([*sarki, other])), f"tile {other} is not in your hand")
    assert error.meld == 0


def test_a_table_tile_may_not_go_back_to_a_hand() -> None:
    table, (s, a, _r, _kk, i), k2 = harftet_with_sarki()
    rejected(table, 0, lay(meld([s, i, k2])), f"tile {a} was on the table and is missing")


def test_a_lay_must_add_a_tile_from_hand() -> None:
    table, (s, a, r, kk, i), _k2 = harftet_with_sarki()
    rejected(table, 0, lay(meld([a, r, kk]), meld([s, i, kk])), "appears more than once")
    rejected(table, 0, lay(meld([s, a, r, kk, i])), "must add at least one tile from your hand")


def test_an_invalid_meld_is_named_in_the_refusal() -> None:
    table, (s, a, r, kk, i), k2 = harftet_with_sarki()
    r2 = table.seats[0].hand[1]
    error = rejected(table, 0, lay(meld([a, r, kk]), meld([s, i, k2, r2])), '"ŞIKR"')
    assert error.meld == 1
    assert error.message == 'series meld 2 (index 1): "ŞIKR" is not a word'
    error = rejected(table, 0, lay(meld([a, r]), meld([s, i, k2, kk])), "too short")
    assert error.meld == 0


def test_a_joker_must_declare_a_face_and_other_tiles_must_not() -> None:
    alim = letter_ids("ALİM")
    (z,) = letter_ids("Z")
    table = arrange(make_table("harftet", 2), {0: [z, 104]}, [meld(alim)])
    rejected(table, 0, lay([Placed(104), *meld(alim)]), "joker 104 needs a declared face")
    rejected(table, 0, lay([Placed(z, "Z"), *meld(alim)]), f"tile {z} is not a joker")
    rejected(table, 0, lay([Placed(104, "AR"), *meld(alim)]), "not a letter of the Turkish")
    error = rejected(
        kastet([k(RED, 1), k(RED, 2), 105]),
        0,
        lay([Placed(k(RED, 1)), Placed(k(RED, 2)), Placed(105, PINK_3)]),
        "joker 105: unknown colour 'pink'",
    )
    assert error.meld == 0


def test_at_most_26_series_melds_stand() -> None:
    table = kastet([k(BLACK, 13, 1), k(BLUE, 13, 1), k(RED, 13, 1)], series=twenty_six_runs())
    extra = meld([k(BLACK, 13, 1), k(BLUE, 13, 1), k(RED, 13, 1)])
    error = rejected(table, 0, lay(*twenty_six_runs(), extra), "at most 26 melds")
    assert error.meld == 26


def test_the_pair_area_opens_only_when_all_26_series_places_are_filled() -> None:
    twins = [k(RED, 13), k(RED, 13, 1)]
    table = kastet([*twins, k(BLUE, 13), k(YELLOW, 13)], series=twenty_six_runs()[:25])
    sets = meld([k(RED, 13), k(BLUE, 13), k(YELLOW, 13)])
    rejected(table, 0, lay(*table.series, pairs=[meld(twins)]), "opens only when all 26")
    rejected(table, 0, lay(*table.series, sets, pairs=[meld(twins)]), "appears more than once")
    table = kastet([*twins, k(BLUE, 13)], series=twenty_six_runs())
    new = play(table, 0, lay(*table.series, pairs=[meld(twins)]))
    assert new.pairs == [meld(twins)] and new.seats[0].hand == [k(BLUE, 13)]


def test_pairs_are_frozen_once_laid() -> None:
    twins = [k(RED, 13), k(RED, 13, 1)]
    runs = twenty_six_runs()
    table = kastet([k(BLUE, 13), 104], series=runs, pairs=[meld(twins)])
    extended = [*runs[:3], [*runs[3], Placed(k(RED, 13))], *runs[4:]]  # red 10-11-12 + 13
    rejected(table, 0, lay(*extended), "is in the pair area: pairs are frozen")
    again = [Placed(k(RED, 13)), Placed(104, (RED, 13))]
    rejected(table, 0, lay(*runs, pairs=[again]), "is in the pair area: pairs are frozen")


def test_a_pair_comes_from_the_hand_not_from_the_series_area() -> None:
    runs = twenty_six_runs()
    table = kastet([k(RED, 1, 1)], series=runs)
    rest = [runs[0][1:], *runs[1:]]
    rejected(table, 0, lay(*rest, pairs=[meld([k(RED, 1), k(RED, 1, 1)])]), "on the series area")


def test_a_joker_pairs_with_any_tile_declared_as_its_twin() -> None:
    table = kastet([k(BLUE, 13), 104, k(BLACK, 13)], series=twenty_six_runs())
    good = [Placed(k(BLUE, 13)), Placed(104, BLUE_13)]
    assert play(table, 0, lay(*table.series, pairs=[good])).pairs == [
        [Placed(k(BLUE, 13)), Placed(104, (BLUE, 13))]
    ]
    bad = [Placed(k(BLACK, 13)), Placed(104, (BLUE, 13))]
    error = rejected(table, 0, lay(*table.series, pairs=[bad]), "pair 1 .* not identical")
    assert error.meld is None


def test_harftet_pairs_are_two_tile_words_laid_beside_26_series() -> None:
    e, v, z = letter_ids("EVZ")
    pool = [t for t in range(104) if t not in (e, v, z)]
    series = [meld(pool[3 * i : 3 * i + 3]) for i in range(26)]  # LENIENT takes any 3 letters
    table = arrange(make_table("harftet", 2), {0: [e, v, z]}, series)
    rejected(table, 0, lay(*series, pairs=[meld([v, z])]), '"VZ" is not a word', rules=LENIENT)
    new = play(table, 0, lay(*series, pairs=[meld([e, v])]), rules=LENIENT)
    assert new.pairs == [meld([e, v])] and new.seats[0].hand == [z]


def test_a_move_accepted_or_refused_never_changes_the_table_it_was_given() -> None:
    table, sarki, k2 = harftet_with_sarki()
    before = encode(table)
    for move in (Draw(), lay(meld(sarki)), lay(meld([k2]))):
        with contextlib.suppress(EngineError):
            apply_move(table, 0, move, NOW)
        assert encode(table) == before


# --- the end of a hand --------------------------------------------------------------------


def test_finishing_scores_minus_50_and_the_others_what_they_hold() -> None:
    run = [k(RED, 1), k(RED, 2), k(RED, 3)]
    table = arrange(make_table("kastet", 3), {0: run, 1: [k(BLUE, 9), 104], 2: [k(RED, 13)]})
    laid = play(table, 0, lay(meld(run)))
    outcome = apply_move(laid, 0, Pass(), NOW + 2)
    done = outcome.table
    assert done.status == "finished" and done.turn_seat is None and done.deadline is None
    assert [(r.finisher, r.penalties) for r in done.hand_results] == [(0, [-50, 59, 13])]
    assert [s.penalty for s in done.seats] == [-50, 59, 13]
    assert done.result == {
        "penalties": [-50, 59, 13],
        "points": [1, -1, 0],
        "ratings": {"p0": 1, "p1": -1, "p2": 0},
    }
    assert [(c.player_id, c.delta, c.reason) for c in outcome.effects] == [
        ("p0", 1, "game"),
        ("p1", -1, "game"),
        ("p2", 0, "game"),
    ]


def test_after_a_hand_the_table_breaks_with_no_clock_and_the_results_in_view() -> None:
    run = [k(RED, 1), k(RED, 2), k(RED, 3)]
    table = arrange(make_table("kastet", 2, hands=2), {0: run})
    done = play(play(table, 0, lay(meld(run))), 0, Pass())
    assert done.status == "playing" and done.hand_number == 1 and done.result is None
    assert done.turn_seat is None and done.deadline is None  # no clock runs in the break
    assert done.break_until == NOW + 1 + done.break_seconds and done.ready == []
    assert done.series == [meld(run)]  # the table stays as the hand left it
    assert [r.finisher for r in done.hand_results] == [0] and done.seats[0].penalty == -50
    with pytest.raises(WrongStatusError, match="after the break"):
        apply_move(done, 1, Draw(), NOW + 2)
    assert life.next_event_at(done) == done.break_until
    assert life.sweep(done, done.break_until - 0.5) is None  # no deal before the break ends
    dealt = life.sweep(done, done.break_until)
    assert dealt is not None and [e["type"] for e in dealt.events] == ["start"]
    new = dealt.table
    assert new.hand_number == 2 and new.first_seat == 1 and new.turn_seat == 1
    assert new.series == [] and [len(s.hand) for s in new.seats] == [14, 14]
    assert new.deadline == done.break_until + new.turn_seconds  # the clock starts at the deal
    assert new.break_until is None


def test_the_next_hand_is_dealt_at_once_when_every_connected_person_is_ready() -> None:
    run = [k(RED, 1), k(RED, 2), k(RED, 3)]
    table = arrange(make_table("kastet", 3, hands=2), {0: run})
    done = play(play(table, 0, lay(meld(run))), 0, Pass())
    one = apply_move(done, 0, Ready(), NOW + 3).table
    assert one.ready == [0] and one.hand_number == 1 and one.break_until == done.break_until
    assert apply_move(one, 0, Ready(), NOW + 3).table is one  # said twice: nothing changes
    gone = life.disconnect(one, "p2", NOW + 4).table  # a disconnected player counts as ready
    out = apply_move(gone, 1, Ready(), NOW + 5)
    assert out.table.hand_number == 2 and out.table.turn_seat == 1
    assert out.table.deadline == NOW + 5 + out.table.turn_seconds
    assert out.table.ready == [] and out.table.break_until is None
    with pytest.raises(WrongStatusError, match="no break"):
        apply_move(out.table, 0, Ready(), NOW + 6)


def test_a_full_round_of_passes_without_laying_blocks_the_hand() -> None:
    table = arrange(
        make_table("kastet", 3), {0: [k(RED, 7)], 1: [104, 105], 2: [k(RED, 1)]}, pile=0
    )
    once = play(table, 0, Pass())
    twice = play(once, 1, Pass())
    assert twice.status == "playing" and twice.passes == 2
    done = play(twice, 2, Pass())
    assert done.status == "finished"
    assert [(r.finisher, r.penalties) for r in done.hand_results] == [(None, [7, 100, 1])]


def test_a_lay_during_the_round_keeps_the_hand_going() -> None:
    run = [k(RED, 1), k(RED, 2), k(RED, 3)]
    table = arrange(make_table("kastet", 2), {0: [k(RED, 9)], 1: [*run, k(RED, 11)]}, pile=0)
    passed = play(table, 0, Pass())
    laid = play(play(passed, 1, lay(meld(run))), 1, Pass())
    assert laid.passes == 0 and laid.status == "playing"
    assert play(laid, 0, Pass()).status == "playing"


# --- the copy used by every move ----------------------------------------------------------


def test_a_clone_is_a_deep_copy() -> None:
    table = make_table("kastet", 4)
    table.seats[0].original = table.seats[0].occupant
    table.result = {"points": [1, 2], "ratings": {"p0": 1}}
    before = copy.deepcopy(table)
    twin = table.clone()
    assert twin == table
    twin.seats[0].hand.append(99)
    assert twin.seats[0].occupant is not None and twin.result is not None
    twin.seats[0].occupant.rating = 5
    points: Any = twin.result["points"]
    points.append(3)
    twin.series.append([])
    twin.hand_results.append(HandResult(1, None, [0]))
    assert table == before
