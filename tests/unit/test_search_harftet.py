"""Harftet's search: the rules' examples, two-letter tiles, jokers, pairs, the 26-meld cap,
determinism, and that the engine accepts every lay it proposes."""

from __future__ import annotations

import random

import pytest
from engine_helpers import WORDS, arrange, letter_ids, make_table, meld, play
from harftet_positions import random_position

from harftet.engine.hand import apply_move, hand_penalty
from harftet.engine.rules import MAX_SERIES, HarftetRules, rules_for
from harftet.engine.search import Proposal
from harftet.engine.search.harftet import ALL_MOVES, best_lay
from harftet.engine.state import Placed, Table
from harftet.engine.tiles import HARFTET_TILES, JOKER_IDS
from harftet.engine.words import default_words


def spelled(rules: HarftetRules, melds: tuple[tuple[Placed, ...], ...]) -> list[str]:
    return sorted("".join(str(f) for f in rules.faces(m)) for m in melds)


def accepted(table: Table, seat: int, proposal: Proposal, rules: HarftetRules) -> Table:
    """Play the proposal through the engine; check what it says it sheds and uses."""
    after = apply_move(table, seat, proposal.lay, 0.0, rules=rules).table
    before, now = table.seats[seat].hand, after.seats[seat].hand
    assert sorted(set(before) - set(now)) == list(proposal.tiles)
    assert hand_penalty(before, rules) - hand_penalty(now, rules) == proposal.shed > 0
    return after


@pytest.mark.parametrize(
    ("word", "letter", "shed", "words"),
    [("ŞARKI", "K", 1, ["ARK", "ŞIK"]), ("ALİM", "Z", 4, ["ZALİM"])],
    ids=["sarki and a k become ark and sik", "a z goes in front of alim"],
)
def test_one_letter_remakes_a_word(word: str, letter: str, shed: int, words: list[str]) -> None:
    on_table = letter_ids(word)
    (tile,) = letter_ids(letter, set(on_table))
    table = arrange(make_table("harftet", 2), {0: [tile]}, [meld(on_table)])
    found = best_lay(table, 0, words=WORDS)
    assert found is not None and found.shed == shed
    assert spelled(HarftetRules(WORDS), found.lay.series) == words
    after = play(table, 0, found.lay)
    assert spelled(HarftetRules(WORDS), tuple(map(tuple, after.series))) == words


def test_kasaphane_and_a_d_become_kasap_and_hande() -> None:
    words = WORDS | {"KASAPHANE", "KASAP", "HANDE"}
    rules = HarftetRules(words)
    kasaphane = letter_ids("KASAPHANE")
    (d,) = letter_ids("D", set(kasaphane))
    table = arrange(make_table("harftet", 2), {0: [d]}, [meld(kasaphane)])
    found = best_lay(table, 0, words=words)
    assert found is not None and found.shed == 3
    assert spelled(rules, found.lay.series) == ["HANDE", "KASAP"]
    accepted(table, 0, found, rules)


def test_the_default_dictionary_plays_the_examples() -> None:
    rules = rules_for("harftet")
    assert isinstance(rules, HarftetRules)
    for word, letter, expected in (
        ("ŞARKI", "K", ["ARK", "ŞIK"]),
        ("ALİM", "Z", ["ZALİM"]),
        ("KASAPHANE", "D", ["HANDE", "KASAP"]),
    ):
        ids = letter_ids(word)
        table = arrange(make_table("harftet", 2), {0: letter_ids(letter, set(ids))}, [meld(ids)])
        found = best_lay(table, 0)
        assert found is not None
        laid = spelled(rules, found.lay.series)
        # The rules' split, or another one just as good (ŞARKI + K may also give KIŞ + ARK).
        assert len(laid) == len(expected) and all(w in rules.words for w in expected), laid
        accepted(table, 0, found, rules)


@pytest.mark.parametrize(
    ("word", "hand", "after"),
    [
        ("TERKİN", "R", ["ERK", "RİNT"]),
        ("KÜPLEĞİ", "R", ["EĞRİL", "KÜP"]),
        ("ŞARKI", "K", ["ARK", "ŞIK"]),
    ],
)
@pytest.mark.parametrize("budget", [20.0, 80.0, 400.0])
def test_a_split_that_keeps_a_short_word_is_found_at_any_budget(
    word: str, hand: str, after: list[str], budget: float
) -> None:
    """The class the search missed: splits keeping a word that is not among the longest
    words inside the table word (TERKİN holds TEKİN, İNTER...; the one that works keeps
    ERK). They empty the hand, so the hint and every player that may split must find them."""
    rules = rules_for("harftet")
    assert isinstance(rules, HarftetRules)
    ids = letter_ids(word)
    table = arrange(make_table("harftet", 2), {0: letter_ids(hand, set(ids))}, [meld(ids)])
    found = best_lay(table, 0, budget_ms=budget)
    assert found is not None and found.tiles == tuple(table.seats[0].hand)
    played = accepted(table, 0, found, rules)
    assert spelled(rules, tuple(map(tuple, played.series))) == after
    assert played.seats[0].hand == []


def test_two_table_words_and_a_hand_letter_are_rebuilt_as_two_other_words() -> None:
    """HÜR + PAŞA + S: no extension, split or move lays the S; all seven letters make AHŞAP +
    SÜR (and FİL + NEM + Y make FİLM + NEY), both table words rebuilt."""
    rules = rules_for("harftet")
    assert isinstance(rules, HarftetRules)
    for first, second, letter, expected, shed in (
        ("HÜR", "PAŞA", "S", ["AHŞAP", "SÜR"], 2),
        ("FİL", "NEM", "Y", ["FİLM", "NEY"], 3),
    ):
        a = letter_ids(first)
        b = letter_ids(second, set(a))
        hand = letter_ids(letter, {*a, *b})
        table = arrange(make_table("harftet", 2), {0: hand}, [meld(a), meld(b)])
        assert best_lay(table, 0, moves=ALL_MOVES - {"recomb"}) is None
        found = best_lay(table, 0)
        assert found is not None and found.shed == shed
        assert spelled(rules, found.lay.series) == expected
        after = accepted(table, 0, found, rules)
        # A new word holds tiles of both table words (AHŞAP: the H of HÜR and all of PAŞA).
        assert any({p.id for p in m} & set(a) and {p.id for p in m} & set(b) for m in after.series)


def test_on_a_full_table_two_words_merge_to_free_a_place_for_a_new_one() -> None:
    """26 series words stand; none takes a hand letter, but the first two make one word
    together, and the place that frees takes KEDİ from the hand."""
    hand = letter_ids("KEDİ")
    rest = [
        t.id for t in HARFTET_TILES if t.id not in hand and not t.joker and len(t.letter or "") == 1
    ]
    melds = [rest[i * 3 : i * 3 + 3] for i in range(MAX_SERIES)]
    made_up = ["".join(str(HARFTET_TILES[t].letter) for t in m) for m in melds]
    words = frozenset({*made_up, made_up[1] + made_up[0], "KEDİ"})
    rules = HarftetRules(words)
    table = arrange(make_table("harftet", 2), {0: hand}, [meld(m) for m in melds])
    assert best_lay(table, 0, words=words, moves=ALL_MOVES - {"recomb"}) is None
    found = best_lay(table, 0, words=words)
    assert found is not None and found.shed == 6 and len(found.lay.series) == MAX_SERIES
    laid = spelled(rules, found.lay.series)
    assert "KEDİ" in laid and made_up[1] + made_up[0] in laid
    assert made_up[0] not in laid and made_up[1] not in laid
    accepted(table, 0, found, rules)


def test_two_letter_tiles_give_two_letters_and_a_joker_its_declared_one() -> None:
    words = WORDS | {"ŞARK"}
    ar = letter_ids(["AR"])
    (s,) = letter_ids("Ş", set(ar))
    table = arrange(make_table("harftet", 2), {0: [*ar, s, JOKER_IDS[0]]})
    found = best_lay(table, 0, words=words)  # Ş + AR + a joker as K: ŞARK, all three laid
    assert found is not None and found.shed == 4 + 2 + 50
    assert found.lay.series == ((Placed(s), Placed(ar[0]), Placed(JOKER_IDS[0], "K")),)
    accepted(table, 0, found, HarftetRules(words))


def test_a_joker_on_the_table_keeps_its_letter_when_the_word_is_rebuilt() -> None:
    s, r, k = letter_ids("ŞRK")
    ar = [s, Placed(JOKER_IDS[1], "A"), r, k, *letter_ids("I", {s, r, k})]  # Ş?RKI = ŞARKI
    sarki = [p if isinstance(p, Placed) else Placed(p) for p in ar]
    (k2,) = letter_ids("K", {s, r, k})
    table = arrange(make_table("harftet", 2), {0: [k2]}, [sarki])
    found = best_lay(table, 0, words=WORDS)
    assert found is not None and found.shed == 1
    accepted(table, 0, found, HarftetRules(WORDS))


def full_table_with_only_a_pair(pair: str) -> tuple[Table, frozenset[str]]:
    """26 series melds whose 'words' are made up for the test, and a hand that can lay only
    the pair ``pair`` (the made-up words take no extension)."""
    hand = letter_ids(pair)
    rest = [
        t.id for t in HARFTET_TILES if t.id not in hand and not t.joker and len(t.letter or "") == 1
    ]
    melds = [rest[i * 3 : i * 3 + 3] for i in range(MAX_SERIES)]
    words = {"".join(str(HARFTET_TILES[t].letter) for t in m) for m in melds} | {pair}
    table = arrange(make_table("harftet", 2), {0: hand}, [meld(m) for m in melds])
    return table, frozenset(words)


def test_pairs_are_laid_once_all_26_series_places_stand() -> None:
    table, words = full_table_with_only_a_pair("EV")
    found = best_lay(table, 0, words=words)
    assert found is not None and len(found.lay.series) == MAX_SERIES
    assert [[p.id for p in pair] for pair in found.lay.pairs] == [letter_ids("EV")]
    after = accepted(table, 0, found, HarftetRules(words))
    assert after.seats[0].hand == []


def test_no_pairs_while_a_series_place_is_free() -> None:
    table, words = full_table_with_only_a_pair("EV")
    table.series.pop()
    assert best_lay(table, 0, words=words) is None


def test_a_hand_that_spells_nothing_gets_none() -> None:
    table = arrange(make_table("harftet", 2), {0: letter_ids("ĞJ")})
    assert best_lay(table, 0, words=WORDS) is None


def test_the_series_area_never_grows_past_26() -> None:
    rng = random.Random(5)
    words = default_words()
    for _ in range(40):
        table = random_position(rng, words, melds=25)
        found = best_lay(table, 0, budget_ms=5)
        if found is not None:
            assert len(found.lay.series) <= MAX_SERIES
            accepted(table, 0, found, rules_for("harftet"))  # type: ignore[arg-type]


def test_the_same_state_and_budget_give_the_same_lay() -> None:
    rng = random.Random(9)
    words = default_words()
    for budget in (1.0, 20.0, 80.0):
        for _ in range(4):
            table = random_position(rng, words)
            first = best_lay(table, 0, budget_ms=budget)
            assert best_lay(table.clone(), 0, budget_ms=budget) == first


def test_a_bigger_budget_never_finds_less_on_these_positions() -> None:
    rng = random.Random(3)
    words = default_words()
    small = large = 0
    for _ in range(12):
        table = random_position(rng, words, melds=rng.randrange(0, 27))
        a, b = best_lay(table, 0, budget_ms=1.0), best_lay(table, 0, budget_ms=80.0)
        small += a.shed if a else 0
        large += b.shed if b else 0
    assert large >= small > 0


def test_the_engine_accepts_every_proposal_over_thousands_of_random_states() -> None:
    """22-tile hands (and smaller), up to all 26 melds, jokers on the table, open pair areas,
    table words rebuilt; small budgets so that thousands fit in the time (the same code)."""
    rules = rules_for("harftet")
    assert isinstance(rules, HarftetRules)
    rng = random.Random(2026)
    words = default_words()
    counts = {"states": 0, "lays": 0, "full": 0, "pairs": 0, "jokers": 0, "rebuilt": 0}
    for i in range(2000):
        hand = 22 if i % 2 else rng.randrange(1, 23)
        melds = 26 if i % 3 == 0 else rng.randrange(0, 27)
        table = random_position(rng, words, hand=hand, melds=melds, players=rng.randrange(2, 5))
        counts["states"] += 1
        counts["full"] += len(table.series) == MAX_SERIES
        counts["jokers"] += any(HARFTET_TILES[p.id].joker for m in table.series for p in m)
        stats: dict[str, int] = {}
        found = best_lay(table, 0, budget_ms=rng.choice((0.2, 0.5, 1.0, 3.0)), stats=stats)
        if found is None:
            continue
        counts["lays"] += 1
        counts["rebuilt"] += stats["rebuilt"] > 0  # two table words rebuilt or merged
        counts["pairs"] += bool(found.lay.pairs)
        accepted(table, 0, found, rules)
    assert counts["lays"] > 1500 and counts["full"] > 500 and counts["jokers"] > 500
    assert counts["pairs"] > 50 and counts["rebuilt"] > 30, counts


def test_the_index_file_round_trips_and_refuses_another_word_list() -> None:
    from harftet.engine.words import index

    built = index.build(["ARK", "KAR", "ŞIK", "KIŞ", "ŞARKI", "EV"])
    data = index.dumps(built, source_crc=123)
    loaded = index.loads(data, source_crc=123)
    assert loaded is not None and loaded.nodes == built.nodes
    assert loaded.anagrams("RAK") == ["ARK", "KAR"] and loaded.anagrams("VE") == ["EV"]
    assert loaded.anagrams("ŞIKA") == [] and loaded.anagrams("KIRAŞ") == ["ŞARKI"]
    assert index.loads(data, source_crc=124) is None  # built from another list: stale


def test_the_default_index_is_generated_beside_the_dictionary() -> None:
    from harftet.engine.words import index

    loaded = index.load()  # `make dictionary` writes it; the search never builds it
    assert loaded is not None and loaded.groups > 40_000
    assert index.for_words(default_words()).anagrams("ŞIK") == ["KIŞ", "ŞIK"]
