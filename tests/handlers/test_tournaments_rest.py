"""The tournament routes of the REST handler (harftet.rest.tournaments), the tournaments'
scheduled handler (functions/tournaments/app.py, fed events/tournaments/scheduled.json) and
the fan-out over moto's DynamoDB: an operator's tournament, entries, round 1 at its start,
each table's end counted from the tables' stream, round 2, the podium on the profile."""

from __future__ import annotations

import pytest
from service_helpers import finish
from test_people_rest import code, request
from testkit import LambdaContext, load_event

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")
ARN = "arn:aws:iam::123456789012:user/operator"


def _tick(apps) -> dict:
    context = LambdaContext(function_name="harftet-TournamentsFunction-1A2B3C4D")
    return apps.tournaments.handler(load_event("tournaments/scheduled"), context)


def test_a_tournament_through_the_handlers_from_entry_to_badge(api, app, apps, clock, stream):
    body = {"name": "Gece", "game": "kastet", "seats": 2, "hands": 1, "rounds": 2,
            "capacity": 4, "turnSeconds": 45, "startsAt": int(clock.now) + 300}  # fmt: skip
    assert code(request(api, "POST", "/operator/tournaments", None, body), 403) == "forbidden"
    made = request(api, "POST", "/operator/tournaments", None, body, arn=ARN)
    assert made.status == 201, made.body
    tid = made.body["tournamentId"]
    people = [api.player(f"Oyuncu{i}") for i in range(5)]
    for who in people[:4]:
        entered = request(api, "POST", f"/tournaments/{tid}/entries", who.token)
        assert entered.status == 201, entered.body
    full = request(api, "POST", f"/tournaments/{tid}/entries", people[4].token)
    assert code(full, 409) == "tournament_full"
    listed = request(api, "GET", "/tournaments", people[4].token, query={"status": "registering"})
    assert [t["tournamentId"] for t in listed.body["tournaments"]] == [tid]
    assert listed.body["tournaments"][0]["entries"] == 4
    assert "draw" not in listed.body["tournaments"][0]  # the seating's secret
    clock.now += 301
    assert _tick(apps) == {"started": 1, "driven": 0}
    stream.deliver()
    late = request(api, "DELETE", f"/tournaments/{tid}/entries/me", people[0].token)
    assert code(late, 409) == "registration_closed"
    for round_number in (1, 2):
        view = request(api, "GET", f"/tournaments/{tid}", people[0].token).body
        assert view["round"] == round_number and view["status"] == "running"
        for entry in [t for t in view["tables"] if t["round"] == round_number]:
            clock.now += 1
            finish(app, entry["tableId"], [0, 30])
            stream.deliver()  # the fan-out counts it; the last one starts the next round
    view = request(api, "GET", f"/tournaments/{tid}", people[0].token).body
    assert view["status"] == "finished" and len(view["tables"]) == 4
    assert [s["tables"] for s in view["standings"]] == [2, 2, 2, 2]
    champion = view["standings"][0]["playerId"]
    profile = request(api, "GET", f"/players/{champion}/profile", people[1].token).body
    assert profile["badges"] == [{"tournamentId": tid, "name": "Gece", "place": 1}]
    done = request(api, "GET", "/tournaments", people[4].token, query={"status": "finished"})
    assert [t["tournamentId"] for t in done.body["tournaments"]] == [tid]
    assert code(request(api, "GET", "/tournaments/nope", people[0].token), 404) == "not_found"
    bad = request(api, "GET", "/tournaments", people[0].token, query={"cursor": "x.y"})
    assert code(bad, 400) == "bad_request"


def test_round_times_are_checked_and_the_page_says_when_the_next_round_starts(api, clock):
    body = {"name": "Saatli", "game": "kastet", "seats": 4, "hands": 1, "rounds": 3,
            "capacity": 8, "turnSeconds": 45, "startsAt": int(clock.now) + 300}  # fmt: skip
    viewer = api.player("İzleyici")
    for bad in (0, 1441, "30", 2.5, None):
        refused = request(api, "POST", "/operator/tournaments", None,
                          {**body, "roundMinutes": bad}, arn=ARN)  # fmt: skip
        if bad is None:  # null: no round times, as when absent
            assert refused.status == 201, refused.body
            continue
        assert code(refused, 400) == "bad_request"
        assert refused.body["error"]["field"] == "roundMinutes", refused.body
    one = request(api, "POST", "/operator/tournaments", None,
                  {**body, "rounds": 1, "roundMinutes": 30}, arn=ARN)  # fmt: skip
    assert code(one, 400) == "bad_request" and one.body["error"]["field"] == "roundMinutes"
    assert "rounds" in one.body["error"]["message"]
    listed = request(api, "GET", "/tournaments", viewer.token, query={"status": "registering"})
    assert len(listed.body["tournaments"]) == 1  # only the good one was made
    made = request(api, "POST", "/operator/tournaments", None, {**body, "roundMinutes": 45},
                   arn=ARN)  # fmt: skip
    assert made.status == 201 and made.body["roundMinutes"] == 45
    page = request(api, "GET", f"/tournaments/{made.body['tournamentId']}", viewer.token).body
    assert page["roundMinutes"] == 45 and page["nextRoundAt"] == body["startsAt"]
