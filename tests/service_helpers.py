"""Small builders for the application's tests."""

from __future__ import annotations

from typing import Any

from harftet.identity import Caller


def player(app: Any, name: str) -> Caller:
    """A new guest player, as the caller their token names."""
    created = app.guests.create_player(name)
    return app.tokens.verify(created["token"])


def full_table(
    app: Any, game: str = "kastet", seats: int = 4, **options: Any
) -> tuple[str, list[Caller]]:
    """A started table with ``seats`` human players; returns its id and the players by seat."""
    callers = [player(app, f"Oyuncu{i}") for i in range(seats)]
    view = app.tables.create_table(
        callers[0],
        game=game,
        seats=seats,
        hands=options.get("hands", 1),
        partners=options.get("partners", False),
        turn_seconds=options.get("turn_seconds", 45),
        seed=options.get("seed", 7),
    )
    table_id = view["tableId"]
    for i, caller in enumerate(callers[1:], start=1):
        app.tables.sit(caller, table_id, i)
    app.tables.start(callers[0], table_id)
    return table_id, callers


def turn_player(app: Any, table_id: str, callers: list[Caller]) -> tuple[Caller, dict]:
    """Whose turn it is, and the table as they see it."""
    view = app.tables.view(callers[0], table_id)
    caller = callers[view["turn"]["seat"]]
    return caller, app.tables.view(caller, table_id)
