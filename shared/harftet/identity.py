"""Signed, expiring bearer tokens: the token alone says who is calling."""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass

import jwt

from harftet.errors import UnauthorizedError

TOKEN_DAYS = 30  # a guest's token (POST /players), as before sessions existed
ACCESS_SECONDS = 15 * 60  # a session's access token: revocation waits at most this long
VERIFIED_KEPT = 4096  # verified tokens remembered per process (the signature check is costly)
ISSUER = "harftet"


@dataclass(frozen=True, slots=True)
class Caller:
    player_id: str
    name: str
    session: str | None = None  # the sign-in session of an access token; None for a guest's


class Tokens:
    """Issues and verifies HS256 JWTs with one secret."""

    def __init__(self, secret: str, lifetime: int = TOKEN_DAYS * 86400) -> None:
        if len(secret) < 32:
            raise ValueError("the token signing secret must have at least 32 characters")
        self._secret = secret
        self._lifetime = lifetime
        self._verified: dict[str, tuple[Caller, float]] = {}

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
        return jwt.encode(claims, self._secret, algorithm="HS256")

    def verify(self, token: str | None) -> Caller:
        """The caller the token names; UnauthorizedError if it is missing, forged or expired."""
        if not token:
            raise UnauthorizedError("missing bearer token: send Authorization: Bearer <token>")
        known = self._verified.get(token)
        if known is not None and known[1] > time.time():
            return known[0]
        try:
            claims = jwt.decode(
                token,
                self._secret,
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
        self._verified[token] = (caller, float(claims["exp"]))
        return caller


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
