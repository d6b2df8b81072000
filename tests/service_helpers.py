"""Small builders for the application's tests."""

from __future__ import annotations

from typing import Any

from harftet.engine.options import TableOptions
from harftet.identity import Caller
from harftet.store.holdings import ADDS, HELD


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
        TableOptions(
            game=game,
            seats=seats,
            hands=options.get("hands", 1),
            partners=options.get("partners", False),
            turn_seconds=options.get("turn_seconds", 45),
        ),
        seed=options.get("seed", 7),
    )
    table_id = view["tableId"]
    for i, caller in enumerate(callers[1:], start=1):
        app.tables.sit(caller, table_id, i)
    app.tables.start(callers[0], table_id)
    return table_id, callers


def play_out(app: Any, table_id: str, callers: list[Any]) -> None:
    """Draws and passes until the (one-hand) game is over."""
    from harftet.engine.moves import Draw, Pass

    for i in range(80):
        table = app.stores.tables.get(table_id).table
        if table.status == "finished":
            return
        seat = table.turn_seat
        move = Draw() if len(table.seats[seat].hand) < 22 and table.pile else Pass()
        app.tables.move(
            callers[seat], table_id, app.stores.tables.get(table_id).version, f"m{i}", move
        )
    raise AssertionError("the game never ended")


def turn_player(app: Any, table_id: str, callers: list[Caller]) -> tuple[Caller, dict]:
    """Whose turn it is, and the table as they see it."""
    view = app.tables.view(callers[0], table_id)
    caller = callers[view["turn"]["seat"]]
    return caller, app.tables.view(caller, table_id)


def corr_options(**options: Any) -> TableOptions:
    """A correspondence table's options: Kastet, two seats, one hand, an hour a turn, unless
    ``options`` say otherwise."""
    base = {"game": "kastet", "seats": 2, "hands": 1, "turn_seconds": 3600}
    return TableOptions(**{**base, **options, "pace": "correspondence"})


# -- correspondence tables and who holds them (RULES §6) --------------------------------
def corr_table(app: Any, who: Caller, seats: int = 2) -> str:
    options = corr_options(seats=seats)
    return str(app.tables.create_table(who, options, seed=11)["tableId"])


def held_by(app: Any, who: Caller) -> set[str]:
    """The tables the player item says ``who`` holds."""
    return set(app.stores.players.get(who.player_id).get(HELD) or ())


def adds_of(app: Any, who: Caller) -> int:
    return int(app.stores.players.get(who.player_id).get(ADDS) or 0)


def sitting_at(app: Any, who: Caller, table_ids: list[str]) -> set[str]:
    """Of ``table_ids``, those where ``who`` sits (the truth the set must match)."""
    return {
        t for t in table_ids if app.stores.tables.get(t).table.seat_of(who.player_id) is not None
    }


def hold_tables(app: Any, who: Caller, count: int) -> list[str]:
    """``who`` joins ``count`` waiting correspondence tables of other players."""
    made = []
    for i in range(count):
        host = player(app, f"Ev{i}")
        table_id = corr_table(app, host)
        app.tables.sit(who, table_id, 1)
        made.append(table_id)
    return made


def finish(app: Any, table_id: str, penalties: list[int]) -> None:
    """End the game at ``table_id`` with these total penalties, through the one write path
    and the engine's own settlement (its rating changes and what a game's end writes ride in
    the table's own save, as in play)."""
    from harftet.engine.effects import changed
    from harftet.engine.scoring import settle

    def change(table: Any, now: float) -> Any:
        new = table.clone()
        new.recent = []
        for seat, penalty in zip(new.seats, penalties, strict=True):
            seat.penalty = penalty
        new.status = "finished"
        return changed(new, settle(new))

    app.writer.write(table_id, change)
