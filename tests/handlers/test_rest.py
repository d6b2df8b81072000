"""The REST handler (functions/rest/app.py) replaying events/rest/*.json over in-process moto.

Every route's success and every documented error of API.md; a rejected request never
changes the table, and no response shows the seed or another seat's hand.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
from pathlib import Path

import jwt
import pytest

from harftet.identity import Tokens

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

PUBLIC_PLAYER = {"playerId", "name", "rating", "gamesPlayed", "gamesAbandoned", "bannedUntil"}
VIEW_FIELDS = {
    "tableId", "game", "version", "status", "manager", "hands", "handNumber", "partners",
    "turnSeconds", "seats", "turn", "pile", "series", "pairs", "handResults", "result",
}  # fmt: skip
SEAT_FIELDS = {"seat", "playerId", "name", "connected", "bot", "tiles", "penalty"}


def tiles(api, view: dict) -> dict:
    """tile1..tile3 of move-lay: three tiles of the caller's hand that form a Kastet meld."""
    meld = api.meld(view["hand"])
    assert meld is not None, "the seeded deal gives the first player a meld"
    return {f"tile{i + 1}": tile for i, tile in enumerate(meld)}


def error_of(reply, status: int, code: str) -> dict:
    """The error of a rejected reply, after checking its status, code and shape."""
    assert reply.status == status, reply.body
    assert reply.headers.get("Content-Type") == "application/json"
    error = reply.body["error"]
    assert error["code"] == code and isinstance(error["message"], str) and error["message"]
    return error


def expired_token(player_id: str) -> str:
    return Tokens(os.environ["TOKEN_SECRET"], lifetime=-10).issue(player_id, "Eski")


def forged_token(player_id: str) -> str:
    return Tokens("somebody-else's-secret-0123456789abcdef").issue(player_id, "Sahte")


# -- health and routes -------------------------------------------------------------------
def test_health_answers_200_without_a_token(api):
    reply = api("health")
    assert reply.status == 200 and reply.body == {"status": "ok"}


def test_an_unknown_route_is_404_not_found(api):
    error_of(api("unknown-route"), 404, "not_found")


def test_an_id_no_route_takes_is_404_not_a_405_that_names_its_own_method(api):
    """Issue 35: /tables/<control character>/log fitted the path's shape but no route's
    parameter, and was answered "GET is not allowed here: use GET"."""
    owner = api.player()
    table_id = api.table(owner)["tableId"]
    for odd in ("%12", "\x12", "\u0087", "a\x0cb"):
        event = api.event("rest/start", token=owner.token, tableId=table_id)
        event["path"] = event["requestContext"]["path"] = f"/tables/{odd}/start"
        reply = api.invoke(event)
        error_of(reply, 404, "not_found")
        assert "Allow" not in reply.headers


def test_a_known_path_with_a_method_it_does_not_have_is_405_with_allow(api):
    owner = api.player()
    table_id = api.table(owner)["tableId"]
    event = api.event("rest/start", token=owner.token, tableId=table_id)
    event["httpMethod"] = event["requestContext"]["httpMethod"] = "PUT"
    with api.unchanged(owner, table_id):
        reply = api.invoke(event)
        error_of(reply, 405, "method_not_allowed")
        assert reply.headers["Allow"] == "POST"
    event = api.event("rest/start", token=owner.token, tableId=table_id)
    event["path"] = event["requestContext"]["path"] = f"/tables/{table_id}/seats/1"
    event["httpMethod"] = event["requestContext"]["httpMethod"] = "GET"
    assert api.invoke(event).headers["Allow"] == "DELETE, POST"


# -- players -----------------------------------------------------------------------------
def test_a_new_guest_gets_a_token_that_names_them_and_a_1000_rating(api):
    reply = api("create-player", name="Ayşe")
    assert reply.status == 201
    assert set(reply.body) >= {"playerId", "name", "token", "rating"}
    assert reply.body["name"] == "Ayşe" and reply.body["rating"] == 1000
    profile = api("get-player", token=reply.body["token"], playerId=reply.body["playerId"])
    assert profile.status == 200 and set(profile.body) == PUBLIC_PLAYER
    assert profile.body == {
        "playerId": reply.body["playerId"],
        "name": "Ayşe",
        "rating": 1000,
        "gamesPlayed": 0,
        "gamesAbandoned": 0,
        "bannedUntil": None,
    }


def test_any_player_may_read_another_players_profile_but_not_their_token(api):
    ayse, mehmet = api.player("Ayşe"), api.player("Mehmet")
    reply = api("get-player", token=ayse.token, playerId=mehmet.id)
    assert reply.status == 200 and reply.body["name"] == "Mehmet"
    assert "token" not in reply.body and mehmet.token not in reply.raw


def test_a_player_body_that_is_not_json_is_400(api):
    error_of(api("create-player-malformed-json"), 400, "bad_request")


@pytest.mark.parametrize(
    "body",
    [
        None,
        {},
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 33},
        {"name": 5},
        {"name": ["Ayşe"]},
        {"name": "Ayşe", "rating": 5000},
        ["Ayşe"],
        '"Ayşe"',
        "{'name': 'Ayşe'}",
        '{"name": "Ayşe"}' + " " * (64 * 1024),
    ],
    ids=[
        "no-body", "empty-object", "empty-name", "blank-name", "33-chars", "number",
        "list-name", "unknown-field", "array-body", "string-body", "single-quotes",
        "over-64KB",
    ],
)  # fmt: skip
def test_a_player_needs_exactly_a_name_of_1_to_32_characters(api, body):
    error_of(api("create-player", body=body), 400, "bad_request")


def test_an_unknown_player_is_404(api):
    me = api.player()
    error_of(api("get-player", token=me.token, playerId="nobody"), 404, "not_found")


# -- identity: missing, forged, expired --------------------------------------------------
TOKENS = {
    "missing": lambda p: None,
    "forged": forged_token,
    "expired": expired_token,
    "unsigned": lambda p: jwt.encode(
        {"sub": p, "iss": "harftet", "iat": 1, "exp": 2**40}, None, algorithm="none"
    ),
    "garbage": lambda p: "not-a-jwt",
}


@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_every_call_but_health_and_signup_is_401_without_a_valid_token(api, kind):
    game = api.game()
    owner = game.players[0]
    mover, view = api.turn(game)
    token = TOKENS[kind](owner.id)
    t = game.table_id
    calls = [
        ("get-player", {"playerId": owner.id}),
        ("create-table", {}),
        ("list-waiting-tables", {}),
        ("get-table", {"tableId": t}),
        ("sit", {"tableId": t, "seat": 1}),
        ("sit-bot", {"tableId": t, "seat": 1}),
        ("leave", {"tableId": t, "seat": 0}),
        ("start", {"tableId": t}),
        ("continue", {"tableId": t}),
        ("move-draw", {"tableId": t, "version": view["version"], "moveId": "m1"}),
        ("move-pass", {"tableId": t, "version": view["version"], "moveId": "m2"}),
        (
            "move-lay",
            {"tableId": t, "version": view["version"], "moveId": "m3", **tiles(api, view)},
        ),
    ]
    with api.unchanged(mover, t):
        for name, values in calls:
            error_of(api(name, token=token, **values), 401, "unauthorized")
    lobby = api("list-waiting-tables", token=owner.token)
    assert lobby.body == {"tables": [], "cursor": None}  # create-table made nothing


def test_a_token_without_the_bearer_scheme_is_401(api):
    me = api.player()
    event = api.event("rest/list-waiting-tables", token=me.token)
    event["headers"]["Authorization"] = f"Basic {me.token}"
    event["multiValueHeaders"]["Authorization"] = [f"Basic {me.token}"]
    error_of(api.invoke(event), 401, "unauthorized")


def test_the_authorization_header_name_is_case_insensitive(api):
    me = api.player()
    event = api.event("rest/list-waiting-tables", token=me.token)
    event["headers"]["authorization"] = event["headers"].pop("Authorization")
    assert api.invoke(event).status == 200


# -- tables ------------------------------------------------------------------------------
def test_the_sample_event_creates_a_harftet_table_managed_from_seat_0(api):
    ayse = api.player("Ayşe")
    reply = api("create-table", token=ayse.token)
    assert reply.status == 201
    view = reply.body
    assert set(view) >= VIEW_FIELDS
    assert view["game"] == "harftet" and view["status"] == "waiting" and view["version"] == 1
    assert view["manager"] == ayse.id and view["seat"] == 0
    assert (view["hands"], view["partners"], view["turnSeconds"]) == (11, False, 45)
    assert [s and s["playerId"] for s in view["seats"]] == [ayse.id, None, None, None]
    assert view["seats"][0]["name"] == "Ayşe" and set(view["seats"][0]) >= SEAT_FIELDS
    assert view["turn"] is None and view["hand"] == [] and view["handNumber"] == 0


def test_a_table_gets_the_documented_defaults(api):
    me = api.player()
    view = api("create-table", body={"game": "kastet"}, token=me.token).body
    assert view["game"] == "kastet" and len(view["seats"]) == 4
    assert (view["hands"], view["partners"], view["turnSeconds"]) == (11, False, 45)


def test_a_partner_table_has_four_seats(api):
    me = api.player()
    reply = api("create-table", body={"game": "harftet", "partners": True}, token=me.token)
    assert reply.status == 201 and reply.body["partners"] is True
    assert len(reply.body["seats"]) == 4


BAD_TABLES = {
    "wrong-type": ("create-table-wrong-type", ...),
    "unknown-field": ("create-table-unknown-field", ...),
    "seats-5": ("create-table-out-of-range", ...),
    "partners-3-seats": ("create-table-partners-three-seats", ...),
    "partners-2-seats": ("create-table", {"game": "kastet", "seats": 2, "partners": True}),
    "seats-1": ("create-table", {"game": "kastet", "seats": 1}),
    "hands-0": ("create-table", {"game": "kastet", "hands": 0}),
    "hands-22": ("create-table", {"game": "kastet", "hands": 22}),
    "turn-0s": ("create-table", {"game": "kastet", "turnSeconds": 0}),
    "break-121s": ("create-table", {"game": "kastet", "breakSeconds": 121}),
    "grace-601s": ("create-table", {"game": "kastet", "graceSeconds": 601}),
    "wait-0s": ("create-table", {"game": "kastet", "waitSeconds": 0}),
    "hints-21": ("create-table", {"game": "kastet", "hints": 21}),
    "hints-unlimited-rated": ("create-table", {"game": "kastet", "hints": "unlimited"}),
    "pace-fast": ("create-table", {"game": "kastet", "pace": "fast"}),
    "rated-string": ("create-table", {"game": "kastet", "rated": "no"}),
    "turn-601s": ("create-table", {"game": "kastet", "turnSeconds": 601}),
    "seats-float": ("create-table", {"game": "kastet", "seats": 3.5}),
    "seats-bool": ("create-table", {"game": "kastet", "seats": True}),
    "partners-string": ("create-table", {"game": "kastet", "partners": "false"}),
    "unknown-game": ("create-table", {"game": "tavla"}),
    "no-game": ("create-table", {"seats": 4}),
    "no-body": ("create-table", None),
    "array-body": ("create-table", [{"game": "kastet"}]),
    "malformed-json": ("create-table", '{"game": "kastet",'),
    "negative-seed": ("create-table", {"game": "kastet", "seed": -1}),
    # digits as a string are a seed (API.md v4: integers past 2^53 travel as strings); else 400
    "string-seed": ("create-table", {"game": "kastet", "seed": "7x"}),
    "over-64KB": ("create-table", '{"game": "kastet"}' + " " * (64 * 1024)),
}


@pytest.mark.parametrize("case", sorted(BAD_TABLES))
def test_a_table_outside_the_limits_is_400_and_nothing_is_created(api, case):
    name, body = BAD_TABLES[case]
    me = api.player()
    error = error_of(api(name, body=body, token=me.token), 400, "bad_request")
    if case == "over-64KB":  # valid JSON padded with blanks: only its size is wrong
        assert str(64 * 1024) in error["message"]
    assert api("list-waiting-tables", token=me.token).body == {"tables": [], "cursor": None}


def test_a_400_names_the_offending_field(api):
    me = api.player()
    wrong_type = error_of(api("create-table-wrong-type", token=me.token), 400, "bad_request")
    unknown = error_of(api("create-table-unknown-field", token=me.token), 400, "bad_request")
    assert "seats" in wrong_type["message"] and "colour" in unknown["message"]


def test_a_seed_is_refused_unless_the_operator_enables_test_mode(api, app, monkeypatch):
    import dataclasses

    me = api.player()
    monkeypatch.setattr(app, "settings", dataclasses.replace(app.settings, test_mode=False))
    error = error_of(api("create-table-seeded", token=me.token, seed=7), 400, "bad_request")
    assert "test mode" in error["message"]
    assert api("list-waiting-tables", token=me.token).body == {"tables": [], "cursor": None}


def test_a_seed_makes_the_deal_reproducible_and_is_never_shown(api):
    first, second = api.game(seed=api.SEED), api.game(seed=api.SEED)
    hands = [api.view(g.players[0], g.table_id)["hand"] for g in (first, second)]
    assert hands[0] == hands[1] and len(hands[0]) == 14
    # Rest.invoke checked every reply of this test for the seed's value and a "seed" field.
    assert len(api.replies) > 10


def test_the_lobby_lists_waiting_tables_only(api):
    me = api.player("Ayşe")
    waiting = api.table(me, game="harftet", seats=3, hands=5, turnSeconds=30)
    started = api.game()
    reply = api("list-waiting-tables", token=me.token)
    assert reply.status == 200
    assert [t["tableId"] for t in reply.body["tables"]] == [waiting["tableId"]]
    summary = reply.body["tables"][0]
    assert summary["game"] == "harftet" and summary["seats"] == 3
    assert summary["players"] == ["Ayşe", None, None] and summary["taken"] == 1
    assert started.table_id not in reply.raw


@pytest.mark.parametrize("status", ["finished", "paused", "", "WAITING"])
def test_the_lobby_has_no_other_status_to_list(api, status):
    me = api.player()
    event = api.event("rest/list-waiting-tables", token=me.token)
    event["queryStringParameters"] = {"status": status}
    event["multiValueQueryStringParameters"] = {"status": [status]}
    error_of(api.invoke(event), 400, "bad_request")


def test_the_view_shows_a_spectator_the_table_but_no_hand(api):
    game = api.game()
    reply = api("get-table", token=api.player("Seyirci").token, tableId=game.table_id)
    assert reply.status == 200 and "hand" not in reply.body and "seat" not in reply.body
    assert [s["tiles"] for s in reply.body["seats"]] == [14, 14]
    assert reply.body["pile"] == 106 - 28 and reply.body["status"] == "playing"
    assert reply.body["turn"]["deadline"] is not None


TABLE_ROUTES = [
    ("get-table", {}),
    ("sit", {"seat": 1}),
    ("sit-bot", {"seat": 1}),
    ("leave", {"seat": 0}),
    ("start", {}),
    ("continue", {}),
    ("move-draw", {"version": 1, "moveId": "m"}),
    ("move-pass", {"version": 1, "moveId": "m"}),
    ("move-lay", {"version": 1, "moveId": "m", "tile1": 0, "tile2": 1, "tile3": 2}),
]


@pytest.mark.parametrize("route", TABLE_ROUTES, ids=[r[0] for r in TABLE_ROUTES])
def test_an_unknown_table_is_404_on_every_table_route(api, route):
    name, values = route
    me = api.player()
    error_of(api(name, token=me.token, tableId="no-such-table", **values), 404, "not_found")


# -- seats -------------------------------------------------------------------------------
def test_sitting_down_returns_the_view_with_the_callers_seat(api):
    owner, guest = api.player("A"), api.player("B")
    table_id = api.table(owner)["tableId"]
    reply = api("sit", token=guest.token, tableId=table_id, seat=1)
    assert reply.status == 200
    assert reply.body["seat"] == 1 and reply.body["version"] == 2
    assert reply.body["seats"][1]["playerId"] == guest.id
    assert reply.body["seats"][1]["connected"] is True and reply.body["seats"][1]["bot"] is False


def test_a_taken_seat_is_409_seat_taken_and_nothing_changes(api):
    owner, guest = api.player("A"), api.player("B")
    table_id = api.table(owner)["tableId"]
    with api.unchanged(owner, table_id):
        error_of(api("sit", token=guest.token, tableId=table_id, seat=0), 409, "seat_taken")


@pytest.mark.parametrize("seat", ["x", "-1", "1.0", "one", "²", "%31"])
@pytest.mark.parametrize("route", ["sit", "leave"])
def test_a_seat_that_is_not_a_number_is_400(api, route, seat):
    owner = api.player()
    table_id = api.table(owner)["tableId"]
    with api.unchanged(owner, table_id):
        error_of(api(route, token=owner.token, tableId=table_id, seat=seat), 400, "bad_request")


@pytest.mark.parametrize("route", ["sit", "sit-bot", "leave"])
def test_a_seat_the_table_does_not_have_is_400(api, route):
    owner = api.player()
    table_id = api.table(owner)["tableId"]
    with api.unchanged(owner, table_id):
        reply = api(route, token=owner.token, tableId=table_id, seat=2)
        assert "seat 2" in error_of(reply, 400, "bad_request")["message"]


@pytest.mark.parametrize("body", [{"bot": "yes"}, {"bot": 1}, {"robot": True}, "{", [True]])
def test_a_sit_body_other_than_bot_true_or_false_is_400(api, body):
    owner, guest = api.player(), api.player()
    table_id = api.table(owner)["tableId"]
    with api.unchanged(owner, table_id):
        reply = api("sit", body=body, token=guest.token, tableId=table_id, seat=1)
        error_of(reply, 400, "bad_request")


def test_the_manager_seats_a_computer_player_and_may_remove_it_before_the_start(api):
    owner = api.player()
    table_id = api.table(owner)["tableId"]
    seated = api("sit-bot", token=owner.token, tableId=table_id, seat=1)
    assert seated.status == 200
    assert seated.body["seats"][1]["bot"] is True and seated.body["seat"] == 0
    removed = api("leave", token=owner.token, tableId=table_id, seat=1)
    assert removed.status == 200 and removed.body["seats"][1] is None


def test_only_the_manager_seats_or_removes_a_computer_player(api):
    owner, guest = api.player(), api.player()
    table_id = api.table(owner, seats=3)["tableId"]
    assert api("sit", token=guest.token, tableId=table_id, seat=1).status == 200
    with api.unchanged(owner, table_id):
        reply = api("sit-bot", token=guest.token, tableId=table_id, seat=2)
        error_of(reply, 403, "not_manager")
    assert api("sit-bot", token=owner.token, tableId=table_id, seat=2).status == 200
    with api.unchanged(owner, table_id):
        error_of(api("leave", token=guest.token, tableId=table_id, seat=2), 403, "not_manager")


def test_a_player_may_change_seats_before_the_start(api):
    owner, guest = api.player(), api.player()
    table_id = api.table(owner, seats=3)["tableId"]
    api("sit", token=guest.token, tableId=table_id, seat=1)
    moved = api("sit", token=guest.token, tableId=table_id, seat=2)
    assert moved.status == 200 and moved.body["seat"] == 2 and moved.body["seats"][1] is None


def test_leaving_before_the_start_frees_the_seat_at_no_cost(api):
    owner, guest = api.player(), api.player()
    table_id = api.table(owner)["tableId"]
    api("sit", token=guest.token, tableId=table_id, seat=1)
    reply = api("leave", token=guest.token, tableId=table_id, seat=1)
    assert reply.status == 200 and reply.body["seats"][1] is None and "seat" not in reply.body
    profile = api("get-player", token=guest.token, playerId=guest.id).body
    assert profile["rating"] == 1000 and profile["gamesAbandoned"] == 0


def test_leaving_a_seat_that_is_not_yours_is_403_not_seated(api):
    owner, guest = api.player(), api.player()
    table_id = api.table(owner)["tableId"]
    with api.unchanged(owner, table_id):
        error_of(api("leave", token=guest.token, tableId=table_id, seat=0), 403, "not_seated")
        error_of(api("leave", token=guest.token, tableId=table_id, seat=1), 403, "not_seated")


def test_the_last_player_leaving_a_waiting_table_closes_it_so_nobody_can_sit(api):
    owner, guest = api.player(), api.player()
    table_id = api.table(owner)["tableId"]
    closed = api("leave", token=owner.token, tableId=table_id, seat=0)
    assert closed.status == 200 and closed.body["status"] == "finished"
    assert api("list-waiting-tables", token=guest.token).body == {"tables": [], "cursor": None}
    with api.unchanged(guest, table_id):
        error_of(api("sit", token=guest.token, tableId=table_id, seat=1), 409, "wrong_status")


def test_leaving_during_a_game_costs_2n_pauses_it_and_passes_the_manager_role(api):
    game = api.game(seats=3, hands=5)
    owner = game.players[0]
    reply = api("leave", token=owner.token, tableId=game.table_id, seat=0)
    assert reply.status == 200 and "hand" not in reply.body
    assert reply.body["status"] == "paused" and reply.body["manager"] == game.players[1].id
    assert reply.body["seats"][0]["vacant"] is True and reply.body["seats"][0]["tiles"] == 14
    profile = api("get-player", token=owner.token, playerId=owner.id).body
    assert profile["rating"] == 1000 - 10 and profile["gamesAbandoned"] == 1


def test_a_third_abandon_in_a_day_is_403_banned_when_sitting_down(api):
    leaver = api.player("Kaçak")
    for _ in range(3):
        owner = api.player("Sahip")
        table_id = api.table(owner)["tableId"]
        assert api("sit", token=leaver.token, tableId=table_id, seat=1).status == 200
        assert api("start", token=owner.token, tableId=table_id).status == 200
        assert api("leave", token=leaver.token, tableId=table_id, seat=1).status == 200
    profile = api("get-player", token=leaver.token, playerId=leaver.id).body
    assert profile["gamesAbandoned"] == 3 and profile["bannedUntil"] is not None
    owner = api.player("Yeni")
    table_id = api.table(owner)["tableId"]
    with api.unchanged(owner, table_id):
        error = error_of(api("sit", token=leaver.token, tableId=table_id, seat=1), 403, "banned")
    assert error["bannedUntil"] == profile["bannedUntil"]
    error_of(api("create-table", token=leaver.token), 403, "banned")  # it would seat them
    lobby = api("list-waiting-tables", token=owner.token).body["tables"]
    assert [t["tableId"] for t in lobby] == [table_id]


# -- start and continue ------------------------------------------------------------------
def test_the_manager_starts_a_full_table_and_everyone_gets_14_tiles(api):
    owner, guest = api.player(), api.player()
    table_id = api.table(owner)["tableId"]
    api("sit", token=guest.token, tableId=table_id, seat=1)
    reply = api("start", token=owner.token, tableId=table_id)
    assert reply.status == 200
    view = reply.body
    assert view["status"] == "playing" and view["handNumber"] == 1 and len(view["hand"]) == 14
    assert view["turn"]["seat"] == 0 and view["turn"]["laid"] is False
    assert view["pile"] == 106 - 28 and view["series"] == [] and view["pairs"] == []
    assert len(api.view(guest, table_id)["hand"]) == 14


def test_only_the_manager_starts_403_not_manager(api):
    owner, guest = api.player(), api.player()
    table_id = api.table(owner)["tableId"]
    api("sit", token=guest.token, tableId=table_id, seat=1)
    with api.unchanged(owner, table_id):
        error_of(api("start", token=guest.token, tableId=table_id), 403, "not_manager")


def test_a_table_with_an_empty_seat_cannot_start_409_wrong_status(api):
    owner = api.player()
    table_id = api.table(owner)["tableId"]
    with api.unchanged(owner, table_id):
        error = error_of(api("start", token=owner.token, tableId=table_id), 409, "wrong_status")
    assert "seat 1" in error["message"]


def test_a_started_table_cannot_start_again_or_take_new_players(api):
    game = api.game()
    owner = game.players[0]
    with api.unchanged(owner, game.table_id):
        error_of(api("start", token=owner.token, tableId=game.table_id), 409, "wrong_status")
        stranger = api.player()
        reply = api("sit", token=stranger.token, tableId=game.table_id, seat=1)
        error_of(reply, 409, "seat_taken")


def test_a_substitute_takes_a_vacated_seat_and_the_manager_continues(api):
    game = api.game()
    owner, quitter = game.players
    assert api("leave", token=quitter.token, tableId=game.table_id, seat=1).status == 200
    with api.unchanged(owner, game.table_id):
        reply = api("continue", token=owner.token, tableId=game.table_id)
        assert "vacant" in error_of(reply, 409, "wrong_status")["message"]
    sub = api.player("Yedek")
    sat = api("sit", token=sub.token, tableId=game.table_id, seat=1)
    assert sat.status == 200 and sat.body["status"] == "paused"
    assert sat.body["seat"] == 1 and len(sat.body["hand"]) == 14  # inherits the hand
    with api.unchanged(owner, game.table_id):
        error_of(api("continue", token=sub.token, tableId=game.table_id), 403, "not_manager")
    reply = api("continue", token=owner.token, tableId=game.table_id)
    assert reply.status == 200 and reply.body["status"] == "playing"
    assert reply.body["turn"]["deadline"] is not None


def test_continue_on_a_table_that_is_not_paused_is_409_wrong_status(api):
    game = api.game()
    owner = game.players[0]
    with api.unchanged(owner, game.table_id):
        error_of(api("continue", token=owner.token, tableId=game.table_id), 409, "wrong_status")


# -- moves -------------------------------------------------------------------------------


def test_a_draw_adds_one_tile_and_passes_the_turn(api):
    game = api.game()
    player, view = api.turn(game)
    reply = api.move("move-draw", player, game, view)
    assert reply.status == 200
    assert reply.body["version"] == view["version"] + 1 and len(reply.body["hand"]) == 15
    assert reply.body["pile"] == view["pile"] - 1
    assert reply.body["turn"]["seat"] == (view["turn"]["seat"] + 1) % 2
    drawn = {t["id"] for t in reply.body["hand"]} - {t["id"] for t in view["hand"]}
    assert len(drawn) == 1


def test_a_repeated_move_id_returns_the_same_answer_and_changes_nothing(api):
    game = api.game()
    player, view = api.turn(game)
    first = api.move("move-draw", player, game, view, "draw-1")
    again = api.move("move-draw", player, game, view, "draw-1")
    assert again.status == 200 and again.body == first.body
    assert api.view(player, game.table_id) == first.body


def test_a_stale_version_is_409_with_the_current_view_and_nothing_changes(api):
    game = api.game()
    player, view = api.turn(game)
    with api.unchanged(player, game.table_id):
        reply = api.move("move-draw", player, game, {"version": view["version"] - 1})
        error_of(reply, 409, "stale_version")
    assert reply.body["view"] == view  # the caller's own view, hand included


def test_the_version_is_checked_before_whose_turn_it_is(api):
    game = api.game()
    player, view = api.turn(game)
    other = next(p for p in game.players if p != player)
    mine = api.view(other, game.table_id)
    with api.unchanged(player, game.table_id):
        reply = api.move("move-draw", other, game, {"version": view["version"] + 5})
        error_of(reply, 409, "stale_version")
    assert reply.body["view"] == mine


def test_moving_out_of_turn_is_403_not_your_turn(api):
    game = api.game()
    player, view = api.turn(game)
    other = next(p for p in game.players if p != player)
    with api.unchanged(player, game.table_id):
        error_of(api.move("move-draw", other, game, view), 403, "not_your_turn")
        error_of(api.move("move-pass", other, game, view), 403, "not_your_turn")


def test_moving_without_a_seat_is_403_not_seated(api):
    game = api.game()
    player, view = api.turn(game)
    stranger = api.player()
    with api.unchanged(player, game.table_id):
        error_of(api.move("move-draw", stranger, game, view), 403, "not_seated")


def test_a_move_before_the_start_is_409_wrong_status(api):
    owner, guest = api.player(), api.player()
    view = api.table(owner)
    api("sit", token=guest.token, tableId=view["tableId"], seat=1)
    with api.unchanged(owner, view["tableId"]) as now:
        reply = api(
            "move-draw",
            token=owner.token,
            tableId=view["tableId"],
            version=now["version"],
            moveId="m",
        )
        error_of(reply, 409, "wrong_status")


def test_passing_without_laying_while_the_pile_has_tiles_is_422_illegal_move(api):
    game = api.game()
    player, view = api.turn(game)
    with api.unchanged(player, game.table_id):
        error = error_of(api.move("move-pass", player, game, view), 422, "illegal_move")
    assert "meld" not in error


def test_a_valid_lay_puts_the_meld_on_the_table_then_pass_ends_the_turn(api):
    game = api.game()
    player, view = api.turn(game)
    laid = api.move("move-lay", player, game, view, "lay-1", **tiles(api, view))
    assert laid.status == 200, laid.body
    meld = api.meld(view["hand"])
    assert [[t["id"] for t in m] for m in laid.body["series"]] == [meld]
    assert len(laid.body["hand"]) == 11 and laid.body["turn"] == {
        "seat": view["turn"]["seat"],
        "laid": True,
        "deadline": view["turn"]["deadline"],
    }
    with api.unchanged(player, game.table_id):
        reply = api.move("move-draw", player, game, laid.body, "draw-after-lay")
        error_of(reply, 422, "illegal_move")
    passed = api.move("move-pass", player, game, laid.body, "pass-1")
    assert passed.status == 200 and passed.body["turn"]["seat"] != view["turn"]["seat"]
    other = next(p for p in game.players if p != player)
    assert api.view(other, game.table_id)["series"] == laid.body["series"]


def test_an_invalid_meld_is_422_naming_meld_0_and_nothing_changes(api):
    game = api.game()
    player, view = api.turn(game)
    meld = api.meld(view["hand"])
    loose = [t for t in view["hand"] if t["id"] not in meld and not t.get("joker")]
    junk = next(
        (a["id"], b["id"], c["id"])
        for a, b, c in itertools.combinations(loose, 3)
        if len({a["number"], b["number"], c["number"]}) == 3 and len({a["color"], c["color"]}) == 2
    )  # three numbers, not all one colour: neither a run nor a set
    values = dict(zip(("tile1", "tile2", "tile3"), junk, strict=True))
    with api.unchanged(player, game.table_id):
        error = error_of(api.move("move-lay", player, game, view, **values), 422, "illegal_move")
    assert error["meld"] == 0


def test_laying_a_tile_from_someone_elses_hand_is_422_and_reveals_nothing(api):
    game = api.game()
    player, view = api.turn(game)
    other = next(p for p in game.players if p != player)
    theirs = [t["id"] for t in api.view(other, game.table_id)["hand"]]
    values = {"tile1": theirs[0], "tile2": theirs[1], "tile3": theirs[2]}
    with api.unchanged(player, game.table_id):
        reply = api.move("move-lay", player, game, view, **values)
        error = error_of(reply, 422, "illegal_move")
    assert "not in your hand" in error["message"]
    assert other.name not in error["message"] and other.id not in reply.raw


BAD_MOVES = {
    "tile-106": {"series": [[{"id": 106}, {"id": 1}, {"id": 2}]]},
    "tile-negative": {"series": [[{"id": -1}, {"id": 1}, {"id": 2}]]},
    "tile-id-string": {"series": [[{"id": "17"}, {"id": 1}, {"id": 2}]]},
    "tile-unknown-field": {"series": [[{"id": 1, "color": "red"}]]},
    "empty-meld": {"series": [[]]},
    "series-not-a-list": {"series": {"0": [{"id": 1}]}},
    "version-string": {"version": "1"},
    "version-negative": {"version": -1},
    "version-missing": {"version": None},
    "move-id-missing": {"moveId": None},
    "move-id-with-spaces": {"moveId": "my move"},
    "move-id-65-chars": {"moveId": "m" * 65},
    "unknown-type": {"type": "discard"},
    "no-type": {"type": None},
    "unknown-field": {"tile": 3},
    "draw-with-series": {"type": "draw", "series": []},
}


@pytest.mark.parametrize("case", sorted(BAD_MOVES))
def test_a_malformed_move_is_400_and_nothing_changes(api, case):
    game = api.game()
    player, view = api.turn(game)
    body = {"version": view["version"], "moveId": "m1", "type": "lay", "series": [], "pairs": []}
    body.update(BAD_MOVES[case])
    body = {k: v for k, v in body.items() if v is not None}
    if body.get("type") != "lay":
        body = {k: v for k, v in body.items() if k not in ("pairs",)}
    with api.unchanged(player, game.table_id):
        reply = api("move-lay", body=body, token=player.token, tableId=game.table_id)
        error_of(reply, 400, "bad_request")


@pytest.mark.parametrize("body", ['{"type": "draw",', "[]", '"draw"', "{}", None, "over-64KB"])
def test_a_move_body_that_is_not_one_json_move_under_64KB_is_400(api, body):
    game = api.game()
    player, view = api.turn(game)
    move = {"version": view["version"], "moveId": "m", "type": "draw"}
    if body == "over-64KB":
        body = json.dumps(move) + " " * (64 * 1024)  # a valid draw, padded
    with api.unchanged(player, game.table_id):
        reply = api("move-draw", body=body, token=player.token, tableId=game.table_id)
        error_of(reply, 400, "bad_request")


# -- what players must never see ---------------------------------------------------------
def test_no_response_ever_shows_another_seats_hand(api, fake_search):
    game = api.game(seats=3, hints="unlimited", rated=False)  # hints change nothing then
    player, view = api.turn(game)
    api.move("move-lay", player, game, view, "lay", **tiles(api, view))
    laid = api.view(player, game.table_id)
    api.move("move-pass", player, game, laid, "pass")
    nxt, view = api.turn(game)
    api.move("move-draw", nxt, game, view, "draw")  # a response after a draw
    hands = {p.id: {t["id"] for t in api.view(p, game.table_id)["hand"]} for p in game.players}
    stranger = api.player("Meraklı")
    before = api.view(stranger, game.table_id)
    on_table = api.tile_ids(before)
    assert all(len(h) > 0 for h in hands.values()) and on_table  # a lay was made
    for caller in [*game.players, stranger]:
        current = api.view(caller, game.table_id)
        replies = [
            api("get-table", token=caller.token, tableId=game.table_id),
            api.move("move-draw", caller, game, {"version": 0}, "stale"),  # 409 with a view
            api.move("move-lay", caller, game, current, "x", tile1=0, tile2=1, tile3=104),
            api("sit", token=caller.token, tableId=game.table_id, seat=0),
            api("list-waiting-tables", token=caller.token),
            api("list-open-tables", token=caller.token),
            api("list-playing-tables", token=caller.token),
            api("get-hint", token=caller.token, tableId=game.table_id),
            api("get-log", token=caller.token, tableId=game.table_id, after=0),
            api("get-replay", token=caller.token, tableId=game.table_id),
            api("move-dry-run-draw", token=caller.token, tableId=game.table_id,
                version=current["version"]),
            api("move-dry-run-lay", token=caller.token, tableId=game.table_id,
                version=current["version"], tile1=0, tile2=1, tile3=104),
        ]  # fmt: skip
        allowed = hands.get(caller.id, set()) | on_table
        for reply in replies:
            assert api.tile_ids(reply.body) <= allowed, reply.raw
            for seat in (reply.body.get("view") or reply.body).get("seats") or []:
                assert "hand" not in seat
    assert api.view(stranger, game.table_id) == before


# -- the sample events themselves ---------------------------------------------------------
V1_KEYS = {
    "resource", "path", "httpMethod", "headers", "multiValueHeaders", "queryStringParameters",
    "multiValueQueryStringParameters", "pathParameters", "stageVariables", "requestContext",
    "body", "isBase64Encoded",
}  # fmt: skip


def test_every_sample_rest_event_has_the_shape_api_gateway_sends():
    folder = Path(__file__).resolve().parents[2] / "events" / "rest"
    events = sorted(folder.glob("*.json"))
    assert len(events) >= 20
    for path in events:
        event = json.loads(path.read_text())
        assert set(event) == V1_KEYS, path.name
        context = event["requestContext"]
        assert context["httpMethod"] == event["httpMethod"], path.name
        assert context["resourcePath"] == event["resource"], path.name
        assert context["path"] == f"/{context['stage']}{event['path']}", path.name
        assert event["isBase64Encoded"] is False
        for name, value in (event["headers"] or {}).items():
            assert event["multiValueHeaders"][name] == [value], path.name
        for name, value in (event["pathParameters"] or {}).items():
            assert "{" + name in event["resource"] and value in event["path"], path.name


# -- dry runs ----------------------------------------------------------------------------
def dry(api, name, player, game, view, **values):
    return api(name, token=player.token, tableId=game.table_id, version=view["version"], **values)


def rig(app, table_id, change):
    """Store ``change(table)`` (a test-only shortcut to a position hard to reach by play)."""
    stored = app.stores.tables.get(table_id)
    table = stored.table.clone()
    change(table)
    app.stores.tables.save(stored, table)


def test_a_dry_run_lay_answers_the_would_be_view_and_changes_nothing(api, app, outbox):
    game = api.game()
    player, view = api.turn(game)
    app.sockets.connect(app.tokens.verify(player.token), game.table_id, "c-mover")
    pushed = len(outbox.sent)
    with api.unchanged(player, game.table_id):
        reply = dry(api, "move-dry-run-lay", player, game, view, **tiles(api, view))
    assert reply.status == 200 and reply.body["legal"] is True
    would = reply.body["view"]
    assert would["version"] == view["version"]  # nothing stored: still the same version
    assert [[t["id"] for t in m] for m in would["series"]] == [api.meld(view["hand"])]
    assert len(would["hand"]) == 11 and would["turn"]["laid"] is True
    assert len(outbox.sent) == pushed  # nobody pushed
    real = api.move("move-lay", player, game, view, "lay-1", **tiles(api, view))
    assert real.status == 200 and real.body["series"] == would["series"]
    assert real.body["hand"] == would["hand"]


def test_a_dry_run_draw_never_shows_the_tile_it_would_bring(api):
    game = api.game()
    player, view = api.turn(game)
    with api.unchanged(player, game.table_id):
        reply = dry(api, "move-dry-run-draw", player, game, view)
    assert reply.status == 200 and reply.body["legal"] is True
    would = reply.body["view"]
    assert would["hand"] == view["hand"]  # the drawn tile left out
    assert api.tile_ids(would) == api.tile_ids(view)
    assert would["turn"]["seat"] != view["turn"]["seat"] and would["pile"] == view["pile"] - 1
    drawn = api.move("move-draw", player, game, view, "real-draw")
    new = {t["id"] for t in drawn.body["hand"]} - {t["id"] for t in view["hand"]}
    assert len(new) == 1 and not new & api.tile_ids(reply.body)


def test_a_dry_run_records_no_move_id(api):
    game = api.game()
    player, view = api.turn(game)
    body = {"version": view["version"], "moveId": "same", "type": "draw", "dryRun": True}
    assert api("move-draw", body=body, token=player.token, tableId=game.table_id).status == 200
    real = api.move("move-draw", player, game, view, "same")  # not answered as a replay
    assert real.status == 200 and real.body["version"] == view["version"] + 1
    assert len(real.body["hand"]) == 15


def test_a_real_move_needs_a_move_id_a_dry_run_does_not(api):
    game = api.game()
    player, view = api.turn(game)
    body = {"version": view["version"], "type": "draw"}
    with api.unchanged(player, game.table_id):
        reply = api("move-draw", body=body, token=player.token, tableId=game.table_id)
        assert "moveId" in error_of(reply, 400, "bad_request")["message"]
        for flag in ("true", 1, None):
            odd = {**body, "dryRun": flag}
            reply = api("move-draw", body=odd, token=player.token, tableId=game.table_id)
            error_of(reply, 400, "bad_request")


def _same_error(real, dry_run):
    assert dry_run.status == real.status
    assert dry_run.body["error"] == real.body["error"]


def test_a_dry_run_gets_exactly_the_error_the_real_move_would_get(api):
    game = api.game()
    player, view = api.turn(game)
    other = next(p for p in game.players if p != player)
    stranger = api.player("Meraklı")
    meld = api.meld(view["hand"])
    loose = [t["id"] for t in view["hand"] if t["id"] not in meld]
    theirs = [t["id"] for t in api.view(other, game.table_id)["hand"]]
    cases = [
        (player, "move-pass", {}, 422),  # pass without a lay
        (player, "move-lay", dict(zip(("tile1", "tile2", "tile3"), loose[:3], strict=True)), 422),
        (player, "move-lay", dict(zip(("tile1", "tile2", "tile3"), theirs[:3], strict=True)), 422),
        (other, "move-draw", {}, 403),
        (stranger, "move-draw", {}, 403),
    ]
    with api.unchanged(player, game.table_id):
        for who, name, values, status in cases:
            body = json.loads(
                api.event(f"rest/{name}", token=who.token, tableId=game.table_id,
                          version=view["version"], moveId="m", **values)["body"]
            )  # fmt: skip
            real = api(name, body=body, token=who.token, tableId=game.table_id)
            fake = api(name, body={**body, "dryRun": True}, token=who.token, tableId=game.table_id)
            assert real.status == status, real.body
            _same_error(real, fake)
        stale = {"version": view["version"] - 1, "type": "draw", "dryRun": True}
        reply = api("move-draw", body=stale, token=player.token, tableId=game.table_id)
        error_of(reply, 409, "stale_version")
        assert reply.body["view"] == view
        unknown = api("move-dry-run-draw", token=player.token, tableId="nope", version=1)
        error_of(unknown, 404, "not_found")


def test_a_dry_run_before_the_start_is_409_wrong_status(api):
    owner = api.player()
    view = api.table(owner)
    with api.unchanged(owner, view["tableId"]):
        reply = api("move-dry-run-draw", token=owner.token, tableId=view["tableId"], version=1)
        error_of(reply, 409, "wrong_status")


def test_a_dry_run_that_would_end_the_hand_shows_no_rack_and_no_next_deal(api, app):
    game = api.game(hands=3)
    player, view = api.turn(game)
    meld = api.meld(view["hand"])
    seat = view["seat"]
    rig(app, game.table_id, lambda t: setattr(t.seats[seat], "hand", list(meld)))
    view = api.view(player, game.table_id)
    laid = api.move("move-lay", player, game, view, "last-lay", **tiles(api, view))
    assert laid.status == 200 and laid.body["hand"] == []
    other = next(p for p in game.players if p != player)
    theirs = {t["id"] for t in api.view(other, game.table_id)["hand"]}
    with api.unchanged(player, game.table_id):
        reply = dry(api, "move-dry-run-draw", player, game, laid.body, moveId="x")
        error_of(reply, 422, "illegal_move")  # no draw after a lay
        body = {"version": laid.body["version"], "type": "pass", "dryRun": True}
        reply = api("move-pass", body=body, token=player.token, tableId=game.table_id)
    assert reply.status == 200 and reply.body["legal"] is True and reply.body["endsHand"] is True
    assert reply.body["view"] == laid.body  # the view as it is: no racks, no next deal
    assert not api.tile_ids(reply.body) & theirs


# -- hints -------------------------------------------------------------------------------
@pytest.fixture
def fake_search(api, monkeypatch):
    """harftet.engine.search.hint, until the real search lands: the first Kastet run or set
    in the hand, laid as a new meld. Records the tables it was given."""
    from harftet.engine import search
    from harftet.engine.moves import Lay
    from harftet.engine.state import Placed
    from harftet.engine.tiles import tile_json, tiles_for

    seen = []

    def fake(table, seat):
        seen.append(table)
        hand = [tile_json(tiles_for(table.game)[i]) for i in table.seats[seat].hand]
        meld = api.meld(hand)
        if meld is None:
            return None
        new = tuple(Placed(i) for i in meld)
        lay = Lay(series=(*(tuple(m) for m in table.series), new))
        value = sum(t["number"] for t in hand if t["id"] in meld)
        return search.Proposal(lay=lay, shed=value, tiles=tuple(meld))

    monkeypatch.setattr(search, "hint", fake, raising=False)
    return seen


def test_a_hint_is_a_lay_in_the_move_bodys_shape_that_the_move_accepts(api, fake_search):
    game = api.game(hints="unlimited", rated=False)  # unlimited hints give the whole lay
    player, view = api.turn(game)
    with api.unchanged(player, game.table_id):
        reply = api("get-hint", token=player.token, tableId=game.table_id)
    assert reply.status == 200, reply.body
    hint = reply.body
    assert set(hint) == {
        "version", "lay", "shed", "meldShed", "tiles", "meld", "hintsLeft", "revealed", "area"
    }  # fmt: skip
    assert hint["version"] == view["version"] and hint["hintsLeft"] is None
    assert hint["lay"] is not None and hint["shed"] > 0
    assert set(hint["tiles"]) <= {t["id"] for t in view["hand"]}
    body = {"version": hint["version"], "moveId": "hinted", "type": "lay", **hint["lay"]}
    laid = api("move-lay", body=body, token=player.token, tableId=game.table_id)
    assert laid.status == 200, laid.body
    assert not set(hint["tiles"]) & {t["id"] for t in laid.body["hand"]}


def test_the_search_sees_only_the_callers_own_hand_and_the_table(api, fake_search):
    game = api.game()
    player, _ = api.turn(game)
    other = next(p for p in game.players if p != player)
    api("get-hint", token=other.token, tableId=game.table_id)  # not their turn: still a hint
    [table] = fake_search
    mine = game.players.index(other)
    assert all(not s.hand for i, s in enumerate(table.seats) if i != mine)
    assert table.pile == [] and table.seed != api.SEED


def test_no_lay_is_a_null_lay_with_nothing_shed(api, app, fake_search, monkeypatch):
    from harftet.engine import search

    monkeypatch.setattr(search, "hint", lambda table, seat: None, raising=False)
    game = api.game()
    player, view = api.turn(game)
    reply = api("get-hint", token=player.token, tableId=game.table_id)
    assert reply.status == 200
    assert reply.body == {
        "version": view["version"], "lay": None, "shed": 0, "meldShed": 0, "tiles": [],
        "meld": None, "hintsLeft": 3, "revealed": 0, "area": None,
    }  # fmt: skip


def test_a_lay_the_engine_refuses_is_never_hinted(api, monkeypatch):
    from harftet.engine import search
    from harftet.engine.moves import Lay
    from harftet.engine.state import Placed

    bad = search.Proposal(Lay(series=((Placed(0), Placed(1)),)), shed=3, tiles=(0, 1))
    monkeypatch.setattr(search, "hint", lambda table, seat: bad, raising=False)
    game = api.game()
    player, _ = api.turn(game)
    reply = api("get-hint", token=player.token, tableId=game.table_id)
    assert reply.status == 200 and reply.body["lay"] is None


def test_a_hint_is_for_seated_players_during_a_hand(api, fake_search):
    game = api.game()
    stranger = api.player()
    error_of(api("get-hint", token=stranger.token, tableId=game.table_id), 403, "not_seated")
    owner = api.player()
    waiting = api.table(owner)["tableId"]
    error_of(api("get-hint", token=owner.token, tableId=waiting), 409, "wrong_status")
    error_of(api("get-hint", token=owner.token, tableId="nope"), 404, "not_found")
    error_of(api("get-hint", tableId=game.table_id), 401, "unauthorized")
    assert fake_search == []


# -- the log and the replay --------------------------------------------------------------
def events_of(api, player, table_id, after=0):
    reply = api("get-log", token=player.token, tableId=table_id, after=after)
    assert reply.status == 200, reply.body
    return reply.body["events"]


def test_the_log_lists_events_after_seq_oldest_first_to_anyone_who_may_view(api, app):
    game = api.game()
    spectator = api.player("Seyirci")
    every = events_of(api, spectator, game.table_id)
    assert [e["type"] for e in every] == ["sit", "sit", "start"]
    assert [e["seq"] for e in every] == [1, 2, 3]
    assert every[0]["seat"] == 0 and every[2]["seat"] is None and every[2]["hand"] == 1
    app.stores.log.append(game.table_id, every[:1])  # delivered twice: stored once
    assert events_of(api, game.players[0], game.table_id, 1) == every[1:]
    assert events_of(api, game.players[1], game.table_id, 3) == []


def test_the_log_never_says_what_was_drawn(api, app):
    game = api.game()
    last = events_of(api, game.players[0], game.table_id)[-1]["seq"]
    drawn = {"seq": last + 1, "at": 1.0, "hand": 1, "seat": 0, "type": "draw"}
    app.stores.log.append(game.table_id, [{**drawn, "tile": 17, "tiles": [17]}])  # a faulty writer
    assert events_of(api, game.players[1], game.table_id, last) == [drawn]


@pytest.mark.parametrize("after", ["-1", "x", "1.5", "9" * 12, ""])
def test_a_log_position_that_is_not_a_whole_number_is_400(api, after):
    game = api.game()
    reply = api("get-log", token=game.players[0].token, tableId=game.table_id, after=after)
    error_of(reply, 400, "bad_request")


def test_the_log_of_an_unknown_table_is_404_and_needs_a_token(api):
    me = api.player()
    error_of(api("get-log", token=me.token, tableId="nope", after=0), 404, "not_found")
    error_of(api("get-log", tableId="nope", after=0), 401, "unauthorized")


def test_a_replay_before_the_end_is_409_and_shows_no_seed(api):
    game = api.game()
    reply = api("get-replay", token=game.players[0].token, tableId=game.table_id)
    error_of(reply, 409, "wrong_status")
    me = api.player()
    error_of(api("get-replay", token=me.token, tableId="nope"), 404, "not_found")


# -- the REST function's cold start ------------------------------------------------------
def test_the_rest_function_imports_no_search_no_word_index_and_no_replay():
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    app = str(root / "functions" / "rest" / "app.py")
    code = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('app', {app!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('harftet'))))\n"
    )  # fmt: skip
    env = {
        **os.environ,
        "PYTHONPATH": str(root / "shared"),
        "TABLES_TABLE": "t", "PLAYERS_TABLE": "p", "CONNECTIONS_TABLE": "c", "LOG_TABLE": "l",
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    loaded = json.loads(done.stdout)
    assert "harftet.rest.tables" in loaded and "harftet.bootstrap" in loaded
    # The search package itself holds only its types (levels, Proposal): its modules wait.
    heavy = ("harftet.engine.search.", "harftet.engine.bot", "harftet.engine.replay",
             "harftet.engine.words.search", "harftet.engine.words.index",
             "harftet.engine.words.frequency")  # fmt: skip
    assert not [m for m in loaded if m.startswith(heavy)]


# -- the lobby ---------------------------------------------------------------------------
def lobby_page(api, player, status="waiting", limit=50, cursor=None):
    values = {"status": status, "limit": limit, "cursor": "" if cursor is None else cursor}
    event = api.event("rest/list-tables-page", token=player.token, **values)
    if cursor is None:  # no cursor: the first page
        event["queryStringParameters"].pop("cursor")
        event["multiValueQueryStringParameters"].pop("cursor")
    return api.invoke(event)


def test_the_lobby_lists_waiting_open_and_playing_tables_apart(api, clock):
    me = api.player()
    waiting = api.table(api.player())["tableId"]
    clock.advance(1)
    playing = api.game().table_id
    clock.advance(1)
    paused = api.game()
    leaver = paused.players[1]
    assert api("leave", token=leaver.token, tableId=paused.table_id, seat=1).status == 200
    clock.advance(1)
    over = api.player()
    finished = api.table(over)["tableId"]
    api("leave", token=over.token, tableId=finished, seat=0)  # closes it
    lists = {
        status: api(f"list-{status}-tables", token=me.token).body["tables"]
        for status in ("waiting", "open", "playing")
    }
    assert {s: [t["tableId"] for t in tables] for s, tables in lists.items()} == {
        "waiting": [waiting],
        "open": [paused.table_id],
        "playing": [playing],
    }
    [open_] = lists["open"]
    assert open_["vacant"] == [1] and open_["status"] == "paused"
    assert open_["players"] == ["Oyuncu0", None]
    assert lists["waiting"][0]["vacant"] == [1]
    for tables in lists.values():
        summary = tables[0]
        assert set(summary) >= {
            "tableId", "game", "status", "seats", "hands", "partners", "turnSeconds",
            "manager", "players", "vacant", "createdAt",
        }  # fmt: skip
    # Continuing with a substitute makes it a running table again.
    sub = api.player("Yedek")
    assert api("sit", token=sub.token, tableId=paused.table_id, seat=1).status == 200
    assert api("continue", token=paused.players[0].token, tableId=paused.table_id).status == 200
    playing_now = api("list-playing-tables", token=me.token).body["tables"]
    assert [t["tableId"] for t in playing_now] == [paused.table_id, playing]  # newest first
    assert api("list-open-tables", token=me.token).body == {"tables": [], "cursor": None}


def test_lobby_pages_follow_the_cursor_newest_first_to_a_null_cursor(api, clock):
    me = api.player()
    made = []
    for _ in range(5):
        made.append(api.table(api.player())["tableId"])
        clock.advance(1)
    seen, cursor, pages = [], None, 0
    while True:
        reply = lobby_page(api, me, limit=2, cursor=cursor)
        assert reply.status == 200, reply.body
        pages += 1
        assert len(reply.body["tables"]) <= 2
        seen += [t["tableId"] for t in reply.body["tables"]]
        cursor = reply.body["cursor"]
        if cursor is None:
            break
        assert isinstance(cursor, str) and made[0] not in cursor  # opaque
    assert seen == made[::-1] and pages == 3
    exact = lobby_page(api, me, limit=5)
    assert exact.body["cursor"] is None and len(exact.body["tables"]) == 5
    assert len(lobby_page(api, me).body["tables"]) == 5  # limit defaults to 50


def test_a_bad_cursor_or_limit_is_400_never_500(api, clock):
    me = api.player()
    for _ in range(3):
        api.table(api.player())
        clock.advance(1)
    cursor = lobby_page(api, me, limit=1).body["cursor"]
    data, mac = cursor.split(".")
    forged = base64.urlsafe_b64encode(b'["waiting",1,"x"]').decode().rstrip("=")
    other_mac = ("B" if mac[0] == "A" else "A") + mac[1:]  # always another signature
    bad = [
        "garbage", "", ".", "a.b.c", cursor + "x", f"{forged}.{mac}", f"{data}.{other_mac}",
        "x" * 5000, "%00", "🙂.🙂",
    ]  # fmt: skip
    for wrong in bad:
        error_of(lobby_page(api, me, limit=1, cursor=wrong), 400, "bad_request")
    error_of(lobby_page(api, me, status="playing", cursor=cursor), 400, "bad_request")
    for limit in ("0", "51", "-1", "x", "1.5", ""):
        error_of(lobby_page(api, me, limit=limit), 400, "bad_request")


def test_a_manager_holds_at_most_three_waiting_tables(api):
    busy, other = api.player("Acele"), api.player("Sabırlı")
    tables = [api.table(busy)["tableId"] for _ in range(3)]
    fourth = api("create-table", body={"game": "kastet"}, token=busy.token)
    error = error_of(fourth, 409, "too_many_tables")
    assert "3" in error["message"]
    listed = [t["tableId"] for t in api("list-waiting-tables", token=other.token).body["tables"]]
    assert sorted(listed) == sorted(tables)
    assert api.table(other)["tableId"]  # everyone else still may
    api("sit", token=other.token, tableId=tables[0], seat=1)
    assert api("start", token=busy.token, tableId=tables[0]).status == 200
    assert api.table(busy)["tableId"]  # one started: room for one more
    error_of(api("create-table", body={"game": "kastet"}, token=busy.token), 409, "too_many_tables")
    assert api("leave", token=busy.token, tableId=tables[1], seat=0).status == 200  # closed
    assert api.table(busy)["tableId"]


# -- table options and computer-player levels -------------------------------------------
def test_a_table_has_hints_on_is_listed_and_paces_computer_players_1s_by_default(api):
    me = api.player()
    view = api("create-table", body={"game": "kastet"}, token=me.token).body
    assert (view["hints"], view["private"], view["botSeconds"]) == (3, False, 1)


def test_table_options_are_kept_and_shown(api):
    me = api.player()
    body = {"game": "harftet", "hints": False, "private": True, "botSeconds": 0}
    view = api("create-table", body=body, token=me.token).body
    assert (view["hints"], view["private"], view["botSeconds"]) == (False, True, 0)
    assert api.view(me, view["tableId"])["botSeconds"] == 0


@pytest.mark.parametrize(
    "options",
    [{"botSeconds": -1}, {"botSeconds": 6}, {"botSeconds": "1"}, {"botSeconds": 1.5},
     {"botSeconds": True}, {"hints": "false"}, {"hints": 0}, {"private": None},
     {"private": "yes"}, {"hints": 21}, {"hints": "unlimited"}, {"breakSeconds": 121},
     {"breakSeconds": -1}, {"graceSeconds": 601}, {"waitSeconds": 0}, {"waitSeconds": 601},
     {"pace": "slow"}, {"rated": 1}, {"turnSeconds": 601},
     {"turnSeconds": 100000, "pace": "correspondence"}],
)  # fmt: skip
def test_table_options_of_the_wrong_type_or_range_are_400(api, options):
    me = api.player()
    reply = api("create-table", body={"game": "kastet", **options}, token=me.token)
    assert next(iter(options)) in error_of(reply, 400, "bad_request")["message"]
    assert api("list-waiting-tables", token=me.token).body == {"tables": [], "cursor": None}


def test_a_table_with_hints_off_answers_403_hints_off(api, fake_search):
    game = api.game(hints=False)
    player, _ = api.turn(game)
    with api.unchanged(player, game.table_id):
        error_of(api("get-hint", token=player.token, tableId=game.table_id), 403, "hints_off")
    stranger = api.player()
    error_of(api("get-hint", token=stranger.token, tableId=game.table_id), 403, "not_seated")
    assert fake_search == []


def test_a_private_table_is_never_listed_but_anyone_with_its_id_may_join(api, clock):
    owner, friend, other = api.player("Ev"), api.player("Arkadaş"), api.player("Yabancı")
    private = api.table(owner, private=True)["tableId"]
    public = api.table(other)["tableId"]
    assert [
        t["tableId"] for t in api("list-waiting-tables", token=friend.token).body["tables"]
    ] == [public]
    assert api("sit", token=friend.token, tableId=private, seat=1).status == 200
    assert api("start", token=owner.token, tableId=private).status == 200
    api("leave", token=friend.token, tableId=private, seat=1)  # paused with a vacant seat
    for status in ("open", "playing"):
        listed = api(f"list-{status}-tables", token=other.token).body["tables"]
        assert private not in [t["tableId"] for t in listed]
    assert api.view(other, private)["status"] == "paused"  # still reachable by its id


def test_private_tables_count_toward_the_three_waiting_tables(api):
    busy = api.player()
    for _ in range(3):
        api.table(busy, private=True)
    reply = api("create-table", body={"game": "kastet", "private": False}, token=busy.token)
    error_of(reply, 409, "too_many_tables")


def test_the_manager_seats_a_computer_player_of_a_level_medium_by_default(api):
    owner = api.player()
    table_id = api.table(owner, seats=4)["tableId"]
    hard = api("sit-bot", body={"bot": True, "level": "hard"}, token=owner.token,
               tableId=table_id, seat=1)  # fmt: skip
    assert hard.status == 200 and hard.body["seats"][1]["level"] == "hard"
    plain = api("sit-bot", token=owner.token, tableId=table_id, seat=2)
    assert plain.body["seats"][2]["bot"] is True and plain.body["seats"][2]["level"] == "medium"
    easy = api("sit-bot", body={"bot": True, "level": "easy"}, token=owner.token,
               tableId=table_id, seat=3)  # fmt: skip
    assert easy.body["seats"][3]["level"] == "easy"
    assert "level" not in easy.body["seats"][0] or easy.body["seats"][0]["level"] is None
    other = api.table(owner, seats=2)["tableId"]
    expert = api("sit-bot", body={"bot": True, "level": "expert"}, token=owner.token,
                 tableId=other, seat=1)  # fmt: skip
    assert expert.status == 200 and expert.body["seats"][1]["level"] == "expert"


@pytest.mark.parametrize(
    "body",
    [{"bot": True, "level": "grandmaster"}, {"bot": True, "level": 2},
     {"bot": False, "level": "hard"},
     {"level": "easy"}, {"bot": True, "level": None, "speed": 1}],
)  # fmt: skip
def test_a_bot_level_other_than_easy_medium_hard_or_expert_is_400(api, body):
    owner = api.player()
    table_id = api.table(owner)["tableId"]
    with api.unchanged(owner, table_id):
        error_of(api("sit-bot", body=body, token=owner.token, tableId=table_id, seat=1), 400,
                 "bad_request")  # fmt: skip


def test_the_sample_events_for_table_options_and_bot_levels(api):
    owner = api.player()
    view = api("create-table-private-no-hints", token=owner.token).body
    assert (view["hints"], view["private"], view["botSeconds"]) == (False, True, 0)
    seated = api("sit-bot-hard", token=owner.token, tableId=view["tableId"], seat=1)
    assert seated.status == 200 and seated.body["seats"][1]["level"] == "hard"


def _ints_under(value, key):
    """Every int in lists held under ``key`` anywhere in ``value``."""
    found = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key and isinstance(v, list):
                found |= {i for i in v if isinstance(i, int)}
            found |= _ints_under(v, key)
    elif isinstance(value, list):
        for v in value:
            found |= _ints_under(v, key)
    return found


def test_the_log_shows_only_what_everyone_at_the_table_saw(api):
    game = api.game(seats=3)
    player, first = api.turn(game)
    api.move("move-lay", player, game, first, "lay", **tiles(api, first))
    api.move("move-pass", player, game, api.view(player, game.table_id), "pass")
    nxt, view = api.turn(game)
    dry(api, "move-dry-run-draw", nxt, game, view)  # a dry run logs nothing
    api.move("move-draw", nxt, game, view, "draw")
    stranger = api.player("Seyirci")
    events = events_of(api, stranger, game.table_id)
    types = [e["type"] for e in events]
    assert types[:4] == ["sit", "sit", "sit", "start"] and types[-3:] == ["lay", "pass", "draw"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    on_table = api.tile_ids(api.view(stranger, game.table_id))
    [lay] = [e for e in events if e["type"] == "lay"]
    assert sorted(lay["tiles"]) == sorted(api.meld(first["hand"]))
    assert set(lay["tiles"]) <= on_table and lay["seat"] == game.players.index(player)
    [draw] = [e for e in events if e["type"] == "draw"]
    assert set(draw) <= {"seq", "at", "hand", "seat", "type", "version"}
    hands = set().union(
        *({t["id"] for t in api.view(p, game.table_id)["hand"]} for p in game.players)
    )
    raw = json.dumps(events)
    assert not api.tile_ids(events) & hands and not _ints_under(events, "tiles") & hands
    assert str(api.SEED) not in raw and "seed" not in raw and "pile" not in raw
    last = api.view(stranger, game.table_id)["last"]
    assert last == events[-1]  # the view's `last` is the log's latest event


def play_to_the_end(api, game, limit=600):
    """Plays the game over REST like a simple client: lay a new run or set from the hand,
    else draw, else pass. Returns every view each player saw, by player id."""
    seen = {p.id: [] for p in game.players}
    state = api.view(game.players[0], game.table_id)
    for _ in range(limit):
        if state["status"] != "playing":
            return seen
        player = game.players[state["turn"]["seat"]]
        view = api.view(player, game.table_id)
        seen[player.id].append(view)
        meld = None if view["turn"]["laid"] else api.meld(view["hand"])
        if meld is not None:
            series = [[{"id": t["id"]} for t in m] for m in view["series"]]
            body = {"type": "lay", "series": [*series, [{"id": i} for i in meld]], "pairs": []}
        elif not view["turn"]["laid"] and view["pile"] and len(view["hand"]) < 22:
            body = {"type": "draw"}
        else:
            body = {"type": "pass"}
        body.update(version=view["version"], moveId=f"m{view['version']}")
        reply = api("move-draw", body=body, token=player.token, tableId=game.table_id)
        assert reply.status == 200, reply.body
        seen[player.id].append(reply.body)
        state = reply.body
    raise AssertionError("the game did not end")


def test_a_finished_game_replays_exactly_from_its_seed_deals_and_log(api):
    from harftet.engine import replay

    game = api.game()
    starts = {p.id: api.view(p, game.table_id)["hand"] for p in game.players}
    seen = play_to_the_end(api, game)
    spectator = api.player("Seyirci")
    with pytest.MonkeyPatch.context() as once:  # the one reply that may show the seed
        once.setitem(api.invoke.__globals__, "assert_nothing_secret", lambda raw, body: None)
        reply = api("get-replay", token=spectator.token, tableId=game.table_id)
    assert reply.status == 200, reply.body
    doc = reply.body
    assert (
        doc["seed"] == str(api.SEED)  # a string (API.md v4): JSON.parse keeps it exact
        and doc["result"] == api.view(game.players[0], game.table_id)["result"]
    )
    [first] = doc["hands"]
    for seat, player in enumerate(game.players):
        assert sorted(first["deal"][str(seat)]) == sorted(t["id"] for t in starts[player.id])
    drawn = []  # each draw's new tile, as the drawer saw it, in the order of the game
    for player in game.players:
        views = seen[player.id]
        for before, after in itertools.pairwise(views):
            if (
                after.get("version") == before["version"] + 1
                and len(after["hand"]) == len(before["hand"]) + 1
            ):
                [new] = {t["id"] for t in after["hand"]} - {t["id"] for t in before["hand"]}
                drawn.append((before["version"], new))
    assert [tile for _, tile in sorted(drawn)] == first["pile"][: len(drawn)]
    assert [e["type"] for e in first["moves"]].count("draw") == len(drawn)
    replayed = replay.play(doc)
    assert replayed.result == doc["result"] and replayed.status == "finished"


def test_the_real_search_hints_a_harftet_lay_the_move_accepts_and_shows_nothing_hidden(api):
    game = api.game(game="harftet", hints="unlimited", rated=False)
    player, view = api.turn(game)
    other = next(p for p in game.players if p != player)
    theirs = {t["id"] for t in api.view(other, game.table_id)["hand"]}
    with api.unchanged(player, game.table_id):
        reply = api("get-hint", token=player.token, tableId=game.table_id)
    assert reply.status == 200, reply.body
    hint = reply.body
    mine = {t["id"]: t for t in view["hand"]}
    assert api.tile_ids(hint) <= set(mine) | api.tile_ids(view["series"]) | api.tile_ids(
        view["pairs"]
    )
    assert not (api.tile_ids(hint) | set(hint["tiles"])) & theirs
    assert hint["lay"] is not None, "the seeded deal gives the first player a word"
    assert set(hint["tiles"]) <= set(mine) and hint["shed"] == sum(
        50 if mine[i].get("joker") else mine[i]["value"] for i in hint["tiles"]
    )
    body = {"version": hint["version"], "moveId": "hinted", "type": "lay", **hint["lay"]}
    laid = api("move-lay", body=body, token=player.token, tableId=game.table_id)
    assert laid.status == 200, laid.body
    assert {t["id"] for t in laid.body["hand"]} == set(mine) - set(hint["tiles"])
