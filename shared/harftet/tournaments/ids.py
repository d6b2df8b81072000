"""Tournament and tournament-table ids. A tournament's tables have ids made of the
tournament, the round and the table's index (``<cell>.tn<id>r<round>t<index>``): a
round-starter that died half-way makes the same tables again (a conditional put each: made
once), and the game-end hook knows a tournament table, and which, from its id alone."""

from __future__ import annotations

import hashlib
import re
import secrets

ID = re.compile(r"[0-9a-f]{12}")
TABLE = re.compile(r"(?:[a-z][a-z0-9]{0,7}\.)?tn([0-9a-f]{12})r([1-9])t([0-9]{1,4})")


def new_tournament_id() -> str:
    return secrets.token_hex(6)


def next_id(tid: str) -> str:
    """The id of the next tournament of a repeating one (the same for every run that makes
    it: made once)."""
    return hashlib.sha256(f"next:{tid}".encode()).hexdigest()[:12]


def table_id(cell: str, tid: str, round_number: int, index: int) -> str:
    own = f"tn{tid}r{round_number}t{index}"
    return f"{cell}.{own}" if cell else own


def parse_table(table_id: str) -> tuple[str, int, int] | None:
    """(tournament, round, index) of a tournament table's id; None: not one."""
    found = TABLE.fullmatch(table_id)
    if found is None:
        return None
    return found[1], int(found[2]), int(found[3])
