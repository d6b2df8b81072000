"""Matchmaking (RULES §8, API.md v4): players looking for opponents of their skill hold a
ticket; the matcher seats them, by skill within a band that widens while they wait, with
computer players of the nearest level once their wait is over."""

from .matcher import POOLS, Matcher
from .service import Matchmaking
from .skill import Skills, StoredSkills

__all__ = ["POOLS", "Matcher", "Matchmaking", "Skills", "StoredSkills"]
