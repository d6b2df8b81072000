"""The table view: the only picture of a table a client ever gets (API.md, RULES.md §5).

A seated player sees their own hand and everybody's tile counts; anybody else sees the
spectator view. No view ever holds another hand's tiles, the pile order or the seed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from engine_helpers import NOW, WORDS, arrange, k, lay, letter_ids, meld, past_break, play, rules_of
from hypothesis import given, settings
from hypothesis import strategies as st
from leaks import tile_ids

from harftet.engine import table as life
from harftet.engine.bot import choose_move
from harftet.engine.hand import apply_move
from harftet.engine.moves import Pass
from harftet.engine.options import TableOptions
from harftet.engine.state import Occupant, Table
from harftet.engine.view import lobby_status, lobby_summary, table_view

SEED = 918_273_645_546_372_819  # long and unusual: its digits cannot appear by chance
SEAT_KEYS = {"seat", "playerId", "name", "connected", "bot", "tiles", "penalty"}
VIEW_KEYS = {
    "tableId", "game", "version", "status", "manager", "hands", "handNumber", "partners",
    "turnSeconds", "seats", "turn", "pile", "series", "pairs", "handResults", "result",
    "hints", "private", "botSeconds", "last",
}  # fmt: skip


def person(i: int | str) -> Occupant:
    pid = f"p{i}" if isinstance(i, int) else i
    return Occupant(pid, f"Oyuncu {pid}")


def new(game: str = "kastet", players: int = 4, **kw: Any) -> Table:
    """A waiting table created by p0 with every seat taken by p0, p1, ..."""
    options = TableOptions(game, seats=players, **kw)  # type: ignore[arg-type]
    table = life.new_table("t1", person(0), options, seed=SEED, now=NOW)
    for i in range(1, players):
        table = life.sit(table, i, person(i), NOW).table
    return table


def started(game: str = "kastet", players: int = 4, **kw: Any) -> Table:
    return life.start(new(game, players, **kw), "p0", NOW).table


def walk(value: Any) -> Iterator[Any]:
    """Every value inside a JSON-like value, the value itself first."""
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from walk(v)


def keys(value: Any) -> set[str]:
    return {k for v in walk(value) if isinstance(v, dict) for k in v}


def on_table(table: Table) -> set[int]:
    return {p.id for m in (*table.series, *table.pairs) for p in m}


def check_secret(table: Table, view: dict[str, Any], viewer: str | None) -> None:
    """Everything RULES.md §5 asks of one viewer's view of ``table``."""
    json.dumps(view)  # the view is plain JSON
    mine = table.seat_of(viewer) if viewer is not None else None
    own = set(table.seats[mine].hand) if mine is not None else set()
    # The one exception (RULES §5): the racks turned over at the end of each hand.
    for shown, result in zip(view["handResults"], table.hand_results, strict=True):
        assert {int(s): [t["id"] for t in ids] for s, ids in shown["left"].items()} == result.left
    rest = {k: v for k, v in view.items() if k != "handResults"}
    assert tile_ids(rest) <= own | on_table(table)
    assert tile_ids(view["handResults"]) <= {
        t for r in table.hand_results for v in r.left.values() for t in v
    }
    if view["last"] is not None:
        assert view["last"] == table.recent[-1]
    if mine is None:
        assert "hand" not in view and "seat" not in view
    else:
        assert view["seat"] == mine
        assert [t["id"] for t in view["hand"]] == table.seats[mine].hand
    assert "seed" not in keys(view) and str(table.seed) not in str(view)
    assert view["pile"] == len(table.pile)
    for i, chair in enumerate(table.seats):
        if view["seats"][i] is not None:
            assert view["seats"][i]["tiles"] == len(chair.hand)
    if len(table.pile) >= 5:
        order = list(table.pile)
        for v in walk(view):
            if isinstance(v, list):
                assert v not in (order, order[::-1])
                assert [t.get("id") for t in v if isinstance(t, dict)] not in (order, order[::-1])


# --- what a seated player and a spectator see ----------------------------------------------


def test_a_seated_player_sees_their_own_hand_and_only_counts_of_the_others() -> None:
    table = started("kastet", 3, hands=2)
    view = table_view(table, "p1")
    assert set(view) >= VIEW_KEYS
    assert view["seat"] == 1
    assert [t["id"] for t in view["hand"]] == table.seats[1].hand
    for tile in view["hand"]:
        assert set(tile) in ({"id", "color", "number"}, {"id", "joker", "as"})
    assert [s["tiles"] for s in view["seats"]] == [14, 14, 14]
    assert all(set(s) >= SEAT_KEYS for s in view["seats"])
    assert [s["playerId"] for s in view["seats"]] == ["p0", "p1", "p2"]
    others = set(table.seats[0].hand) | set(table.seats[2].hand)
    assert not tile_ids(view) & others
    assert view["pile"] == 106 - 42 and not isinstance(view["pile"], list)
    check_secret(table, view, "p1")


def test_a_harftet_hand_shows_letters_values_and_colours() -> None:
    table = started("harftet", 2)
    table = arrange(table, {0: [*letter_ids(["Ş", "AR"]), 104]})
    hand = table_view(table, "p0")["hand"]
    assert hand[0] == {"id": hand[0]["id"], "letter": "Ş", "value": 4, "color": hand[0]["color"]}
    assert hand[1]["letter"] == "AR" and hand[1]["value"] == 2
    assert hand[2] == {"id": 104, "joker": True, "as": None}


def test_a_joker_on_the_table_shows_its_declared_face() -> None:
    table = arrange(started("kastet", 2), {0: [k("red", 1), k("red", 2), 104, k("blue", 9)]})
    table = play(table, 0, lay(meld([k("red", 1), k("red", 2), 104], {104: ("red", 3)})))
    view = table_view(table, None)
    assert view["series"] == [
        [
            {"id": k("red", 1), "color": "red", "number": 1},
            {"id": k("red", 2), "color": "red", "number": 2},
            {"id": 104, "joker": True, "as": {"color": "red", "number": 3}},
        ]
    ]
    assert view["seats"][0]["tiles"] == 1


@pytest.mark.parametrize("viewer", [None, "stranger", "p2"])
def test_a_spectator_sees_counts_but_no_hand_and_no_seat(viewer: str | None) -> None:
    table = started("harftet", 2)
    view = table_view(table, viewer)
    assert "hand" not in view and "seat" not in view
    assert tile_ids(view) == set()
    assert [s["tiles"] for s in view["seats"]] == [14, 14]
    check_secret(table, view, viewer)


@pytest.mark.parametrize("status", ["waiting", "playing", "paused", "finished"])
def test_no_view_holds_the_seed(status: str) -> None:
    table = {
        "waiting": lambda: new("harftet", 3),
        "playing": lambda: started("harftet", 3),
        "paused": lambda: life.leave(started("harftet", 3), "p2", NOW + 1).table,
        "finished": lambda: finished_game(),
    }[status]()
    assert table.seed == SEED
    for viewer in (None, "p0", "p1", "p2", "nobody"):
        view = table_view(table, viewer)
        assert "seed" not in keys(view)
        assert str(SEED) not in str(view) and str(SEED) not in json.dumps(view)
        check_secret(table, view, viewer)


def test_a_vacant_seat_shows_its_tile_count_but_nobody_sees_its_tiles() -> None:
    table = started("kastet", 3)
    hand = set(table.seats[1].hand)
    table = life.leave(table, "p1", NOW + 1).table
    for viewer in (None, "p0", "p1", "p2"):
        view = table_view(table, viewer)
        assert view["seats"][1]["playerId"] is None and view["seats"][1]["tiles"] == 14
        assert not tile_ids(view) & hand
        check_secret(table, view, viewer)
    assert "hand" not in table_view(table, "p1")  # the leaver is a spectator now


def test_a_waiting_table_shows_empty_seats_as_null() -> None:
    table = life.new_table("t9", person(0), TableOptions("kastet", seats=3), seed=SEED, now=NOW)
    view = table_view(table, "p0")
    assert view["seats"][1:] == [None, None]
    assert view["seats"][0]["playerId"] == "p0" and view["hand"] == []
    assert view["handNumber"] == 0 and view["pile"] == 0


# --- the turn -----------------------------------------------------------------------------


def test_while_playing_the_turn_carries_the_deadline() -> None:
    table = started("kastet", 2, turn_seconds=30)
    assert table_view(table, None)["turn"] == {"seat": 0, "laid": False, "deadline": NOW + 30}
    table = arrange(table, {0: [k("red", 1), k("red", 2), k("red", 3), k("blue", 7)]})
    table = play(table, 0, lay(meld([k("red", 1), k("red", 2), k("red", 3)])))
    assert table_view(table, "p1")["turn"] == {"seat": 0, "laid": True, "deadline": NOW + 30}


def test_while_paused_the_turn_has_no_deadline() -> None:
    table = life.leave(started("kastet", 2), "p1", NOW + 1).table
    view = table_view(table, "p0")
    assert view["status"] == "paused"
    assert view["turn"] == {"seat": 0, "laid": False, "deadline": None}


def test_a_waiting_table_has_no_turn() -> None:
    view = table_view(new("kastet", 2), "p0")
    assert view["status"] == "waiting" and view["turn"] is None
    assert view["handResults"] == [] and view["result"] is None


def finished_game() -> Table:
    """A 2-hand Harftet game of 3 whose hands p0 and p1 finish by laying every tile."""
    table = started("harftet", 3, hands=2)
    word = letter_ids("ELMA")
    table = arrange(table, {0: word})
    table = play(table, 0, lay(meld(word)))
    table = past_break(play(table, 0, Pass()))
    word = letter_ids("TUZ")
    table = arrange(table, {1: word}, turn=1)
    table = play(table, 1, lay(meld(word)))
    return play(table, 1, Pass())


def test_a_finished_table_shows_the_result_and_every_hand_and_no_turn() -> None:
    table = finished_game()
    assert table.status == "finished"
    view = table_view(table, "p2")
    assert view["turn"] is None and view["status"] == "finished"
    assert [(r["hand"], r["finisher"]) for r in view["handResults"]] == [(1, 0), (2, 1)]
    assert view["handResults"][0]["penalties"][0] == -50
    first, second = view["handResults"]
    assert first["left"]["0"] == [] and second["left"]["1"] == []  # the finishers
    assert [t["id"] for t in first["left"]["2"]] == sorted(table.hand_results[0].left[2])
    assert len(second["left"]["2"]) == 14 and {"letter", "value"} <= set(second["left"]["2"][0])
    assert view["last"] == table.recent[-1] and view["last"]["type"] == "gameEnd"
    assert view["result"] == table.result and table.result is not None
    assert set(view["result"]) == {"penalties", "points", "ratings"}
    assert view["result"]["ratings"] == dict(
        zip(["p0", "p1", "p2"], view["result"]["points"], strict=True)
    )
    json.dumps(view)


# --- options, computer players and the latest event ---------------------------------------


def test_the_view_shows_the_table_options_and_each_computer_players_level() -> None:
    table = life.new_table(
        "t9",
        person(0),
        TableOptions("kastet", seats=3, hints=False, private=True, bot_seconds=3),
        seed=SEED,
        now=NOW,
    )
    table = life.seat_bot(table, 1, "p0", NOW, level="easy").table
    table = life.seat_bot(table, 2, "p0", NOW).table
    view = table_view(table, None)
    assert (view["hints"], view["private"], view["botSeconds"]) == (False, True, 3)
    assert [s.get("level") for s in view["seats"]] == [None, "easy", "medium"]
    assert "level" not in view["seats"][0]
    assert view["last"] == {
        "seq": 3, "at": NOW, "hand": 0, "seat": 2, "type": "bot", "playerId": "bot:2",
        "name": "Bilgisayar 3", "level": "medium",
    }  # fmt: skip
    default = table_view(new("kastet", 2), None)
    assert (default["hints"], default["private"], default["botSeconds"]) == (3, False, 1)


def test_the_last_event_names_who_did_what_and_never_the_drawn_tile() -> None:
    table = started("kastet", 2)
    drawn = table.pile[-1]
    table = apply_move(table, 0, choose_move(table, 0, WORDS), NOW + 1).table
    last = table_view(table, "p1")["last"]
    if last["type"] == "draw":
        assert last == {"seq": last["seq"], "at": NOW + 1, "hand": 1, "seat": 0, "type": "draw"}
        assert drawn not in tile_ids(last) and str(drawn) not in json.dumps(last)
    else:
        assert last["type"] == "lay" and set(last["tiles"]) <= on_table(table)


# --- the lobby ----------------------------------------------------------------------------


def test_the_lobby_summary_offers_the_vacant_seats_of_a_paused_table() -> None:
    table = started("kastet", 3)
    assert lobby_summary(table)["vacant"] == [] and lobby_status(table) == "playing"
    table = life.leave(table, "p1", NOW + 1).table
    summary = lobby_summary(table)
    assert summary["vacant"] == [1] and summary["status"] == "paused"
    assert lobby_status(table) == "open" and summary["private"] is False
    assert summary["createdAt"] == NOW
    waiting = life.new_table("t2", person(0), TableOptions("kastet", seats=3), seed=SEED, now=NOW)
    assert lobby_summary(waiting)["vacant"] == [1, 2] and lobby_status(waiting) == "waiting"
    hidden = life.new_table(
        "t3", person(0), TableOptions("kastet", private=True), seed=SEED, now=NOW
    )
    assert lobby_summary(hidden)["private"] is True and lobby_status(hidden) is None
    assert lobby_status(finished_game()) is None and lobby_summary(finished_game())["vacant"] == []


def test_the_lobby_summary_holds_no_tiles_and_no_seed() -> None:
    for table in (new("harftet", 4), started("kastet", 2), finished_game()):
        summary = lobby_summary(table)
        json.dumps(summary)
        assert tile_ids(summary) == set()
        assert not {"hand", "pile", "series", "pairs", "seed"} & keys(summary)
        assert not any(isinstance(v, int) and v in table.pile for v in summary["players"])
        assert str(SEED) not in str(summary)
        assert summary["seats"] == len(table.seats) and summary["taken"] == len(table.seats)


# --- property: random positions, every viewer -----------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> Table:
    """A table after 0-60 legal moves of a seeded bot game, maybe paused by a leaver and
    maybe with a substitute sitting in the vacated seat."""
    game = draw(st.sampled_from(["kastet", "harftet"]))
    players = draw(st.integers(2, 4))
    table = life.new_table(
        "t1",
        person(0),
        TableOptions(game, seats=players, hands=2),
        seed=draw(st.integers(10**15, 10**18)),
        now=NOW,
    )
    for i in range(1, players):
        table = life.sit(table, i, person(i), NOW).table
    table = life.start(table, "p0", NOW).table
    rules = rules_of(game)
    for step in range(draw(st.integers(0, 60))):
        if table.status != "playing":
            break
        if table.break_until is not None:  # the break between hands (RULES §2a)
            if draw(st.booleans()):
                return table  # a position too: the hand's racks turned over, no turn
            table = past_break(table)
        seat = table.turn_seat
        assert seat is not None
        move = choose_move(table, seat, WORDS)
        table = apply_move(table, seat, move, NOW + step, rules=rules).table
    if table.status == "playing" and draw(st.booleans()):
        table = life.leave(table, f"p{draw(st.integers(0, players - 1))}", NOW + 100).table
        vacant = next(i for i, s in enumerate(table.seats) if s.occupant is None)
        if draw(st.booleans()):
            table = life.sit(table, vacant, person("sub"), NOW + 101).table
    return table


@settings(max_examples=60, deadline=None)
@given(table=positions())
def test_no_viewer_ever_sees_a_tile_that_is_not_theirs_or_on_the_table(table: Table) -> None:
    viewers = [None, "stranger", "p0", "p1", "p2", "p3", "sub"]
    for viewer in viewers:
        view = table_view(table, viewer)
        check_secret(table, view, viewer)
        assert [s["tiles"] for s in view["seats"]] == [len(s.hand) for s in table.seats]
        assert view["series"] == json.loads(json.dumps(view["series"]))
        placed = [t["id"] for m in view["series"] for t in m]
        assert placed == [p.id for m in table.series for p in m]
    summary = lobby_summary(table)
    assert tile_ids(summary) == set() and str(table.seed) not in str(summary)


def test_the_view_does_not_change_the_table() -> None:
    table = started("harftet", 2)
    before = table.clone()
    table_view(table, "p0")["hand"].clear()
    lobby_summary(table)
    assert table == before
