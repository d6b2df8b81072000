"""Profiles, leaderboards (harftet.profiles), reports and the operator's actions
(harftet.moderation) over the in-memory stores.

Game ends go through the one write path (``TableWriter.write``) with the engine's own
settlement (`scoring.settle`) on chosen penalties, so the profile and board writes ride in
the same transaction as the table, as in play.
"""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from service_helpers import finish, full_table, player

from harftet.api.errors import error_response
from harftet.engine.effects import Outcome, RatingChange
from harftet.engine.options import TableOptions
from harftet.errors import BadRequestError, NotFoundError, OperatorBannedError, RateLimitedError
from harftet.limits import Limits
from harftet.profiles import GameRecords, public_profile
from harftet.store.history import Entry, of_profile, pack, trimmed, unpack
from harftet.store.profiles import GAMES_KEPT, RATINGS_KEPT, week_key

SEED = 8675309412


@pytest.fixture
def people(app):
    """Profiles and leaderboards (``profile``, ``leaderboard``) and moderation (``report``,
    ``reports``, ``ban``, ``close_table``), as their routes reach them."""
    from types import SimpleNamespace

    profiles, moderation = app.profiles, app.moderation
    return SimpleNamespace(
        profile=profiles.profile, leaderboard=profiles.leaderboard, report=moderation.report,
        reports=moderation.reports, ban=moderation.ban, close_table=moderation.close_table,
    )  # fmt: skip


@pytest.fixture
def game(app):
    """A finished 5-hand Kastet game: seat 0 best (+5), then +2, −2, −5."""
    table_id, callers = full_table(app, seats=4, hands=5, seed=SEED)
    finish(app, table_id, [10, 20, 30, 40])
    return table_id, callers


def test_a_finished_game_is_on_every_players_profile_with_its_replay(app, people, game):
    table_id, callers = game
    first = people.profile(callers[0].player_id)
    assert first["name"] == "Oyuncu0" and first["rating"] == 1005
    assert first["games"]["kastet"] == {"played": 1, "won": 1, "abandoned": 0}
    assert first["games"]["harftet"] == {"played": 0, "won": 0, "abandoned": 0}
    assert first["ratingChanges"][0]["delta"] == 5
    assert first["ratingChanges"][0]["tableId"] == table_id
    (recent,) = first["recentGames"]
    assert recent["replay"] == f"/tables/{table_id}/replay" and recent["won"] is True
    assert app.records.replay(callers[1], table_id)["result"]["points"] == [5, 2, -2, -5]
    last = people.profile(callers[3].player_id)
    assert last["games"]["kastet"] == {"played": 1, "won": 0, "abandoned": 0}
    assert last["rating"] == 995 and last["recentGames"][0]["points"] == -5


def test_leaving_counts_as_abandoned_and_names_no_running_table(app, people):
    table_id, callers = full_table(app, seats=3, hands=5, seed=SEED)
    app.tables.leave(callers[0], table_id, 0)
    profile = people.profile(callers[0].player_id)
    assert profile["games"]["kastet"]["abandoned"] == 1
    assert profile["ratingChanges"][0]["delta"] == -10
    assert profile["ratingChanges"][0]["tableId"] is None
    assert profile["recentGames"] == []
    raw = json.dumps(profile)
    assert table_id not in raw and str(SEED) not in raw


def test_profile_and_board_leak_nothing_hidden(app, people, game):
    _, callers = game
    running, others = full_table(app, seats=2, hands=3, seed=SEED + 1)
    app.tables.leave(others[0], running, 0)
    for caller in [*callers, *others]:
        shown = [
            people.profile(caller.player_id),
            people.leaderboard(caller.player_id, "kastet", "all", 100, None),
            people.leaderboard(caller.player_id, "kastet", "week", 100, None),
        ]
        raw = json.dumps(shown)
        assert str(SEED) not in raw and str(SEED + 1) not in raw and running not in raw
        keys = set(_keys(shown))
        assert not keys & {"hand", "pile", "seed", "deal", "tiles", "rack", "token"}


def _keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def test_the_boards_rank_by_rating_and_by_weekly_points(app, people, game):
    _, callers = game
    ids = [c.player_id for c in callers]
    board = people.leaderboard(ids[2], "kastet", "all", 100, None)
    assert [(e["rank"], e["playerId"], e["score"]) for e in board["entries"]] == [
        (1, ids[0], 1005), (2, ids[1], 1002), (3, ids[2], 998), (4, ids[3], 995),
    ]  # fmt: skip
    me = board["me"]
    assert me["rank"] == 3 and me["score"] == 998
    assert [e["playerId"] for e in me["above"]] == ids[:2]
    assert [e["playerId"] for e in me["below"]] == [ids[3]]
    week = people.leaderboard(ids[0], "kastet", "week", 100, None)
    assert [e["score"] for e in week["entries"]] == [5, 2, -2, -5]
    assert week["me"]["rank"] == 1 and week["cursor"] is None
    assert people.leaderboard(ids[0], "harftet", "all", 100, None) == {
        "entries": [], "me": None, "cursor": None,
    }  # fmt: skip


def test_a_board_pages_with_its_cursor_and_refuses_foreign_ones(app, people, game):
    _, callers = game
    ids = [c.player_id for c in callers]
    first = people.leaderboard(ids[0], "kastet", "all", 2, None)
    assert [e["rank"] for e in first["entries"]] == [1, 2] and first["cursor"]
    second = people.leaderboard(ids[0], "kastet", "all", 2, first["cursor"])
    assert [(e["rank"], e["playerId"]) for e in second["entries"]] == [(3, ids[2]), (4, ids[3])]
    with pytest.raises(BadRequestError, match="cursor"):
        people.leaderboard(ids[0], "kastet", "week", 2, first["cursor"])
    # A forged signature: its first character changed (ending it in "AA" left one in 256
    # cursors as it was, since the signature's last characters were often "AA" already).
    data, signature = first["cursor"].split(".")
    forged = f"{data}.{'B' if signature[0] == 'A' else 'A'}{signature[1:]}"
    with pytest.raises(BadRequestError, match="cursor"):
        people.leaderboard(ids[0], "kastet", "all", 2, forged)


def test_a_new_week_starts_monday_midnight_in_istanbul(app, people, clock, game):
    istanbul = ZoneInfo("Europe/Istanbul")
    sunday = datetime(2026, 11, 29, 23, 59, tzinfo=istanbul).timestamp()
    monday = datetime(2026, 11, 30, 0, 0, tzinfo=istanbul).timestamp()
    assert week_key(sunday) == "w2026-11-23" and week_key(monday) == "w2026-11-30"
    assert week_key(monday - 1) == week_key(sunday)
    _, callers = game
    clock.now = week_end_of(clock.now)
    week = people.leaderboard(callers[0].player_id, "kastet", "week", 100, None)
    assert week["entries"] == [] and week["me"] is None  # last week's points stay there
    assert people.leaderboard(callers[0].player_id, "kastet", "all", 1, None)["entries"]


def week_end_of(now: float) -> float:
    from harftet.store.profiles import week_end

    return week_end(now)


def test_bad_board_requests_are_refused(app, people):
    for game, period, limit, error in [
        ("okey", "all", 10, NotFoundError),
        ("kastet", "month", 10, BadRequestError),
        ("kastet", "all", 0, BadRequestError),
        ("kastet", "all", 101, BadRequestError),
    ]:
        with pytest.raises(error):
            people.leaderboard(None, game, period, limit, None)


def test_histories_stay_bounded(app):
    """A profile already full: the next game end keeps the last 50 changes, 20 games."""
    from types import SimpleNamespace

    table_id, callers = full_table(app, seats=2, hands=1, seed=SEED)
    table = app.stores.tables.get(table_id).table
    table.status = "finished"
    table.result = {"points": [1, -1]}
    # 40 games, then 40 leaves: the 20 games survive behind the 50 changes
    entries = [Entry(i, 1, "kastet", f"{i:016x}", True) for i in range(40)]
    entries += [Entry(100 + i, -4, "harftet") for i in range(40)]
    full = {"n": 80, "h": pack(entries)}
    outcome = Outcome(table, [RatingChange(callers[0].player_id, 1, "game")])
    records = GameRecords(SimpleNamespace(profile=lambda player_id, consistent=False: full))
    writes = records(outcome, 2e9)
    stored = writes[0].fields["h"]
    profile = public_profile({"playerId": "p", "name": "Ayşe"}, {"h": stored})
    changes, games = profile["ratingChanges"], profile["recentGames"]
    assert len(changes) == RATINGS_KEPT and len(games) == GAMES_KEPT
    assert changes[0]["tableId"] == games[0]["tableId"] == table_id  # the newest first
    assert [g["at"] for g in games[1:]] == list(range(39, 20, -1))  # the last 19 before it
    assert changes[1] == {"at": 139, "delta": -4, "game": "harftet", "tableId": None}
    assert changes[-1] == {"at": 31, "delta": 1, "game": "kastet", "tableId": f"{31:016x}"}
    assert writes[0].read_n == 80  # written only over the profile read


def test_a_history_is_compact_and_reads_back_the_same():
    """The compact form keeps every field; a full profile stays under 1 KB (one write
    unit per KB); the earlier string lists are read as before."""
    entries = [Entry(1_800_000_000 + i, (-1) ** i * i * 37, "harftet", f"{i:016x}", i % 3 == 0)
               for i in range(RATINGS_KEPT)]  # fmt: skip
    entries += [Entry(1_900_000_000, -22, "kastet"), Entry(1_900_000_001, 5, "kastet", "t-9")]
    assert unpack(pack(entries)) == entries
    assert len(pack(trimmed(entries))) < 1024 - 200  # room for the key and the counters
    legacy = {
        "ratings": ["10:5:kastet:aaaa", "20:-10:harftet:"],
        "games": ["old1:kastet:5:3:1", "aaaa:kastet:10:5:1"],
    }
    assert of_profile(legacy) == [
        Entry(5, 3, "kastet", "old1", True),
        Entry(10, 5, "kastet", "aaaa", True),
        Entry(20, -10, "harftet"),
    ]


def test_unknown_players_have_no_profile_and_board_items_are_no_players(app, people, game):
    _, callers = game
    with pytest.raises(NotFoundError):
        people.profile("nobody")
    for key in (f"profile#{callers[0].player_id}", f"board#kastet#all#{callers[0].player_id}"):
        with pytest.raises(NotFoundError):
            people.profile(key)
        with pytest.raises(NotFoundError):
            app.guests.player(key)


# -- reports and the operator ---------------------------------------------------------------
def test_a_report_is_kept_with_the_table_and_version(app, people, clock):
    table_id, callers = full_table(app, seats=2, hands=3, seed=SEED)
    watcher = player(app, "İzleyici")
    version = app.tables.view(None, table_id)["version"]
    kept = people.report(watcher.player_id, table_id, 1, "insult")
    assert kept["tableId"] == table_id and kept["version"] == version
    clock.now += 1  # newest first (two reports in one second have no order)
    people.report(callers[0].player_id, table_id, 1, "cheating")
    (second, first) = people.reports(None, 50)["reports"]
    assert first["reported"] == callers[1].player_id and first["kind"] == "insult"
    assert first["reporter"] == watcher.player_id and first["version"] == version
    assert second["kind"] == "cheating"
    assert people.reports("2000-01-01", 50)["reports"] == []


def test_bad_reports_are_refused_and_keep_nothing(app, people):
    table_id, callers = full_table(app, seats=2, hands=3, seed=SEED)
    me = callers[0].player_id
    with pytest.raises(NotFoundError):
        people.report(me, "nosuchtable", 1, "other")
    with pytest.raises(BadRequestError, match="yourself"):
        people.report(me, table_id, 0, "other")
    with pytest.raises(BadRequestError, match="seat"):
        people.report(me, table_id, 3, "other")
    with pytest.raises(BadRequestError, match="kind"):
        people.report(me, table_id, 1, "rude")
    with pytest.raises(BadRequestError, match="day"):
        people.reports("yesterday", 50)
    assert people.reports(None, 50)["reports"] == []


def test_reports_are_rate_limited(app, clock):
    limits = Limits(app.stores.counters)
    for _ in range(5):
        limits.check("report", "p1", clock())
    with pytest.raises(RateLimitedError):
        limits.check("report", "p1", clock())


def test_a_banned_player_cannot_sit_or_create_until_unbanned(app, people):
    manager, banned = player(app, "Yönetici"), player(app, "Kural")
    table = app.tables.create_table(
        manager, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
    )
    assert people.ban(banned.player_id, True) == {"playerId": banned.player_id, "banned": True}
    with pytest.raises(OperatorBannedError) as refused:
        app.tables.sit(banned, table["tableId"], 1)
    status, body = error_response(refused.value, "tr")
    assert status == 403 and body["error"]["code"] == "banned"
    assert "engellendi" in body["error"]["message"]
    assert "banned" in error_response(refused.value, "en")[1]["error"]["message"]
    with pytest.raises(OperatorBannedError):
        app.tables.create_table(
            banned, TableOptions(game="kastet", seats=2, hands=1, partners=False, turn_seconds=45)
        )
    assert app.tables.view(None, table["tableId"])["seats"][1] is None
    people.ban(banned.player_id, False)
    assert app.tables.sit(banned, table["tableId"], 1)["seats"][1]["playerId"] == banned.player_id
    with pytest.raises(NotFoundError):
        people.ban("nobody", True)


def test_the_operator_closes_a_table_without_rating_anybody(app, people):
    table_id, callers = full_table(app, seats=2, hands=3, seed=SEED)
    assert people.close_table(table_id) == {"tableId": table_id, "status": "finished"}
    assert people.close_table(table_id)["status"] == "finished"  # again: nothing changes
    for caller in callers:
        assert app.guests.player(caller.player_id)["rating"] == 1000
    with pytest.raises(NotFoundError):
        people.close_table("nosuchtable")


def test_a_profile_changed_under_a_game_end_is_redone_once_not_lost(app, people, monkeypatch):
    """Another write lands on a profile between the game end's read and its transaction:
    the transaction is cancelled and redone from a fresh read — counted once, nothing lost."""
    from fakes import FakeProfiles

    from harftet.store.profiles import profile_key

    table_id, callers = full_table(app, seats=2, hands=1, seed=SEED)
    target = callers[0].player_id
    real = FakeProfiles.profile
    sneaked = []

    def profile(self, player_id, consistent=False):
        found = real(self, player_id, consistent)
        if player_id == target and not sneaked:
            sneaked.append(True)  # another writer's profile, put over whatever was there
            self.items[profile_key(target)] = {"playerId": profile_key(target), "n": 7}
        return found

    monkeypatch.setattr(FakeProfiles, "profile", profile)
    finish(app, table_id, [10, 20])
    stored = real(app.stores.profiles, target, True)
    assert sneaked and int(stored["n"]) == 8
    assert people.profile(target)["games"]["kastet"]["played"] == 1
    assert app.guests.player(target)["rating"] == 1001  # +1 (1 hand, 2 players) once, not twice


def test_forgetting_a_player_removes_their_profile_and_board_entries(app, people, game):
    """For DELETE /players/me (the identity work): nothing of the player stays readable here."""
    _, callers = game
    gone = callers[0].player_id
    assert app.stores.profiles.forget(gone, app.clock()) == 3  # profile, all, this week
    assert people.profile(gone)["recentGames"] == []
    for period in ("all", "week"):
        board = people.leaderboard(callers[1].player_id, "kastet", period, 100, None)
        assert gone not in json.dumps(board) and len(board["entries"]) == 3


def test_a_deleted_players_board_entry_is_marked_and_opens_no_profile(app, people, game, clock):
    """A rating change that reaches a deleted player's anonymous seat leaves an entry with no
    player behind it (and no name): the board marks it ``deleted`` (the client names it in
    the reader's language, with no link to a profile that cannot load); nobody else is."""
    from harftet.store.writes import Commit

    table_id, callers = game
    anon = "deleted-0123456789abcdef"
    stored = app.stores.tables.get(table_id)
    outcome = Outcome(stored.table, [RatingChange(anon, 7, "game")])
    writes = GameRecords(app.stores.profiles)(outcome, clock.now)
    app.stores.tables.save(stored, stored.table, Commit(writes=writes, now=clock.now))
    for period in ("all", "week"):
        board = people.leaderboard(callers[0].player_id, "kastet", period, 100, None)
        marked = {e["playerId"]: e["deleted"] for e in board["entries"]}
        assert marked == {anon: True, **{c.player_id: False for c in callers}}
        assert board["me"]["deleted"] is False
        around = board["me"]["above"] + board["me"]["below"]
        assert [e["deleted"] for e in around] == [e["playerId"] == anon for e in around]
    with pytest.raises(NotFoundError):
        people.profile(anon)


def test_a_listed_player_is_deleted_by_an_anonymous_id_or_a_name_not_kept():
    from harftet.engine.seating import is_deleted
    from harftet.tables.forget import anonymous_id

    assert is_deleted(anonymous_id(), "Silinmiş oyuncu")
    assert is_deleted("c0.gone", "")
    assert not is_deleted("c0.ayse", "Ayşe")
