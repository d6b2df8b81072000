"""Tournaments (RULES §8, API.md v4): registration, the start at its time, Swiss rounds of
ordinary tables with computer players in empty seats, each table's end counted once, the
next round when the last table ends, standings, the podium's badges, a repeating cup, a
round-starter that died half-way, and a player's deletion and export."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from service_helpers import finish, player

from harftet.engine import proof
from harftet.errors import BadRequestError, RegistrationClosedError, TournamentFullError
from harftet.tournaments.ids import parse_table
from harftet.tournaments.models import TournamentRequest


def _create(app: Any, **given: Any) -> dict[str, Any]:
    body = {
        "name": "Akşam Kupası", "game": "kastet", "seats": 4, "hands": 1, "rounds": 2,
        "capacity": 16, "turnSeconds": 45, "startsAt": int(app.clock()) + 600, **given,
    }  # fmt: skip
    return app.tournaments.create(TournamentRequest.model_validate(body))


def _entered(app: Any, t: dict[str, Any], n: int) -> list[Any]:
    callers = [player(app, f"Oyuncu{i}") for i in range(n)]
    for who in callers:
        app.tournaments.register(who, t["tournamentId"])
    return callers


def _started(app: Any, t: dict[str, Any]) -> dict[str, Any]:
    app.clock.advance(t["startsAt"] - app.clock() + 1)
    assert app.rounds.tick()["started"] == 1
    return app.tournaments.view(_viewer(app), t["tournamentId"])


def _viewer(app: Any) -> Any:
    return app.tokens.verify(app.guests.create_player("İzleyici")["token"])


def _people(app: Any, table_id: str) -> list[str]:
    table = app.stores.tables.get(table_id).table
    return [s.occupant.player_id for s in table.seats if not s.occupant.bot]


def _end_round(app: Any, view: dict[str, Any], round_number: int) -> None:
    """Every table of the round ends (seat i's penalty i·10: seat 0 wins), a second after
    the one before, each told to the rounds as the stream tells them."""
    for entry in view["tables"]:
        if entry["round"] == round_number:
            app.clock.advance(1)
            table_id = entry["tableId"]
            seats = len(app.stores.tables.get(table_id).table.seats)
            finish(app, table_id, [10 * i for i in range(seats)])
            app.rounds.table_ended(app.stores.tables.get(table_id).table)


def test_six_players_two_rounds_from_registration_to_the_podium(app, outbox):
    t = _create(app)
    callers = _entered(app, t, 6)
    tid = t["tournamentId"]
    app.stores.connections.add("sock0", "", callers[0].player_id, app.clock())
    view = _started(app, t)
    assert view["status"] == "running" and view["round"] == 1
    first = [e["tableId"] for e in view["tables"]]
    assert len(first) == 2  # 6 people at 4-seat tables: 3 and 3, a computer player each
    seated = [pid for table_id in first for pid in _people(app, table_id)]
    assert sorted(seated) == sorted(c.player_id for c in callers)  # everyone, once
    for table_id in first:
        table = app.stores.tables.get(table_id).table
        assert table.status == "playing" and table.rated and table.hints is False
        assert [s.occupant.level for s in table.seats if s.occupant.bot] == ["hard"]
        assert parse_table(table_id)[:2] == (tid, 1)
    for entry in view["tables"]:  # every table's deal commitment, for anyone to check
        dealt = app.tables.view(callers[0], entry["tableId"])["dealProof"]
        assert entry["dealProof"] == dealt and len(dealt) == 64
    mine = next(t for t in first if callers[0].player_id in _people(app, t))
    pushed = outbox.to("sock0")
    assert {"type": "tournament", "tournamentId": tid, "round": 1, "tableId": mine} in pushed
    assert app.data.export(callers[0])["tournaments"][0]["tables"] == [mine]  # from the plan
    _end_round(app, view, 1)
    view = app.tournaments.view(callers[0], tid)
    assert view["round"] == 2 and len(view["tables"]) == 4 and view["me"]["registered"]
    assert view["me"]["tableId"] in [e["tableId"] for e in view["tables"] if e["round"] == 2]
    winners = {_people(app, table_id)[0] for table_id in first}
    top = [row["playerId"] for row in view["standings"][:2]]
    assert set(top) == winners and view["standings"][0]["points"] == 3
    second = [e["tableId"] for e in view["tables"] if e["round"] == 2]
    assert set(_people(app, second[0])[:2]) == winners  # Swiss: the winners together
    _end_round(app, view, 2)
    view = app.tournaments.view(callers[0], tid)
    assert view["status"] == "finished" and [p["place"] for p in view["podium"]] == [1, 2, 3]
    champion = view["standings"][0]["playerId"]
    profile = app.profiles.profile(champion)
    assert profile["badges"] == [{"tournamentId": tid, "name": "Akşam Kupası", "place": 1}]
    assert app.rounds.tick() == {"started": 0, "driven": 0}  # nothing more to do


def test_capacity_closing_and_withdrawing(app):
    t = _create(app, capacity=4)
    tid = t["tournamentId"]
    callers = _entered(app, t, 4)
    again = app.tournaments.register(callers[0], tid)  # again: the same entry
    assert again["entries"] == 4
    with pytest.raises(TournamentFullError):
        app.tournaments.register(player(app, "Geç"), tid)
    app.tournaments.unregister(callers[3], tid)
    app.tournaments.unregister(callers[3], tid)  # again: nothing
    assert app.tournaments.view(callers[0], tid)["entries"] == 3
    app.clock.advance(601)
    with pytest.raises(RegistrationClosedError):
        app.tournaments.register(player(app, "Çok geç"), tid)
    with pytest.raises(RegistrationClosedError):
        app.tournaments.unregister(callers[0], tid)


def test_bad_settings_are_refused_naming_the_field(app):
    with pytest.raises(ValidationError):  # the route answers 400 naming the field
        _create(app, hands=40)
    with pytest.raises(BadRequestError) as refused:
        _create(app, opensAt=int(app.clock()) + 3600)
    assert refused.value.field == "opensAt"
    with pytest.raises(BadRequestError) as refused:
        _create(app, startsAt=int(app.clock()) - 3600)
    assert refused.value.field == "startsAt"


def test_two_seat_tables_with_an_odd_count_and_a_round_starter_that_died(app):
    t = _create(app, seats=2, rounds=2)
    tid = t["tournamentId"]
    _entered(app, t, 5)
    app.clock.advance(601)
    original = app.rounds.seat
    app.rounds.seat = lambda *a: None  # the starter claims round 1, then dies
    assert app.rounds.tick()["started"] == 1
    app.rounds.seat = original
    assert app.stores.tournaments.get(tid)["phase"] == "seating"
    app.rounds.tick()  # too soon: it may still be seating
    assert app.stores.tournaments.plan(tid, 1) is None
    app.clock.advance(61)
    app.rounds.tick()  # the schedule does it again
    view = app.tournaments.view(_viewer(app), tid)
    assert len(view["tables"]) == 3  # 2 + 2 + 1 and a computer player
    seated = [pid for e in view["tables"] for pid in _people(app, e["tableId"])]
    assert len(seated) == len(set(seated)) == 5


def test_a_starter_that_died_after_making_some_tables_is_resumed_making_none_twice(app):
    """The tables are made a batch at a time: a starter that dies after the first batch
    leaves those tables; the schedule's seating again keeps them as they are (the same deal,
    nobody's seat changed) and makes the rest."""
    t = _create(app)
    tid = t["tournamentId"]
    _entered(app, t, 16)
    app.rounds.table_batch, app.rounds.workers = 2, 1  # 4 tables: two batches in turn
    create_all = app.stores.tables.create_all

    def dies_after_one_batch(tables: list[Any]) -> set[str]:
        if app.stores.tables.items:
            raise TimeoutError("the starter's time ran out")
        return create_all(tables)

    app.stores.tables.create_all = dies_after_one_batch
    app.clock.advance(601)
    with pytest.raises(TimeoutError):
        app.rounds.tick()
    made = {i: app.stores.tables.get(i).table for i in app.stores.tables.items}
    assert len(made) == 2 and app.stores.tournaments.get(tid)["phase"] == "seating"
    app.stores.tables.create_all = create_all
    app.clock.advance(61)
    app.rounds.tick()  # the schedule does it again
    view = app.tournaments.view(_viewer(app), tid)
    assert len(view["tables"]) == 4 and app.stores.tournaments.get(tid)["phase"] == "playing"
    seated = [pid for e in view["tables"] for pid in _people(app, e["tableId"])]
    assert len(seated) == len(set(seated)) == 16
    for table_id, before in made.items():
        assert app.stores.tables.get(table_id).table == before  # kept, not dealt again
    for entry in view["tables"]:  # each commitment is the stored table's own
        table = app.stores.tables.get(entry["tableId"]).table
        assert entry["dealProof"] == proof.deal_proof(table.salt, table.seed, 1)


def test_a_repeating_cup_makes_its_next_one_once(app):
    t = _create(app, repeat="daily")
    _entered(app, t, 2)
    _started(app, t)
    app.rounds.tick()
    found = app.tournaments.page("registering", None)["tournaments"]
    assert [f["startsAt"] for f in found] == [t["startsAt"] + 86400]
    assert found[0]["name"] == t["name"] and found[0]["entries"] == 0


def test_a_seated_player_is_notified_in_her_language(clock, outbox):
    from fakes import NOTIFY_QUEUE, FakeSns, fake_app

    from harftet.notify import Notification
    from harftet.notify.deliver import MobilePush

    app = fake_app(clock, outbox, log=False, mail=True, queues=True)
    sns = FakeSns()
    fcm = sns.create_platform_application(Name="fcm", Platform="GCM", Attributes={})
    app.mobile = MobilePush(sns, {"fcm": fcm["PlatformApplicationArn"]})
    t = _create(app)
    callers = _entered(app, t, 2)
    app.subscriptions.add_device(
        callers[0], {"platform": "fcm", "token": "friend-device-0123456789"}
    )
    _started(app, t)
    found = [Notification.parse(b) for b in app.aws.sqs.drain(NOTIFY_QUEUE)]
    assert sorted(n.player_id for n in found) == sorted(c.player_id for c in callers)
    assert {n.kind for n in found} == {"tournament"}
    for n in found:
        app.notifier.deliver(n)
    (endpoint,) = sns.endpoints.values()
    [sent] = endpoint.messages
    assert "Akşam Kupası: 1. tur başladı" in str(sent)


def test_a_deleted_player_leaves_no_entry_and_her_export_holds_them(app):
    t = _create(app)
    tid = t["tournamentId"]
    ece, ali = _entered(app, t, 2)
    exported = app.data.export(ece)["tournaments"]
    entry = {"name": "Oyuncu0", "rating": 1000, "at": int(app.clock())}
    assert exported == [{"tournamentId": tid, "badge": None, "entry": entry, "tables": []}]
    app.data.delete(ece)
    assert app.stores.tournaments.entry(tid, ece.player_id) is None
    assert app.stores.tournaments.of_player(ece.player_id) == {"ids": [], "badges": {}}
    assert list(app.stores.tournaments.entrants(tid)) == [ali.player_id]


def test_a_deleted_player_leaves_her_tournament_table_and_is_anonymous_there(app):
    """No note per seated person is written: her deletion finds her tournament table from
    the round's plan, leaves it (RULES §4) and leaves an anonymous seat."""
    t = _create(app)
    callers = _entered(app, t, 5)
    view = _started(app, t)
    ece = callers[0]
    (mine,) = [e["tableId"] for e in view["tables"] if ece.player_id in _people(app, e["tableId"])]
    app.data.delete(ece)
    table = app.stores.tables.get(mine).table
    assert ece.player_id not in [s.occupant.player_id for s in table.seats if s.occupant]
    assert all(s.original is None or s.original.player_id != ece.player_id for s in table.seats)


def test_the_tables_stream_starts_the_next_round_when_the_last_table_ends(app, stream):
    from harftet.fanout import changes_from_stream

    t = _create(app)
    _entered(app, t, 8)
    view = _started(app, t)
    stream.deliver(lambda event: app.publisher.publish(changes_from_stream(event)))
    first = [e["tableId"] for e in view["tables"]]
    finish(app, first[0], [0, 10, 20, 30])
    stream.deliver(lambda event: app.publisher.publish(changes_from_stream(event)))
    assert app.stores.tournaments.get(t["tournamentId"])["round"] == 1  # one table to go
    finish(app, first[1], [0, 10, 20, 30])
    stream.deliver(lambda event: app.publisher.publish(changes_from_stream(event)))
    view = app.tournaments.view(_viewer(app), t["tournamentId"])
    assert view["round"] == 2 and len(view["tables"]) == 4
    assert app.stores.tournaments.ended(t["tournamentId"], 1) == 2


def test_a_player_who_leaves_a_table_is_out_and_an_absent_one_is_seated_anyway(app):
    t = _create(app, rounds=2)
    tid = t["tournamentId"]
    callers = _entered(app, t, 8)
    view = _started(app, t)
    table_id = view["tables"][0]["tableId"]
    table = app.stores.tables.get(table_id).table
    leaver = next(c for c in callers if c.player_id == table.seats[1].occupant.player_id)
    app.tables.leave(leaver, table_id, 1)  # mid-game: out of the tournament
    _end_round(app, view, 1)
    view = app.tournaments.view(callers[0], tid)
    assert view["round"] == 2
    assert leaver.player_id not in [s["playerId"] for s in view["standings"]]
    second = [p for e in view["tables"] if e["round"] == 2 for p in _people(app, e["tableId"])]
    assert leaver.player_id not in second and len(second) == 7  # the absent are seated
