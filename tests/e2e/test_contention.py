"""Races over real HTTP: many clients hit one table at the same instant.

Each racer is a thread with its own `httpx.Client` (its TCP connection opened beforehand), all
released together by a `threading.Barrier`. The emulator runs the requests in parallel execution
environments, and DynamoDB's conditional write on the table's version decides the winner.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from e2e_client import Player, View, new_move_id, seated_table

pytestmark = pytest.mark.e2e

RACERS = 16


def race(
    base_url: str, tokens: list[str], request: Callable[[httpx.Client, int], httpx.Response]
) -> list[httpx.Response]:
    """Send ``request(client, n)`` from one thread per token, all released at once."""
    barrier = threading.Barrier(len(tokens))

    def run(n: int) -> httpx.Response:
        headers = {"Authorization": f"Bearer {tokens[n]}"}
        with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
            assert client.get("/health").status_code == 200  # connect before the start line
            barrier.wait(timeout=30)
            return request(client, n)

    with ThreadPoolExecutor(len(tokens)) as pool:
        return list(pool.map(run, range(len(tokens))))


@pytest.fixture
def started_table(local_stack: str) -> Iterator[tuple[list[Player], View]]:
    """A started two-seat Kastet table of two fresh humans; seat 0 is to move."""
    players, view = seated_table(local_stack, "kastet", ["Ayşe", "Barış"], seed=1234)
    view = players[0].start(view["tableId"])
    assert view["turn"]["seat"] == 0
    yield players, view
    for player in players:
        player.close()


def assert_one_draw_applied(before: View, after: View) -> None:
    assert after["version"] == before["version"] + 1
    assert after["pile"] == before["pile"] - 1
    assert len(after["hand"]) == 15
    assert after["seats"][0]["tiles"] == 15
    assert after["turn"]["seat"] == 1
    drawn = {t["id"] for t in after["hand"]} - {t["id"] for t in before["hand"]}
    assert len(drawn) == 1


def test_sixteen_simultaneous_draws_with_different_move_ids_apply_exactly_once(
    local_stack: str, started_table: tuple[list[Player], View]
) -> None:
    (ayse, _), before = started_table
    table_id = before["tableId"]
    move_ids = [new_move_id() for _ in range(RACERS)]

    def request(client: httpx.Client, n: int) -> httpx.Response:
        body = {"version": before["version"], "moveId": move_ids[n], "type": "draw"}
        return client.post(f"/tables/{table_id}/moves", json=body)

    responses = race(local_stack, [ayse.token] * RACERS, request)

    statuses = Counter(r.status_code for r in responses)
    assert statuses == {200: 1, 409: RACERS - 1}, [r.text for r in responses]
    (winner,) = [r.json() for r in responses if r.status_code == 200]
    assert winner["version"] == before["version"] + 1
    for response in responses:
        if response.status_code == 409:
            body = response.json()
            assert body["error"]["code"] == "stale_version"
            assert body["view"]["version"] == winner["version"]
            assert body["view"]["hand"] == winner["hand"]  # the caller's own view to resync
    after = ayse.table(table_id)
    assert_one_draw_applied(before, after)
    assert after["hand"] == winner["hand"]


def test_sixteen_simultaneous_draws_with_one_move_id_apply_exactly_once(
    local_stack: str, started_table: tuple[list[Player], View]
) -> None:
    (ayse, _), before = started_table
    table_id = before["tableId"]
    same = new_move_id()

    def request(client: httpx.Client, n: int) -> httpx.Response:
        body = {"version": before["version"], "moveId": same, "type": "draw"}
        return client.post(f"/tables/{table_id}/moves", json=body)

    responses = race(local_stack, [ayse.token] * RACERS, request)

    # One request writes; every other one finds the same move applied — when it reads, or
    # in the item its lost conditional write returns — and gets the same answer.
    statuses = Counter(r.status_code for r in responses)
    assert statuses == {200: RACERS}, [r.text for r in responses]
    answers = [r.json() for r in responses]
    assert all(a == answers[0] for a in answers)
    assert answers[0]["version"] == before["version"] + 1
    after = ayse.table(table_id)
    assert_one_draw_applied(before, after)
    # Sent once more, later, the same moveId still returns the first answer and changes nothing.
    again = ayse.move(table_id, before["version"], {"type": "draw"}, move_id=same)
    assert again.status_code == 200, again.text
    assert again.json() == answers[0]
    assert ayse.table(table_id) == after


def test_sixteen_players_racing_for_one_empty_seat_leave_exactly_one_seated(
    local_stack: str,
) -> None:
    manager = Player(local_stack, "Masa")
    racers = [Player(local_stack, f"Oyuncu {n}") for n in range(RACERS)]
    try:
        table = manager.create_table("harftet", seats=2)
        table_id = table["tableId"]

        def request(client: httpx.Client, n: int) -> httpx.Response:
            return client.post(f"/tables/{table_id}/seats/1")

        responses = race(local_stack, [p.token for p in racers], request)

        statuses = Counter(r.status_code for r in responses)
        assert statuses == {200: 1, 409: RACERS - 1}, [r.text for r in responses]
        (won,) = [n for n, r in enumerate(responses) if r.status_code == 200]
        winner = racers[won]
        assert responses[won].json()["seats"][1]["playerId"] == winner.id
        assert responses[won].json()["seat"] == 1
        for response in responses:
            if response.status_code == 409:
                assert response.json()["error"]["code"] == "seat_taken"
        after = manager.table(table_id)
        assert after["seats"][1]["playerId"] == winner.id
        assert after["seats"][1]["name"] == winner.name
        assert after["version"] == table["version"] + 1
        assert manager.start(table_id)["status"] == "playing"  # the table is whole
    finally:
        for player in [manager, *racers]:
            player.close()


def test_a_move_id_repeated_after_later_moves_changes_nothing_and_answers_as_the_first_time(
    started_table: tuple[list[Player], View],
) -> None:
    """API.md v4 "Retries": a retry that comes after other moves changes nothing and gets the
    first answer again (each move's first answer is kept 24 h beside the table), not the
    table as it is now."""
    (ayse, baris), before = started_table
    table_id = before["tableId"]
    first = ayse.move(table_id, before["version"], {"type": "draw"}, move_id="retry-1")
    assert first.status_code == 200, first.text
    later = baris.move(table_id, first.json()["version"], {"type": "draw"})
    assert later.status_code == 200, later.text
    again = ayse.move(table_id, before["version"], {"type": "draw"}, move_id="retry-1")
    assert again.status_code == 200, again.text
    now = ayse.table(table_id)
    assert now["version"] == later.json()["version"]  # nothing changed
    assert again.content == first.content  # the first answer, byte for byte
    assert len(now["hand"]) == len(first.json()["hand"])  # still exactly one draw


def test_retried_moves_get_their_first_answer_byte_for_byte_under_contention(
    local_stack: str, started_table: tuple[list[Player], View]
) -> None:
    """API.md v4 "Retries" (issue 35: a retried moveId got the current view): each move is
    sent by 8 racers at once (one applies it, the others are retries racing its answer being
    kept), and while the game goes on every earlier move is retried again — ≥ 240 retries
    (each costs the stack a whole request: 1,000 of them, measured once, took 4 minutes of a
    busy CI machine), each answered 200 with the first answer's bytes."""
    players, view = started_table
    table_id = view["tableId"]
    first: dict[str, tuple[str, int, dict, bytes]] = {}  # moveId → (token, version, body, bytes)
    retries = 0

    def post(token: str, body: dict) -> httpx.Response:
        with httpx.Client(base_url=local_stack, timeout=60) as client:
            headers = {"Authorization": f"Bearer {token}"}
            return client.post(f"/tables/{table_id}/moves", json=body, headers=headers)

    with ThreadPoolExecutor(RACERS) as pool:
        while retries < 240:
            view = players[0].table(table_id)
            if view["status"] == "playing":  # the next move, by 8 racers at once
                mover = players[view["turn"]["seat"]]
                mine = mover.table(table_id)
                kind = "draw" if mine["pile"] and len(mine["hand"]) < 22 else "pass"
                move_id = new_move_id()
                body = {"version": mine["version"], "moveId": move_id, "type": kind}
                token = mover.token
                racing = list(pool.map(lambda _, t=token, b=body: post(t, b), range(8)))
                assert {r.status_code for r in racing} == {200}, [r.text for r in racing]
                assert len({r.content for r in racing}) == 1  # the applied one, 7 retries
                first[move_id] = (token, 0, body, racing[0].content)
                retries += 7
            again = list(pool.map(lambda kept: post(kept[0], kept[2]), first.values()))
            for answer, kept in zip(again, first.values(), strict=True):
                assert answer.status_code == 200 and answer.content == kept[3]
            retries += len(again)
    assert retries >= 240 and len(first) >= 10
