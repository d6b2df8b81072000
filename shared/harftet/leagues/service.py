"""The weekly leagues as a player reads them (API.md v4 "Skill and leagues"): the caller's
division this week, any division of a past week, and the league part of a profile. Each is
one or two GetItems on keys made for them (≤ 4 KB each, strongly consistent: a game's points
are there in the very next read)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harftet.engine.seating import is_deleted
from harftet.errors import BadRequestError, NotFoundError
from harftet.store.ports import LeagueStorePort

from .records import earned_tier
from .rollover import RollOver
from .standings import PROMOTE, RELEGATE, TIERS, ordered, results
from .weeks import end_of, monday, week_of

GAMES = ("harftet", "kastet")


def _game(game: str) -> str:
    if game not in GAMES:
        raise NotFoundError(f"no game {game[:32]}")
    return game


def page(week: str, division: str, item: dict[str, Any]) -> dict[str, Any]:
    """A division's page: its standings, who goes up and down, and when the week ends."""
    moves = results(item)
    standings = [
        {
            "rank": moves[pid][0],
            "playerId": pid,
            "name": str(entry.get("name", "")),
            "points": int(entry["pts"]),
            "games": int(entry["g"]),
            "move": moves[pid][1],
            "deleted": is_deleted(pid, str(entry.get("name", ""))),  # no profile to open
        }
        for pid, entry in ordered(item.get("m") or {})
    ]
    return {
        "week": week,
        "tier": str(item["tier"]),
        "division": division,
        "endsAt": int(end_of(week)),
        "promote": PROMOTE,
        "relegate": RELEGATE,
        "rolled": bool(item.get("rolled")),
        "standings": standings,
    }


class Leagues:
    """Reads of the leagues, and the weekly roll-over."""

    def __init__(self, leagues: LeagueStorePort, clock: Callable[[], float]) -> None:
        self.store = leagues
        self.clock = clock
        self.roll_over = RollOver(leagues, clock)

    def mine(self, player_id: str, game: str) -> dict[str, Any]:
        """The caller's division this week (not_found before their first rated game)."""
        week = week_of(self.clock())
        place = self.store.place(_game(game), player_id)
        if place is None or place["week"] != week:
            raise NotFoundError("no rated game this week yet")
        item = self.store.division(game, week, str(place["division"]))
        if item is None:
            raise NotFoundError("no rated game this week yet")
        return page(week, str(place["division"]), item)

    def division(self, game: str, week: str, division: str) -> dict[str, Any]:
        """Any week's division (404 when there is none)."""
        try:
            monday(week)
        except ValueError as error:
            raise BadRequestError("week must be an ISO week such as 2026-W49") from error
        tier, _, number = division.rpartition("-")
        if tier not in TIERS or not number.isdigit() or len(number) > 6:
            raise NotFoundError(f"no division {division[:32]}")
        item = self.store.division(_game(game), week, division)
        if item is None:
            raise NotFoundError(f"no division {division} in {week}")
        return page(week, division, item)

    def profile_part(self, player: dict[str, Any]) -> dict[str, Any]:
        """``{"league": {game: {"tier", "division", "rank"}}}``: this week's division and rank,
        or the tier earned (division and rank null) for a player not playing this week."""
        player_id = str(player["playerId"])
        week = week_of(self.clock())
        shown: dict[str, Any] = {}
        for game in GAMES:
            place = self.store.place(game, player_id)
            if place is None:
                continue
            if place["week"] != week:
                tier = earned_tier(self.store, game, {**place, "playerId": player_id})
                shown[game] = {"tier": tier, "division": None, "rank": None}
                continue
            item = self.store.division(game, week, str(place["division"])) or {"tier": "", "m": {}}
            rank = results(item).get(player_id, (None,))[0] if item.get("m") else None
            shown[game] = {"tier": str(place["tier"]), "division": place["division"], "rank": rank}
        return {"league": shown}
