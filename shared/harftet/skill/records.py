"""What a rated game's end writes of skill (RULES §8), in the table's own transaction (the
write path's ``on_game_end`` hook): each person's OpenSkill rating in that game after the
game's final order, partners as one team, a computer seat at its level's fixed rating."""

from __future__ import annotations

from typing import Any

from harftet.engine.effects import Outcome
from harftet.engine.state import Seat, Table
from harftet.errors import NotFoundError
from harftet.rating import Rating, level_rating, rate, skill_of
from harftet.store.ports import PlayerStorePort
from harftet.store.writes import PlayerWrite, SkillWrite


def ranks_of(penalties: list[int]) -> list[int]:
    """Places by penalty, lowest first, 1-based; equal penalties share a place."""
    return [1 + sum(1 for q in penalties if q < p) for p in penalties]


def rated_person(seat: Seat, scored: set[str]) -> str | None:
    """Whose skill a seat's result moves: its last occupant if a person the game scored,
    else the original who dropped and was charged; None: the seat counts as a computer."""
    for who in (seat.occupant, seat.original):
        if who is not None and not who.bot and who.player_id in scored:
            return who.player_id
    return None


class SkillRecords:
    """The ``on_game_end`` hook over the players' items (their ``skill`` attribute)."""

    def __init__(self, players: PlayerStorePort) -> None:
        self.players = players

    def __call__(self, outcome: Outcome, now: float) -> list[PlayerWrite]:
        table = outcome.table
        scored = {c.player_id for c in outcome.effects if c.reason == "game"}
        if not scored or len(table.seats) < 2:
            return []  # a leave while the game runs, or no game
        people = [rated_person(seat, scored) for seat in table.seats]
        items = {pid: self._item(pid) for pid in people if pid is not None}
        before = [
            skill_of(items.get(pid), table.game) if pid is not None else _bot(table, seat)
            for pid, seat in zip(people, table.seats, strict=True)
        ]
        after = _rated(table, before)
        writes: list[PlayerWrite] = []
        for pid, new in zip(people, after, strict=True):
            item = items.get(pid) if pid is not None else None
            if item is None:
                continue  # a computer seat, or a deleted player
            read = item.get("skill")
            writes.append(SkillWrite(str(pid), table.game, read, new.to_item()))
        return writes

    def _item(self, player_id: str) -> dict[str, Any] | None:
        try:
            return self.players.get(player_id)  # strongly consistent
        except NotFoundError:
            return None


def _bot(table: Table, seat: Seat) -> Rating:
    who = seat.occupant or seat.original
    return level_rating(table.game, who.level if who is not None else None)


def _rated(table: Table, before: list[Rating]) -> list[Rating]:
    """Each seat's rating after the game (partners: seats 0+2 against 1+3)."""
    penalties = [seat.penalty for seat in table.seats]
    if table.partners and len(before) == 4:
        ranks = ranks_of([penalties[0] + penalties[2], penalties[1] + penalties[3]])
        (a0, a2), (b1, b3) = rate([[before[0], before[2]], [before[1], before[3]]], ranks)
        return [a0, b1, a2, b3]
    return [team[0] for team in rate([[r] for r in before], ranks_of(penalties))]
