"""Profiles and leaderboards (API.md v3 "Profiles, leaderboards"; RULES §3, §5).

What a profile or a board shows is public by construction: names, counters, game points and
ratings, and links to replays of *finished* games only (a leave's rating change names no
table: the game is still running, maybe at a private table). No hand, pile or seed is read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from harftet import cursors
from harftet.errors import NotFoundError
from harftet.store import history
from harftet.store.ports import PlayerStorePort, ProfileStorePort
from harftet.store.profiles import BASE_RATING, GAMES_KEPT, RATINGS_KEPT

from .boards import GAMES, Boards


def public_profile(player: dict[str, Any], profile: dict[str, Any] | None) -> dict[str, Any]:
    """``GET /players/{id}/profile``: only what anyone may see."""
    profile = profile or {}
    games = {
        game: {
            what: int(profile.get(f"{what}_{game}", 0)) for what in ("played", "won", "abandoned")
        }
        for game in GAMES
    }
    entries = history.of_profile(profile)
    ratings = [
        {"at": e.at, "delta": e.delta, "game": e.game, "tableId": e.table_id or None}
        for e in entries[-RATINGS_KEPT:]
    ]
    recent = [
        {
            "tableId": e.table_id,
            "game": e.game,
            "at": e.at,
            "points": e.delta,
            "won": e.won,
            "replay": f"/tables/{e.table_id}/replay",
        }
        for e in reversed([e for e in entries if e.is_game][-GAMES_KEPT:])
    ]
    return {
        "playerId": str(player["playerId"]),
        "name": str(player["name"]),
        "rating": int(player.get("rating", BASE_RATING)),
        "games": games,
        "ratingChanges": list(reversed(ratings)),
        "recentGames": recent,
    }


class Profiles:
    """A player's public profile and the leaderboards."""

    def __init__(
        self,
        players: PlayerStorePort,
        profiles: ProfileStorePort,
        mac: cursors.Mac,
        clock: Callable[[], float],
        extras: Sequence[Callable[[dict[str, Any]], dict[str, Any]]] = (),
    ) -> None:
        self.extras = extras  # what other features add to a profile (skill, league)
        self.players = players
        self.profiles = profiles
        self.boards = Boards(profiles, mac)
        self.clock = clock

    def profile(self, player_id: str) -> dict[str, Any]:
        """Anybody's public profile."""
        try:
            player = self.players.get(player_id)
        except NotFoundError as error:
            raise NotFoundError(f"no player {player_id[:64]}") from error
        shown = public_profile(player, self.profiles.profile(player_id))
        for extra in self.extras:
            shown |= extra(player)
        return shown

    def leaderboard(
        self, viewer: str | None, game: str, period: str, limit: int, cursor: str | None
    ) -> dict[str, Any]:
        """One page of a leaderboard, and the viewer's own entry."""
        return self.boards.page(viewer, game, period, limit, cursor, self.clock())
