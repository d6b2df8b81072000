"""Profiles and leaderboards: what a player's game history shows to anyone, the boards, and
what a game's end records on both (`GameRecords`, the write path's hook)."""

from .records import GameRecords
from .service import Profiles, public_profile

__all__ = ["GameRecords", "Profiles", "public_profile"]
