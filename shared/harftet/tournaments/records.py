"""What a tournament table's end writes (the write path's ``on_game_end`` hook): its result,
in the table's own transaction (a table ends once: its version is the condition). The
round's counter is told after the commit (``Rounds.table_ended``, from the tables' stream
and the schedule), so a game's last move never waits on a round's busiest item."""

from __future__ import annotations

from harftet.engine.effects import Outcome
from harftet.store.tournaments import ResultWrite
from harftet.store.writes import PlayerWrite

from .ids import parse_table
from .standings import BOT


def result_of(outcome: Outcome, now: float) -> ResultWrite | None:
    """The result of a finished tournament table (None: not one, or not finished)."""
    table = outcome.table
    found = parse_table(table.table_id)
    if found is None or table.status != "finished" or table.result is None:
        return None
    tid, round_number, index = found
    players, left = [], []
    for seat in table.seats:
        who = seat.original or seat.occupant
        players.append(BOT if who is None or who.bot else who.player_id)
        if seat.original_fate == "left" and who is not None:
            left.append(who.player_id)
    penalties = tuple(int(p) for p in table.result["penalties"])
    return ResultWrite(
        tid, round_number, index, tuple(players), penalties, int(now * 1000), tuple(left)
    )


class TournamentRecords:
    """The ``on_game_end`` hook: a tournament table's result beside its last version."""

    def __call__(self, outcome: Outcome, now: float) -> list[PlayerWrite]:
        found = result_of(outcome, now)
        return [found] if found is not None else []
