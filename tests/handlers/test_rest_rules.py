"""Issue 15's REST answers through functions/rest/app.py over moto: the ready move, hint
budgets (409 no_hints_left), table options in the view (API.md v3)."""

from __future__ import annotations

import json

from testkit import load_event

from harftet.engine import search
from harftet.engine.moves import Lay
from harftet.engine.state import Placed


def error_of(reply, status, code):
    assert reply.status == status, reply.body
    assert reply.body["error"]["code"] == code, reply.body
    return reply.body["error"]


def ready(api, player, table_id, version, move_id="r"):
    body = {"version": version, "moveId": move_id, "type": "ready"}
    return api("move-pass", body=body, token=player.token, tableId=table_id)


def test_ready_outside_a_break_is_409_wrong_status_and_changes_nothing(api):
    game = api.game()
    player, view = api.turn(game)
    with api.unchanged(player, game.table_id):
        error = error_of(ready(api, player, game.table_id, view["version"]), 409, "wrong_status")
    assert "break" in error["message"]


def test_every_hint_of_the_budget_answers_one_meld_then_409_no_hints_left(api, monkeypatch):
    game = api.game(hints=1)
    player, view = api.turn(game)
    meld = [t["id"] for t in view["hand"][:3]]
    shown = []

    def fake(table, seat):  # the engine checks every hinted lay: this one is refused
        shown.append(seat)
        return search.Proposal(Lay(series=(tuple(map(Placed, meld)),)), 9, tuple(meld))

    monkeypatch.setattr(search, "hint", fake, raising=False)
    monkeypatch.setattr("harftet.tables.hints._accepted", lambda *a: True)
    first = api("get-hint", token=player.token, tableId=game.table_id)
    assert first.status == 200, first.body
    body = first.body
    assert [t["id"] for t in body["meld"]] == meld and body["hintsLeft"] == 0
    assert {t["from"] for t in body["meld"]} == {"hand"} and body["lay"] is None
    assert body["version"] == view["version"] + 1
    assert api.view(player, game.table_id)["hintsLeft"] == 0
    other = next(p for p in game.players if p != player)
    assert not set(meld) & {t["id"] for t in api.view(other, game.table_id)["hand"]}
    assert not set(meld) & api.tile_ids(api.view(other, game.table_id)["seats"])
    event = load_event("rest/get-hint", token=player.token, tableId=game.table_id)
    event["queryStringParameters"] = {"reveal": "1"}
    event["multiValueQueryStringParameters"] = {"reveal": ["1"]}
    again = api.invoke(event)
    assert again.status == 200 and again.body["meld"] == body["meld"]  # paid for: free
    with api.unchanged(player, game.table_id):
        error = error_of(api("get-hint", token=player.token, tableId=game.table_id), 409,
                         "no_hints_left")  # fmt: skip
    assert "hint" in error["message"]
    assert json.dumps(error).count(str(meld[0])) == 0  # the refusal names no tile


def test_the_view_shows_the_tables_options_and_the_deal_proof(api):
    game = api.game(hints=4, rated=False, breakSeconds=9, graceSeconds=60, waitSeconds=90)
    view = api.view(game.players[0], game.table_id)
    assert (view["hints"], view["hintsLeft"], view["rated"]) == (4, 4, False)
    assert (view["breakSeconds"], view["graceSeconds"], view["waitSeconds"]) == (9, 60, 90)
    assert view["pace"] == "live" and len(view["dealProof"]) == 64
    stranger = api.player("Seyirci")
    watched = api.view(stranger, game.table_id)
    assert watched["dealProof"] == view["dealProof"] and watched["hintsLeft"] is None


def test_a_hint_says_what_its_own_meld_sheds_beside_the_whole_lay(api, monkeypatch):
    """RULES §4a: a hint reveals one meld; what it says that meld is worth is that meld's own
    hand value (meldShed), never the whole lay's (shed), so two melds are not both worth 75."""
    from harftet.engine.tiles import hand_value, tiles_for

    game = api.game(hints=2)
    player, view = api.turn(game)
    first, second = [t["id"] for t in view["hand"][:3]], [t["id"] for t in view["hand"][3:6]]

    def fake(table, seat):
        lay = Lay(series=(tuple(map(Placed, first)), tuple(map(Placed, second))))
        return search.Proposal(lay, 75, tuple(first + second))

    monkeypatch.setattr(search, "hint", fake, raising=False)
    monkeypatch.setattr("harftet.tables.hints._accepted", lambda *a: True)
    tiles = tiles_for(view["game"])
    worth = [sum(hand_value(tiles[i]) for i in meld) for meld in (first, second)]
    for meld, value in zip((first, second), worth, strict=True):
        body = api("get-hint", token=player.token, tableId=game.table_id).body
        assert [t["id"] for t in body["meld"]] == meld
        assert (body["shed"], body["meldShed"]) == (75, value)
