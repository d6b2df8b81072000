"""The league roll-over handler (functions/leagues/app.py) fed events/leagues/scheduled.json,
and the league routes of the REST handler (harftet.rest.leagues): a rated game's end shows in
the caller's division at once; after the week the scheduled run rolls it over once, and the
week stays readable."""

from __future__ import annotations

import pytest
from service_helpers import finish
from test_people_rest import code, request
from testkit import LambdaContext, load_event

from harftet.leagues.weeks import end_of, week_of

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def test_a_games_end_shows_at_once_and_the_schedule_rolls_the_week_once(api, app, apps, clock):
    game = api.game(seats=2)
    me, other = game.players
    assert code(request(api, "GET", "/leagues/kastet/me", me.token), 404) == "not_found"
    finish(app, game.table_id, [0, 30])
    week = week_of(clock.now)
    mine = request(api, "GET", "/leagues/kastet/me", me.token)
    assert mine.status == 200, mine.body
    assert (mine.body["week"], mine.body["tier"], mine.body["division"]) == (
        week,
        "bronz",
        "bronz-1",
    )
    assert [(s["name"], s["points"], s["move"]) for s in mine.body["standings"]] == [
        (me.name, 1, "up"), (other.name, -1, "up")
    ]  # fmt: skip
    profile = request(api, "GET", f"/players/{me.id}/profile", other.token).body
    assert profile["skill"]["kastet"] == {"tier": "bronz", "games": 1}
    assert profile["league"]["kastet"] == {"tier": "bronz", "division": "bronz-1", "rank": 1}
    clock.now = end_of(week) + 60
    context = LambdaContext(function_name="harftet-LeaguesFunction-1A2B3C4D")
    event = load_event("leagues/scheduled")
    assert apps.leagues.handler(event, context) == {
        "week": week, "status": "done", "divisions": 1, "players": 2
    }  # fmt: skip
    assert apps.leagues.handler(event, context)["divisions"] == 0  # once, however often
    path = f"/leagues/kastet/weeks/{week}/divisions/bronz-1"
    past = request(api, "GET", path, me.token)
    assert past.status == 200 and past.body["rolled"] is True
    assert code(request(api, "GET", "/leagues/kastet/me", me.token), 404) == "not_found"
    bad = f"/leagues/kastet/weeks/{week[:4]}-49/divisions/bronz-1"
    assert code(request(api, "GET", bad.replace("-49", "-X9"), me.token), 400) == "bad_request"
    assert code(request(api, "GET", path.replace("bronz-1", "bronz-2"), me.token), 404)
    assert code(request(api, "GET", "/leagues/okey/me", me.token), 404) == "not_found"
    assert code(request(api, "GET", path, None), 401) == "unauthorized"
