"""The table codec: decode(encode(t)) == t, compactly."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import WORDS, make_table, rules_of
from hypothesis import given, settings
from hypothesis import strategies as st

from harftet.engine import codec
from harftet.engine.bot import choose_move
from harftet.engine.codec import decode, encode
from harftet.engine.hand import apply_move
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


def test_the_worst_case_table_fits_in_2_kb() -> None:
    bench = load_bench()
    table = bench.worst_case_table()
    data = encode(table)
    assert decode(data) == table
    assert len(data) <= bench.LIMIT


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
occupants = st.builds(Occupant, st.text(max_size=40), st.text(max_size=30), st.booleans(), small)
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
)
results: st.SearchStrategy[Any] = st.none() | st.fixed_dictionaries(
    {
        "penalties": st.lists(small, max_size=4),
        "points": st.lists(small, max_size=4),
        "ratings": st.dictionaries(st.text(max_size=10), small, max_size=8),
    }
)


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
        seats=draw(st.lists(seats, min_size=2, max_size=4)),
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
                ),
                max_size=21,
            )
        ),
        result=draw(results),
    )


@settings(max_examples=150, deadline=None)
@given(tables())
def test_any_table_survives_the_round_trip(table: Table) -> None:
    assert decode(encode(table)) == table
