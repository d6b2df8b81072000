"""Who a table concerns, by the rules: whose turn it is, who sits there, who is a member of it
(its players' lists show it), and who holds it as a running correspondence table (RULES §6).
Pure functions of a table."""

from __future__ import annotations

from .seats import TAG_CHARS
from .state import Table
from .table import BOT_PREFIX

WAITING_SECONDS = 24 * 3600  # a waiting table leaves the lobby (and every list) after a day


DELETED_PREFIX = "deleted-"  # a deleted player's anonymous id at the tables they sat at
DELETED_NAME = "Silinmiş oyuncu"  # and their name there (tables/forget.py); clients say their own


def is_deleted(player_id: str, name: str) -> bool:
    """Whether a listed player was deleted: their anonymous id (tables/forget.py), or an entry
    that kept no name (every player has one); nobody answers to either any more."""
    return player_id.startswith(DELETED_PREFIX) or not name


def your_turn(table: Table, player_id: str) -> bool:
    """Whether it is ``player_id``'s turn at a table in play."""
    if table.status != "playing" or table.turn_seat is None:
        return False
    occupant = table.seats[table.turn_seat].occupant
    return occupant is not None and occupant.player_id == player_id


def members(table: Table) -> list[str]:
    """The people whose lists show ``table``: who sits there, and who held a seat this game
    and may come back (a dropped owner, a leaver)."""
    found: dict[str, None] = {}
    for chair in table.seats:
        for person in (chair.occupant, chair.original):
            if person is not None and not person.bot:
                found[person.player_id] = None
    for pid in table.former:  # items stored before 656aa80 keep leavers' ids; later, tags
        if not pid.startswith(BOT_PREFIX) and not _is_tag(pid):
            found[pid] = None
    return list(found)


def _is_tag(key: str) -> bool:
    """Whether a ``former`` key is a leaver's keyed tag (seats.tag), not a player id: a tag is
    never anyone's id, so nobody's inbox or notification may be written for it."""
    return len(key) == TAG_CHARS and "." not in key


def has_left(table: Table, player_id: str) -> bool:
    """Whether ``player_id`` left their seat during this game and sits at none now: the table
    goes on, or has ended, without them (their inbox reads it so)."""
    if any(s.occupant is not None and s.occupant.player_id == player_id for s in table.seats):
        return False
    return any(
        s.original is not None and s.original.player_id == player_id and s.original_fate == "left"
        for s in table.seats
    )


def seated(table: Table | None) -> set[str]:
    """The people a table shows "at a table": seated at it while it has not finished."""
    if table is None or table.status == "finished":
        return set()
    return {
        seat.occupant.player_id
        for seat in table.seats
        if seat is not None and seat.occupant is not None and not seat.occupant.bot
    }


def holders(table: Table, now: float) -> frozenset[str]:
    """The players who hold ``table`` as one of their running correspondence tables: its
    seated people and the owner of a seat a computer player keeps for them (they may take it
    back); nobody once it is over, or once a waiting table has left the lobby."""
    if table.pace != "correspondence" or table.status == "finished":
        return frozenset()
    if table.status == "waiting" and table.created_at <= now - WAITING_SECONDS:
        return frozenset()
    found: set[str] = set()
    for chair in table.seats:
        if chair.occupant is not None and not chair.occupant.bot:
            found.add(chair.occupant.player_id)
        original = chair.original
        if original is not None and not original.bot and chair.original_fate == "dropped":
            found.add(original.player_id)  # their seat, played by a computer player for now
    return frozenset(found)


def name_in(table: Table, player_id: str) -> str:
    """The player's name as the table shows it ("" when not there)."""
    for seat in table.seats:
        for who in (seat.occupant, seat.original):
            if who is not None and who.player_id == player_id:
                return who.name
    return ""
