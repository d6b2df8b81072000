"""Errors of the storage layer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harftet.errors import NotFoundError

if TYPE_CHECKING:
    from .table_items import StoredTable


class NoAccountError(NotFoundError):
    """No player item: the player never existed or was deleted."""


class VersionConflictError(Exception):
    """Somebody else wrote the table first; ``current`` is the table as it is now."""

    def __init__(self, current: StoredTable | None) -> None:
        super().__init__("the table changed since it was read")
        self.current = current


class HeldLimitError(Exception):
    """The player already holds as many running correspondence tables as anybody may
    (``harftet.store.holdings``); nothing was written."""

    def __init__(self, player_id: str, held: int) -> None:
        super().__init__(f"{player_id} already holds {held} correspondence tables")
        self.player_id = player_id
        self.held = held
