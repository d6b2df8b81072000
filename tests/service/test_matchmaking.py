"""Matchmaking (RULES §8, API.md v4): tickets, the matcher's groups by skill in a widening
band, computer players of the nearest level when a wait ends, blocks, cancels, two matchers
at once and a matcher killed half-way."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from service_helpers import player

from harftet.errors import AlreadyWaitingError, BadRequestError, NotFoundError, WrongStatusError
from harftet.identity import Caller


def _skilled(app: Any, name: str, mu: float, sigma: float = 2.0, game: str = "kastet") -> Caller:
    """A player whose stored skill in ``game`` is (mu, sigma), as the skill feature keeps it."""
    who = player(app, name)
    app.stores.players.items[who.player_id]["skill"] = {
        game: {"mu": Decimal(str(mu)), "sigma": Decimal(str(sigma)), "games": 20}
    }
    return who


def _open(app: Any, who: Caller, seats: int = 4, wait: int | None = 30, game: str = "kastet"):
    """A new ticket of ``who``, a hundredth of a second after the one before (older first)."""
    app.clock.advance(0.01)
    return app.matchmaking.open(who, game, seats, wait)["ticketId"]


def _table(app: Any, ticket: str, who: Caller) -> dict[str, Any]:
    status = app.matchmaking.status(who, ticket)
    assert status["status"] == "matched", status
    return app.tables.view(who, status["tableId"])


def _people(view: dict[str, Any]) -> list[str]:
    return [s["playerId"] for s in view["seats"] if s and not s.get("bot")]


def test_four_players_of_one_skill_sit_at_a_started_rated_table_and_are_told(app, outbox):
    callers = [_skilled(app, f"Oyuncu{i}", 30 + i / 10) for i in range(4)]
    app.stores.connections.add("own0", "", callers[0].player_id, app.clock())
    tickets = [_open(app, who) for who in callers]
    assert app.matchmaking.status(callers[1], tickets[1]) == {
        "ticketId": tickets[1],
        "status": "waiting",
    }
    assert app.matcher.run() == 1
    view = _table(app, tickets[0], callers[0])
    assert view["status"] == "playing" and view["rated"] is True and view["pace"] == "live"
    assert sorted(_people(view)) == sorted(c.player_id for c in callers)
    table_id = view["tableId"]
    assert outbox.to("own0") == [{"type": "matched", "ticketId": tickets[0], "tableId": table_id}]
    # free to look again, and the table is in their accounts (the inbox lists it)
    assert table_id in app.stores.accounts.account(callers[2].player_id)["tables"]
    assert app.matchmaking.open(callers[0], "kastet", 4, 30)["status"] == "waiting"
    assert app.matcher.run() == 0  # nothing more to do: nobody seated twice


def test_one_ticket_at_a_time_and_waits_within_bounds(app):
    who = player(app, "Ayşe")
    with pytest.raises(BadRequestError) as refused:
        app.matchmaking.open(who, "kastet", 4, 121)
    assert refused.value.field == "waitSeconds"
    first = _open(app, who)
    with pytest.raises(AlreadyWaitingError):
        app.matchmaking.open(who, "harftet", 2, 30)
    other = player(app, "Ali")
    with pytest.raises(NotFoundError):  # somebody else's ticket: not there for them
        app.matchmaking.status(other, first)
    with pytest.raises(NotFoundError):
        app.matchmaking.cancel(other, first)
    assert app.matchmaking.status(who, first)["status"] == "waiting"


def test_far_skills_wait_until_the_band_has_widened_enough(app, clock):
    low, high = _skilled(app, "Az", 20), _skilled(app, "Çok", 31)  # ordinals 14 and 25
    tickets = [_open(app, low, seats=2, wait=120), _open(app, high, seats=2, wait=120)]
    assert app.matcher.run() == 0
    clock.advance(5)  # band 8, a tier (the gap between two tiers' floors): still apart
    assert app.matcher.run() == 0
    clock.advance(5)  # band 12, a tier and a half, covers 11
    assert app.matcher.run() == 1
    view = _table(app, tickets[0], low)
    assert sorted(_people(view)) == sorted([low.player_id, high.player_id])


def test_nearest_skills_sit_together_when_more_wait(app):
    near = [_skilled(app, f"Orta{i}", 25 + i / 10) for i in range(2)]
    strong = [_skilled(app, f"Usta{i}", 40 + i / 10) for i in range(2)]
    tickets = {
        who.player_id: _open(app, who, seats=2)
        for who in [near[0], strong[0], *near[1:], *strong[1:]]
    }
    assert app.matcher.run() == 2
    for pair in (near, strong):
        view = _table(app, tickets[pair[0].player_id], pair[0])
        assert sorted(_people(view)) == sorted(p.player_id for p in pair)


def test_when_the_wait_ends_computer_players_of_the_nearest_level_fill_the_table(app, clock):
    # the levels' measured μ in Kastet: easy 18.1, medium 25, hard 31.4, expert 36.2
    newcomer = player(app, "Yeni")  # no skill yet: OpenSkill's default, μ 25 (ordinal 0)
    weak = _skilled(app, "Acemi", 19, sigma=1.0)  # ordinal 16
    master = _skilled(app, "Usta", 45)  # ordinal 39
    expected = [(newcomer, "medium"), (weak, "easy"), (master, "expert")]
    tickets = [_open(app, who, wait=10) for who, _ in expected]
    assert app.matcher.run() == 0
    clock.advance(10)  # band 12: each too far from the others
    assert app.matcher.run() == 3
    for ticket, (who, level) in zip(tickets, expected, strict=True):
        view = _table(app, ticket, who)
        assert _people(view) == [who.player_id]
        bots = [s for s in view["seats"] if s and s.get("bot")]
        assert len(bots) == 3 and {b["level"] for b in bots} == {level}
        assert view["status"] == "playing" and view["rated"] is True
        stored = app.stores.tables.get(view["tableId"]).table
        assert stored.practice is False  # rated: the computer players count at their level


def test_the_nearest_level_is_the_one_measured_in_the_tickets_game(app, clock):
    # μ 38: nearest expert in Kastet (36.2), nearest hard in Harftet (32.9; expert 46.7)
    kastet, harftet = _skilled(app, "Kaan", 38), _skilled(app, "Hale", 38, game="harftet")
    tickets = [
        _open(app, kastet, seats=2, wait=5),
        _open(app, harftet, seats=2, wait=5, game="harftet"),
    ]
    clock.advance(5)
    assert app.matcher.run() == 2
    for ticket, who, level in [(tickets[0], kastet, "expert"), (tickets[1], harftet, "hard")]:
        bots = [s for s in _table(app, ticket, who)["seats"] if s and s.get("bot")]
        assert [b["level"] for b in bots] == [level]


def _block(app: Any, who: Caller, other: Caller) -> None:
    app.friends.block(who, other.player_id)


def test_players_who_blocked_each_other_are_never_seated_together(app, clock):
    a, b, c = (_skilled(app, name, 30) for name in ("Ali", "Banu", "Cem"))
    _block(app, b, a)  # before the tickets
    tickets = [_open(app, who, seats=2, wait=5) for who in (a, b, c)]
    assert app.matcher.run() == 1
    assert sorted(_people(_table(app, tickets[0], a))) == sorted([a.player_id, c.player_id])
    d = _skilled(app, "Deniz", 30)
    _block(app, d, b)  # while b waits: read fresh before the claim
    _open(app, d, seats=2, wait=5)
    assert app.matcher.run() == 0
    clock.advance(5)
    assert app.matcher.run() == 2  # each with a computer player
    assert _people(_table(app, tickets[1], b)) == [b.player_id]


def test_a_cancelled_ticket_is_never_seated_and_cancelling_twice_is_fine(app):
    a, b, c = (_skilled(app, name, 30) for name in ("Ali", "Banu", "Cem"))
    ta, tb = _open(app, a, seats=2), _open(app, b, seats=2)
    app.matchmaking.cancel(a, ta)
    app.matchmaking.cancel(a, ta)
    assert app.matchmaking.status(a, ta) == {"ticketId": ta, "status": "cancelled"}
    tc = _open(app, c, seats=2)
    assert app.matcher.run() == 1
    assert sorted(_people(_table(app, tb, b))) == sorted([b.player_id, c.player_id])
    with pytest.raises(WrongStatusError):  # matched: too late to cancel
        app.matchmaking.cancel(c, tc)
    assert _open(app, a, seats=2)  # a may look again


def test_a_ticket_cancelled_while_the_matcher_groups_it_stays_out(app, clock):
    a, b, c = (_skilled(app, name, 30) for name in ("Ali", "Banu", "Cem"))
    ta = _open(app, a, seats=2)
    clock.advance(1)
    tb = _open(app, b, seats=2)
    clock.advance(1)
    tc = _open(app, c, seats=2)
    matches = app.stores.matches
    read = matches.waiting

    def waiting_then_cancel(pool: str, limit: int = 1000):
        found = read(pool, limit)  # the matcher holds these, a and b about to be claimed
        if pool == "kastet#2":
            app.matchmaking.cancel(a, ta)
        return found

    matches.waiting = waiting_then_cancel
    assert app.matcher.run() == 0  # the claim of a and b fails as a whole
    matches.waiting = read
    assert app.matchmaking.status(a, ta)["status"] == "cancelled"
    assert app.matchmaking.status(b, tb)["status"] == "waiting"
    assert app.matcher.run() == 1
    assert sorted(_people(_table(app, tc, c))) == sorted([b.player_id, c.player_id])


def test_two_matchers_at_once_make_each_table_once(app):
    from dataclasses import replace

    callers = [_skilled(app, f"Oyuncu{i}", 30 + i / 100) for i in range(8)]
    tickets = [_open(app, who) for who in callers]
    second = replace(app.matcher)
    matches = app.stores.matches
    read = matches.waiting
    seen: list[int] = []

    def both_read(pool: str, limit: int = 1000):
        found = read(pool, limit)
        if pool == "kastet#4" and not seen:
            seen.append(1)
            assert second.run(["kastet#4"]) == 2  # the other matcher, between read and claim
        return found

    matches.waiting = both_read
    assert app.matcher.run(["kastet#4"]) == 0  # every claim lost: nothing made twice
    matches.waiting = read
    tables = {
        app.matchmaking.status(who, t)["tableId"] for who, t in zip(callers, tickets, strict=True)
    }
    assert len(tables) == 2
    seated = [p for table_id in tables for p in _people(app.tables.view(callers[0], table_id))]
    assert sorted(seated) == sorted(c.player_id for c in callers)


class Killed(Exception):
    pass


def test_a_matcher_killed_after_its_claim_leaves_work_the_next_one_finishes(app):
    callers = [_skilled(app, f"Oyuncu{i}", 30) for i in range(4)]
    tickets = [_open(app, who) for who in callers]
    tables = app.stores.tables
    create = tables.create

    def die(table: Any) -> int:
        raise Killed

    tables.create = die
    with pytest.raises(Killed):
        app.matcher.run()
    tables.create = create
    assert {
        app.matchmaking.status(w, t)["status"] for w, t in zip(callers, tickets, strict=True)
    } == {"waiting"}  # being seated: still waiting to the player
    assert app.matcher.run() == 1  # the next pass finishes the claimed table
    view = _table(app, tickets[3], callers[3])
    assert sorted(_people(view)) == sorted(c.player_id for c in callers)
    # killed after the table was made: the next pass settles, never a second table
    more = [_skilled(app, f"Yeni{i}", 30) for i in range(4)]
    again = [_open(app, who) for who in more]
    settle = app.stores.matches.settle

    def die_settling(ticket_id: str) -> bool:
        raise Killed

    app.stores.matches.settle = die_settling
    with pytest.raises(Killed):
        app.matcher.run()
    app.stores.matches.settle = settle
    made = len(app.stores.tables.items)
    assert app.matcher.run() == 1 and len(app.stores.tables.items) == made
    assert sorted(_people(_table(app, again[0], more[0]))) == sorted(p.player_id for p in more)


def test_a_player_deleted_while_waiting_leaves_no_ticket_and_is_never_seated(app, clock):
    gone, a, b = (_skilled(app, name, 30) for name in ("Giden", "Ali", "Banu"))
    _open(app, gone, seats=2)
    ta, tb = _open(app, a, seats=2), _open(app, b, seats=2)
    app.data.delete(gone)
    assert not any(gone.player_id in str(item) for item in app.stores.matches.items.values())
    assert app.matcher.run() == 1
    assert sorted(_people(_table(app, ta, a))) == sorted([a.player_id, b.player_id])
    assert app.matchmaking.status(b, tb)["status"] == "matched"
