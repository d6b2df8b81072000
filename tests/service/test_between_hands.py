"""Table options, the break between hands, hint budgets and deal proofs through the app
(RULES §2a, §4a, §4b, §5a; API.md v3), over the in-memory stores."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from leaks import tile_ids
from service_helpers import corr_options, player

from harftet.bootstrap import App
from harftet.engine import search
from harftet.engine.errors import EngineError, NoHintsLeftError, WrongStatusError
from harftet.engine.moves import Draw, Lay, Pass, Ready
from harftet.engine.options import TableOptions
from harftet.engine.state import Placed
from harftet.errors import STATUS
from harftet.identity import Caller

RUN_RED = [0, 1, 2]  # Kastet red 1, 2, 3 (copy 0)
RUN_BLUE = [30, 31, 32]  # Kastet blue 5, 6, 7


def table_of(app: App, seats: int = 2, **options: Any) -> tuple[str, list[Caller]]:
    """A started Kastet table of ``seats`` people with ``options``."""
    callers = [player(app, f"Oyuncu{i}") for i in range(seats)]
    chosen = TableOptions(game="kastet", seats=seats, **{"hands": 2, **options})
    view = app.tables.create_table(callers[0], chosen, seed=11)
    for i, caller in enumerate(callers[1:], start=1):
        app.tables.sit(caller, view["tableId"], i)
    app.tables.start(callers[0], view["tableId"])
    return view["tableId"], callers


def rig(app: App, table_id: str, seat: int, ids: list[int]) -> None:
    """Give ``seat`` exactly the tiles ``ids`` (swapped with wherever they were)."""
    stored = app.stores.tables.get(table_id)
    table = stored.table.clone()
    mine = table.seats[seat].hand
    spare = [t for t in mine if t not in ids]
    for t in ids:
        if t in mine:
            continue
        holder = table.pile if t in table.pile else next(s.hand for s in table.seats if t in s.hand)
        holder[holder.index(t)] = spare.pop()
    table.pile += spare  # the rest of the rack goes to the pile: every tile in one place
    table.seats[seat].hand = list(ids)
    app.stores.tables.save(stored, table)


def in_turn(app: App, table_id: str, callers: list[Caller]) -> tuple[int, Caller]:
    seat = app.tables.view(callers[0], table_id)["turn"]["seat"]
    return seat, callers[seat]


def act(app: App, caller: Caller, table_id: str, move: Any, tag: str) -> dict[str, Any]:
    version = app.tables.view(caller, table_id)["version"]
    return app.tables.move(caller, table_id, version, tag, move)


def finish_hand(app: App, table_id: str, callers: list[Caller]) -> dict[str, Any]:
    """The player in turn lays their whole (rigged) hand and passes: the hand ends."""
    seat, caller = in_turn(app, table_id, callers)
    rig(app, table_id, seat, RUN_RED)
    act(app, caller, table_id, Lay(series=(tuple(Placed(t) for t in RUN_RED),)), "lay")
    return act(app, caller, table_id, Pass(), "finish")


@pytest.fixture
def two_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A search that proposes laying the red run, then the blue one: two melds."""
    asked: list[int] = []

    def fake(table: Any, seat: int) -> search.Proposal:
        asked.append(seat)
        lay = Lay(series=(tuple(map(Placed, RUN_RED)), tuple(map(Placed, RUN_BLUE))))
        return search.Proposal(lay=lay, shed=6 + 18, tiles=tuple(RUN_RED + RUN_BLUE))

    monkeypatch.setattr(search, "hint", fake, raising=False)
    return asked


# --- options -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"break_seconds": 4}, "breakSeconds"),
        ({"grace_seconds": 29}, "graceSeconds"),
        ({"wait_seconds": 601}, "waitSeconds"),
        ({"turn_seconds": 9}, "turnSeconds"),
        ({"hints": 21}, "hints"),
        ({"hints": "unlimited"}, "hints"),
        ({"pace": "correspondence", "turn_seconds": 45}, "turnSeconds"),
    ],
)
def test_options_out_of_bounds_are_refused_naming_the_field_outside_test_mode(
    app: App, options: dict[str, Any], field: str
) -> None:
    app.tables.test_mode = False
    ayse = player(app, "Ayşe")
    chosen = TableOptions(game="kastet", seats=2, hands=1, **{"turn_seconds": 45, **options})
    with pytest.raises(EngineError, match=field) as refused:
        app.tables.create_table(ayse, chosen)
    assert STATUS[refused.value.code] == 400 and refused.value.code == "bad_request"
    assert app.tables.lobby()["tables"] == []


def test_test_mode_goes_below_the_bounds_and_the_view_shows_every_option(
    app: App,
) -> None:
    ayse = player(app, "Ayşe")
    view = app.tables.create_table(
        ayse,
        TableOptions(
            game="harftet",
            seats=2,
            hands=3,
            turn_seconds=2,
            break_seconds=0,
            grace_seconds=3,
            wait_seconds=4,
            hints="unlimited",
            rated=False,
        ),
    )
    assert (view["turnSeconds"], view["breakSeconds"]) == (2, 0)
    assert (view["graceSeconds"], view["waitSeconds"]) == (3, 4)
    assert (view["hints"], view["rated"], view["pace"]) == ("unlimited", False, "live")
    assert view["hintsLeft"] is None and view["dealProof"] is None and "break" not in view
    mail = app.tables.create_table(
        ayse,
        corr_options(turn_seconds=86400, hints=5),
    )
    assert (mail["pace"], mail["turnSeconds"], mail["hints"], mail["hintsLeft"]) == (
        "correspondence", 86400, 5, 5,
    )  # fmt: skip


def test_an_unrated_table_changes_no_rating(app: App) -> None:
    table_id, callers = table_of(app, hands=1, rated=False)
    finish_hand(app, table_id, callers)
    view = app.tables.view(callers[0], table_id)
    assert view["status"] == "finished" and view["practice"] is True
    assert [app.guests.player(c.player_id)["rating"] for c in callers] == [1000, 1000]
    assert [app.guests.player(c.player_id)["gamesPlayed"] for c in callers] == [0, 0]


# --- the break between hands ---------------------------------------------------------------


def test_a_hand_ends_in_a_break_with_no_clock_and_no_deal_before_it_ends(
    app: App, clock: Any, outbox: Any
) -> None:
    table_id, callers = table_of(app, break_seconds=30)
    ended = finish_hand(app, table_id, callers)
    assert ended["handNumber"] == 1 and ended["turn"] is None  # no clock runs
    assert ended["break"] == {"until": clock.now + 30, "ready": []}
    assert [r["hand"] for r in ended["handResults"]] == [1] and ended["series"]  # in view
    proof = ended["dealProof"]
    for caller in callers:
        with pytest.raises(WrongStatusError, match="after the break"):
            act(app, caller, table_id, Draw(), "early")
    clock.advance(29)
    still = app.tables.view(callers[1], table_id)
    assert still["handNumber"] == 1 and still["break"]["until"] == clock.now + 1
    clock.advance(1)
    dealt = app.tables.view(callers[1], table_id)  # the break is over: the next hand
    assert dealt["handNumber"] == 2 and "break" not in dealt and dealt["series"] == []
    assert dealt["turn"]["deadline"] == clock.now + 45  # the opener's clock starts at the deal
    assert dealt["dealProof"] != proof and len(dealt["dealProof"]) == 64


def test_ready_from_everyone_deals_the_next_hand_at_once(app: App, clock: Any) -> None:
    table_id, callers = table_of(app, seats=3)
    finish_hand(app, table_id, callers)
    clock.advance(2)
    one = act(app, callers[0], table_id, Ready(), "r0")
    assert one["break"]["ready"] == [0] and one["handNumber"] == 1
    again = app.tables.move(callers[0], table_id, one["version"], "r0b", Ready())
    assert again["version"] == one["version"]  # said twice: nothing more
    two = act(app, callers[2], table_id, Ready(), "r2")
    assert two["break"]["ready"] == [0, 2]
    clock.advance(1)
    dealt = act(app, callers[1], table_id, Ready(), "r1")
    assert dealt["handNumber"] == 2 and "break" not in dealt
    assert dealt["turn"]["deadline"] == clock.now + 45
    with pytest.raises(WrongStatusError, match="no break"):
        act(app, callers[1], table_id, Ready(), "late")


def test_ready_outside_a_break_is_wrong_status(app: App) -> None:
    table_id, callers = table_of(app)
    with pytest.raises(WrongStatusError):
        act(app, callers[0], table_id, Ready(), "r")


# --- hints ------------------------------------------------------------------------------


def test_each_hint_reveals_one_meld_and_costs_one_until_none_are_left(
    app: App, two_runs: list[int]
) -> None:
    table_id, callers = table_of(app, hints=2)
    seat, me = in_turn(app, table_id, callers)
    rig(app, table_id, seat, RUN_RED + RUN_BLUE + [104])
    other = callers[1 - seat]
    theirs = {t["id"] for t in app.tables.view(other, table_id)["hand"]}
    before = app.tables.view(me, table_id)
    assert before["hintsLeft"] == 2
    first = app.hints.hint(me, table_id)
    assert first["meld"] == [{"id": t, "from": "hand"} for t in RUN_RED]
    assert first["lay"] is None and first["shed"] == 24 and first["tiles"] == RUN_RED
    assert first["hintsLeft"] == 1 and first["version"] == before["version"] + 1
    assert first["area"] == "series" and first["revealed"] == 1
    assert app.tables.view(me, table_id)["hintsLeft"] == 1
    assert app.tables.view(other, table_id)["hintsLeft"] == 2  # budgets are per player
    second = app.hints.hint(me, table_id)
    assert [t["id"] for t in second["meld"]] == RUN_BLUE and second["hintsLeft"] == 0
    assert second["tiles"] == sorted(RUN_RED + RUN_BLUE) and second["revealed"] == 2
    again = app.hints.hint(me, table_id, reveal=1)  # a retry of a meld paid for: free
    assert again["meld"] == first["meld"] and again["version"] == second["version"]
    with pytest.raises(NoHintsLeftError, match="2 hints") as spent:
        app.hints.hint(me, table_id)
    assert STATUS[spent.value.code] == 409 and spent.value.code == "no_hints_left"
    assert app.tables.view(me, table_id)["version"] == second["version"]  # nothing changed
    for answer in (first, second, again):  # only the caller's own tiles (RULES §5)
        assert not tile_ids(answer) & theirs and not set(answer["tiles"]) & theirs
    assert not tile_ids(app.tables.view(other, table_id)) & set(RUN_RED + RUN_BLUE)


def test_hints_are_counted_per_hand(app: App, two_runs: list[int]) -> None:
    table_id, callers = table_of(app, hints=1, break_seconds=5)
    seat, me = in_turn(app, table_id, callers)
    rig(app, table_id, seat, RUN_RED + RUN_BLUE + [104])
    app.hints.hint(me, table_id)
    with pytest.raises(NoHintsLeftError):
        app.hints.hint(me, table_id)
    finish = finish_hand(app, table_id, callers)
    with pytest.raises(WrongStatusError):  # no hints in the break
        app.hints.hint(me, table_id)
    assert finish["hintsLeft"] == 0 and finish["seat"] == seat
    for i, caller in enumerate(callers):
        act(app, caller, table_id, Ready(), f"ready{i}")
    assert [app.tables.view(c, table_id)["hintsLeft"] for c in callers] == [1, 1]


def test_unlimited_hints_give_the_whole_lay_and_store_nothing(
    app: App, two_runs: list[int]
) -> None:
    table_id, callers = table_of(app, hints="unlimited", rated=False)
    seat, me = in_turn(app, table_id, callers)
    rig(app, table_id, seat, RUN_RED + RUN_BLUE + [104])
    version = app.tables.view(me, table_id)["version"]
    for _ in range(3):
        hint = app.hints.hint(me, table_id)
        assert hint["version"] == version and hint["hintsLeft"] is None
        series = [[{"id": t} for t in RUN_RED], [{"id": t} for t in RUN_BLUE]]
        assert hint["lay"] == {"series": series, "pairs": []}
        assert hint["tiles"] == RUN_RED + RUN_BLUE


# --- deal proofs --------------------------------------------------------------------------


def test_the_view_commits_to_each_deal_and_the_replay_reveals_what(app: App, clock: Any) -> None:
    table_id, callers = table_of(app, break_seconds=5)
    proofs = [app.tables.view(callers[0], table_id)["dealProof"]]
    assert app.tables.view(None, table_id)["dealProof"] == proofs[0]  # spectators see it too
    finish_hand(app, table_id, callers)
    clock.advance(5)
    proofs.append(app.tables.view(callers[0], table_id)["dealProof"])
    finish_hand(app, table_id, callers)
    replay = app.records.replay(callers[0], table_id)
    assert [h["dealProof"] for h in replay["hands"]] == proofs
    for number, hand in enumerate(replay["hands"], start=1):
        committed = hand["committed"]
        assert hashlib.sha256(committed.encode()).hexdigest() == hand["dealProof"]
        assert committed == f"harftet-deal-v1|{replay['salt']}|{replay['seed']}:{number}"
    assert len(replay["salt"]) == 32  # 128 bits, never shown before the end
    for view in (app.tables.view(callers[0], table_id), replay["table"]):
        assert replay["salt"] not in str(view)


# --- pushes ------------------------------------------------------------------------------


def test_pushes_after_a_hint_and_in_the_break_show_only_each_players_own_tiles(
    app: App, outbox: Any, live: Any, clock: Any, two_runs: list[int]
) -> None:
    table_id, callers = table_of(app, hints=2, break_seconds=7)
    seat, me = in_turn(app, table_id, callers)
    rig(app, table_id, seat, RUN_RED + RUN_BLUE + [104])
    for i, caller in enumerate(callers):
        app.sockets.connect(caller, table_id, f"c{i}")
    app.sockets.connect(player(app, "Seyirci"), table_id, "watch")
    live.pump()
    outbox.sent.clear()
    hint = app.hints.hint(me, table_id)
    live.pump()
    other = 1 - seat
    theirs = {t["id"] for t in app.tables.view(callers[other], table_id)["hand"]}
    mine = set(RUN_RED + RUN_BLUE + [104])
    [to_me] = outbox.to(f"c{seat}")
    [to_them] = outbox.to(f"c{other}")
    [watched] = outbox.to("watch")
    assert to_me["view"]["version"] == hint["version"] and to_me["view"]["hintsLeft"] == 1
    assert to_them["view"]["hintsLeft"] == 2 and watched["view"]["hintsLeft"] is None
    assert not tile_ids(to_them) & mine and not tile_ids(watched) & (mine | theirs)
    assert tile_ids(to_me) <= mine  # the hint's meld is in the answer, never in a push
    outbox.sent.clear()
    ended = finish_hand(app, table_id, callers)
    live.pump()
    assert ended["break"]["until"] in [t.due for t in live.timers.scheduled]  # the timer
    for i in range(2):
        pushed = outbox.to(f"c{i}")[-1]["view"]
        assert pushed["break"] == ended["break"] and pushed["turn"] is None
        own = {t["id"] for t in pushed["hand"]}
        table = tile_ids(pushed["series"]) | tile_ids(pushed["handResults"])
        assert tile_ids(pushed) <= own | table  # the racks turned over, nothing else
        assert pushed["dealProof"] == ended["dealProof"]
