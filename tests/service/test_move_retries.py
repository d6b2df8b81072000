"""Retried moves (API.md v4 "Retries"): a move or ready sent again with the same moveId by the
same player within 24 h gets the same status and body as its first answer — even after the
table moved on, and byte for byte — on REST and on the socket; nothing changes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from service_helpers import full_table, turn_player

from harftet.engine.moves import Draw, Pass


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
