"""What a deleted player leaves at the tables they sat at (RULES §7): a running table is left
as RULES §4 says (a voluntary leave), and at every table — finished ones too — the player's
id becomes an anonymous one and their name "Silinmiş oyuncu", in the table and in its log."""

from __future__ import annotations

import dataclasses
import secrets
from typing import TYPE_CHECKING, Any

from harftet.engine import table as life
from harftet.engine.effects import Outcome
from harftet.engine.state import Occupant, Table
from harftet.store.errors import NotFoundError

if TYPE_CHECKING:
    from harftet.service import Service

DELETED_NAME = "Silinmiş oyuncu"  # "deleted player": shown on the seat, in any language
REPLAY_EVENTS = 100_000


def anonymous_id() -> str:
    return "deleted-" + secrets.token_hex(8)


def _swap(value: Any, player_id: str, anon: str) -> Any:
    """``value`` with every occurrence of ``player_id`` (as a string, a key or an occupant)
    replaced by ``anon`` and the occupant's name by DELETED_NAME."""
    if isinstance(value, str):
        return anon if value == player_id else value
    if isinstance(value, Occupant):
        if value.player_id != player_id:
            return value
        return dataclasses.replace(value, player_id=anon, name=DELETED_NAME)
    if isinstance(value, dict):
        if value.get("playerId") == player_id and "name" in value:
            value = {**value, "name": DELETED_NAME}
        return {_swap(k, player_id, anon): _swap(v, player_id, anon) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, player_id, anon) for v in value]
    if isinstance(value, tuple):
        return tuple(_swap(v, player_id, anon) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: _swap(getattr(value, f.name), player_id, anon)
            for f in dataclasses.fields(value)
        }
        return dataclasses.replace(value, **changes)
    return value


def _mentions(value: Any, player_id: str) -> bool:
    return _swap(value, player_id, "\0") != value


def anonymized(table: Table, player_id: str, anon: str) -> Table:
    swapped: Table = _swap(table.clone(), player_id, anon)
    return swapped


def forget_at_table(service: Service, player_id: str, table_id: str) -> None:
    """Leave ``table_id`` if the player still sits there, then anonymise them in it."""
    anon = anonymous_id()

    def change(table: Table, now: float) -> Outcome:
        if table.seat_of(player_id) is not None and table.status != "finished":
            left = life.leave(table, player_id, now)
            return dataclasses.replace(
                left,
                table=anonymized(left.table, player_id, anon),
                events=_swap(left.events, player_id, anon),
            )
        if not _mentions(table, player_id):
            return Outcome(table)
        return Outcome(anonymized(table, player_id, anon))

    try:
        service._write(table_id, change)
    except NotFoundError:
        return  # the table is gone (expired): nothing of the player is left there
    if service.log is None:
        return
    events = service.log.after(table_id, 0, limit=REPLAY_EVENTS)
    changed = [_swap(e, player_id, anon) for e in events if _mentions(e, player_id)]
    if changed:
        service.log.append(table_id, changed)
