"""Leaderboard pages (API.md v3): the top 100 of a game, all-time or this week, a page at a
time with signed cursors, and the caller's own entry with their neighbours."""

from __future__ import annotations

from typing import Any

from harftet import cursors
from harftet.engine.seating import is_deleted
from harftet.errors import BadRequestError, NotFoundError
from harftet.store.ports import ProfileStorePort
from harftet.store.profiles import BASE_RATING, week_key

GAMES = ("kastet", "harftet")
PERIODS = ("week", "all")
BOARD_LIMIT = 100  # the top 100 (API.md v3): pages never reach past it
NEIGHBOURS = 2


def _score(item: dict[str, Any], period: str) -> int:
    score = int(item.get("score", 0))
    return score + BASE_RATING if period == "all" else score


def _entry(item: dict[str, Any], rank: int | None, period: str) -> dict[str, Any]:
    pid, name = str(item.get("pid", "")), str(item.get("name", ""))
    return {
        "rank": rank,
        "playerId": pid,
        "name": name,
        "score": _score(item, period),
        "deleted": is_deleted(pid, name),  # no profile to open
    }


class Boards:
    """Leaderboard pages, with cursors signed by ``mac``."""

    def __init__(self, profiles: ProfileStorePort, mac: cursors.Mac) -> None:
        self.profiles = profiles
        self.mac = mac

    def page(
        self,
        viewer: str | None,
        game: str,
        period: str,
        limit: int,
        cursor: str | None,
        now: float,
    ) -> dict[str, Any]:
        """One page of a board (``{"entries", "me", "cursor"}``)."""
        if game not in GAMES:
            raise NotFoundError(f"no leaderboard for game '{game[:16]}'")
        if period not in PERIODS:
            raise BadRequestError(f"period must be one of {', '.join(PERIODS)}", field="period")
        if not 1 <= limit <= BOARD_LIMIT:
            raise BadRequestError(f"limit must be between 1 and {BOARD_LIMIT}", field="limit")
        key = "all" if period == "all" else week_key(now)
        after = self._read_cursor(cursor, game, key) if cursor else None
        start = after[2] if after else 0
        limit = min(limit, BOARD_LIMIT - start)
        items = self.profiles.top(game, key, limit, after[:2] if after else None) if limit else []
        entries = [_entry(item, start + i + 1, period) for i, item in enumerate(items)]
        next_cursor = None
        if items and len(items) == limit and start + limit < BOARD_LIMIT:
            last = items[-1]
            where = [game, key, int(last["score"]), str(last["pid"]), start + limit]
            next_cursor = cursors.sign(self.mac, where)
        me = self._me(viewer, game, key, period) if viewer else None
        return {"entries": entries, "me": me, "cursor": next_cursor}

    def _me(self, viewer: str, game: str, key: str, period: str) -> dict[str, Any] | None:
        mine = self.profiles.entry(game, key, viewer)
        if mine is None:
            return None
        score = int(mine["score"])
        ahead = self.profiles.ahead(game, key, score)
        rank = None if ahead is None else ahead + 1
        above, below = self.profiles.around(game, key, score, NEIGHBOURS)
        me = _entry(mine, rank, period)
        me["above"] = [
            _entry(i, None if rank is None else rank - len(above) + k, period)
            for k, i in enumerate(above)
        ]
        # Below: ranks after an unknown number of ties with me, so not given (null).
        me["below"] = [_entry(i, None, period) for i in below]
        return me

    def _read_cursor(self, cursor: str, game: str, key: str) -> tuple[int, str, int]:
        bad = BadRequestError(
            "cursor is not one this leaderboard gave out: start again", field="cursor"
        )
        try:
            g, k, score, pid, start = cursors.read(self.mac, cursor)
        except (cursors.CursorError, ValueError, TypeError) as error:
            raise bad from error
        if (g, k) != (game, key) or not isinstance(score, int) or not isinstance(start, int):
            raise bad
        return score, str(pid), start
