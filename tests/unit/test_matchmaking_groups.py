"""Which waiting tickets sit together (harftet.matchmaking.grouping), for any pool: every
ticket at most once, never one player twice, never a blocked pair, a group full or its oldest
ticket's wait over, and its people within that ticket's band."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from harftet.matchmaking.grouping import band, groups
from harftet.matchmaking.skill import nearest_level, ordinal, tier
from harftet.store.matchmaking import Ticket

NOW = 1_800_000_000.0


def _ticket(n: int, player: int, skill: float, waited: float, wait: int, avoid=()) -> Ticket:
    return Ticket(
        ticket_id=f"t{n}", player_id=f"p{player}", name="x", rating=1000, game="kastet",
        seats=4, wait_seconds=wait, at=NOW - waited, mu=skill + 6.0, sigma=2.0,
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
        values = [ordinal(t.mu, t.sigma) for t in people]
        assert max(values) - min(values) <= band(waited) + 1e-9


def test_the_band_widens_by_half_a_tier_every_five_seconds():
    assert [band(s) for s in (0, 4.9, 5, 10, 29)] == [2.5, 2.5, 5.0, 7.5, 15.0]


def test_tiers_and_the_computer_level_nearest_a_skill():
    assert tier(25.0, 25 / 3) == 0  # a newcomer
    assert tier(30.0, 2.0) == 4 and tier(-10.0, 2.0) == 0
    assert [nearest_level(x) for x in (0, 5, 13, 22, 50)] == [
        "easy", "medium", "hard", "expert", "expert",
    ]  # fmt: skip
