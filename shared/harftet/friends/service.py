"""Friends, blocks and invitations (RULES §7, API.md v3 "People").

Each player item holds ``friendCode`` and four maps keyed by the other player's id:
``friends`` and ``incoming`` / ``outgoing`` requests (each with the other's name as it was),
``blocks`` (whom this player blocked) and ``blockedBy`` (who blocked this player: so a phrase
or an invitation is held back with one read of the sender). ``friendcode#<CODE>`` items find
a player by code. A request changes both players' items, one after the other, each behind the
account counter (harftet.store.accounts). A blocked player learns nothing: their request to
the blocker answers as if the code were unknown, their invitations and phrases reach nobody.
Presence (online, at a table of which game, away) is shown to friends only: in one's friends
list, and pushed live as it changes (harftet.presence); two players who become
friends are each told the other's at once.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from harftet.bounds import CODE_ALPHABET, CODE_LENGTH, FRIENDS_MAX
from harftet.errors import BadRequestError, NotFoundError, UnauthorizedError
from harftet.identity import Caller
from harftet.push import Sender
from harftet.store.accounts import FRIEND_CODE
from harftet.store.errors import NoAccountError
from harftet.store.ports import AccountStorePort, ConnectionStorePort, TableStorePort
from harftet.store.table_items import StoredTable

MAX_FRIENDS = FRIENDS_MAX
PRESENCE_SHOWN = 50  # friends whose presence a list shows (one index query each)
MAPS = ("friends", "incoming", "outgoing", "blocks", "blockedBy")


def _maps(account: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m: dict(account.get(m) or {}) for m in MAPS}


def _entries(found: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"playerId": k, "name": v.get("name", "")} for k, v in sorted(found.items())]


class PresencePort(Protocol):
    """What friends see of each other's presence (harftet.presence)."""

    def of(self, player_id: str) -> dict[str, Any]: ...

    def of_many(self, player_ids: list[str]) -> dict[str, dict[str, Any]]: ...

    def tell_friends(
        self, player_id: str, presence: dict[str, Any], only: set[str] | None = None
    ) -> int: ...


InvitationNote = Callable[[str, StoredTable, str | None], object]


@dataclass(eq=False)
class Friends:
    """Friends, blocks and invitations over the players table's account items;
    ``notify_invitation``: how a friend with no open socket hears of one (notify)."""

    store: AccountStorePort
    tables: TableStorePort
    connections: ConnectionStorePort
    presences: PresencePort
    send: Sender | None
    clock: Callable[[], float]
    notify_invitation: InvitationNote | None = None

    def _account(self, caller: Caller) -> dict[str, Any]:
        try:
            return self.store.account(caller.player_id)
        except NoAccountError as error:
            raise UnauthorizedError("this player no longer exists") from error

    def _update(self, player_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
        try:
            return self.store.change(player_id, change)
        except NoAccountError as error:
            raise UnauthorizedError("this player no longer exists") from error

    def _code(self, caller: Caller) -> str:
        account = self._account(caller)
        if account.get("friendCode"):
            return str(account["friendCode"])
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.store.put_once(FRIEND_CODE + code, {"owner": caller.player_id}, 2**40):
                break
        self._update(caller.player_id, lambda a: {"friendCode": code})
        return code

    def presence(self, player_id: str) -> dict[str, Any]:
        """``{"status": "online"|"table"|"away", "game"?}`` — for friends' eyes only: a
        table's game, never its id (a private table's id is its invitation)."""
        return self.presences.of(player_id)

    def friends(self, caller: Caller) -> dict[str, Any]:
        code = self._code(caller)
        maps = _maps(self._account(caller))
        listed = _entries(maps["friends"])
        shown = listed[:PRESENCE_SHOWN]
        found = self.presences.of_many([e["playerId"] for e in shown])
        for entry in shown:
            entry["presence"] = found[entry["playerId"]]
        return {
            "code": code,
            "friends": listed,
            "incoming": _entries(maps["incoming"]),
            "outgoing": _entries(maps["outgoing"]),
            "blocked": _entries(maps["blocks"]),  # whom the caller blocked (never blockedBy)
        }

    def _introduce(self, me: str, other: str) -> None:
        """New friends: each one's open connections are told the other's presence."""
        for one, two in ((me, other), (other, me)):
            with contextlib.suppress(Exception):  # a push lost: the list shows it on reading
                self.presences.tell_friends(one, self.presences.of(one), only={two})

    def _both(self, me: str, other: str, mine: Any, theirs: Any) -> None:
        """Change my maps, then theirs (``mine``/``theirs``: maps → maps to write)."""
        self._update(me, lambda a: mine(_maps(a)))
        with contextlib.suppress(UnauthorizedError):  # they are gone: nothing of theirs
            self._update(other, lambda a: theirs(_maps(a)))

    def request(self, caller: Caller, code: str) -> dict[str, Any]:
        """Ask the player of ``code`` to be friends (accepted at once if they asked first)."""
        unknown = NotFoundError("no player has this friend code")
        typed = "".join(code.split()).replace("-", "").upper()
        if not 0 < len(typed) <= 16:
            raise unknown
        item = self.store.get_secret(FRIEND_CODE + typed)
        if item is None or item["owner"] == caller.player_id:
            raise unknown
        other = str(item["owner"])
        me = self._account(caller)
        if other in (me.get("blockedBy") or {}) or other in (me.get("blocks") or {}):
            raise unknown  # a block: the sender learns nothing
        try:
            them = self.store.account(other)
        except NotFoundError as error:
            raise unknown from error
        my_name, their_name = str(me["name"]), str(them["name"])
        mutual = caller.player_id in (them.get("outgoing") or {})

        def mine(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
            if mutual or other in m["incoming"]:
                m["incoming"].pop(other, None)
                m["friends"][other] = {"name": their_name}
            elif other not in m["friends"]:
                m["outgoing"][other] = {"name": their_name}
            return {k: m[k] for k in ("friends", "incoming", "outgoing")}

        def theirs(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
            if mutual:
                m["outgoing"].pop(caller.player_id, None)
                m["friends"][caller.player_id] = {"name": my_name}
            elif caller.player_id not in m["friends"]:
                m["incoming"][caller.player_id] = {"name": my_name}
            return {k: m[k] for k in ("friends", "incoming", "outgoing")}

        self._both(caller.player_id, other, mine, theirs)
        if mutual or other in (me.get("incoming") or {}):
            self._introduce(caller.player_id, other)
        return self.friends(caller)

    def accept(self, caller: Caller, other: str) -> dict[str, Any]:
        me = self._account(caller)
        if other not in (me.get("incoming") or {}):
            raise NotFoundError("no friend request from this player")
        name = str((me.get("incoming") or {})[other].get("name", ""))
        my_name = str(me["name"])

        def mine(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
            if m["incoming"].pop(other, None) is None:
                raise NotFoundError("no friend request from this player")
            m["friends"][other] = {"name": name}
            return {"incoming": m["incoming"], "friends": m["friends"]}

        def theirs(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
            m["outgoing"].pop(caller.player_id, None)
            m["friends"][caller.player_id] = {"name": my_name}
            return {"outgoing": m["outgoing"], "friends": m["friends"]}

        self._both(caller.player_id, other, mine, theirs)
        self._introduce(caller.player_id, other)
        return self.friends(caller)

    def remove(self, caller: Caller, other: str) -> None:
        """Remove a friend, refuse a request or take one's own back."""
        me = _maps(self._account(caller))
        if not any(other in me[k] for k in ("friends", "incoming", "outgoing")):
            raise NotFoundError("this player is not among your friends or requests")
        self._forget(caller.player_id, other)

    def _forget(self, me: str, other: str) -> None:
        def drop(who: str) -> Any:
            def change(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
                for k in ("friends", "incoming", "outgoing"):
                    m[k].pop(who, None)
                return {k: m[k] for k in ("friends", "incoming", "outgoing")}

            return change

        self._both(me, other, drop(other), drop(me))

    def block(self, caller: Caller, other: str) -> None:
        if other == caller.player_id:
            raise BadRequestError("you cannot block yourself")
        try:
            name = str(self.store.account(other).get("name", ""))
        except NotFoundError as error:
            raise NotFoundError(f"no player {other[:64]}") from error
        self._forget(caller.player_id, other)
        at = int(self.clock())

        def mine(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
            m["blocks"][other] = {"at": at, "name": name}  # named in the caller's list
            return {"blocks": m["blocks"]}

        def theirs(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
            m["blockedBy"][caller.player_id] = {"at": at}
            return {"blockedBy": m["blockedBy"]}

        self._both(caller.player_id, other, mine, theirs)

    def unblock(self, caller: Caller, other: str) -> None:
        me = _maps(self._account(caller))
        if other not in me["blocks"]:
            raise NotFoundError("you have not blocked this player")

        def mine(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
            m["blocks"].pop(other, None)
            return {"blocks": m["blocks"]}

        def theirs(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
            m["blockedBy"].pop(caller.player_id, None)
            return {"blockedBy": m["blockedBy"]}

        self._both(caller.player_id, other, mine, theirs)

    def blocked_by(self, player_id: str) -> set[str]:
        """Who blocked ``player_id`` (their phrases and invitations reach none of these)."""
        try:
            return set(self.store.account(player_id).get("blockedBy") or {})
        except NotFoundError:
            return set()

    def invite(self, caller: Caller, table_id: str, other: str) -> dict[str, Any]:
        """Invite a friend to a table: pushed to every open socket of theirs. The answer is
        the same whether they are online or not, blocked or not (no presence leaks)."""
        me = _maps(self._account(caller))
        if other not in me["friends"]:
            raise NotFoundError("you can invite only your friends")
        stored = self.tables.get(table_id)  # 404 for a table that does not exist
        message = {"type": "invitation", "tableId": table_id, "from": caller.player_id}
        sockets = self.connections.for_player(other) if other not in me["blockedBy"] else []
        if self.send is not None:
            for connection in sockets:
                try:
                    self.send(str(connection["connectionId"]), message)
                except Exception:  # a gone socket misses it: the inbox keeps invitations
                    continue
        offline = other not in me["blockedBy"] and not sockets
        if offline and self.notify_invitation is not None:  # a notification instead
            self.notify_invitation(other, stored, caller.name)
        return {"tableId": table_id, "playerId": other}

    def forget_everyone(self, player_id: str, account: dict[str, Any]) -> None:
        """A deleted player leaves every friend list and block list of others."""
        maps = _maps(account)
        others = set().union(*(maps[k] for k in MAPS))
        for other in others:

            def change(a: dict[str, Any]) -> dict[str, Any]:
                m = _maps(a)
                for k in MAPS:
                    m[k].pop(player_id, None)
                return dict(m)

            try:
                self._update(other, change)
            except UnauthorizedError:
                continue
        if account.get("friendCode"):
            self.store.drop(FRIEND_CODE + str(account["friendCode"]))
