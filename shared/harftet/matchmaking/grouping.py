"""Which waiting tickets sit together (RULES §8), decided from the tickets alone.

Oldest first, each ticket looks for the others of its pool nearest its skill (OpenSkill's
ordinal) within its band, which starts at half a tier (``harftet.rating.TIER_WIDTH``, the
ordinal between two tiers' floors) and widens by half a tier every five seconds it has
waited. A full table is a group; when the ticket's chosen wait is over, the
people found so far form a group and computer players take the rest. Never two tickets of
one player, never two players either of whom blocked the other."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from harftet.rating import TIER_WIDTH, Rating
from harftet.store.matchmaking import Ticket

BAND_START = TIER_WIDTH / 2
BAND_STEP = TIER_WIDTH / 2
BAND_EVERY = 5.0  # seconds


@dataclass(frozen=True)
class Group:
    """People who sit together, oldest ticket first, and how many computer players join."""

    tickets: tuple[Ticket, ...]
    bots: int

    @property
    def ratings(self) -> list[Rating]:
        return [rating(t) for t in self.tickets]


def rating(ticket: Ticket) -> Rating:
    """The skill ``ticket`` was opened with."""
    return Rating(ticket.mu, ticket.sigma)


def band(waited: float) -> float:
    """The widest skill difference a ticket accepts after ``waited`` seconds."""
    return BAND_START + BAND_STEP * math.floor(max(0.0, waited) / BAND_EVERY)


def apart(a: Ticket, b: Ticket) -> bool:
    """Whether ``a`` and ``b`` may never sit together (one player, or a block either way)."""
    return a.player_id == b.player_id or b.player_id in a.avoid or a.player_id in b.avoid


def groups(tickets: Iterable[Ticket], now: float) -> list[Group]:
    """The tables to make now from one pool's waiting ``tickets``."""
    waiting = sorted(tickets, key=lambda t: (t.at, t.ticket_id))
    taken: set[str] = set()
    found: list[Group] = []
    for anchor in waiting:
        if anchor.ticket_id in taken:
            continue
        free = [t for t in waiting if t.ticket_id not in taken]
        chosen = _around(anchor, free, band(now - anchor.at))
        expired = now - anchor.at >= anchor.wait_seconds
        if len(chosen) == anchor.seats or expired:
            taken.update(t.ticket_id for t in chosen)
            found.append(Group(tuple(chosen), anchor.seats - len(chosen)))
    return found


def _around(anchor: Ticket, free: Sequence[Ticket], width: float) -> list[Ticket]:
    """``anchor`` and the nearest compatible tickets whose span stays within ``width``."""
    at = rating(anchor).ordinal
    near = sorted(
        (t for t in free if t is not anchor),
        key=lambda t: (abs(rating(t).ordinal - at), t.at, t.ticket_id),
    )
    chosen = [anchor]
    low = high = at
    for other in near:
        if len(chosen) == anchor.seats:
            break
        value = rating(other).ordinal
        if abs(value - at) > width:
            break  # sorted by distance: none further on fits either
        if max(high, value) - min(low, value) > width:
            continue
        if any(apart(other, t) for t in chosen):
            continue
        chosen.append(other)
        low, high = min(low, value), max(high, value)
    return chosen
