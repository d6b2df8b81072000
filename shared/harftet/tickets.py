"""Short-lived WebSocket connect tickets: ``POST /tables/{tableId}/ticket`` gives one, and
``$connect?ticket=T&tableId=ID`` takes it, so the 30-day bearer token need not travel in a
query string (and so in access logs).

A ticket is an HS256 JWT like the bearer tokens, signed with a key derived from the same
secret (``Tokens.mac``), with ``aud`` "ws-ticket", the table id and a 60 s expiry. A bearer
token is never a ticket (other key), and a ticket is never a bearer token (its ``aud`` is
refused where no audience is expected). It is not single-use: within its minute it opens
connections to its one table only, under the usual caps (4 per player, 200 per table).
"""

from __future__ import annotations

import time
from typing import Any

import jwt

from harftet.errors import UnauthorizedError
from harftet.identity import ISSUER, Caller, Tokens

TICKET_SECONDS = 60
AUDIENCE = "ws-ticket"


def _key(tokens: Tokens) -> bytes:
    return tokens.mac(b"ws-ticket-key")


def issue_ticket(tokens: Tokens, caller: Caller, table_id: str) -> dict[str, Any]:
    """``{"ticket", "expiresAt"}`` for ``caller`` to connect to ``table_id``."""
    now = int(time.time())  # wall-clock time, like its verification
    claims = {
        "sub": caller.player_id,
        "name": caller.name,
        "tbl": table_id,
        "iss": ISSUER,
        "aud": AUDIENCE,
        "iat": now,
        "exp": now + TICKET_SECONDS,
    }
    return {"ticket": jwt.encode(claims, _key(tokens), algorithm="HS256"), "expiresAt": now + 60}


def verify_ticket(tokens: Tokens, ticket: str, table_id: str) -> Caller:
    """The caller of a valid ticket for ``table_id``; UnauthorizedError otherwise."""
    try:
        claims = jwt.decode(
            ticket,
            _key(tokens),
            algorithms=["HS256"],
            issuer=ISSUER,
            audience=AUDIENCE,
            options={"require": ["sub", "exp", "iat", "aud", "tbl"]},
        )
    except jwt.ExpiredSignatureError as error:
        raise UnauthorizedError("the ticket has expired: ask for a new one") from error
    except jwt.InvalidTokenError as error:
        raise UnauthorizedError("the ticket is not valid") from error
    if claims["tbl"] != table_id:
        raise UnauthorizedError("the ticket is for another table")
    return Caller(player_id=str(claims["sub"]), name=str(claims.get("name", "")))
