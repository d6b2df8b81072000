"""Per-player budgets through the handlers (API.md "Errors": 429 rate_limited, one budget per
player), counted in the connections table on moto exactly as on AWS."""

from __future__ import annotations

import json

import pytest

from harftet.limits import Budget, Limits, limits_from_env, parse_budgets
from harftet.store.limits import LimitStore

OK = {"statusCode": 200}


@pytest.fixture
def limits(apps, app, dynamodb, table_names, monkeypatch) -> Limits:
    """Limits on, with small budgets, for both handlers."""
    budgets = parse_budgets("move=3/10,dryRun=2/60,hint=2/60,table=2/60,guest=3/60")
    on = Limits(LimitStore(dynamodb, table_names["ConnectionsTable"]), budgets)
    monkeypatch.setattr(app, "limits", on)  # both handlers ask the application
    return on


def pass_move(api, game, player, n: int):
    view = api.view(player, game.table_id)
    body = {"version": view["version"], "moveId": f"m{n}", "type": "pass"}  # illegal: draw first
    return api("move-draw", body=body, token=player.token, tableId=game.table_id)


def test_limits_are_off_unless_the_operator_turns_them_on(api) -> None:
    assert not limits_from_env(lambda: None, {}).enabled
    assert not limits_from_env(lambda: None, {"LIMITS": "off"}).enabled
    on = limits_from_env(lambda: object(), {"LIMITS": "on", "CONNECTIONS_TABLE": "t"})
    assert on.enabled and on.budgets["move"] == Budget(20, 10)
    player = api.player()
    assert all(pass_move(api, api.game(), player, i).status != 429 for i in range(1))
    bursts = [api("create-player", name=f"G{i}").status for i in range(30)]
    assert set(bursts) == {201}  # off in the handler tests: nothing counted


def test_bad_budgets_are_refused() -> None:
    for text in ("move=0/10", "moves=1/1", "move=3", "hint=a/b"):
        with pytest.raises(ValueError):
            parse_budgets(text)


def test_rejected_moves_count_and_the_fourth_is_429_with_retry_after(api, limits, clock):
    game = api.game()
    mover, _ = api.turn(game)
    answers = [pass_move(api, game, mover, i) for i in range(4)]
    assert [a.status for a in answers[:3]] == [422, 422, 422]  # rejected moves count too
    limited = answers[3]
    assert limited.status == 429
    assert limited.body["error"]["code"] == "rate_limited"
    assert isinstance(limited.body["error"]["message"], str)
    retry = int(limited.headers["Retry-After"])
    assert 1 <= retry <= 10 and limited.body["error"]["retryAfter"] == retry
    clock.advance(retry)
    assert pass_move(api, game, mover, 9).status == 422  # a new window


def test_one_players_burst_never_refuses_another_players_move(api, limits):
    game = api.game()
    mover, _ = api.turn(game)
    other = next(p for p in game.players if p != mover)
    assert [pass_move(api, game, mover, i).status for i in range(5)][-1] == 429
    answer = pass_move(api, game, other, 0)
    assert answer.body["error"]["code"] == "not_your_turn"  # answered, not limited


def test_dry_runs_hints_and_tables_have_their_own_budgets(api, limits):
    game = api.game(hints=True)
    mover, view = api.turn(game)
    dry = {"version": view["version"], "type": "draw", "dryRun": True}
    where = {"token": mover.token, "tableId": game.table_id}
    statuses = [api("move-draw", body=dry, **where).status for _ in range(3)]
    assert statuses == [200, 200, 429]
    hints = [api("get-hint", token=mover.token, tableId=game.table_id).status for _ in range(3)]
    assert hints[-1] == 429 and 429 not in hints[:2]
    assert pass_move(api, game, mover, 0).status == 422  # the move budget is untouched
    owner = api.player("Kurucu")
    body = {"game": "kastet", "seats": 2, "hands": 1}
    tables = [api("create-table", body=body, token=owner.token).status for _ in range(3)]
    assert tables == [201, 201, 429]


def test_guests_are_limited_per_source_ip(api, limits):
    first = [api("create-player", name=f"G{i}").status for i in range(4)]
    assert first[:3] == [201, 201, 201] and first[3] == 429
    event = api.event("rest/create-player", name="Başka")
    event["requestContext"]["identity"]["sourceIp"] = "198.51.100.9"
    assert api.invoke(event).status == 201  # another source has its own budget


def connect(ws, player, table_id, connection_id):
    assert ws("connect", token=player.token, tableId=table_id, connectionId=connection_id) == OK


def test_moves_over_the_socket_share_the_players_move_budget(api, ws, outbox, limits):
    game = api.game()
    mover, view = api.turn(game)
    connect(ws, mover, game.table_id, "mine")
    for i in range(4):
        move = {"action": "move", "tableId": game.table_id, "version": view["version"],
                "type": "pass", "moveId": f"w{i}"}  # fmt: skip
        assert ws("move", body=json.dumps(move), connectionId="mine")["statusCode"] == 200
    errors = [m["error"]["code"] for m in outbox.to("mine") if m["type"] == "error"]
    assert errors == ["illegal_move"] * 3 + ["rate_limited"]
    assert pass_move(api, game, mover, 5).status == 429  # the same budget as REST


def test_a_move_for_another_table_over_a_socket_is_answered_an_error(api, ws, outbox):
    game, elsewhere = api.game(), api.game()
    mover, view = api.turn(game)
    connect(ws, mover, game.table_id, "mine")
    move = {"action": "move", "tableId": elsewhere.table_id, "version": view["version"],
            "type": "draw", "moveId": "x"}  # fmt: skip
    with api.unchanged(mover, game.table_id):
        assert ws("move", body=json.dumps(move), connectionId="mine")["statusCode"] == 200
    answer = outbox.to("mine")[-1]
    assert answer["type"] == "error" and answer["error"]["code"] == "not_found"
    assert game.table_id in answer["error"]["message"]


def test_an_oversized_socket_message_is_answered_an_error(api, ws, outbox):
    game = api.game()
    mover, view = api.turn(game)
    connect(ws, mover, game.table_id, "mine")
    move = {"action": "move", "tableId": game.table_id, "version": view["version"],
            "type": "draw", "moveId": "x", "pad": "a" * 20_000}  # fmt: skip
    with api.unchanged(mover, game.table_id):
        assert ws("move", body=json.dumps(move), connectionId="mine")["statusCode"] == 200
    answer = outbox.to("mine")[-1]
    assert answer["type"] == "error" and answer["error"]["code"] == "bad_request"
    assert "larger than" in answer["error"]["message"]


def test_the_template_turns_limits_on_and_keeps_waf_and_cors_optional() -> None:
    from harftet.store.schema import load_template

    template = load_template()
    params = template["Parameters"]
    assert params["RateLimits"]["Default"] == "on"
    assert params["GuestWafLimit"]["Default"] == 0 and params["AllowedOrigins"]["Default"] == ""
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["LIMITS"] == {"Ref": "RateLimits"}
    assert variables["ALLOWED_ORIGINS"] == {"Ref": "AllowedOrigins"}
    resources = template["Resources"]
    assert {resources[n].get("Condition") for n in ("GuestWebAcl", "GuestWebAclAssociation")} == {
        "GuestWafOn"
    }
    rule = resources["GuestWebAcl"]["Properties"]["Rules"][0]["Statement"]["RateBasedStatement"]
    assert rule["AggregateKeyType"] == "IP" and rule["Limit"] == {"Ref": "GuestWafLimit"}
    # the counters need no new permission: UpdateItem on the connections table, already there
    statement = resources["FunctionAccessPolicy"]["Properties"]["PolicyDocument"]["Statement"][0]
    assert "dynamodb:UpdateItem" in statement["Action"]
    assert {"Fn::GetAtt": ["ConnectionsTable", "Arn"]} in statement["Resource"]
