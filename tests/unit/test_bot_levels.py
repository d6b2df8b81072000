"""The computer players by level, and hints: legal moves only, what each level may do, the
joker strategy, and whole seeded games of each level played to the end."""

from __future__ import annotations

import dataclasses
import random
import sys
import types
from typing import Any

import pytest
from engine_helpers import (
    WORDS,
    arrange,
    kastet_id,
    letter_ids,
    make_table,
    meld,
    past_break,
    places,
)
from harftet_positions import random_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harftet.engine import bot
from harftet.engine.bots import harftet as harftet_bots
from harftet.engine.hand import apply_move, hand_penalty
from harftet.engine.moves import Draw, Lay, Pass
from harftet.engine.rules import HarftetRules, rules_for
from harftet.engine.search import BOT_LEVELS, Proposal, hint
from harftet.engine.search.harftet import best_lay
from harftet.engine.state import Table
from harftet.engine.tiles import JOKER_IDS
from harftet.engine.words import default_words
from harftet.engine.words.blocked import blocked

RULES = HarftetRules(WORDS)


@pytest.fixture
def quick_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard and expert players on a small budget: the same code, thousands of positions
    in time."""
    for level in ("hard", "expert"):
        person = dataclasses.replace(harftet_bots.PEOPLE[level], budget_ms=2.0)
        monkeypatch.setitem(harftet_bots.PEOPLE, level, person)


def test_the_older_call_still_plays_a_medium_player() -> None:
    table = arrange(make_table("harftet", 2), {0: letter_ids("ARK")})
    assert bot.choose_move(table, 0, WORDS) == bot.choose_move(table, 0, "medium", WORDS)
    with pytest.raises(ValueError, match="unknown level"):
        bot.choose_move(table, 0, "grandmaster")  # type: ignore[arg-type]


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_with_nothing_to_lay_a_player_draws_if_it_may_else_passes(level: str) -> None:
    table = arrange(make_table("harftet", 2), {0: letter_ids("ĞJ")})
    assert bot.choose_move(table, 0, level, WORDS) == Draw()  # type: ignore[arg-type]
    table = arrange(make_table("harftet", 2), {0: letter_ids("ĞJ")}, pile=0)
    assert bot.choose_move(table, 0, level, WORDS) == Pass()  # type: ignore[arg-type]


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_after_a_lay_a_player_passes(level: str) -> None:
    table = arrange(make_table("harftet", 2), {0: [*letter_ids(["Y", "ER"]), *letter_ids("ĞJ")]})
    move = bot.choose_move(table, 0, level, WORDS)  # type: ignore[arg-type]
    assert isinstance(move, Lay)  # YER
    table = apply_move(table, 0, move, 0.0, rules=RULES).table
    assert bot.choose_move(table, 0, level, WORDS) == Pass()  # type: ignore[arg-type]


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_a_player_whose_look_runs_out_lays_a_word_of_its_hand_rather_than_draw(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No budget at all: the level's own search runs out before it finds anything.
    kale = letter_ids("KALE")
    hand = letter_ids(["Y", "ER", "Ğ", "J"], set(kale))
    table = arrange(make_table("harftet", 2), {0: hand}, [meld(kale)])
    stats: dict[str, int] = {}
    person = harftet_bots.PEOPLE[level]
    accept = harftet_bots.vocabulary(level)
    found = best_lay(
        table, 0, budget_ms=0.0, words=WORDS, moves=person.moves, accept=accept, stats=stats
    )
    assert found is None and stats["exhausted"]
    monkeypatch.setitem(harftet_bots.PEOPLE, level, dataclasses.replace(person, budget_ms=0.0))
    move = bot.choose_move(table, 0, level, WORDS)  # type: ignore[arg-type]
    assert isinstance(move, Lay) and words_of(move) == ["KALE", "YER"]


# Positions from seeded person's tables (bench/bench_hand_length.py, 3 × medium, seed 3)
# where Orta drew although a lay by its own rules was there: its 5 ms look runs out on a
# 14-tile hand, and the older 4 ms fallback did too.
HAND_WORD = ([4, 72, 18, 62, 69, 89, 70, 104, 65, 2, 99, 49, 31, 84], [[87, 95]])  # İLE
TABLE_WORD = (  # no word of the hand alone; one table word extended: DİNLE
    [36, 63, 59, 0, 103, 74, 57, 90, 37, 27, 9, 51, 60, 71, 35],
    [[87, 95], [104, 99]],
)


def _position(hand: list[int], series: list[list[int]]) -> Table:
    melds = [meld(m, {104: "İ"}) for m in series]
    return arrange(make_table("harftet", 4), {0: hand}, melds)


def _own_look(table: Table, level: str) -> tuple[Proposal | None, dict[str, int]]:
    person = harftet_bots.PEOPLE[level]
    stats: dict[str, int] = {}
    found = best_lay(
        table,
        0,
        budget_ms=person.budget_ms,
        moves=person.moves,
        accept=harftet_bots.vocabulary(level),
        steps=person.steps,
        max_tiles=person.tiles,
        stats=stats,
    )
    return found, stats


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_no_level_draws_while_a_word_of_its_own_hand_is_there(level: str) -> None:
    table = _position(*HAND_WORD)
    move = bot.choose_move(table, 0, level)  # type: ignore[arg-type]
    assert isinstance(move, Lay), move
    if level in ("easy", "medium"):  # their own look gives up: the fallback lays
        found, stats = _own_look(table, level)
        assert found is None and stats["exhausted"]
        assert "İLE" in words_of(move)


def test_medium_extends_a_table_word_when_its_hand_alone_has_none() -> None:
    table = _position(*TABLE_WORD)
    found, stats = _own_look(table, "medium")
    assert found is None and stats["exhausted"]  # its own look gives up
    hand_only = best_lay(
        table, 0, moves={"new"}, accept=harftet_bots.vocabulary("medium"), max_tiles=2
    )
    assert hand_only is None  # ... and the hand alone has no word: it extends one
    move = bot.choose_move(table, 0, "medium")
    assert isinstance(move, Lay) and "DİNLE" in words_of(move)


def test_medium_reworks_a_table_word_when_the_simpler_looks_find_nothing() -> None:
    # Seed 40 of the same bench: neither a word of the hand nor one table word extended;
    # Orta's own moves (a split) lay with more work than its first look had.
    table = _position(
        [44, 83, 57, 73, 67, 92, 81, 54, 7, 60, 65, 98, 3, 27, 74], [[76, 9, 101, 26], [77, 95]]
    )
    found, stats = _own_look(table, "medium")
    assert found is None and stats["exhausted"]
    accept = harftet_bots.vocabulary("medium")
    for moves in harftet_bots.FALLBACKS:
        simpler = best_lay(
            table,
            0,
            budget_ms=harftet_bots.FALLBACK_BUDGET_MS,
            moves=moves,
            accept=accept,
            steps=1,
            max_tiles=2,
        )
        assert simpler is None, moves
    move = bot.choose_move(table, 0, "medium")
    assert isinstance(move, Lay) and len(move.series) > len(table.series)


def words_of(lay: Lay) -> list[str]:
    return ["".join(map(str, RULES.faces(m))) for m in lay.series]


def test_easy_lays_only_from_its_hand_and_only_words_it_knows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kale = letter_ids("KALE")
    hand = letter_ids(["M", "Y", "ER"], set(kale))  # KALEM (table + M) or YER (own hand)
    table = arrange(make_table("harftet", 2), {0: hand}, [meld(kale)])
    move = bot.choose_move(table, 0, "easy", WORDS)
    assert isinstance(move, Lay) and words_of(move) == ["KALE", "YER"]
    monkeypatch.setattr(harftet_bots, "vocabulary", lambda level: lambda w: w != "YER")
    assert bot.choose_move(table, 0, "easy", WORDS) == Draw()


def test_medium_extends_a_table_word_and_never_reworks_two_at_once() -> None:
    kale = letter_ids("KALE")
    (m,) = letter_ids("M", set(kale))
    table = arrange(make_table("harftet", 2), {0: [m]}, [meld(kale)])
    move = bot.choose_move(table, 0, "medium", WORDS)
    assert isinstance(move, Lay) and words_of(move) == ["KALEM"]
    people = harftet_bots.PEOPLE
    assert {"move", "recomb"} <= people["hard"].moves
    assert not {"move", "recomb"} & people["medium"].moves
    assert people["easy"].moves == {"new", "pairs"}


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_hard_keeps_a_joker_that_gains_nothing_then_finishes_with_it(level: str) -> None:
    hand = [*letter_ids(["AR", "K"]), JOKER_IDS[0]]  # ARK now; the joker would only make ARKA
    table = arrange(make_table("harftet", 4), {0: hand})
    move = bot.choose_move(table, 0, level, WORDS)  # type: ignore[arg-type]
    assert isinstance(move, Lay)
    table = apply_move(table, 0, move, 0.0, rules=RULES).table
    assert table.seats[0].hand == [JOKER_IDS[0]]
    assert bot.choose_move(table, 0, level, WORDS) == Pass()  # type: ignore[arg-type]
    table.laid = False  # its next turn: the joker goes, and the hand is over
    move = bot.choose_move(table, 0, level, WORDS)  # type: ignore[arg-type]
    assert isinstance(move, Lay)
    table = apply_move(table, 0, move, 0.0, rules=RULES).table
    assert table.seats[0].hand == []
    assert bot.choose_move(table, 0, "hard", WORDS) == Pass()


def test_hard_lays_the_joker_when_the_hand_may_end_soon() -> None:
    hand = [*letter_ids(["AR", "K"]), JOKER_IDS[0]]
    table = arrange(make_table("harftet", 4), {0: hand}, pile=3)
    move = bot.choose_move(table, 0, "hard", WORDS)
    assert isinstance(move, Lay)
    assert JOKER_IDS[0] not in apply_move(table, 0, move, 0.0, rules=RULES).table.seats[0].hand


def test_hard_prefers_the_more_valuable_word() -> None:
    hand = letter_ids(["K", "AR", "Y", "ER"])  # YER (5) beats KAR (3); one look holds one
    table = arrange(make_table("harftet", 2), {0: hand})
    move = bot.choose_move(table, 0, "hard", WORDS)
    assert isinstance(move, Lay) and words_of(move) == ["YER"]


def test_no_level_lays_more_tiles_in_a_turn_than_one_look_holds() -> None:
    hand = letter_ids("KALEMZTS")  # KALEM, KALEMLİ-like words: five and more tiles
    table = arrange(make_table("harftet", 2), {0: hand})
    for level in BOT_LEVELS:
        move = bot.choose_move(table, 0, level, WORDS)
        after = apply_move(table, 0, move, 0.0, rules=RULES).table
        laid = len(hand) - len(after.seats[0].hand)
        assert laid <= harftet_bots.PEOPLE[level].tiles, (level, move)


# --- hints -------------------------------------------------------------------------------


def test_a_hint_is_the_searchs_best_lay_and_depends_only_on_what_the_seat_sees() -> None:
    rng = random.Random(4)
    words = default_words()
    for _ in range(10):
        table = random_position(rng, words, melds=rng.randrange(0, 27), hand=rng.randrange(5, 23))
        found = hint(table, 0)
        assert found == best_lay(table, 0)
        other = table.clone()  # the other hands and the pile shuffled among themselves
        hidden = [t for s in other.seats[1:] for t in s.hand] + other.pile
        rng.shuffle(hidden)
        for s in other.seats[1:]:
            s.hand, hidden = hidden[: len(s.hand)], hidden[len(s.hand) :]
        other.pile = hidden
        assert hint(other, 0) == found
        if found is not None:
            apply_move(table, 0, found.lay, 0.0)


def test_a_kastet_hint_asks_the_kastet_search_with_the_hidden_tiles_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[Table] = []
    fake = types.ModuleType("harftet.engine.search.kastet")

    def fake_best_lay(table: Table, seat: int) -> Proposal | None:
        seen.append(table)
        return None

    fake.best_lay = fake_best_lay  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "harftet.engine.search.kastet", fake)
    import harftet.engine.search as search_package

    monkeypatch.setattr(search_package, "kastet", fake, raising=False)
    table = make_table("kastet", 4)
    assert hint(table, 2) is None
    (visible,) = seen
    assert visible.seats[2].hand == table.seats[2].hand and visible.series == table.series
    assert visible.pile == [] and all(s.hand == [] for i, s in enumerate(visible.seats) if i != 2)
    assert visible.seed == 0 != table.seed
    assert table.pile and all(s.hand for s in table.seats)  # the table itself is untouched


# --- legality over thousands of random states ----------------------------------------------


@pytest.mark.usefixtures("quick_hard")
def test_every_level_and_the_hint_propose_only_moves_the_engine_accepts() -> None:
    rules = rules_for("harftet")
    rng = random.Random(77)
    words = default_words()
    lays = dict.fromkeys(BOT_LEVELS, 0)
    for i in range(400):  # × 3 levels: 1,200 decisions
        table = random_position(
            rng,
            words,
            hand=22 if i % 2 else rng.randrange(1, 23),
            melds=26 if i % 3 == 0 else rng.randrange(0, 27),
            players=rng.randrange(2, 5),
        )
        table.laid = rng.random() < 0.2
        for level in BOT_LEVELS:
            move = bot.choose_move(table, 0, level)
            after = apply_move(table, 0, move, 0.0, rules=rules).table
            assert sorted(places(after)) == list(range(106))
            lays[level] += isinstance(move, Lay)
        if i % 6 == 0:
            found = hint(table, 0)
            if found is not None:
                after = apply_move(table, 0, found.lay, 0.0, rules=rules).table
                assert (
                    hand_penalty(table.seats[0].hand, rules)
                    - hand_penalty(after.seats[0].hand, rules)
                    == found.shed
                )
    assert min(lays.values()) > 150, lays


@pytest.mark.usefixtures("quick_hard")
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10**6), level=st.sampled_from(BOT_LEVELS))
def test_a_level_lays_only_words_it_knows_and_no_more_tiles_than_one_look(
    seed: int, level: str
) -> None:
    """Whatever the position, a level's move is legal, every word its lay makes or changes
    is in its vocabulary (never a blocked word), and it lays at most its look's tiles."""
    rng = random.Random(seed)
    table = random_position(
        rng, default_words(), hand=rng.randrange(1, 23), melds=rng.randrange(0, 27)
    )
    move = bot.choose_move(table, 0, level)  # type: ignore[arg-type]
    after = apply_move(table, 0, move, 0.0, rules=rules_for("harftet")).table
    if not isinstance(move, Lay):
        return
    knows = harftet_bots.vocabulary(level)
    before = {tuple(sorted(p.id for p in m)) for m in table.series}
    made = [m for m in (*move.series, *move.pairs) if tuple(sorted(p.id for p in m)) not in before]
    words = ["".join(map(str, RULES.faces(m))) for m in made]
    assert words and all(knows(w) and w not in blocked() for w in words), words
    laid = len(table.seats[0].hand) - len(after.seats[0].hand)
    assert 0 < laid <= harftet_bots.PEOPLE[level].tiles


# --- whole games ----------------------------------------------------------------------------


def play_to_the_end(table: Table, levels: list[str], words: Any = None) -> Table:
    rules = rules_for(table.game) if words is None else HarftetRules(words)
    moves = 0
    while table.status == "playing":
        table = past_break(table)
        seat = table.turn_seat
        assert seat is not None
        move = bot.choose_move(table, seat, levels[seat], words)  # type: ignore[arg-type]
        before = [hand_penalty(s.hand, rules) for s in table.seats]
        hands = len(table.hand_results)
        table = apply_move(table, seat, move, float(moves), rules=rules).table
        if len(table.hand_results) > hands:
            result = table.hand_results[-1]
            for i, p in enumerate(result.penalties):
                assert p == (-50 if i == result.finisher else before[i])
        moves += 1
        assert moves < 3000, "the game does not end"
        assert sorted(places(table)) == list(range(106))
    return table


@pytest.mark.usefixtures("quick_hard")
@pytest.mark.parametrize(
    "levels",
    [["easy"] * 4, ["medium"] * 4, ["hard"] * 4, ["hard", "medium", "easy", "medium"]],
)
@pytest.mark.parametrize("game", ["harftet", "kastet"])
def test_seeded_four_player_games_of_each_level_are_played_to_the_end(
    game: str, levels: list[str]
) -> None:
    for seed in (1, 2):
        table = play_to_the_end(make_table(game, 4, hands=2, seed=seed), levels)
        assert table.status == "finished" and len(table.hand_results) == 2
        totals = [s.penalty for s in table.seats]
        assert totals == [sum(r.penalties[i] for r in table.hand_results) for i in range(4)]


def test_a_kastet_player_of_any_level_plays_legal_moves() -> None:
    run = [kastet_id("red", n) for n in (4, 5, 6)]
    table = arrange(make_table("kastet", 2), {0: [*run, kastet_id("blue", 9)]})
    for level in BOT_LEVELS:
        move = bot.choose_move(table, 0, level)  # type: ignore[arg-type]
        assert isinstance(move, Lay)
        apply_move(table, 0, move, 0.0)


def test_every_kastet_level_proposes_only_moves_the_engine_accepts() -> None:
    """Random Kastet positions (jokers on the table and in hand, some turns already laid):
    every level's move is accepted and keeps every tile in its place."""
    from test_search_kastet import random_position as kastet_position
    from test_search_kastet import table_of

    rng = random.Random(15)
    lays = dict.fromkeys(BOT_LEVELS, 0)
    for i in range(60):
        series, hand = kastet_position(
            rng, rng.randrange(0, 12), rng.randrange(1, 12), i % 3 % 2, (i // 3) % 2
        )
        table = table_of(series, hand)
        table.laid = i % 5 == 0
        for level in BOT_LEVELS:
            move = bot.choose_move(table, 0, level)
            after = apply_move(table, 0, move, 0.0).table
            assert sorted(places(after)) == sorted(places(table))
            lays[level] += isinstance(move, Lay)
    assert min(lays.values()) > 10, lays
