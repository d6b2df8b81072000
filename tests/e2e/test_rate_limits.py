"""Rate limits are an operator setting: off in the local stack unless asked for (API.md)."""

from __future__ import annotations

import time

import httpx
import pytest

pytestmark = pytest.mark.e2e


def test_the_local_stack_does_not_throttle_by_default(local_stack: str) -> None:
    with httpx.Client(base_url=local_stack, timeout=10) as client:
        statuses = {client.get("/health").status_code for _ in range(60)}
        statuses |= {client.get("/tables").status_code for _ in range(40)}
    assert 429 not in statuses


def test_asked_to_throttle_it_answers_429_rate_limited_like_api_gateway(stack_factory) -> None:
    stack = stack_factory("throttled", throttle="1,5", sweeper=None)
    with httpx.Client(base_url=stack.base_url, timeout=10) as client:
        answers = [client.post("/players", json={"name": f"P{i}"}) for i in range(12)]
    statuses = [a.status_code for a in answers]
    assert statuses[:5] == [201] * 5  # the burst
    limited = [a for a in answers if a.status_code == 429]
    assert len(limited) >= 5
    assert limited[0].json() == {"error": {"code": "rate_limited", "message": "Too many requests"}}


def at_the_start_of_a_window(window: int, needed: float) -> None:
    """The budgets are fixed windows (limits.py: each ``window`` seconds of the clock): a burst
    that straddles a boundary is counted half in each. Wait for a window with ``needed``
    seconds left (the stack runs on this machine's clock)."""
    left = window - time.time() % window
    if left < needed:
        time.sleep(left + 0.05)


def test_asked_for_limits_each_player_has_their_own_budget(stack_factory) -> None:
    """LIMITS=on: the handlers' per-player budgets over the local stack's DynamoDB (the same
    code as on AWS): one player's burst of moves is refused, another player's move is not."""
    env = {"LIMITS": "on", "LIMIT_BUDGETS": "move=5/60,guest=4/60"}
    stack = stack_factory("limited", env=env, sweeper=None, timeout=120)
    at_the_start_of_a_window(60, needed=20)  # the guests' and the moves' budgets: 60 s windows
    with httpx.Client(base_url=stack.base_url, timeout=10) as client:
        # Each guest claims another address: the local stack trusts no proxy unless told to
        # (--trust-proxy / TRUST_PROXY), so they all count against the one real address.
        guests = [
            client.post(
                "/players",
                json={"name": f"Oyuncu{i}"},
                headers={"X-Forwarded-For": f"203.0.113.{i}", "Forwarded": f"for=198.51.100.{i}"},
            )
            for i in range(5)
        ]
        assert [g.status_code for g in guests] == [201, 201, 201, 201, 429]
        assert guests[4].json()["error"]["code"] == "rate_limited"
        assert int(guests[4].headers["Retry-After"]) >= 1
        tokens = [g.json()["token"] for g in guests[:2]]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        table = client.post(
            "/tables", json={"game": "kastet", "seats": 2, "hands": 1}, headers=auth[0]
        ).json()
        table_id = table["tableId"]
        assert client.post(f"/tables/{table_id}/seats/1", json={}, headers=auth[1]).is_success
        view = client.post(f"/tables/{table_id}/start", headers=auth[0]).json()
        mover = view["turn"]["seat"]
        burst = [
            client.post(
                f"/tables/{table_id}/moves",
                json={"version": view["version"], "moveId": f"b{i}", "type": "pass"},
                headers=auth[mover],
            )
            for i in range(7)
        ]
        statuses = [b.status_code for b in burst]
        assert 429 not in statuses[:5] and statuses[5:] == [429, 429]
        assert burst[5].json()["error"]["code"] == "rate_limited"
        other = client.post(
            f"/tables/{table_id}/moves",
            json={"version": view["version"], "moveId": "o", "type": "pass"},
            headers=auth[1 - mover],
        )
        assert other.status_code != 429 and other.json()["error"]["code"] == "not_your_turn"


def test_social_limits_bite_exactly_at_their_numbers_under_a_burst(stack_factory) -> None:
    """API.md v4 "Limits" (issue 35: 290 invitations and 160 code guesses went through with
    LIMITS=on): 20 friend requests by code and 30 invitations a player an hour, counted in
    DynamoDB, so a concurrent burst gets exactly that many through; unknown codes count."""
    from concurrent.futures import ThreadPoolExecutor

    stack = stack_factory("social", env={"LIMITS": "on"}, sweeper=None, timeout=120)
    with httpx.Client(base_url=stack.base_url, timeout=20) as client:

        def guest(name: str, i: int) -> dict:
            headers = {"X-Forwarded-For": f"203.0.113.{i}"}
            made = client.post("/players", json={"name": name}, headers=headers)
            assert made.status_code == 201, made.text
            return {"Authorization": f"Bearer {made.json()['token']}"}

        host, friend, guesser = guest("Ev", 1), guest("Dost", 2), guest("Tahminci", 3)
        code = client.get("/players/me/friends", headers=friend).json()["code"]
        assert (
            client.post("/players/me/friends", json={"code": code}, headers=host).status_code == 200
        )
        host_id = client.get("/players/me/friends", headers=friend).json()["incoming"][0][
            "playerId"
        ]
        friend_id = client.get("/players/me/friends", headers=host).json()["outgoing"][0][
            "playerId"
        ]
        assert client.post(f"/players/me/friends/{host_id}", headers=friend).status_code == 200
        table = client.post("/tables", json={"game": "kastet", "seats": 2}, headers=host).json()

        def guess(i: int) -> httpx.Response:
            return client.post(
                "/players/me/friends", json={"code": f"ZZZZ{i:04d}"}, headers=guesser
            )

        def invite(_: int) -> httpx.Response:
            path = f"/tables/{table['tableId']}/invitations"
            return client.post(path, json={"playerId": friend_id}, headers=host)

        at_the_start_of_a_window(3600, needed=60)  # hourly windows: not across a boundary
        with ThreadPoolExecutor(8) as pool:
            guesses = list(pool.map(guess, range(30)))
            invitations = list(pool.map(invite, range(40)))
    assert sorted(g.status_code for g in guesses) == [404] * 20 + [429] * 10
    assert sorted(i.status_code for i in invitations) == [202] * 30 + [429] * 10
    for refused in [r for r in guesses + invitations if r.status_code == 429]:
        assert refused.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 3600
