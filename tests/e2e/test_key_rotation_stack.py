"""Key rotation on the local stack's schedule (docs/DEPLOY.md "Signing keys"): the stack runs
functions/keys on its rate as KeyRotationFunction runs in AWS (here every 4 s, each function
keeps the keys it read 0.5 s instead of 5 minutes, a new key signs 1 s after it is written
instead of 6 minutes, and a key verifies 2.5 s after it stopped signing instead of a guest
token's 30 days: a month in seconds), and a signed-in player plays on across the rotations:
0 sign-outs. The client renews its access token every second: well within a key's life even
on a loaded machine."""

from __future__ import annotations

import time
from typing import Any

import httpx
import jwt
import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.e2e

PERIOD = 4.0
CACHE = 0.5
LEAD = CACHE + CACHE  # harftet.identity.sign_lead: a new key signs once every ring holds it
RENEW = 1.0  # the client's refresh interval (the web client's: minutes, for 15)


def kid(token: str) -> str | None:
    return jwt.get_unverified_header(token).get("kid")


def rotations(http: httpx.Client) -> int:
    keys = http.get("/health").json().get("keys") or {}
    return int(keys.get("rotations", 0))


def wait_for_rotation(http: httpx.Client, count: int, limit: float = 30) -> None:
    deadline = time.monotonic() + limit
    while rotations(http) < count:
        assert time.monotonic() < deadline, f"fewer than {count} rotations in {limit} s"
        time.sleep(0.2)


def test_a_signed_in_player_is_never_signed_out_across_rotations(stack_factory: Any) -> None:
    env = {
        "KEY_ROTATION_SECONDS": str(PERIOD),
        "TOKEN_KEYS_CACHE_SECONDS": str(CACHE),
        "TOKEN_KEYS_LIFE_SECONDS": "2.5",
    }
    stack = stack_factory("keys", env=env)
    with httpx.Client(base_url=stack.base_url, timeout=15) as http:
        guest = http.post("/players", json={"name": "Ayşe"}).json()
        wait_for_rotation(http, 1)  # the ring exists: tokens carry the id of their key
        time.sleep(LEAD + 0.2)  # once its first key signs
        mine = {"Authorization": f"Bearer {guest['token']}"}
        code = http.post("/players/me/transfer-codes", headers=mine).json()["code"]
        signed_in = http.post("/sessions/transfer", json={"code": code})
        assert signed_in.status_code == 200, signed_in.text
        session = signed_in.json()
        first_token, refresh = session["token"], session["refreshToken"]
        table = http.post("/tables", json={"game": "kastet", "seats": 2}, headers=mine).json()[
            "tableId"
        ]
        start = rotations(http)
        token, kids, requests, signed_out = first_token, {kid(first_token)}, 0, []
        refreshed_at = time.monotonic()
        # the client, as the web client does: requests with its access token, renewed well
        # within a key's life, over two more rotations
        while rotations(http) < start + 2:
            auth = {"Authorization": f"Bearer {token}"}
            for path in ("/players/me/tables", f"/tables/{table}"):
                answer = http.get(path, headers=auth)
                requests += 1
                if answer.status_code == 401:
                    signed_out.append((path, kid(token), answer.text))
            if time.monotonic() - refreshed_at > RENEW:
                refreshed_at = time.monotonic()
                renewed = http.post("/sessions/refresh", json={"refreshToken": refresh})
                if renewed.status_code != 200:
                    signed_out.append(("/sessions/refresh", None, renewed.text))
                else:
                    token, refresh = renewed.json()["token"], renewed.json()["refreshToken"]
                    kids.add(kid(token))
            time.sleep(0.15)
        # the socket opens with the token in hand after the rotations, and answers
        with connect(f"{stack.ws_url}?token={token}&tableId={table}", open_timeout=30) as ws:
            ws.send('{"action": "ping"}')
            assert ws.recv(timeout=30)
        assert signed_out == [] and requests >= 8  # two a period at least, even when loaded
        assert len(kids) >= 2 and None not in kids  # signed by the new keys in turn
        # the rotations were real: the first access token's key retires (within the functions'
        # cache of the ring once the rotation that drops it has run)
        deadline = time.monotonic() + PERIOD + 1
        stale = http.get("/players/me/tables", headers={"Authorization": f"Bearer {first_token}"})
        while stale.status_code != 401 and time.monotonic() < deadline:
            time.sleep(0.2)
            stale = http.get(
                "/players/me/tables", headers={"Authorization": f"Bearer {first_token}"}
            )
        assert stale.status_code == 401
        current = http.get("/players/me/tables", headers={"Authorization": f"Bearer {token}"})
        assert current.status_code == 200
