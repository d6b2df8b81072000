"""Rotating signing keys (docs/DEPLOY.md "Signing keys"): tokens carry their key's id, a new
key signs only once every cached ring holds it, a key verifies until the last token it signed
has expired, a scheduled rotation signs nobody out."""

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
    ROTATION_DAYS,
    TOKEN_DAYS,
    SigningKey,
    Tokens,
    parse_keys,
    rotated,
    sign_lead,
)

SECRET = "the-one-secret-of-the-tests-0123456789"
DAY = 86400.0


class Ring:
    """The key parameter as the rotation function keeps it."""

    def __init__(self) -> None:
        self.text: str | None = None

    def rotate(self, now: float, **options: Any) -> None:
        self.text = rotated(self.text, now, **options)

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
    assert first in [k.kid for k in parse_keys(ring.text)]  # its 30-day tokens live on


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
    ring.rotate(10, life=3600)
    ring.rotate(3610, life=3600)  # an hour after the next key began: the key of `old` retired
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

    current.clock = lambda: time.time() - 3 * DAY
    first = module.handler({}, Context())["kids"]
    token = current.tokens.issue("p1", "Ayşe")
    assert kid(token) == first[0]
    ssm = boto3.client("ssm", region_name="us-east-1")
    value = ssm.get_parameter(Name=name, WithDecryption=True)["Parameter"]
    assert value["Type"] == "SecureString" and len(json.loads(value["Value"])["keys"]) == 1
    current.clock = lambda: time.time() - DAY
    second = module.handler({}, Context())["kids"]
    assert second[1:] == first and len(second) == 2
    later = App(Settings(token_secret=SECRET, token_keys_param=name), stores=None)
    assert later.tokens.verify(token).player_id == "p1"  # 0 sign-outs
    assert kid(later.tokens.issue("p1", "Ayşe")) == second[0]
    current.clock = time.time
    third = module.handler({"retire": first[0]}, Context())["kids"]  # a leaked key, at once
    assert third[1:] == second[:1]
    assert (
        kid(
            App(Settings(token_secret=SECRET, token_keys_param=name), stores=None).tokens.issue(
                "p1", "Ayşe"
            )
        )
        == second[0]
    )  # the new key is not signing yet
    with pytest.raises(UnauthorizedError):
        App(Settings(token_secret=SECRET, token_keys_param=name), stores=None).tokens.verify(token)


def test_a_token_verified_before_its_key_retired_is_refused_after() -> None:
    """A process remembers the tokens it verified (the signature check is costly): not past
    its key's retirement (docs/DEPLOY.md: a leaked key's tokens stop within the cache)."""
    ring = Ring()
    ring.rotate(0)
    tokens = Tokens(SECRET, keys=ring)
    token = tokens.issue("p1", "A", lifetime=3600)
    assert tokens.verify(token).player_id == "p1"  # verified, and remembered
    ring.rotate(10, life=3600)
    assert tokens.verify(token).player_id == "p1"  # its key still verifies
    ring.rotate(3610, life=3600)  # retired
    with pytest.raises(UnauthorizedError):
        tokens.verify(token)


class Parameter:
    """The key ring's SSM parameter as functions/keys writes it; counts the reads."""

    def __init__(self) -> None:
        self.text: str | None = None
        self.reads = 0

    def get_parameter(self, Name: str, WithDecryption: bool) -> dict[str, Any]:
        from botocore.exceptions import ClientError

        self.reads += 1
        if self.text is None:
            raise ClientError({"Error": {"Code": "ParameterNotFound"}}, "GetParameter")
        return {"Parameter": {"Value": self.text}}


def container(parameter: Parameter, clock: list[float]) -> App:
    """A function's container: its own 5-minute cache of the ring, on the test's clock."""
    settings = Settings(token_secret=SECRET, token_keys_param="/harftet/token-keys")
    return App(settings, stores=None, clock=lambda: clock[0], aws=lambda _name: parameter)


def test_no_container_meets_a_token_signed_by_a_key_its_cached_ring_lacks() -> None:
    """The window the 5-minute cache opens at a rotation: container B read the ring a second
    before the new key was written, container A a second after. Each issues a token every
    second for 20 minutes around the rotation and the other verifies it: none is refused,
    and the new key does take over (a key signs only once every cached ring holds it)."""
    parameter, clock = Parameter(), [0.0]
    rotation = time.time() - 3600  # jwt checks expiry on the wall clock: an hour ago
    lead = sign_lead(Settings().token_keys_seconds)
    parameter.text = rotated(None, rotation - 20 * DAY, lead=lead)
    a, b = container(parameter, clock), container(parameter, clock)
    clock[0] = rotation - 1
    b.tokens.issue("p0", "B", clock[0])  # B's ring: read a second before the rotation
    parameter.text = rotated(parameter.text, rotation, lead=lead)  # functions/keys
    new_kid = parse_keys(parameter.text)[0].kid
    clock[0] = rotation + 1
    a.tokens.issue("p0", "A", clock[0])  # A's ring: read a second after it
    refused, kids = [], set()
    for second in range(2, 1200):
        clock[0] = rotation + second
        for signer, checker in ((a, b), (b, a)):
            token = signer.tokens.issue("p1", "Ayşe", clock[0])
            kids.add(kid(token))
            try:
                checker.tokens.verify(token)
            except UnauthorizedError:
                refused.append((second, kid(token)))
    assert refused == []
    assert new_kid in kids and len(kids) == 2  # the old key, then the new one
    assert parameter.reads <= 2 + 2 * 1200 / 300 + 2  # the cache held: a read a 5 minutes


def test_a_key_verifies_until_the_last_token_it_signed_expires() -> None:
    """The other end of a key's life, with the template's schedule (a rotation every 30 days,
    a guest token's life): the last token the old key signs (a container whose ring does not
    start the new key's signing until the lead has passed) is still valid when the next
    rotation comes, and a container that reads the ring after that rotation verifies it."""
    lead = sign_lead(Settings().token_keys_seconds)
    period = ROTATION_DAYS * DAY
    second = time.time() - period - lead + 100  # the old key's last token expires in 100 s
    ring = rotated(None, second - period, lead=lead)
    old_kid = parse_keys(ring)[0].kid
    ring = rotated(ring, second, lead=lead)
    last = Tokens(SECRET, keys=lambda fresh: parse_keys(ring), lead=lead).issue(
        "p1", "Ayşe", second + lead - 1
    )
    assert kid(last) == old_kid  # the new key signs only from `lead` on
    ring = rotated(ring, second + period, lead=lead)  # the next rotation, on time
    fresh = Tokens(SECRET, keys=lambda fresh: parse_keys(ring), lead=lead)
    assert fresh.verify(last).player_id == "p1"  # 0 sign-outs: 100 s of life left
    for n in range(2, 12):  # and keys do retire: the ring stays small
        ring = rotated(ring, second + n * period, lead=lead)
    assert old_kid not in [k.kid for k in parse_keys(ring)] and len(parse_keys(ring)) == 3


def test_a_failed_read_of_the_ring_keeps_the_keys_read_before() -> None:
    """SSM throttled: the container keeps verifying with the ring it had (before, a failed read
    emptied it and every token with a key id was refused for 5 minutes)."""
    parameter, clock = Parameter(), [time.time() - 3600]
    parameter.text = rotated(None, clock[0] - DAY)
    app = container(parameter, clock)
    token = app.tokens.issue("p1", "Ayşe", clock[0])
    assert kid(token) is not None

    def throttled(Name: str, WithDecryption: bool) -> dict[str, Any]:
        from botocore.exceptions import ClientError

        raise ClientError({"Error": {"Code": "ThrottlingException"}}, "GetParameter")

    parameter.get_parameter = throttled  # type: ignore[method-assign]
    clock[0] += 600  # the cache has run out
    app.tokens._verified.clear()  # checked again, not remembered
    assert app.tokens.verify(token).player_id == "p1"
    forged = Tokens(SECRET, keys=lambda fresh: [SigningKey(kid(token) or "", "y" * 40, 0)])
    with pytest.raises(UnauthorizedError):  # the check is real: another key's token is not
        app.tokens.verify(forged.issue("p1", "Ayşe", clock[0]))
