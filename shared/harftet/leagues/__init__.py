"""Weekly leagues (*lig*, RULES §8): what a rated game's end writes in the week's division
(`LeagueRecords`, the write path's hook), the reads of a division and of a profile's league
(`Leagues`), and the Monday roll-over (`Leagues.roll_over`, a scheduled function)."""

from .records import LeagueRecords
from .service import Leagues

__all__ = ["LeagueRecords", "Leagues"]
