"""The players table's player items in memory (``harftet.store.players``), and what a
table's save writes on them beside the table (``harftet.store.writes``): a rating change, an
abandon counted on the abandons list as read, a correspondence table held or released.

As in DynamoDB, an update of a player who does not exist (a deleted one) leaves an item
with no name behind: it is no player (``get`` says not found)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from harftet.errors import NotFoundError
from harftet.store.holdings import ADDS, HELD
from harftet.store.players import DAY, ban_until, new_player
from harftet.store.writes import HoldWrite, PlayerWrite, RatingWrite, ReleaseWrite

from .values import condition_failed

Staged = dict[str, dict[str, Any]]


class FakePlayers:
    """Player items by player id (``items``; accounts, holdings and bans share them)."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}

    def create(self, player_id: str, name: str, now: float) -> dict[str, Any]:
        if player_id in self.items:
            raise condition_failed("PutItem")
        item = new_player(player_id, name, now)
        self.items[player_id] = item
        return dict(item)

    def get(self, player_id: str) -> dict[str, Any]:
        if not 0 < len(player_id) <= 64 or "#" in player_id:
            raise NotFoundError(f"no player {player_id[:64]}")
        item = self.items.get(player_id)
        if item is None or "name" not in item:  # a deleted player's leftover counts
            raise NotFoundError(f"no player {player_id}")
        return copy.deepcopy(item)

    def stage(self, writes: Sequence[PlayerWrite], now: float) -> Staged | None:
        """The player items after ``writes`` (several on one player go together, as the
        adapter merges them into one update), or None when a condition fails."""
        staged: Staged = {}
        for write in writes:
            if isinstance(write, RatingWrite):
                player_id = write.change.player_id
            else:
                player_id = write.player_id
            exists = player_id in self.items
            item = staged.get(player_id) or copy.deepcopy(self.items.get(player_id))
            changed = _applied(item or {"playerId": player_id}, exists, write, now)
            if changed is None:
                return None
            staged[player_id] = changed
        return staged


def _applied(
    item: dict[str, Any], exists: bool, write: PlayerWrite, now: float
) -> dict[str, Any] | None:
    if isinstance(write, RatingWrite):
        return _rated(item, write, now)
    held = set(item.get(HELD) or ())
    if isinstance(write, HoldWrite):
        if not exists or len(held) >= write.limit:
            return None
        item[HELD] = held | {write.table_id}
        item[ADDS] = int(item.get(ADDS, 0)) + 1
        return item
    assert isinstance(write, ReleaseWrite)
    held.discard(write.table_id)
    if held:
        item[HELD] = held
    else:
        item.pop(HELD, None)  # DynamoDB keeps no empty set
    return item


def _rated(item: dict[str, Any], write: RatingWrite, now: float) -> dict[str, Any] | None:
    """A game's points, or a leave's penalty and abandon: the abandons must be as read (a
    concurrent abandon makes the save lose, and it is redone from a fresh read)."""
    change = write.change
    item["rating"] = int(item.get("rating", 0)) + change.delta
    if change.reason == "game":
        item["gamesPlayed"] = int(item.get("gamesPlayed", 0)) + 1
        return item
    read = (write.player or {}).get("abandons")
    if item.get("abandons") != read:
        return None
    abandons = [*(float(t) for t in read or [] if now - float(t) < DAY), now]
    item["gamesAbandoned"] = int(item.get("gamesAbandoned", 0)) + 1
    item["abandons"] = [int(t) for t in abandons]
    banned = ban_until(abandons, now)
    if banned is not None:
        item["bannedUntil"] = int(banned)
    return item
