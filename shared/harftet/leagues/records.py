"""What a rated game's end writes in the week's league (RULES §8), in the table's own
transaction (the write path's ``on_game_end`` hook): each person's game points as league
points in their division, and for one's first rated game of the week a place in a division
of their tier (the tier they earned, Bronz at first) with room, ≤ 30 members."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from harftet.engine.effects import Outcome
from harftet.engine.seating import name_in
from harftet.store.leagues import DIVISION_TTL, Member, MemberWrite, OpenWrite, PlaceWrite
from harftet.store.ports import LeagueStorePort
from harftet.store.writes import PlayerWrite

from .standings import DIVISION_SIZE, TIERS, division_id, results
from .weeks import end_of, week_of


def earned_tier(leagues: LeagueStorePort, game: str, place: dict[str, Any] | None) -> str:
    """The tier a player starts a new week in: Bronz for a first week, else what their last
    week earned (rolled over already, or worked out from its division as the roll-over will)."""
    if place is None:
        return TIERS[0]
    if place.get("next"):
        return str(place["next"])
    division = leagues.division(game, str(place["week"]), str(place["division"]))
    found = results(division).get(str(place.get("playerId", ""))) if division else None
    if found is None:
        return str(place["tier"])
    return found[2]


class LeagueRecords:
    """The ``on_game_end`` hook over the league items."""

    def __init__(self, leagues: LeagueStorePort) -> None:
        self.leagues = leagues

    def __call__(self, outcome: Outcome, now: float) -> list[PlayerWrite]:
        table = outcome.table
        points: dict[str, int] = defaultdict(int)
        for change in outcome.effects:
            if change.reason == "game":
                points[change.player_id] += change.delta
        if not points:
            return []  # a leave while the game runs: no game points
        game, week, at = table.game, week_of(now), int(now * 1000)
        members: dict[str, list[Member]] = defaultdict(list)
        joining: dict[str, list[tuple[str, dict[str, Any] | None]]] = defaultdict(list)
        for pid, pts in sorted(points.items()):
            place = self.leagues.place(game, pid)
            if place is not None and place["week"] == week:
                member = Member(pid, name_in(table, pid), pts, at, new=False)
                members[str(place["division"])].append(member)
            else:
                if place is not None:
                    place = {**place, "playerId": pid}
                joining[earned_tier(self.leagues, game, place)].append((pid, place))
        writes: list[PlayerWrite] = []
        created: set[str] = set()
        for tier, joiners in sorted(joining.items()):
            read = self.leagues.opened(game, week, tier)
            number, size = read or (0, DIVISION_SIZE)
            for pid, place in joiners:
                if size >= DIVISION_SIZE:
                    number, size = number + 1, 0
                    created.add(division_id(tier, number))
                size += 1
                division = division_id(tier, number)
                name = name_in(table, pid)
                members[division].append(Member(pid, name, points[pid], at, new=True))
                read_week = None if place is None else str(place["week"])
                writes.append(PlaceWrite(game, pid, week, tier, division, read_week))
            writes.append(OpenWrite(game, week, tier, number, size, read))
        expires = int(end_of(week)) + DIVISION_TTL
        for division, changes in sorted(members.items()):
            tier = division.rsplit("-", 1)[0]
            create = division in created
            writes.append(MemberWrite(game, week, division, tier, tuple(changes), create, expires))
        return writes
