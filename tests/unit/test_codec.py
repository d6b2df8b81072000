"""The table codec: decode(encode(t)) == t, compactly."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import HARFTET, NOW, WORDS, make_table, past_break, rules_of
from hypothesis import given, settings
from hypothesis import strategies as st

from harftet.engine import codec
from harftet.engine import table as life
from harftet.engine.bot import choose_move
from harftet.engine.codec import decode, encode
from harftet.engine.hand import apply_move
from harftet.engine.options import TableOptions
from harftet.engine.state import HandResult, Occupant, Placed, Seat, Table

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_codec.py"


def load_bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_codec", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_started_table_survives_the_round_trip() -> None:
    for game in ("kastet", "harftet"):
        table = make_table(game, 3)
        assert decode(encode(table)) == table


def test_a_finished_game_survives_the_round_trip() -> None:
    table = make_table("kastet", 2, hands=1, seed=3)
    while table.status == "playing":
        seat = table.turn_seat
        assert seat is not None
        move = choose_move(table, seat, WORDS)
        table = apply_move(table, seat, move, 5.0, rules=rules_of("kastet")).table
        assert decode(encode(table)) == table
    assert table.result is not None and decode(encode(table)) == table


def test_options_levels_left_racks_and_the_latest_events_survive_the_round_trip() -> None:
    table = life.new_table(
        "t9",
        Occupant("p0", "Ayşe"),
        TableOptions("harftet", seats=2, hands=2, hints=False, private=True, bot_seconds=0),
        seed=5,
        now=NOW,
    )
    table = life.seat_bot(table, 1, "p0", NOW, level="hard").table
    table = life.start(table, "p0", NOW).table
    back = decode(encode(table))
    assert back == table
    assert (back.hints, back.private, back.bot_seconds, back.practice) == (False, True, 0, True)
    bot = back.seats[1].occupant
    assert bot is not None and bot.level == "hard"
    assert [e["type"] for e in back.recent] == ["start"] and back.seq == 3
    now = NOW
    while table.status == "playing":  # every change of a whole game, racks and events too
        if table.break_until is not None:  # the break between hands: encoded too
            assert decode(encode(table)) == table
            table = past_break(table)
        seat = table.turn_seat
        assert seat is not None
        now += 1
        table = apply_move(table, seat, choose_move(table, seat, WORDS), now, rules=HARFTET).table
        assert decode(encode(table)) == table
    assert [r.left for r in decode(encode(table)).hand_results] == [
        r.left for r in table.hand_results
    ]
    assert [e["type"] for e in table.recent][-2:] == ["handEnd", "gameEnd"]


def test_penalties_that_do_not_follow_from_the_racks_are_kept_as_they_are() -> None:
    table = make_table("kastet", 2)
    table.hand_results = [
        HandResult(1, 0, [-50, 7], {0: [], 1: [3, 4]}),  # 4 + 5 would be 9
        HandResult(2, None, [1, 2], {0: [5], 1: [5]}),  # one tile in two racks
        HandResult(3, None, [1, 2], {1: [2], 0: [1]}),  # seats out of order
        HandResult(4, 1, [0, -50], {0: [], 1: []}),
    ]
    assert decode(encode(table)).hand_results == table.hand_results


def test_an_item_written_before_the_options_and_the_log_still_decodes() -> None:
    table = make_table("kastet", 2)
    new = encode(table)
    doc = json.loads(zlib.decompress(new[1:]))
    old = doc[:23]  # the first format-1 items: no options, no log, no racks, no levels
    old[11] = [[s[0][:4] if s[0] else None, *s[1:]] for s in old[11]]
    data = bytes([1]) + zlib.compress(json.dumps(old).encode())
    back = decode(data)
    assert (back.hints, back.private, back.bot_seconds, back.seq, back.recent) == (
        True, False, 1, 0, [],
    )  # fmt: skip
    assert back.seats == table.seats


def test_the_worst_case_table_fits_in_2_kb() -> None:
    bench = load_bench()
    table = bench.worst_case_table()
    data = encode(table)
    assert decode(data) == table
    assert len(data) <= bench.LIMIT
    assert sum(len(ids) for r in table.hand_results for ids in r.left.values()) == 21 * 88
    assert len(table.recent) == 5 and len(table.former) == bench.LEAVERS


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown table format"):
        decode(b"\x09abc")
    with pytest.raises(ValueError):
        decode(b"")


def test_the_codec_lists_every_field_of_the_state() -> None:
    def names(cls: type) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    assert names(Table) == codec.TABLE_FIELDS
    assert names(Seat) == codec.SEAT_FIELDS
    assert names(Occupant) == codec.OCCUPANT_FIELDS
    assert names(HandResult) == codec.HAND_RESULT_FIELDS


def test_odd_text_survives_the_round_trip() -> None:
    table = make_table("harftet", 2)
    assert table.seats[0].occupant is not None
    table.seats[0].occupant.name = 'Ayşe \ud800 \x00 🀄 "quoted"'
    assert decode(encode(table)) == table


# --- generated tables ---------------------------------------------------------------------

tile_ids = st.integers(0, 105)
floats = st.floats(allow_nan=False, allow_infinity=False)
maybe_float = st.none() | floats
small = st.integers(-10_000, 10_000)
occupants = st.builds(
    Occupant,
    st.text(max_size=40),
    st.text(max_size=30),
    st.booleans(),
    small,
    st.sampled_from([None, "easy", "medium", "hard"]),
)
seats = st.builds(
    Seat,
    occupant=st.none() | occupants,
    original=st.none() | occupants,
    original_fate=st.sampled_from([None, "dropped", "left"]),
    hand=st.lists(tile_ids, max_size=22),
    penalty=small,
    connected=st.booleans(),
    timeouts=st.integers(0, 3),
    disconnected_at=maybe_float,
    vacant_since=maybe_float,
    hints_used=st.integers(0, 20),
    hint_shown=st.integers(0, 26),
    hint_mark=st.integers(0, 2**32 - 1),
)
results: st.SearchStrategy[Any] = st.none() | st.fixed_dictionaries(
    {
        "penalties": st.lists(small, max_size=4),
        "points": st.lists(small, max_size=4),
        "ratings": st.dictionaries(st.text(max_size=10), small, max_size=8),
    }
)


json_values = st.recursive(
    st.none() | st.booleans() | small | floats | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
events = st.fixed_dictionaries(
    {
        "seq": st.integers(0, 1000),
        "at": floats,
        "hand": st.integers(0, 21),
        "seat": st.none() | st.integers(0, 3),
        "type": st.sampled_from(["draw", "lay", "pass", "handEnd", "gameEnd", "sit"]),
    },
    optional={"tiles": st.lists(tile_ids, max_size=5), "S": json_values, "x": json_values},
)


@st.composite
def lefts(draw: st.DrawFn, seats: int) -> dict[int, list[int]]:
    """Any left racks: mostly as the engine makes them (every seat, sorted, disjoint)."""
    if draw(st.booleans()):
        return draw(st.dictionaries(st.integers(-1, 5), st.lists(tile_ids, max_size=6)))
    ids = draw(st.permutations(list(range(106))))
    sizes = draw(st.lists(st.integers(0, 22), min_size=seats, max_size=seats))
    out, at = {}, 0
    for s, n in enumerate(sizes):
        out[s] = sorted(ids[at : at + n])
        at += n
    return out


@st.composite
def tables(draw: st.DrawFn) -> Table:
    game = draw(st.sampled_from(["kastet", "harftet"]))
    face = (
        st.tuples(st.sampled_from(["red", "yellow", "blue", "black"]), st.integers(1, 13))
        if game == "kastet"
        else st.sampled_from(["A", "Ş", "İ", "Ğ", "I"])
    )
    placed = st.builds(Placed, tile_ids, st.none() | face)
    melds = st.lists(st.lists(placed, max_size=13), max_size=26)
    chairs = draw(st.lists(seats, min_size=2, max_size=4))
    seq = draw(st.integers(0, 10_000))
    recent = draw(st.lists(events, max_size=4))
    if draw(st.booleans()):  # as the engine makes them: consecutive, one time, ending at seq
        at = draw(floats)
        recent = [{**e, "seq": seq - len(recent) + 1 + i, "at": at} for i, e in enumerate(recent)]
    return Table(
        table_id=draw(st.text(max_size=36)),
        game=game,  # type: ignore[arg-type]
        seed=draw(st.integers(0, 2**70)),
        manager=draw(st.none() | st.text(max_size=36)),
        hands=draw(st.integers(1, 21)),
        partners=draw(st.booleans()),
        turn_seconds=draw(st.integers(10, 600)),
        grace_seconds=draw(st.integers(0, 1000)),
        wait_seconds=draw(st.integers(0, 1000)),
        status=draw(st.sampled_from(["waiting", "playing", "paused", "finished"])),
        created_at=draw(floats),
        seats=chairs,
        pile=draw(st.lists(tile_ids, max_size=106)),
        series=draw(melds),
        pairs=draw(st.lists(st.lists(placed, min_size=2, max_size=2), max_size=10)),
        hand_number=draw(st.integers(0, 21)),
        first_seat=draw(st.integers(0, 3)),
        turn_seat=draw(st.none() | st.integers(0, 3)),
        laid=draw(st.booleans()),
        passes=draw(st.integers(0, 4)),
        deadline=draw(maybe_float),
        hand_results=draw(
            st.lists(
                st.builds(
                    HandResult,
                    st.integers(1, 21),
                    st.none() | st.integers(0, 3),
                    st.lists(small, max_size=4),
                    lefts(len(chairs)),
                ),
                max_size=21,
            )
        ),
        result=draw(results),
        hints=draw(st.booleans() | st.integers(1, 20) | st.just("unlimited")),
        private=draw(st.booleans()),
        bot_seconds=draw(st.integers(0, 5)),
        practice=draw(st.booleans()),
        held=draw(st.booleans()),
        former=draw(st.dictionaries(st.text(max_size=10), st.integers(0, 3), max_size=8)),
        paid=draw(st.lists(st.text(max_size=10), max_size=8)),
        seq=seq,
        recent=recent,
        rated=draw(st.booleans()),
        break_seconds=draw(st.integers(0, 120)),
        pace=draw(st.sampled_from(["live", "correspondence"])),
        break_until=draw(maybe_float),
        ready=draw(st.lists(st.integers(0, 3), max_size=4)),
        salt=draw(st.sampled_from(["", "00" * 16, "9f" * 16])),
    )


@settings(max_examples=150, deadline=None)
@given(tables())
def test_any_table_survives_the_round_trip(table: Table) -> None:
    assert decode(encode(table)) == table
