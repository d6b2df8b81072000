"""The players table's other items in memory: what makes a guest an account
(``harftet.store.accounts``: single-use secrets, the player's own item changed on its
``acct`` counter) and the players' word reports (``harftet.store.word_reports``)."""

from __future__ import annotations

from typing import Any

from harftet.store.accounts import SECRET_PREFIXES, changed
from harftet.store.errors import NoAccountError
from harftet.store.word_reports import COUNTED, MARKER_SECONDS

from .players import FakePlayers
from .values import plain, stored


class FakeAccounts:
    """Secrets by key (``secrets``: challenges, transfer codes, friend codes, each with its
    ``expiresAt``, which a take checks) and the player items of ``players``."""

    def __init__(self, players: FakePlayers) -> None:
        self.players = players
        self.secrets: dict[str, dict[str, Any]] = {}

    # -- single-use secrets ----------------------------------------------------------------
    def put_once(self, key: str, values: dict[str, Any], expires_at: int) -> bool:
        assert key.startswith(SECRET_PREFIXES)
        if key in self.secrets:  # taken, expired or not: TTL removes it some time later
            return False
        self.secrets[key] = {**stored(values), "playerId": key, "expiresAt": int(expires_at)}
        return True

    def take(self, key: str, now: float) -> dict[str, Any] | None:
        assert key.startswith(SECRET_PREFIXES)
        item = self.secrets.pop(key, None)
        if item is None or int(item.get("expiresAt", 0)) <= now:
            return None
        return plain(item)

    def get_secret(self, key: str) -> dict[str, Any] | None:
        assert key.startswith(SECRET_PREFIXES)
        item = self.secrets.get(key)
        return plain(item) if item else None

    def drop(self, key: str) -> None:
        assert key.startswith(SECRET_PREFIXES)
        self.secrets.pop(key, None)

    # -- the player's item -----------------------------------------------------------------
    def account(self, player_id: str) -> dict[str, Any]:
        if not 0 < len(player_id) <= 64 or player_id.startswith(SECRET_PREFIXES):
            raise NoAccountError("no such player")
        item = self.players.items.get(player_id)
        if item is None:
            raise NoAccountError("no such player")
        found: dict[str, Any] = plain(item)
        return found

    def save(self, read: dict[str, Any], **values: Any) -> bool:
        """``values`` onto the item read as ``read``, if its ``acct`` is still the one read."""
        item = self.players.items.get(str(read["playerId"]))
        if item is None or item.get("acct") != (int(read["acct"]) if "acct" in read else None):
            return False
        item.update(stored(values))
        item["acct"] = int(read.get("acct", 0)) + 1
        return True

    change = changed  # read, change, write if nobody wrote meanwhile; retried

    def remember_table(self, player_id: str, table_id: str) -> None:
        item = self.players.items.get(player_id)
        if item is not None:
            item["tables"] = {*(item.get("tables") or ()), table_id}

    def delete(self, player_id: str) -> None:
        self.players.items.pop(player_id, None)


class FakeWordReports:
    """A count item per word (``word#<WORD>``) and a marker per reporter (``wordreport#...``),
    written together or not at all (``items``, keyed as the players table keys them)."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}

    def add(self, word: str, kind: str, reporter_hash: str, now: float) -> bool:
        marker = f"wordreport#{word}#{kind}#{reporter_hash}"
        if marker in self.items:
            return False
        self.items[marker] = {"playerId": marker, "expiresAt": int(now) + MARKER_SECONDS}
        count = self.items.setdefault(f"word#{word}", {"playerId": f"word#{word}"})
        count[kind] = int(count.get(kind, 0)) + 1
        count["reports"] = int(count.get("reports", 0)) + 1
        count |= {"word": word, "lastReportAt": int(now)}
        return True

    def counts(self, word: str) -> dict[str, int]:
        item = self.items.get(f"word#{word}", {})
        return {k: int(item.get(k, 0)) for k in COUNTED}
