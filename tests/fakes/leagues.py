"""The weekly leagues' items in memory (``harftet.store.leagues``): places, divisions, the
tiers' counts and the weeks rolled, keyed as the players table keys them; what a game's end
writes is staged with the table's save, each write on the condition its adapter states."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from harftet.store.leagues import (
    PLACE_FIELDS,
    MemberWrite,
    OpenWrite,
    PlaceWrite,
    division_key,
    done_key,
    open_key,
    place_key,
    seen_divisions,
)
from harftet.store.writes import PlayerWrite

Staged = dict[str, dict[str, Any]]


class FakeLeagues:
    """League items by key (``items``)."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}
        self.writes = 0  # every write the roll-over made (conditional ones that failed too)

    def stage(self, writes: Sequence[PlayerWrite]) -> Staged | None:
        """The items after ``writes`` (league writes only), or None when a condition fails."""
        staged: Staged = {}
        for write in writes:
            if isinstance(write, PlaceWrite):
                key = place_key(write.game, write.player_id)
                old = staged.get(key) or self.items.get(key)
                if (None if old is None else old["week"]) != write.read_week:
                    return None
                seen = set((old or {}).get("seen") or ())
                seen.add(division_key(write.game, write.week, write.division))
                staged[key] = {
                    "playerId": key, "week": write.week, "tier": write.tier,
                    "division": write.division, "seen": seen,
                }  # fmt: skip
            elif isinstance(write, OpenWrite):
                key = open_key(write.game, write.week, write.tier)
                old = staged.get(key) or self.items.get(key)
                if (None if old is None else (old["open"], old["size"])) != write.read:
                    return None
                staged[key] = {"playerId": key, "open": write.open, "size": write.size}
            else:
                assert isinstance(write, MemberWrite)
                key = division_key(write.game, write.week, write.division)
                item = _members(staged.get(key) or self.items.get(key), key, write)
                if item is None:
                    return None
                staged[key] = item
        return staged

    def apply(self, staged: Staged) -> None:
        self.items.update(staged)

    # -- reads ---------------------------------------------------------------------------
    def _get(self, key: str) -> dict[str, Any] | None:
        item = self.items.get(key)
        return copy.deepcopy(item) if item else None

    def place(self, game: str, player_id: str) -> dict[str, Any] | None:
        return self._get(place_key(game, player_id))

    def division(self, game: str, week: str, division: str) -> dict[str, Any] | None:
        return self._get(division_key(game, week, division))

    def opened(self, game: str, week: str, tier: str) -> tuple[int, int] | None:
        item = self.items.get(open_key(game, week, tier))
        return (int(item["open"]), int(item["size"])) if item else None

    def divisions(self, game: str, week: str, ids: list[str]) -> list[dict[str, Any]]:
        found = []
        for division in ids:
            item = self._get(division_key(game, week, division))
            if item is not None:
                found.append({**item, "division": division})
        return found

    def week_done(self, game: str, week: str) -> bool:
        return done_key(game, week) in self.items

    # -- a player's own data -------------------------------------------------------------
    def of_player(self, game: str, player_id: str) -> dict[str, Any] | None:
        place = self.place(game, player_id)
        if place is None:
            return None
        found = []
        for key in seen_divisions(game, place):
            entry = (self.items.get(key) or {}).get("m", {}).get(player_id)
            if entry is not None:
                week, division = key.rsplit("#", 2)[1:]
                found.append({"week": week, "division": division, **copy.deepcopy(entry)})
        shown: dict[str, Any] = {k: place[k] for k in PLACE_FIELDS if k in place}
        return {**shown, "divisions": found}

    def forget(self, game: str, player_id: str) -> None:
        place = self.items.get(place_key(game, player_id))
        if place is None:
            return
        for key in seen_divisions(game, place):
            if key in self.items:
                self.items[key].get("m", {}).pop(player_id, None)
        del self.items[place_key(game, player_id)]

    # -- the roll-over's writes ----------------------------------------------------------
    def earned(self, game: str, player_id: str, week: str, tier: str) -> bool:
        self.writes += 1
        item = self.items.get(place_key(game, player_id))
        if item is None or item.get("week") != week:
            return False
        item["next"] = tier
        return True

    def mark_rolled(self, game: str, week: str, division: str, read_v: int) -> bool:
        self.writes += 1
        item = self.items.get(division_key(game, week, division))
        if item is None or item.get("v") != read_v:
            return False
        item["rolled"] = True
        return True

    def mark_done(self, game: str, week: str, at: int) -> None:
        self.writes += 1
        self.items[done_key(game, week)] = {"playerId": done_key(game, week), "done": at}


def _members(old: dict[str, Any] | None, key: str, write: MemberWrite) -> dict[str, Any] | None:
    """The division after ``write`` (None: its condition fails)."""
    if write.create:
        if old is not None:
            return None
        members = {m.player_id: _entry(m) for m in write.members}
        return {"playerId": key, "tier": write.tier, "m": members, "v": 1,
                "expiresAt": write.expires}  # fmt: skip
    if old is None or old.get("rolled"):
        return None
    item = copy.deepcopy(old)
    for member in write.members:
        there = member.player_id in item["m"]
        if there == member.new:
            return None
        if member.new:
            item["m"][member.player_id] = _entry(member)
            continue
        entry = item["m"][member.player_id]
        entry |= {"pts": entry["pts"] + member.points, "g": entry["g"] + 1, "at": member.at}
        entry["name"] = member.name
    item["v"] = int(item.get("v", 0)) + 1
    return item


def _entry(member: Any) -> dict[str, Any]:
    return {"name": member.name, "pts": member.points, "g": 1, "at": member.at}
