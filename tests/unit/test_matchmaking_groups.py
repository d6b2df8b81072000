"""Which waiting tickets sit together (harftet.matchmaking.grouping), for any pool: every
ticket at most once, never one player twice, never a blocked pair, a group full or its oldest
ticket's wait over, and its people within that ticket's band (counted in the real tiers of
harftet.rating); and which computer level fills a group's empty seats."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from harftet.matchmaking import Matcher
from harftet.matchmaking.grouping import Group, band, groups
from harftet.rating import TIER_FLOORS, TIER_WIDTH, Rating, tier
from harftet.store.matchmaking import Ticket

NOW = 1_800_000_000.0


def _ticket(
    n: int, player: int, skill: float, waited: float, wait: int, avoid=(), game="kastet", seats=4
) -> Ticket:
    return Ticket(
        ticket_id=f"t{n}", player_id=f"p{player}", name="x", rating=1000, game=game,
        seats=seats, wait_seconds=wait, at=NOW - waited, mu=skill + 6.0, sigma=2.0,
        avoid=frozenset(f"p{a}" for a in avoid),
    )  # fmt: skip


tickets = st.lists(
    st.tuples(
        st.integers(0, 15),  # the player (a few hold two tickets: never seated together)
        st.floats(0, 40, allow_nan=False),  # their ordinal
        st.floats(0, 60, allow_nan=False),  # how long they waited
        st.sampled_from([0, 5, 30]),  # the wait they chose
        st.lists(st.integers(0, 15), max_size=3),  # whom they blocked
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(tickets)
def test_groups_keep_every_rule_of_the_pool(drawn):
    pool = [_ticket(n, *t) for n, t in enumerate(drawn)]
    found = groups(pool, NOW)
    used = [t.ticket_id for g in found for t in g.tickets]
    assert len(used) == len(set(used))
    for g in found:
        people = g.tickets
        assert len(people) + g.bots == 4 and people
        assert len({t.player_id for t in people}) == len(people)
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                assert b.player_id not in a.avoid and a.player_id not in b.avoid
        oldest = people[0]
        waited = NOW - oldest.at
        assert g.bots == 0 or waited >= oldest.wait_seconds
        values = [Rating(t.mu, t.sigma).ordinal for t in people]
        assert max(values) - min(values) <= band(waited) + 1e-9


def test_the_band_widens_by_half_a_real_tier_every_five_seconds():
    # a tier spans the ordinal between two floors of the tiers a profile shows
    assert TIER_WIDTH == 8.0 and {b - a for a, b in pairwise(TIER_FLOORS)} == {8.0}
    assert [band(s) for s in (0, 4.9, 5, 10, 29)] == [4.0, 4.0, 8.0, 12.0, 24.0]
    # two players a tier apart (Gümüş and Altın at 17 and 25) wait five seconds for each other
    low, high = _ticket(0, 0, 17.0, 0, 120, seats=2), _ticket(1, 1, 25.0, 0, 120, seats=2)
    assert [tier(Rating(t.mu, t.sigma)) for t in (low, high)] == ["gumus", "altin"]
    assert groups([low, high], NOW) == []
    assert [len(g.tickets) for g in groups([low, high], NOW + 5)] == [2]


def _level(game: str, *mus: float) -> str:
    tickets = tuple(_ticket(n, n, mu - 6.0, 30, 30, game=game) for n, mu in enumerate(mus))
    matcher = Matcher(None, None, lambda: NOW, lambda: "T1", lambda _: set())  # type: ignore[arg-type]
    chairs = matcher.plan(Group(tickets, 4 - len(tickets)))["chairs"]
    (level,) = {c["bot"] for c in chairs if "bot" in c}
    return str(level)


def test_computer_players_are_of_the_level_measured_nearest_the_peoples_mean_skill():
    assert _level("kastet", 25.0) == "medium"  # a newcomer's μ: the everyday level
    assert _level("kastet", 19.0) == "easy" and _level("kastet", 45.0) == "expert"
    # the levels' measured ratings differ by game: μ 38 is nearest hard in Harftet (32.9, expert
    # 46.7) and nearest expert in Kastet (36.2)
    assert _level("harftet", 38.0) == "hard" and _level("kastet", 38.0) == "expert"
    assert _level("kastet", 20.0, 30.0) == "medium"  # the mean, 25: neither alone
