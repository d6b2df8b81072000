"""Retried moves (API.md v4 "Retries"): a move or ready sent again with the same moveId by the
same player within 24 h gets the same status and body as its first answer — even after the
table moved on, and byte for byte — on REST and on the socket; nothing changes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from service_helpers import full_table, turn_player

from harftet.engine.moves import Draw, Pass, Ready


@pytest.fixture
def app(clock: Any, outbox: Any) -> Any:
    from fakes import fake_app

    return fake_app(clock, outbox, log=False, mail=True)


def encoded(answer: Any) -> bytes:
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()


def _play_on(app: Any, table_id: str, callers: list[Any], n: int, tag: str) -> None:
    """``n`` moves by whoever is in turn (the table moves on)."""
    for i in range(n):
        caller, view = turn_player(app, table_id, callers)
        move = Draw() if view["pile"] and len(view["hand"]) < 22 else Pass()
        app.tables.move(caller, table_id, view["version"], f"{tag}-{i}", move)


def test_a_retry_after_the_table_moved_on_gets_the_first_answer_byte_for_byte(app, clock):
    table_id, callers = full_table(app, seats=2)
    mover, view = turn_player(app, table_id, callers)
    first = app.tables.move(mover, table_id, view["version"], "draw-1", Draw())
    _play_on(app, table_id, callers, 3, "later")
    now = app.stores.tables.get(table_id).version
    assert now > first["version"]
    retries = [
        app.tables.move(mover, table_id, view["version"], "draw-1", Draw()),
        app.tables.move(mover, table_id, now, "draw-1", Pass()),  # another body: the first answer
    ]
    for again in retries:
        assert encoded(again) == encoded(first)
    assert app.stores.tables.get(table_id).version == now  # nothing changed
    on_socket = app.tables.move_on_socket(mover, table_id, view["version"], "draw-1", Draw(), "c1")
    assert on_socket == {"type": "table", "view": first, "moveId": "draw-1"}


def test_a_thousand_retries_interleaved_with_play_all_get_the_first_answer(app, clock):
    table_id, callers = full_table(app, seats=2)
    answers: dict[tuple[str, str], tuple[int, bytes]] = {}
    for i in range(40):
        caller, view = turn_player(app, table_id, callers)
        move = Draw() if view["pile"] and len(view["hand"]) < 22 else Pass()
        got = app.tables.move(caller, table_id, view["version"], f"m{i}", move)
        answers[(caller.player_id, f"m{i}")] = (view["version"], encoded(got))
        if app.stores.tables.get(table_id).table.status != "playing":
            break
    retried = 0
    by_id = {c.player_id: c for c in callers}
    while retried < 1000:
        for (pid, move_id), (version, body) in answers.items():
            again = app.tables.move(by_id[pid], table_id, version, move_id, Draw())
            assert encoded(again) == body, move_id
            retried += 1
    assert retried >= 1000


def test_a_retry_past_24_hours_is_not_answered_from_the_kept_answer(app, clock):
    table_id, callers = full_table(app, seats=2)
    mover, view = turn_player(app, table_id, callers)
    first = app.tables.move(mover, table_id, view["version"], "draw-1", Draw())
    assert app.stores.answers.get(mover.player_id, table_id, "draw-1", clock.now) is not None
    clock.now += 24 * 3600 + 1
    assert app.stores.answers.get(mover.player_id, table_id, "draw-1", clock.now) is None
    assert (
        app.tables.move(mover, table_id, view["version"], "draw-1", Draw())["version"]
        >= first["version"]
    )


def _hands_played(app: Any, clock: Any) -> tuple[str, list[Any], list[tuple[Any, int, str]]]:
    """A two-seat Kastet table in its second hand (the first one's results in every view),
    and each move made on the way: (caller, version sent, moveId) — readies among them."""
    from test_between_hands import finish_hand, table_of

    table_id, callers = table_of(app, hands=3, break_seconds=30)
    made: list[tuple[Any, int, str]] = []
    for i in range(3):  # moves of the first hand: kept without hand results
        caller, view = turn_player(app, table_id, callers)
        app.tables.move(caller, table_id, view["version"], f"first-{i}", Draw())
        made.append((caller, view["version"], f"first-{i}"))
    finish_hand(app, table_id, callers)
    for i, caller in enumerate(callers):  # both ready: the second hand is dealt
        version = app.tables.view(caller, table_id)["version"]
        app.tables.move(caller, table_id, version, f"ready-{i}", Ready())
        made.append((caller, version, f"ready-{i}"))
    for i in range(3):
        caller, view = turn_player(app, table_id, callers)
        assert view["handNumber"] == 2 and len(view["handResults"]) == 1
        app.tables.move(caller, table_id, view["version"], f"second-{i}", Draw())
        made.append((caller, view["version"], f"second-{i}"))
    return table_id, callers, made


def _first_answers(app: Any, table_id: str, made: list[tuple[Any, int, str]]) -> dict[str, bytes]:
    """Each move's answer as its first retry gets it now."""
    return {
        move_id: encoded(app.tables.move(caller, table_id, version, move_id, Draw()))
        for caller, version, move_id in made
    }


@pytest.mark.parametrize("write_format", [1, 2])
def test_in_either_format_a_retry_gets_the_first_answer_byte_for_byte_on_rest_and_socket(
    app, clock, write_format
):
    """Issue 40: format 2 keeps an answer in about a write unit (the hands played before are
    left to the table); format 1 is what the release before reads (AnswerWriteFormat)."""
    app.stores.answers.write_format = write_format
    firsts: dict[str, bytes] = {}
    real_put = app.stores.answers.put

    def put(player_id: str, table_id: str, move_id: str, body: str, now: float) -> None:
        firsts[move_id] = body.encode()  # the first answer, as it went out
        real_put(player_id, table_id, move_id, body, now)

    app.stores.answers.put = put
    table_id, callers, made = _hands_played(app, clock)
    _play_on(app, table_id, callers, 4, "later")  # the table moves on past every move
    items = [i for i in app.stores.answers.table.items.values() if i["sk"].startswith("answer#")]
    assert {i["dict"] for i in items} == {write_format}  # as the switch says
    assert _first_answers(app, table_id, made) == {m: firsts[m] for _, _, m in made}
    for caller, version, move_id in made:
        on_socket = app.tables.move_on_socket(caller, table_id, version, move_id, Draw(), "c1")
        assert encoded(on_socket["view"]) == firsts[move_id]
        assert on_socket["type"] == "table" and on_socket["moveId"] == move_id


def test_answers_kept_before_the_switch_to_format_two_are_still_given_byte_for_byte(app, clock):
    """The canary's second deploy flips AnswerWriteFormat to 2: the answers its first deploy
    (and the release before) kept in format 1 are read on; the new ones are format 2."""
    app.stores.answers.write_format = 1
    table_id, callers, made = _hands_played(app, clock)
    before = _first_answers(app, table_id, made)
    app.stores.answers.write_format = 2
    _play_on(app, table_id, callers, 3, "after")
    assert _first_answers(app, table_id, made) == before
    items = [i for i in app.stores.answers.table.items.values() if i["sk"].startswith("answer#")]
    assert sorted({i["dict"] for i in items}) == [1, 2]
