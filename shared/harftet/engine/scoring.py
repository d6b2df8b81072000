"""Game points from total penalties, and who gets a seat's points (RULES.md §3, §4)."""

from __future__ import annotations

from .effects import RatingChange
from .rules import rules_for
from .state import Table

SUBSTITUTE_RATING_CAP = 3000


def _place_points(players: int, hands: int, multiplier: int) -> list[int]:
    top, half = hands * multiplier, (hands // 2) * multiplier
    if players == 4:
        return [top, half, -half, -top]
    if players == 3:
        return [top, 0, -top]
    if players == 2:
        return [top, -top]
    raise ValueError(f"a game has 2 to 4 players, not {players}")


def ranking_points(penalties: list[int], hands: int, multiplier: int) -> list[int]:
    """Points per seat by total penalty, lowest first; ties share their places' points."""
    places = _place_points(len(penalties), hands, multiplier)
    order = sorted(range(len(penalties)), key=lambda i: penalties[i])
    points = [0] * len(penalties)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and penalties[order[end + 1]] == penalties[order[start]]:
            end += 1
        span = places[start : end + 1]
        share = int(sum(span) / len(span))  # rounded toward zero
        for k in range(start, end + 1):
            points[order[k]] = share
        start = end + 1
    return points


def partner_points(penalties: list[int], hands: int, multiplier: int) -> list[int]:
    """Partner game (seats 0+2 against 1+3): the lower team +N·m each, the higher −N·m."""
    if len(penalties) != 4:
        raise ValueError("a partner game has exactly 4 players")
    top = hands * multiplier
    team_a, team_b = penalties[0] + penalties[2], penalties[1] + penalties[3]
    a = 0 if team_a == team_b else (top if team_a < team_b else -top)
    return [a, -a, a, -a]


def settle(table: Table) -> list[RatingChange]:
    """Set ``table.result`` for a finished game and return each person's share of it.

    A seat finished by its original player gives them its points. A seat finished by a
    substitute or a bot: a gain goes to a human substitute whose rating at sit-down was at
    most 3000; a loss is charged to an original who dropped (never to one who left). Every
    human final occupant gets a change (maybe 0), so the game counts as played; bots never.
    A practice game (a computer player sat before the start) changes nobody's rating or
    record: no change at all, ``result["ratings"]`` is empty.
    """
    multiplier = rules_for(table.game).multiplier
    penalties = [seat.penalty for seat in table.seats]
    if table.partners:
        points = partner_points(penalties, table.hands, multiplier)
    else:
        points = ranking_points(penalties, table.hands, multiplier)
    changes: list[RatingChange] = []
    if table.practice:
        table.result = {"penalties": penalties, "points": points, "ratings": {}, "practice": True}
        return changes
    for seat, p in zip(table.seats, points, strict=True):
        occ, orig = seat.occupant, seat.original
        human = occ is not None and not occ.bot
        returned_leaver = seat.original_fate == "left"  # came back: sits as a substitute
        if orig is None or (
            occ is not None and occ.player_id == orig.player_id and not returned_leaver
        ):
            if occ is not None and human:
                changes.append(RatingChange(occ.player_id, p, "game"))
            continue
        if occ is not None and human:
            gain = p if p > 0 and occ.rating <= SUBSTITUTE_RATING_CAP else 0
            changes.append(RatingChange(occ.player_id, gain, "game"))
        if p < 0 and seat.original_fate == "dropped":
            changes.append(RatingChange(orig.player_id, p, "game"))
    ratings: dict[str, int] = {}
    for change in changes:
        ratings[change.player_id] = ratings.get(change.player_id, 0) + change.delta
    table.result = {"penalties": penalties, "points": points, "ratings": ratings}
    return changes
