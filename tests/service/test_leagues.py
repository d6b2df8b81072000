"""Weekly leagues (harftet.leagues, RULES §8) over the in-memory stores: a rated game's end
places its players in a division of ≤ 30 and adds their game points in the table's own save;
the standings are there in the very next read; the Monday roll-over moves the top 5 up and
the bottom 5 down exactly once, however often it runs and wherever it stopped before."""

from __future__ import annotations

import copy

import pytest
from service_helpers import finish, full_table

from harftet.errors import BadRequestError, NotFoundError
from harftet.leagues.records import earned_tier
from harftet.leagues.weeks import end_of, week_of
from harftet.store.leagues import division_key, open_key, place_key


def play(app, clock, tables: int = 1, penalties=(10, 20, 30, 40)):
    """``tables`` finished 4-seat, 5-hand Kastet games (+5, +2, −2, −5), a second apart;
    the players by table."""
    seated = []
    for _ in range(tables):
        table_id, callers = full_table(app, seats=4, hands=5)
        finish(app, table_id, list(penalties))
        seated.append(callers)
        clock.advance(1)
    return seated


def next_week(clock) -> None:
    clock.now = end_of(week_of(clock.now)) + 3600  # Monday 01:00 Istanbul


def test_a_first_rated_game_places_its_players_in_bronz_and_the_standings_show_at_once(app, clock):
    with pytest.raises(NotFoundError):
        app.leagues.mine("c1.nobody", "kastet")
    (callers,) = play(app, clock)
    page = app.leagues.mine(callers[2].player_id, "kastet")
    assert page["week"] == week_of(clock.now) and page["tier"] == "bronz"
    assert page["division"] == "bronz-1" and page["promote"] == 5 and page["relegate"] == 5
    assert page["endsAt"] == int(end_of(page["week"]))
    assert [(s["name"], s["points"], s["games"], s["rank"]) for s in page["standings"]] == [
        ("Oyuncu0", 5, 1, 1), ("Oyuncu1", 2, 1, 2), ("Oyuncu2", -2, 1, 3),
        ("Oyuncu3", -5, 1, 4),
    ]  # fmt: skip
    assert {s["move"] for s in page["standings"]} == {"up"}  # the top 5: all four
    with pytest.raises(NotFoundError):
        app.leagues.mine(callers[0].player_id, "harftet")
    profile = app.profiles.profile(callers[0].player_id)
    assert profile["league"] == {"kastet": {"tier": "bronz", "division": "bronz-1", "rank": 1}}


def test_a_second_game_adds_up_in_the_same_division(app, clock):
    (callers,) = play(app, clock)
    table_id = app.tables.create_table(callers[3], _options(), seed=5)["tableId"]
    app.tables.sit(callers[0], table_id, 1)
    app.tables.start(callers[3], table_id)
    finish(app, table_id, [0, 40])  # seat 0 (Oyuncu3) wins +3
    rows = {s["name"]: s for s in app.leagues.mine(callers[3].player_id, "kastet")["standings"]}
    assert (rows["Oyuncu3"]["points"], rows["Oyuncu3"]["games"]) == (-2, 2)
    assert (rows["Oyuncu0"]["points"], rows["Oyuncu0"]["games"]) == (2, 2)


def _options():
    from harftet.engine.options import TableOptions

    return TableOptions(game="kastet", seats=2, hands=3)


def test_a_division_holds_at_most_30(app, clock):
    seated = play(app, clock, tables=8)  # 32 players
    leagues = app.stores.leagues
    week = week_of(clock.now)
    assert leagues.opened("kastet", week, "bronz") == (2, 2)
    assert len(leagues.division("kastet", week, "bronz-1")["m"]) == 30
    pages = [app.leagues.mine(c.player_id, "kastet") for c in seated[-1]]
    later = [p for p in pages if p["division"] == "bronz-2"]
    assert len(later) == 2 and len(later[0]["standings"]) == 2  # the last table's last two


def _roll(app, clock):
    return app.leagues.roll_over()


def test_the_roll_over_moves_the_top_5_up_once_and_bronz_stays(app, clock):
    seated = play(app, clock, tables=8)
    week = week_of(clock.now)
    before = {s["playerId"]: s for s in app.leagues.mine(seated[0][0].player_id, "kastet")[
        "standings"]}  # fmt: skip
    up = {pid for pid, s in before.items() if s["rank"] <= 5}
    assert len(up) == 5 and all(before[p]["move"] == "up" for p in up)
    assert {s["move"] for p, s in before.items() if p not in up} == {"stay"}  # Bronz stays
    assert app.leagues.roll_over(week)["status"] == "early"  # the week has not ended
    next_week(clock)
    report = _roll(app, clock)
    assert report == {"week": week, "status": "done", "divisions": 2, "players": 32}
    for pid in before:
        place = app.stores.leagues.place("kastet", pid)
        assert place.get("next") == ("gumus" if pid in up else None)  # who stays: no write
        assert _earned(app, pid) == ("gumus" if pid in up else "bronz")
    rolled = app.leagues.division("kastet", week, "bronz-1")  # a past week: still readable
    assert rolled["rolled"] is True and len(rolled["standings"]) == 30
    # their next rated game puts them in the tier they earned
    winner = next(c for callers in seated for c in callers if c.player_id in up)
    table_id = app.tables.create_table(winner, _options(), seed=9)["tableId"]
    last = max(before.values(), key=lambda s: s["rank"])["playerId"]
    loser = next(c for callers in seated for c in callers if c.player_id == last)
    app.tables.sit(loser, table_id, 1)
    app.tables.start(winner, table_id)
    finish(app, table_id, [0, 40])
    assert app.leagues.mine(winner.player_id, "kastet")["tier"] == "gumus"
    assert app.leagues.mine(loser.player_id, "kastet")["tier"] == "bronz"


def _earned(app, pid: str) -> str:
    place = app.stores.leagues.place("kastet", pid)
    return earned_tier(app.stores.leagues, "kastet", {**place, "playerId": pid})


def _seed_division(app, week: str, tier: str, size: int) -> list[str]:
    """A division of ``size`` members in ``tier`` (points size−1 … 0), as game ends leave it."""
    items = app.stores.leagues.items
    pids = [f"c1.p{i:02d}" for i in range(size)]
    members = {pid: {"name": pid, "pts": size - i, "g": 1, "at": i} for i, pid in enumerate(pids)}
    division = f"{tier}-1"
    items[division_key("kastet", week, division)] = {"tier": tier, "m": members, "v": size}
    items[open_key("kastet", week, tier)] = {"open": 1, "size": size}
    for pid in pids:
        items[place_key("kastet", pid)] = {"week": week, "tier": tier, "division": division}
    return pids


def test_the_bottom_5_go_down_and_ties_break_by_fewer_games_then_the_earlier_game(app, clock):
    week = week_of(clock.now)
    pids = _seed_division(app, week, "altin", 12)
    members = app.stores.leagues.items[division_key("kastet", week, "altin-1")]["m"]
    members[pids[4]] |= {"pts": members[pids[5]]["pts"], "g": 2}  # tied with p05, more games
    next_week(clock)
    _roll(app, clock)
    earned = {pid: _earned(app, pid) for pid in pids}
    assert [earned[p] for p in pids] == ["platin"] * 4 + ["altin", "platin"] + ["altin"] + [
        "gumus"
    ] * 5


def test_the_same_week_rolled_twice_changes_nothing_the_second_time(app, clock):
    week = week_of(clock.now)
    _seed_division(app, week, "gumus", 30)
    next_week(clock)
    _roll(app, clock)
    after = copy.deepcopy(app.stores.leagues.items)
    writes = app.stores.leagues.writes
    assert writes == 10 + 1 + 2  # a tier for each who moves, the division marked, each week done
    again = _roll(app, clock)
    assert again["divisions"] == 0 and again["players"] == 0
    assert app.stores.leagues.items == after and app.stores.leagues.writes == writes


def test_a_roll_over_that_crashed_half_way_resumes_to_the_same_result(app, clock):
    week = week_of(clock.now)
    for tier in ("bronz", "gumus", "altin"):
        _seed_tier(app, week, tier, divisions=3, size=12)
    clean = copy.deepcopy(app.stores.leagues.items)
    next_week(clock)
    store = app.stores.leagues
    real = store.earned
    calls = []

    def crashing(*args):
        calls.append(args)
        if len(calls) == 50:
            raise RuntimeError("the function died here")
        return real(*args)

    store.earned = crashing
    app.leagues.roll_over.workers = 1
    with pytest.raises(RuntimeError):
        app.leagues.roll_over()
    assert not store.week_done("kastet", week)
    store.earned = real
    assert app.leagues.roll_over()["status"] == "done"
    crashed = copy.deepcopy(store.items)
    store.items = clean  # the same week, rolled in one go
    app.leagues.roll_over()
    assert crashed == store.items


def _seed_tier(app, week: str, tier: str, divisions: int, size: int) -> None:
    items = app.stores.leagues.items
    for d in range(1, divisions + 1):
        division = f"{tier}-{d}"
        pids = [f"c1.{tier}{d}x{i:02d}" for i in range(size)]
        members = {p: {"name": p, "pts": (i * 7) % 13, "g": 1 + i % 3, "at": i}
                   for i, p in enumerate(pids)}  # fmt: skip
        items[division_key("kastet", week, division)] = {"tier": tier, "m": members, "v": 3}
        for pid in pids:
            items[place_key("kastet", pid)] = {"week": week, "tier": tier, "division": division}
    items[open_key("kastet", week, tier)] = {"open": divisions, "size": size}


def test_a_player_who_plays_the_new_week_before_the_roll_over_gets_the_tier_they_earned(app, clock):
    seated = play(app, clock, tables=2)  # 8 players: the top 5 go up
    first = seated[0][0]  # +5, rank 1
    next_week(clock)
    table_id = app.tables.create_table(first, _options(), seed=11)["tableId"]
    app.tables.sit(seated[1][3], table_id, 1)
    app.tables.start(first, table_id)
    finish(app, table_id, [0, 40])
    assert app.leagues.mine(first.player_id, "kastet")["tier"] == "gumus"
    _roll(app, clock)  # the roll-over leaves a place of the new week as it is
    place = app.stores.leagues.place("kastet", first.player_id)
    assert place["week"] == week_of(clock.now) and "next" not in place


def test_a_past_division_is_read_by_its_week_and_bad_names_are_refused(app, clock):
    play(app, clock)
    week = week_of(clock.now)
    assert app.leagues.division("kastet", week, "bronz-1")["week"] == week
    with pytest.raises(BadRequestError):
        app.leagues.division("kastet", "2026-49", "bronz-1")
    for game, division in (("kastet", "bronz-2"), ("kastet", "demir-1"), ("tavla", "bronz-1")):
        with pytest.raises(NotFoundError):
            app.leagues.division(game, week, division)


def test_a_deleted_players_row_in_a_division_is_marked():
    """A division's row of a deleted player (an anonymous id, or a name not kept) is marked
    ``deleted``; the client names it in the reader's language."""
    from harftet.leagues.service import page

    members = {
        "c0.ayse": {"name": "Ayşe", "pts": 9, "g": 2, "at": 1},
        "deleted-0123456789abcdef": {"name": "Silinmiş oyuncu", "pts": 5, "g": 1, "at": 2},
        "c0.gone": {"pts": 1, "g": 1, "at": 3},
    }
    shown = page("2026-W49", "bronz-1", {"tier": "bronz", "m": members})
    assert [(s["playerId"], s["deleted"]) for s in shown["standings"]] == [
        ("c0.ayse", False), ("deleted-0123456789abcdef", True), ("c0.gone", True),
    ]  # fmt: skip
