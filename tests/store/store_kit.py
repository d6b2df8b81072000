"""Tables for the stores' tests (tests/store/test_fakes*.py), made by the engine's own rules."""

from __future__ import annotations

from typing import Any

from harftet.engine import table as life
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant, Table

NOW = 1_800_000_000.0


def waiting(
    table_id: str = "t-fake", manager: str = "p0", now: float = NOW, **options: Any
) -> Table:
    """A waiting table of two seats, ``manager`` at seat 0."""
    chosen = TableOptions("kastet", **{"seats": 2, "turn_seconds": 30, **options})
    return life.new_table(table_id, Occupant(manager, "Ayşe"), chosen, seed=5, now=now)


def correspondence(table_id: str, manager: str, now: float = NOW) -> Table:
    """A waiting correspondence table (turns of an hour)."""
    return waiting(table_id, manager, now, pace="correspondence", turn_seconds=3600)


def seated(table: Table, player_id: str = "p1", now: float = NOW + 1) -> Table:
    return life.sit(table, 1, Occupant(player_id, "Ben"), now).table


def started(table: Table, now: float = NOW + 2) -> Table:
    """``table`` with seat 1 taken and started by its manager."""
    manager = table.manager
    assert manager is not None
    return life.start(seated(table, now=now), manager, now).table
