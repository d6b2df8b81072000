"""A refused move over REST and WebSocket names its reason, and says it in the language of
Accept-Language (Turkish or English; English when absent)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from harftet.api.messages import tile_name
from harftet.texts import catalogue

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def with_language(event: dict[str, Any], value: str | None) -> dict[str, Any]:
    """The event with an Accept-Language header (as API Gateway passes it), or none."""
    if value is not None:
        event["headers"]["Accept-Language"] = value
        event["multiValueHeaders"]["Accept-Language"] = [value]
    return event


def pass_without_laying(api: Any, accept_language: str | None) -> dict[str, Any]:
    """Pass while the pile has tiles (refused: draw or lay); the error body."""
    game = api.game()
    player, view = api.turn(game)
    event = api.move_event("move-pass", player, game, view, "p1")
    with api.unchanged(player, game.table_id):
        reply = api.invoke(with_language(event, accept_language))
    assert reply.status == 422, reply.body
    error = reply.body["error"]
    assert error["code"] == "illegal_move"
    return error


@pytest.mark.parametrize("header", ["tr", "tr-TR,tr;q=0.9,en-US;q=0.8,en;q=0.7", "de, tr;q=0.4"])
def test_accept_language_tr_answers_in_turkish_with_the_reason(api, header):
    error = pass_without_laying(api, header)
    assert error["reason"] == "must_draw_or_lay"
    assert error["message"] == (
        "Taş çek ya da aç: açmadan pas ancak elde 22 taş varken ya da deste bitince olur"
    )


@pytest.mark.parametrize("header", [None, "en", "en-GB,en;q=0.9,tr;q=0.5", "tr;q=0", "fr"])
def test_without_turkish_in_accept_language_the_message_is_english(api, header):
    error = pass_without_laying(api, header)
    assert error["reason"] == "must_draw_or_lay"
    assert error["message"].startswith("draw or lay: you may pass without laying")


def test_a_tile_from_another_hand_names_the_tile_in_turkish_and_reveals_nothing(api):
    game = api.game()
    player, view = api.turn(game)
    other = next(p for p in game.players if p != player)
    theirs = [t["id"] for t in api.view(other, game.table_id)["hand"]]
    event = api.move_event(
        "move-lay", player, game, view, "l1", tile1=theirs[0], tile2=theirs[1], tile3=theirs[2]
    )
    with api.unchanged(player, game.table_id):
        reply = api.invoke(with_language(event, "tr"))
    assert reply.status == 422
    error = reply.body["error"]
    assert error["reason"] == "not_in_hand"
    assert error["meld"] == 0 and error["tile"] == theirs[0]
    # the tile by its face, as every player knows the game's tiles (never whose hand holds it)
    assert error["message"] == f"1. seri: {tile_name(theirs[0], 'kastet', 'tr')} elinde yok"
    assert other.id not in reply.raw and other.name not in reply.raw


def test_other_errors_say_their_codes_sentence_from_the_catalogue_and_carry_no_reason(api):
    game = api.game()
    player, view = api.turn(game)
    other = next(p for p in game.players if p != player)
    event = api.move_event("move-draw", other, game, view, "d1")
    reply = api.invoke(with_language(event, "tr"))
    assert reply.status == 403 and reply.body["error"]["code"] == "not_your_turn"
    assert reply.body["error"]["message"] == catalogue("tr")["error.not_your_turn"]
    assert "reason" not in reply.body["error"]


def test_a_socket_gets_the_reason_and_may_ask_for_turkish(api, ws, outbox):
    game = api.game()
    mover, view = api.turn(game)
    assert ws("connect", token=mover.token, tableId=game.table_id, connectionId="c1") == {
        "statusCode": 200
    }
    for lang, start in (("tr", "Taş çek ya da aç"), (None, "draw or lay")):
        body = {
            "action": "move",
            "tableId": game.table_id,
            "version": view["version"],
            "moveId": "p",
            "type": "pass",
        }
        if lang:
            body["lang"] = lang
        ws(
            "move",
            body=json.dumps(body),
            connectionId="c1",
            tableId=game.table_id,
            version=view["version"],
            moveId="p",
        )
        error = outbox.to("c1")[-1]["error"]
        assert error["code"] == "illegal_move" and error["reason"] == "must_draw_or_lay"
        assert error["message"].startswith(start)
