"""A player's own data (RULES §7, KVKK): `GET /players/me/export` — everything stored about
the caller, each item read by its key or its partition, no scan — and `DELETE /players/me`.

The export holds the player item and, beside it: ``profile`` (counters and history,
`harftet.profiles`), ``boards`` (leaderboard entries), ``reportsFiled`` (reports *about* the
caller are an operator's record and stay out, as ``blockedBy`` does), the mail table's
partition of the caller (``inbox``, ``pushSubscriptions``, ``devices``, ``notificationPrefs``,
``notificationsSent``), ``connections`` (open WebSockets: their table, when they opened)
and ``leagues`` (each game's place and the caller's own entry of every division they were
in: the other members' entries are theirs).
Left out, as secrets rather than data about the player: a push subscription's ``p256dh``
and ``auth`` keys, a device's token, the refresh nonces and transfer codes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any

from harftet.errors import UnauthorizedError
from harftet.identity import Caller
from harftet.store.accounts import TRANSFER, plain
from harftet.store.errors import NoAccountError
from harftet.store.history import of_profile
from harftet.store.ports import (
    AccountStorePort,
    ConnectionStorePort,
    InboxStorePort,
    ProfileStorePort,
)

from .service import _jsonable, _listed, b64url

SECRET_FIELDS = {"p256dh", "auth", "token", "endpointArn", "playerId", "sk", "body"}
HIDDEN_ACCOUNT = ("passkeys", "sessions", "acct", "tables", "transferCode", "blockedBy")
MAIL_KINDS = {
    "table#": "inbox",
    "push#": "pushSubscriptions",
    "device#": "devices",
    "prefs": "notificationPrefs",
    "sent#": "notificationsSent",
    "answer#": "moveAnswers",  # a move's first answer, for its retries (24 h)
}
Forget = Callable[[str, dict[str, Any]], object]
DEVICE = "device#"


def _plain(value: Any) -> Any:
    return _jsonable(plain(value))


@dataclass(eq=False)
class PlayerData:
    """Export and deletion of a player's data; ``forget_tables(player_id, account)`` and
    ``forget_friends(player_id, account)`` are the tables' and the friends' own use cases."""

    accounts: AccountStorePort
    profiles: ProfileStorePort
    connections: ConnectionStorePort
    inbox: InboxStorePort | None
    clock: Callable[[], float]
    _: KW_ONLY
    forget_tables: Forget
    forget_friends: Forget
    forget_endpoint: Callable[[str], object] = lambda _arn: None
    forget_counters: Callable[[str, float], object] = lambda _player, _now: None
    hangup: Callable[[str], object] = lambda _connection: None  # closes an open WebSocket
    leagues_of: Callable[[str], list[dict[str, Any]]] = lambda _player: []
    forget_leagues: Callable[[str], object] = lambda _player: None
    tournaments_of: Callable[[str], list[dict[str, Any]]] = lambda _player: []
    forget_tournaments: Callable[[str], object] = lambda _player: None

    def _account(self, caller: Caller) -> dict[str, Any]:
        try:
            return self.accounts.account(caller.player_id)
        except NoAccountError as error:
            raise UnauthorizedError("this player no longer exists") from error

    def export(self, caller: Caller) -> dict[str, Any]:
        """Everything stored about the caller, as JSON."""
        account = self._account(caller)
        sessions = account.get("sessions") or {}
        return {
            "player": {k: _jsonable(v) for k, v in account.items() if k not in HIDDEN_ACCOUNT},
            "passkeys": [
                {**_listed(k, v), "publicKey": b64url(bytes(v["publicKey"]))}
                for k, v in sorted((account.get("passkeys") or {}).items())
            ],
            "sessions": [
                {"id": sid, **{k: _jsonable(v) for k, v in s.items() if k != "nonce"}}
                for sid, s in sorted(sessions.items())
            ],
            "tables": sorted(account.get("tables") or []),
            "transferCode": account.get("transferCode"),
            "current": {"session": caller.session},
            **self._profile(caller.player_id),
            **self._mail(caller.player_id),
            "connections": self._connections(caller.player_id),
            "leagues": _plain(self.leagues_of(caller.player_id)),
            "tournaments": _plain(self.tournaments_of(caller.player_id)),
        }

    def _profile(self, player_id: str) -> dict[str, Any]:
        profile = self.profiles.profile(player_id, consistent=True) or {}
        return {
            "profile": {
                "counters": {
                    k: _plain(v) for k, v in profile.items() if k not in ("playerId", "h")
                },
                "history": [
                    {"at": e.at, "delta": e.delta, "game": e.game, "tableId": e.table_id or None}
                    | ({"won": e.won} if e.is_game else {})
                    for e in of_profile(profile)
                ],
            },
            "boards": [
                {k: _plain(item[k]) for k in ("game", "period", "score", "name") if k in item}
                for item in self.profiles.entries_of(player_id, self.clock())
            ],
            "reportsFiled": _plain(self.profiles.filed(player_id)),
        }

    def _mail(self, player_id: str) -> dict[str, Any]:
        found: dict[str, Any] = {kind: [] for kind in MAIL_KINDS.values()}
        if self.inbox is None:
            return found
        for item in self.inbox.everything_of(player_id):
            sk = str(item.get("sk", ""))
            kind = next((k for p, k in MAIL_KINDS.items() if sk.startswith(p)), "other")
            entry = {k: _plain(v) for k, v in item.items() if k not in SECRET_FIELDS}
            entry["key"] = sk
            found.setdefault(kind, []).append(entry)
        return found

    def _connections(self, player_id: str) -> list[dict[str, Any]]:
        shown = []
        for listed in self.connections.for_player(player_id):  # the index holds the keys only
            c = self.connections.get(str(listed["connectionId"])) or listed
            shown.append(
                {"tableId": c.get("tableId") or None, "connectedAt": _plain(c.get("connectedAt"))}
            )
        return shown

    def delete(self, caller: Caller) -> None:
        """Delete the caller (API.md v4 "Deleted players"): out of every friend list, leave
        running tables (RULES §4) and leave an anonymous seat at every table sat at, leave
        every league division, then remove the player's league places, profile, boards, the
        reports they filed, codes and the player item (name, rating, passkeys, sessions: every
        token answers 401 from here on), and last what a request still in flight could have
        added meanwhile: their mail partition (inbox, Web Push subscriptions, devices and
        their SNS endpoints, preferences, sent marks), their connections (each item removed,
        then its socket closed: no push reaches it after, and a late $disconnect finds
        nothing) and presence."""
        player_id = caller.player_id
        account = self._account(caller)
        self.forget_friends(player_id, account)
        self.forget_tables(player_id, account)
        self.forget_leagues(player_id)  # out of every division she was in, her places gone
        self.forget_tournaments(player_id)  # her entries, her list and her badges
        self.profiles.forget(player_id, self.clock())
        code = account.get("transferCode")
        if code:
            self.accounts.drop(TRANSFER + str(code))
        self.accounts.delete(player_id)
        if self.inbox is not None:
            for item in self.inbox.forget(player_id):
                if str(item.get("sk", "")).startswith(DEVICE) and item.get("endpointArn"):
                    self.forget_endpoint(str(item["endpointArn"]))
        for listed in self.connections.for_player(player_id):
            connection_id = str(listed["connectionId"])
            self.connections.remove(connection_id)
            self.hangup(connection_id)
        self.connections.forget_presence(player_id)
        self.forget_counters(player_id, self.clock())
