"""Skill (*beceri*, RULES §8): the OpenSkill rating a rated game's end writes in the table's
transaction (`SkillRecords`, the write path's hook), and what a profile shows of it (a tier
and a count of games, never the number: `skill_part`). The rating itself, tiers and the
computer levels' fixed ratings: the kernel's `harftet.rating` (matchmaking reads the same)."""

from .records import SkillRecords
from .service import skill_part

__all__ = ["SkillRecords", "skill_part"]
