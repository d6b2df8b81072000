"""Signed, expiring bearer tokens: the token alone says who is calling."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

import jwt

from harftet.errors import UnauthorizedError

TOKEN_DAYS = 30  # a guest's token (POST /players), as before sessions existed
ACCESS_SECONDS = 15 * 60  # a session's access token: revocation waits at most this long
VERIFIED_KEPT = 4096  # verified tokens remembered per process (the signature check is costly)
ISSUER = "harftet"
ROTATION_DAYS = TOKEN_DAYS  # how often a new key starts signing (TokenKeyRotationRate)
TOKEN_LIFE = TOKEN_DAYS * 86400  # the longest any token lives: a key verifies that long after
LEAD_MARGIN = 60.0  # clocks and the parameter's write, on top of the ring's cache (sign_lead)


@dataclass(frozen=True, slots=True)
class Caller:
    player_id: str
    name: str
    session: str | None = None  # the sign-in session of an access token; None for a guest's


@dataclass(frozen=True, slots=True)
class SigningKey:
    kid: str
    secret: str
    created: int


def parse_keys(text: str | None) -> list[SigningKey]:
    """The key ring stored as JSON (``{"keys": [{"kid", "secret", "created"}]}``, newest
    first); [] for none."""
    if not text:
        return []
    return [
        SigningKey(str(k["kid"]), str(k["secret"]), int(k["created"]))
        for k in json.loads(text)["keys"]
    ]


def sign_lead(keep: float) -> float:
    """How long after it is written a new key starts signing, for processes that keep the
    ring ``keep`` seconds: by then every process's ring, read at most ``keep`` before, holds
    it, so no process meets a token signed by a key it has not read yet."""
    return keep + min(keep, LEAD_MARGIN)


def rotated(
    text: str | None,
    now: float,
    secret: str | None = None,
    *,
    lead: float = 0.0,
    life: float = TOKEN_LIFE,
    retire: str | None = None,
) -> str:
    """The key ring after one rotation: a new key (signing from ``lead`` on, `sign_lead`),
    and every older key that still has live tokens: a key stops signing when its successor
    starts (``successor.created + lead``; a process whose ring is older signs with it until
    its cache ends, sooner), so it verifies until ``life`` (the longest token's) after that;
    then it retires. ``retire`` drops one key at once (a leaked one: its tokens go with it)."""
    new = SigningKey(f"k{int(now)}", secret or secrets.token_urlsafe(48), int(now))
    ring, successor = [new], new
    for key in parse_keys(text):
        if now >= successor.created + lead + life:
            break  # retired: every token it signed has expired (and every older key's)
        if key.kid != retire:
            ring.append(key)
        successor = key
    return json.dumps(
        {"keys": [{"kid": k.kid, "secret": k.secret, "created": k.created} for k in ring]}
    )


class Tokens:
    """Issues and verifies HS256 JWTs: with the key ring ``keys`` gives (newest first), the
    newest key written at least ``lead`` ago signs (its id in the header's ``kid``; `sign_lead`)
    and every key of the ring verifies; without one (or for a token without ``kid``, issued
    before the ring) the one ``secret`` does.
    ``secret`` also keys the MACs (refresh tokens, cursors: they outlive any rotation).
    ``keys(fresh)`` is asked again, fresh, when a token names a key this process has not
    seen (another container rotated first)."""

    def __init__(
        self,
        secret: str,
        lifetime: int = TOKEN_DAYS * 86400,
        keys: Callable[[bool], list[SigningKey]] | None = None,
        lead: float = 0.0,
    ) -> None:
        if len(secret) < 32:
            raise ValueError("the token signing secret must have at least 32 characters")
        self._secret = secret
        self._lifetime = lifetime
        self._keys = keys
        self._lead = lead
        # token → (caller, expiry, the id of its key): a retired key's tokens are not kept
        self._verified: dict[str, tuple[Caller, float, str | None]] = {}

    def _ring(self, fresh: bool = False) -> list[SigningKey]:
        return self._keys(fresh) if self._keys is not None else []

    def _verifying_secret(self, token: str) -> str:
        """The secret that checks ``token``: its ``kid``'s, or the one secret without one."""
        if self._keys is None:  # no ring: one secret (the header is not read twice)
            return self._secret
        try:
            kid = jwt.get_unverified_header(token).get("kid")
        except jwt.InvalidTokenError as error:
            raise UnauthorizedError("the token is not valid") from error
        if kid is None:
            return self._secret
        for fresh in (False, True):
            for key in self._ring(fresh):
                if key.kid == kid:
                    return key.secret
        raise UnauthorizedError("the token is not valid")

    def mac(self, data: bytes) -> bytes:
        """An HMAC of ``data`` under the signing secret (e.g. for tamper-safe lobby cursors)."""
        return hmac.new(self._secret.encode(), b"harftet-mac\0" + data, hashlib.sha256).digest()

    def issue(
        self,
        player_id: str,
        name: str,
        now: float | None = None,
        *,
        session: str | None = None,
        lifetime: int | None = None,
    ) -> str:
        """A token for this player: a guest's (no ``session``), or a sign-in session's
        short-lived access token (``session`` and ``lifetime``, see harftet.accounts)."""
        issued = int(time.time() if now is None else now)
        claims: dict[str, object] = {"sub": player_id, "name": name, "iss": ISSUER, "iat": issued}
        claims["exp"] = issued + (self._lifetime if lifetime is None else lifetime)
        if session is not None:
            claims["sid"] = session
        key = next((k for k in self._ring() if k.created + self._lead <= issued), None)
        if key is not None:
            return jwt.encode(claims, key.secret, algorithm="HS256", headers={"kid": key.kid})
        return jwt.encode(claims, self._secret, algorithm="HS256")  # no key signs yet

    def verify(self, token: str | None) -> Caller:
        """The caller the token names; UnauthorizedError if it is missing, forged or expired."""
        if not token:
            raise UnauthorizedError("missing bearer token: send Authorization: Bearer <token>")
        known = self._verified.get(token)
        if known is not None and known[1] > time.time() and self._still_verifies(known[2]):
            return known[0]
        try:
            claims = jwt.decode(
                token,
                self._verifying_secret(token),
                algorithms=["HS256"],
                issuer=ISSUER,
                options={"require": ["sub", "exp", "iat"]},
            )
        except jwt.ExpiredSignatureError as error:
            raise UnauthorizedError("the token has expired: create a new player") from error
        except jwt.InvalidTokenError as error:
            raise UnauthorizedError("the token is not valid") from error
        sid = claims.get("sid")
        caller = Caller(
            player_id=str(claims["sub"]),
            name=str(claims.get("name", "")),
            session=str(sid) if sid is not None else None,
        )
        if len(self._verified) >= VERIFIED_KEPT:
            self._verified.clear()
        kid = jwt.get_unverified_header(token).get("kid") if self._keys is not None else None
        self._verified[token] = (caller, float(claims["exp"]), kid)
        return caller

    def _still_verifies(self, kid: str | None) -> bool:
        """Whether the key ``kid`` is still in the ring this process holds (a token verified
        before its key retired is checked again, and refused)."""
        return kid is None or any(key.kid == kid for key in self._ring())


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
