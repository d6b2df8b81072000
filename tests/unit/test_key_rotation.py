"""Rotating signing keys (docs/DEPLOY.md "Signing keys"): tokens carry their key's id, two
keys verify at once, a scheduled rotation signs nobody out."""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path
from typing import Any

import boto3
import jwt
import pytest
from moto import mock_aws

from harftet.bootstrap import App, Settings
from harftet.errors import UnauthorizedError
from harftet.identity import (
    ACCESS_SECONDS,
    KEYS_ACTIVE,
    ROTATION_DAYS,
    TOKEN_DAYS,
    Tokens,
    parse_keys,
    rotated,
)

SECRET = "the-one-secret-of-the-tests-0123456789"
DAY = 86400.0


class Ring:
    """The key parameter as the rotation function keeps it."""

    def __init__(self) -> None:
        self.text: str | None = None

    def rotate(self, now: float) -> None:
        self.text = rotated(self.text, now)

    def __call__(self, fresh: bool) -> list[Any]:
        return parse_keys(self.text)


def kid(token: str) -> str | None:
    return jwt.get_unverified_header(token).get("kid")


def test_a_signed_in_player_holds_on_across_two_rotations() -> None:
    """The client of a session: an access token (15 minutes) renewed by its refresh token
    while the keys rotate twice: every request is answered, nobody is signed out."""
    ring = Ring()
    start = time.time() - 300  # jwt checks expiry on the wall clock
    ring.rotate(start - 1)
    tokens = Tokens(SECRET, keys=ring)
    now, signed_out, requests = start, 0, 0
    token = tokens.issue("p1", "Ayşe", now, session="s1", lifetime=ACCESS_SECONDS)
    first = kid(token)
    rotations = 0
    while rotations < 2:
        for _ in range(10):  # requests within the access token's life
            now += 10
            try:
                assert tokens.verify(token).player_id == "p1"
            except UnauthorizedError:
                signed_out += 1
            requests += 1
        ring.rotate(now)  # the schedule fires (every ROTATION_DAYS in AWS: here, faster)
        rotations += 1
        try:  # the token in hand, signed by the key before, still verifies
            assert Tokens(SECRET, keys=ring).verify(token).session == "s1"
        except UnauthorizedError:
            signed_out += 1
        token = tokens.issue("p1", "Ayşe", now, session="s1", lifetime=ACCESS_SECONDS)
    assert signed_out == 0 and requests == 20
    assert kid(token) not in (None, first)  # signed by the newest key, 2 rotations on
    assert len(parse_keys(ring.text)) == KEYS_ACTIVE


def test_a_guest_token_outlives_no_key_it_needs() -> None:
    """A guest token lives TOKEN_DAYS; its key verifies for two rotation periods after it
    began signing, at least one after it stopped: the rotation never ends a token early."""
    assert ROTATION_DAYS >= TOKEN_DAYS
    ring = Ring()
    ring.rotate(0)
    issued = ROTATION_DAYS * DAY - 1  # the worst case: just before the next rotation
    token = Tokens(SECRET, keys=ring).issue("p2", "Can", issued)
    ring.rotate(ROTATION_DAYS * DAY)
    expires = issued + TOKEN_DAYS * DAY
    fresh = Tokens(SECRET, keys=ring)  # a new container: no cache of verified tokens
    assert kid(token) in [k.kid for k in parse_keys(ring.text)]
    assert jwt.decode(token, options={"verify_signature": False})["exp"] == expires
    assert expires <= 2 * ROTATION_DAYS * DAY  # expired before the next rotation retires it
    assert fresh._verifying_secret(token)


def test_a_retired_key_and_a_forged_key_id_are_refused() -> None:
    ring = Ring()
    ring.rotate(0)
    old = Tokens(SECRET, keys=ring).issue("p1", "A", lifetime=3600)
    ring.rotate(10)
    ring.rotate(20)  # the key of `old` retired
    with pytest.raises(UnauthorizedError):
        Tokens(SECRET, keys=ring).verify(old)
    forged = jwt.encode({"sub": "p1", "iss": "harftet", "iat": 1, "exp": 10**10}, "x" * 40,
                        algorithm="HS256", headers={"kid": "k10"})  # fmt: skip
    with pytest.raises(UnauthorizedError):
        Tokens(SECRET, keys=ring).verify(forged)


def test_tokens_issued_before_the_ring_still_verify() -> None:
    legacy = Tokens(SECRET).issue("p1", "A", lifetime=3600)
    ring = Ring()
    ring.rotate(0)
    assert kid(legacy) is None
    assert Tokens(SECRET, keys=ring).verify(legacy).player_id == "p1"


def _keys_function() -> Any:
    path = Path(__file__).resolve().parents[2] / "functions" / "keys" / "app.py"
    spec = importlib.util.spec_from_file_location("keys_app", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@mock_aws
def test_the_scheduled_function_rotates_the_parameter_the_app_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = "/harftet/token-keys"
    monkeypatch.setenv("TOKEN_KEYS_PARAM", name)
    module = _keys_function()
    current = App(Settings(token_secret=SECRET, token_keys_param=name), stores=None)
    monkeypatch.setattr(module, "app", lambda: current)

    class Context:
        function_name, memory_limit_in_mb, invoked_function_arn, aws_request_id = (
            "keys", 128, "arn:aws:lambda:us-east-1:1:function:keys", "r1",
        )  # fmt: skip

    first = module.handler({}, Context())["kids"]
    token = current.tokens.issue("p1", "Ayşe")
    ssm = boto3.client("ssm", region_name="us-east-1")
    value = ssm.get_parameter(Name=name, WithDecryption=True)["Parameter"]
    assert value["Type"] == "SecureString" and len(json.loads(value["Value"])["keys"]) == 1
    current.clock = lambda: 2e9
    second = module.handler({}, Context())["kids"]
    assert second[1:] == first and len(second) == KEYS_ACTIVE
    later = App(Settings(token_secret=SECRET, token_keys_param=name), stores=None)
    assert later.tokens.verify(token).player_id == "p1"  # 0 sign-outs
    assert kid(later.tokens.issue("p1", "Ayşe")) == second[0]


def test_a_token_verified_before_its_key_retired_is_refused_after() -> None:
    """A process remembers the tokens it verified (the signature check is costly): not past
    its key's retirement (docs/DEPLOY.md: a leaked key's tokens stop within the cache)."""
    ring = Ring()
    ring.rotate(0)
    tokens = Tokens(SECRET, keys=ring)
    token = tokens.issue("p1", "A", lifetime=3600)
    assert tokens.verify(token).player_id == "p1"  # verified, and remembered
    ring.rotate(10)
    assert tokens.verify(token).player_id == "p1"  # its key still verifies
    ring.rotate(20)  # retired
    with pytest.raises(UnauthorizedError):
        tokens.verify(token)
