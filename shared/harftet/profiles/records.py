"""What a game's end writes beside the table (the write path's ``on_game_end`` hook): each
player's profile (counters and history, rewritten whole on the counter read) and their entries
on the all-time and weekly leaderboards — in the table's own transaction."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from harftet.engine.effects import Outcome, RatingChange
from harftet.engine.seating import name_in
from harftet.engine.state import Table
from harftet.store import history
from harftet.store.ports import ProfileStorePort
from harftet.store.profiles import WEEK_TTL, week_end, week_key
from harftet.store.writes import BoardWrite, PlayerWrite, ProfileWrite


class GameRecords:
    """The ``on_game_end`` hook over the profiles' store."""

    def __init__(self, profiles: ProfileStorePort) -> None:
        self.profiles = profiles

    def __call__(self, outcome: Outcome, now: float) -> list[PlayerWrite]:
        """The writes that record ``outcome``'s rating changes on profiles and boards: per
        player one profile write (conditional on the profile read) and one or two board
        additions. Nothing for a change with no game behind it."""
        by_player: dict[str, list[RatingChange]] = defaultdict(list)
        for change in outcome.effects:
            by_player[change.player_id].append(change)
        writes: list[PlayerWrite] = []
        for player_id, changes in by_player.items():
            writes += self._player(outcome.table, player_id, changes, now)
        return writes

    def _player(
        self, table: Table, player_id: str, changes: list[RatingChange], now: float
    ) -> list[PlayerWrite]:
        old = self.profiles.profile(player_id, consistent=True)
        new, total, week_total = _recorded(old, table, changes, now)
        legacy = tuple(k for k in history.LEGACY if k in (old or {}))
        read_n = None if old is None else int(old["n"])
        name = name_in(table, player_id)
        writes: list[PlayerWrite] = [
            ProfileWrite(player_id, read_n, new, legacy),
            BoardWrite(table.game, "all", player_id, name, total),
        ]
        if any(c.reason == "game" for c in changes):
            expires = int(week_end(now)) + WEEK_TTL
            week = week_key(now)
            writes.append(BoardWrite(table.game, week, player_id, name, week_total, expires))
        return writes


def _recorded(
    old: dict[str, Any] | None, table: Table, changes: list[RatingChange], now: float
) -> tuple[dict[str, Any], int, int]:
    """The profile after ``changes`` (every attribute but the key), the points they add to
    the all-time board and those they add to the week's."""
    points = (table.result or {}).get("points") if table.result else None
    best = max(points) if isinstance(points, list) and points else None
    entries = history.of_profile(old)
    new = {k: v for k, v in (old or {"n": 0}).items() if k not in history.LEGACY}
    new.pop("playerId", None)
    new["n"] = int(new.get("n", 0)) + 1
    total = week_total = 0
    for change in changes:
        total += change.delta
        if change.reason == "game":
            won = change.delta > 0 and change.delta == best
            week_total += change.delta
            _count(new, table.game, "played")
            if won:
                _count(new, table.game, "won")
            entries.append(history.Entry(int(now), change.delta, table.game, table.table_id, won))
        else:  # a leave: the game is still running (maybe at a private table): no id
            _count(new, table.game, "abandoned")
            entries.append(history.Entry(int(now), change.delta, table.game))
    new["h"] = history.pack(history.trimmed(entries))
    return new, total, week_total


def _count(profile: dict[str, Any], game: str, what: str) -> None:
    key = f"{what}_{game}"
    profile[key] = int(profile.get(key, 0)) + 1
