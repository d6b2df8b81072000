"""A lay that ends the turn (issue 40, API.md ``"pass": true``) through the app on the fakes:
the lay and the pass are stored as one version — one record on the tables' stream, so one
push per connection — where a lay and a pass sent apart are two."""

from __future__ import annotations

from service_helpers import player

from harftet.bootstrap import App
from harftet.engine.moves import Lay, Pass
from harftet.engine.options import TableOptions
from harftet.engine.state import Placed
from harftet.identity import Caller

RUN = [0, 1, 2]  # Kastet red 1, 2, 3 (copy 0)


def started(app: App) -> tuple[str, Caller, int]:
    """A started two-person Kastet table whose player in turn holds the red run 1-2-3."""
    callers = [player(app, f"Oyuncu{i}") for i in range(2)]
    table_id = app.tables.create_table(
        callers[0], TableOptions(game="kastet", seats=2, hands=2), seed=11
    )["tableId"]
    app.tables.sit(callers[1], table_id, 1)
    app.tables.start(callers[0], table_id)
    stored = app.stores.tables.get(table_id)
    table = stored.table.clone()
    seat = table.turn_seat
    assert seat is not None
    hand = table.seats[seat].hand
    for t in RUN:  # swap the run's tiles into the hand, wherever they were
        if t in hand:
            continue
        holder = table.pile if t in table.pile else table.seats[1 - seat].hand
        spare = next(x for x in hand if x not in RUN)
        holder[holder.index(t)], hand[hand.index(spare)] = spare, t
    app.stores.tables.save(stored, table)
    return table_id, callers[seat], seat


def stored_versions(app: App) -> int:
    return len(app.stores.tables.stream)


def test_a_lay_that_ends_the_turn_is_one_stored_version_where_apart_they_are_two(app):
    run = (tuple(Placed(t) for t in RUN),)
    table_id, caller, seat = started(app)
    version = app.tables.view(caller, table_id)["version"]
    before = stored_versions(app)
    view = app.tables.move(caller, table_id, version, "lp", Lay(series=run, end_turn=True))
    assert stored_versions(app) - before == 1
    assert view["version"] == version + 1 and view["turn"]["seat"] == 1 - seat
    assert not {t["id"] for t in view["hand"]} & set(RUN)

    apart, caller2, _ = started(app)
    version = app.tables.view(caller2, apart)["version"]
    before = stored_versions(app)
    app.tables.move(caller2, apart, version, "l", Lay(series=run))
    app.tables.move(caller2, apart, version + 1, "p", Pass())
    assert stored_versions(app) - before == 2
