"""Accounts: passkeys make a guest an account, transfer codes move it to a device without the
passkey, sign-in sessions give short-lived access tokens and a rotating refresh token, and a
player may export or delete everything stored about them (RULES §7, API.md v3 "Identity").

Tokens. A guest's token (``POST /players``) is as before: 30 days, no session. A sign-in
(passkey or transfer code) opens a *session* on the player item and answers an access token
(the same HS256 JWT, with the session id ``sid``, valid `ACCESS_SECONDS`) and a refresh token
``v1.<player>.<session>.<generation>.<mac>``: the MAC (``Tokens.mac``, keyed by the server's
secret) over those and a per-session nonce, so nothing secret is stored. ``POST
/sessions/refresh`` takes the current generation and answers the next (the old one stops
working); an older generation is reuse — somebody copied it — and ends the session. Within
`RETRY_GRACE` seconds of a rotation the previous generation gets the same answer again, so a
client whose answer was lost keeps its session. Checking an access token reads nothing
(stateless, as cheap as a guest's token): ending a session stops its refreshes at once and
its access token within `ACCESS_SECONDS`.
"""

from __future__ import annotations

import base64
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harftet.bounds import CODE_ALPHABET, CODE_LENGTH, PASSKEYS_MAX
from harftet.errors import BadRequestError, NotFoundError, UnauthorizedError
from harftet.identity import ACCESS_SECONDS, Caller, Tokens
from harftet.limits import Budget, Limits
from harftet.store.accounts import CHALLENGE, TRANSFER
from harftet.store.errors import NoAccountError
from harftet.store.ports import AccountStorePort

if TYPE_CHECKING:
    from harftet.accounts.passkeys import PasskeyConfig

CHALLENGE_SECONDS = 300  # a WebAuthn challenge: single use, this long
TRANSFER_SECONDS = 600  # a transfer code: single use, 10 minutes
MAX_PASSKEYS = PASSKEYS_MAX
MAX_SESSIONS = 20  # per player: the oldest is ended to open another
RETRY_GRACE = 20  # seconds a rotated refresh token still gets the same answer (lost replies)
# Always on (unlike the operator's per-player budgets): a code must not be guessable.
ACCOUNT_BUDGETS = {
    "transferCode": Budget(5, 600),  # codes a player may ask for
    "transferTry": Budget(10, 600),  # codes a source address may try
    "signInOptions": Budget(30, 60),  # passkey challenges a source address may ask for
}


class UnavailableError(NotFoundError):
    """Passkeys are not configured on this stack (no relying party)."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(eq=False)
class Accounts:
    """Sessions, passkeys and transfer codes over the players table's account items."""

    store: AccountStorePort
    tokens: Tokens
    limits: Limits
    passkeys: PasskeyConfig | None
    clock: Callable[[], float] = time.time

    def now(self) -> float:
        return self.clock()

    # -- helpers ---------------------------------------------------------------------
    def _account(self, caller: Caller) -> dict[str, Any]:
        try:
            return self.store.account(caller.player_id)
        except NoAccountError as error:
            raise UnauthorizedError("this player no longer exists") from error

    def _config(self) -> PasskeyConfig:
        if self.passkeys is None:
            raise UnavailableError(
                "passkeys are not configured on this server (PASSKEY_RP_ID, PASSKEY_ORIGINS)"
            )
        return self.passkeys

    def _update(self, player_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
        """Read the account, let ``change`` return the attributes to write (or raise), write
        them if nobody changed the account meanwhile; retried from a fresh read."""
        try:
            return self.store.change(player_id, change)
        except NoAccountError as error:
            raise UnauthorizedError("this player no longer exists") from error

    def _challenge(self, kind: str, player_id: str | None) -> tuple[str, bytes]:
        challenge = secrets.token_bytes(32)
        while True:
            challenge_id = secrets.token_urlsafe(18)
            values: dict[str, Any] = {"kind": kind, "challenge": challenge}
            if player_id is not None:
                values["owner"] = player_id
            expires = int(self.now()) + CHALLENGE_SECONDS
            if self.store.put_once(CHALLENGE + challenge_id, values, expires):
                return challenge_id, challenge

    def _take_challenge(self, challenge_id: str, kind: str, player_id: str | None) -> bytes:
        refused = UnauthorizedError(
            "this challenge is unknown, used or expired: ask for new options"
        )
        if not 0 < len(challenge_id) <= 64:
            raise refused
        item = self.store.take(CHALLENGE + challenge_id, self.now())
        if item is None or item.get("kind") != kind or item.get("owner") != player_id:
            raise refused
        return bytes(item["challenge"])

    # -- sessions and tokens ---------------------------------------------------------
    def _refresh_token(self, player_id: str, sid: str, gen: int, nonce: str) -> str:
        data = f"refresh|{player_id}|{sid}|{gen}|{nonce}".encode()
        return f"v1.{player_id}.{sid}.{gen}.{b64url(self.tokens.mac(data)[:24])}"

    def _signed_in(self, account: dict[str, Any], sid: str, session: dict[str, Any]) -> dict:
        player_id, name = str(account["playerId"]), str(account["name"])
        return {
            "playerId": player_id,
            "name": name,
            "token": self.tokens.issue(player_id, name, session=sid, lifetime=ACCESS_SECONDS),
            "refreshToken": self._refresh_token(
                player_id, sid, int(session["gen"]), str(session["nonce"])
            ),
            "rating": int(account.get("rating", 0)),
            "expiresIn": ACCESS_SECONDS,
        }

    def _open(
        self, sessions: dict[str, Any], via: str, passkey: str | None
    ) -> tuple[str, dict[str, Any], dict[str, Any]]:
        """A new session in ``sessions`` (a copy; the oldest ended beyond MAX_SESSIONS)."""
        now = int(self.now())
        sid = secrets.token_hex(6)  # per player; short, so the access token stays small
        session: dict[str, Any] = {
            "gen": 0,
            "nonce": secrets.token_urlsafe(12),
            "createdAt": now,
            "rotatedAt": now,
            "via": via,
        }
        if passkey is not None:
            session["passkey"] = passkey
        kept = dict(sessions)
        while len(kept) >= MAX_SESSIONS:
            del kept[min(kept, key=lambda k: int(kept[k].get("createdAt", 0)))]
        kept[sid] = session
        return sid, session, kept

    def refresh(self, refresh_token: str) -> dict[str, Any]:
        """The next access and refresh token of a session (the old refresh token stops
        working); reuse of an older one ends the session."""
        refused = UnauthorizedError("this refresh token is not valid: sign in again")
        parts = refresh_token.split(".")
        if len(parts) != 5 or parts[0] != "v1" or not parts[3].isdigit() or len(parts[3]) > 9:
            raise refused
        _, player_id, sid, gen_text, _mac = parts
        gen = int(gen_text)
        outcome: dict[str, Any] = {}

        def change(account: dict[str, Any]) -> dict[str, Any]:
            sessions = dict(account.get("sessions") or {})
            session = sessions.get(sid)
            if session is None:
                raise UnauthorizedError("this session has ended: sign in again")
            expected = self._refresh_token(player_id, sid, gen, str(session["nonce"]))
            if not hmac.compare_digest(expected.encode(), refresh_token.encode()):
                raise refused
            now = int(self.now())
            current = int(session["gen"])
            if gen == current:
                session = {**session, "gen": current + 1, "rotatedAt": now}
                sessions[sid] = session
                outcome.update(session=session, ended=False)
                return {"sessions": sessions}
            if gen == current - 1 and now - int(session["rotatedAt"]) <= RETRY_GRACE:
                outcome.update(session=session, ended=False, unchanged=True)
                return {}
            del sessions[sid]  # an old generation again: a copy is in use; end it
            outcome.update(ended=True)
            return {"sessions": sessions}

        if not 0 < len(player_id) <= 64 or "#" in player_id:
            raise refused
        account = self._update_or_answer(player_id, change, outcome)
        if outcome.get("ended"):
            raise UnauthorizedError(
                "this refresh token was already used: the session has ended, sign in again"
            )
        return self._signed_in(account, sid, outcome["session"])

    def _update_or_answer(
        self,
        player_id: str,
        change: Callable[[dict[str, Any]], dict[str, Any]],
        outcome: dict[str, Any],
    ) -> dict[str, Any]:
        """`_update`, for a session: a player that is gone has no session left."""
        try:
            return self.store.change(player_id, change)
        except NoAccountError as error:
            raise UnauthorizedError("this session has ended: sign in again") from error

    def sign_out(self, caller: Caller) -> None:
        """End the caller's session (a guest's token has none: nothing to end)."""
        sid = caller.session
        if sid is None:
            return

        def change(account: dict[str, Any]) -> dict[str, Any]:
            sessions = dict(account.get("sessions") or {})
            if sessions.pop(sid, None) is None:
                return {}
            return {"sessions": sessions}

        try:
            self._update_or_answer(caller.player_id, change, {})
        except UnauthorizedError:
            return  # the player is gone: so is the session

    # -- passkeys --------------------------------------------------------------------
    def registration_options(self, caller: Caller) -> dict[str, Any]:
        from harftet.accounts import passkeys

        config = self._config()
        account = self._account(caller)
        existing = [_unb64url(k) for k in (account.get("passkeys") or {})]
        if len(existing) >= MAX_PASSKEYS:
            raise BadRequestError(f"a player may have at most {MAX_PASSKEYS} passkeys")
        challenge_id, challenge = self._challenge("register", caller.player_id)
        options = passkeys.registration_options(
            config, challenge, caller.player_id, str(account["name"]), existing
        )
        return {"challengeId": challenge_id, "publicKey": options}

    def register(
        self, caller: Caller, challenge_id: str, credential: dict[str, Any]
    ) -> dict[str, Any]:
        """Add the passkey of a registration response; answers the passkey as listed."""
        from harftet.accounts import passkeys

        config = self._config()
        challenge = self._take_challenge(challenge_id, "register", caller.player_id)
        verified = passkeys.verify_registration(config, credential, challenge)
        key = b64url(verified["id"])
        now = int(self.now())
        entry = {
            "publicKey": verified["publicKey"],
            "signCount": int(verified["signCount"]),
            "backedUp": bool(verified["backedUp"]),
            "createdAt": now,
        }

        def change(account: dict[str, Any]) -> dict[str, Any]:
            stored = dict(account.get("passkeys") or {})
            if key in stored:
                raise UnauthorizedError("this passkey is already registered")
            if len(stored) >= MAX_PASSKEYS:
                raise BadRequestError(f"a player may have at most {MAX_PASSKEYS} passkeys")
            stored[key] = entry
            return {"passkeys": stored}

        self._update(caller.player_id, change)
        return _listed(key, entry)

    def list_passkeys(self, caller: Caller) -> dict[str, Any]:
        stored = self._account(caller).get("passkeys") or {}
        return {"passkeys": [_listed(k, v) for k, v in sorted(stored.items())]}

    def remove_passkey(self, caller: Caller, passkey_id: str) -> None:
        """Remove a passkey and end every session it opened."""

        def change(account: dict[str, Any]) -> dict[str, Any]:
            stored = dict(account.get("passkeys") or {})
            if stored.pop(passkey_id, None) is None:
                raise NotFoundError("you have no such passkey")
            sessions = {
                sid: s
                for sid, s in (account.get("sessions") or {}).items()
                if s.get("passkey") != passkey_id
            }
            return {"passkeys": stored, "sessions": sessions}

        self._update(caller.player_id, change)

    def sign_in_options(self, source: str = "unknown") -> dict[str, Any]:
        """A sign-in challenge (anyone may ask: each is a write, so per source address)."""
        from harftet.accounts import passkeys

        config = self._config()
        self.limits.check("signInOptions", source, self.now())
        challenge_id, challenge = self._challenge("signin", None)
        return {
            "challengeId": challenge_id,
            "publicKey": passkeys.authentication_options(config, challenge),
        }

    def passkey_sign_in(self, challenge_id: str, credential: dict[str, Any]) -> dict[str, Any]:
        """A session for the player whose passkey signed the challenge."""
        from harftet.accounts import passkeys

        config = self._config()
        challenge = self._take_challenge(challenge_id, "signin", None)
        raw_id, player_id = passkeys.claimed(credential)
        key = b64url(raw_id)
        unknown = UnauthorizedError("this passkey is not registered here")
        if not 0 < len(player_id) <= 64 or "#" in player_id:
            raise unknown
        verified: dict[str, int] = {}
        opened: dict[str, Any] = {}

        def change(account: dict[str, Any]) -> dict[str, Any]:
            stored = dict(account.get("passkeys") or {})
            entry = stored.get(key)
            if entry is None:
                raise unknown
            count = int(entry.get("signCount", 0))
            if "count" not in verified:
                verified["count"] = passkeys.verify_authentication(
                    config, credential, challenge, bytes(entry["publicKey"]), count
                )
            new_count = verified["count"]
            if (new_count or count) and new_count <= count:  # raced by another sign-in
                raise UnauthorizedError("the passkey's sign counter went back: refused")
            stored[key] = {**entry, "signCount": new_count, "lastUsedAt": int(self.now())}
            sid, session, sessions = self._open(
                account.get("sessions") or {}, "passkey", passkey=key
            )
            opened.update(sid=sid, session=session)
            return {"passkeys": stored, "sessions": sessions}

        try:
            account = self._update(player_id, change)
        except UnauthorizedError as error:
            if str(error) == "this player no longer exists":
                raise unknown from error
            raise
        return self._signed_in(account, opened["sid"], opened["session"])

    # -- transfer codes --------------------------------------------------------------
    def transfer_code(self, caller: Caller) -> dict[str, Any]:
        """A new single-use code (the caller's previous one stops working)."""
        self.limits.check("transferCode", caller.player_id, self.now())
        account = self._account(caller)
        expires = int(self.now()) + TRANSFER_SECONDS
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.store.put_once(TRANSFER + code, {"owner": caller.player_id}, expires):
                break
        old = account.get("transferCode")

        def change(account: dict[str, Any]) -> dict[str, Any]:
            return {"transferCode": code}

        self._update(caller.player_id, change)
        if old and old != code:
            self.store.drop(TRANSFER + str(old))
        return {"code": code, "expiresAt": expires}

    def transfer_sign_in(self, code: str, source: str) -> dict[str, Any]:
        """A session for the player who asked for ``code`` (then the code is used up)."""
        self.limits.check("transferTry", source, self.now())
        typed = "".join(code.split()).replace("-", "").upper()
        refused = UnauthorizedError("this code is unknown, used or expired")
        if len(typed) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in typed):
            raise refused
        item = self.store.take(TRANSFER + typed, self.now())
        if item is None:
            raise refused
        opened: dict[str, Any] = {}

        def change(account: dict[str, Any]) -> dict[str, Any]:
            sid, session, sessions = self._open(account.get("sessions") or {}, "transfer", None)
            opened.update(sid=sid, session=session)
            values: dict[str, Any] = {"sessions": sessions}
            if account.get("transferCode") == typed:
                values["transferCode"] = None
            return values

        try:
            account = self._update(str(item["owner"]), change)
        except UnauthorizedError as error:
            raise refused from error
        return self._signed_in(account, opened["sid"], opened["session"])

    # -- one's own data --------------------------------------------------------------
    def remember_table(self, player_id: str, table_id: str) -> None:
        """Note that the player sat at ``table_id`` (the tables' seat hook): a deletion finds
        every table to leave an anonymous seat at."""
        self.store.remember_table(player_id, table_id)


def _listed(key: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": key,
        "createdAt": int(entry.get("createdAt", 0)),
        "lastUsedAt": entry.get("lastUsedAt"),
        "backedUp": bool(entry.get("backedUp", False)),
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, bytes):
        return b64url(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value
