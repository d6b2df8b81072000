"""A player's skill as matchmaking reads it (RULES §8): the OpenSkill rating the skill
feature keeps in the player's item, through the one rating module (``harftet.rating``:
its ordinal, tiers and the computer levels' measured ratings are the matcher's too)."""

from __future__ import annotations

from typing import Any, Protocol

from harftet.rating import Rating, skill_of


class Skills(Protocol):
    """A player's skill in a game (the default when they have none yet)."""

    def of(self, player_id: str, game: str) -> Rating: ...


class StoredSkills:
    """Skills read from the player's item (``get``: the players store's read)."""

    def __init__(self, players: Any) -> None:
        self.players = players

    def of(self, player_id: str, game: str) -> Rating:
        return skill_of(self.players.get(player_id), game)
