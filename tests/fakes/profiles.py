"""Profiles, leaderboard entries, reports and operator bans in memory
(``harftet.store.profiles``): items keyed as the players table keys them, the boards ordered
by score (highest first) then player id, a profile rewritten only on the counter ``n`` read."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from harftet.errors import NotFoundError
from harftet.store.profiles import board_key, filed_keys, profile_key, shard_of
from harftet.store.writes import BoardWrite, PlayerWrite, ProfileWrite

from .players import FakePlayers, Staged
from .values import stored

FILED = "filed#"


def _order(item: dict[str, Any]) -> tuple[int, str]:
    return (-int(item.get("score", 0)), str(item.get("pid", "")))


class FakeProfiles:
    """The profile, board, report and filed items (``items``); bans go on ``players``'."""

    def __init__(self, players: FakePlayers) -> None:
        self.players = players
        self.items: dict[str, dict[str, Any]] = {}

    # -- what a game's end writes in the table's save ------------------------------------
    def stage(self, writes: Sequence[PlayerWrite]) -> Staged | None:
        """The items after ``writes`` (ProfileWrite, BoardWrite), or None when a profile's
        counter is no longer the one read."""
        staged: Staged = {}
        for write in writes:
            if isinstance(write, ProfileWrite):
                key = profile_key(write.player_id)
                old = staged.get(key) or self.items.get(key)
                if (None if old is None else int(old["n"])) != write.read_n:
                    return None
                kept = {k: v for k, v in (old or {}).items() if k not in write.remove}
                staged[key] = {**kept, **stored(write.fields), "playerId": key}
            else:
                assert isinstance(write, BoardWrite)
                key = board_key(write.game, write.period, write.player_id)
                item = dict(staged.get(key) or self.items.get(key) or {"playerId": key})
                item["score"] = int(item.get("score", 0)) + write.delta
                item |= {
                    "board": f"{write.game}#{write.period}#{shard_of(write.player_id)}",
                    "pid": write.player_id,
                    "name": write.name,
                }
                if write.expires is not None:
                    item["expiresAt"] = write.expires
                staged[key] = item
        return staged

    # -- reads ---------------------------------------------------------------------------
    def profile(self, player_id: str, consistent: bool = False) -> dict[str, Any] | None:
        item = self.items.get(profile_key(player_id))
        return copy.deepcopy(item) if item else None

    def entry(self, game: str, period: str, player_id: str) -> dict[str, Any] | None:
        item = self.items.get(board_key(game, period, player_id))
        return dict(item) if item else None

    def _board(self, game: str, period: str) -> list[dict[str, Any]]:
        name = f"{game}#{period}#"
        found = [
            dict(i)
            for k, i in self.items.items()
            if k.startswith("board#") and str(i.get("board", "")).startswith(name)
        ]
        return sorted(found, key=_order)

    def top(
        self, game: str, period: str, limit: int, after: tuple[int, str] | None
    ) -> list[dict[str, Any]]:
        board = self._board(game, period)
        if after is not None:
            board = [i for i in board if _order(i) > (-after[0], after[1])]
        return board[:limit]

    def ahead(self, game: str, period: str, score: int) -> int | None:
        return sum(1 for i in self._board(game, period) if int(i["score"]) > score)

    def around(self, game: str, period: str, score: int, n: int) -> tuple[list, list]:
        board = self._board(game, period)
        above = [i for i in board if int(i["score"]) > score]
        below = [i for i in board if int(i["score"]) < score]
        return above[-n:], below[:n]

    def _entries(self, player_id: str) -> list[str]:
        return [k for k in self.items if k.startswith("board#") and k.endswith(f"#{player_id}")]

    def entries_of(self, player_id: str, now: float) -> list[dict[str, Any]]:
        found = []
        for key in self._entries(player_id):
            _, game, period, _ = key.split("#", 3)
            found.append({**self.items[key], "game": game, "period": period})
        return sorted(found, key=lambda i: (i["game"], i["period"]))

    def filed(self, player_id: str) -> list[dict[str, Any]]:
        return copy.deepcopy(self.items.get(FILED + player_id, {}).get("r") or [])

    # -- writes --------------------------------------------------------------------------
    def forget(self, player_id: str, now: float) -> int:
        mine = (profile_key(player_id), FILED + player_id, *filed_keys(self.filed(player_id)))
        keys = [k for k in mine if k in self.items]
        keys += self._entries(player_id)
        for key in keys:
            del self.items[key]
        return len(keys)

    def add_report(self, report: dict[str, Any], key: str, day: str, at: int) -> None:
        board = {"board": f"reports#{day}", "score": at}
        self.items[key] = {**stored(report), "playerId": key, **board}
        mine = FILED + str(report["reporter"])
        filed = self.items.setdefault(mine, {"playerId": mine})
        kept = stored({k: v for k, v in report.items() if k != "reporter"} | {"key": key})
        filed["r"] = [*filed.get("r", []), kept]

    def reports(self, day: str, limit: int) -> list[dict[str, Any]]:
        found = [dict(i) for i in self.items.values() if i.get("board") == f"reports#{day}"]
        return sorted(found, key=lambda i: -int(i["score"]))[:limit]

    def set_ban(self, player_id: str, banned: bool, now: float) -> None:
        if not 0 < len(player_id) <= 64 or "#" in player_id:
            raise NotFoundError(f"no player {player_id[:64]}")
        item = self.players.items.get(player_id)
        if item is None:
            raise NotFoundError(f"no player {player_id}")
        if banned:
            item["operatorBan"] = int(now)
        else:
            item.pop("operatorBan", None)
