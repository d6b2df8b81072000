"""What anyone may see of a player's skill: per game a tier and the games rated."""

from __future__ import annotations

from typing import Any

from harftet.rating import Rating, tier

GAMES = ("harftet", "kastet")


def skill_part(player: dict[str, Any]) -> dict[str, Any]:
    """``{"skill": {game: {"tier", "games"}}}`` for a profile (a game never rated: Bronz, 0)."""
    stored = player.get("skill") or {}
    shown = {}
    for game in GAMES:
        rating = Rating.from_item(stored.get(game))
        shown[game] = {"tier": tier(rating), "games": rating.games}
    return {"skill": shown}
