"""Small builders for service tests."""

from __future__ import annotations

from typing import Any

from harftet.identity import Caller


def player(service: Any, name: str) -> Caller:
    """A new guest player, as the caller their token names."""
    created = service.create_player(name)
    return service.tokens.verify(created["token"])


def full_table(
    service: Any, game: str = "kastet", seats: int = 4, **options: Any
) -> tuple[str, list[Caller]]:
    """A started table with ``seats`` human players; returns its id and the players by seat."""
    callers = [player(service, f"Oyuncu{i}") for i in range(seats)]
    view = service.create_table(
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
        service.sit(caller, table_id, i)
    service.start(callers[0], table_id)
    return table_id, callers


def turn_player(service: Any, table_id: str, callers: list[Caller]) -> tuple[Caller, dict]:
    """Whose turn it is, and the table as they see it."""
    view = service.view(callers[0], table_id)
    caller = callers[view["turn"]["seat"]]
    return caller, service.view(caller, table_id)
