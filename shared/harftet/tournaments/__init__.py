"""Tournaments (RULES §8, API.md v4 "Tournaments"): Swiss rounds of ordinary tables, from
registration to the podium, on a schedule, the tables' stream and conditional writes."""

from .records import TournamentRecords
from .rounds import Rounds
from .service import Tournaments

__all__ = ["Rounds", "TournamentRecords", "Tournaments"]
