"""The structural diff of the WebSocket's delta pushes (harftet.api.delta): applying the
diff of two values to the first gives the second, always; the format is the documented one;
a delta that does not fit its base is refused, never half-applied into a wrong view."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harftet.api.delta import (
    DeltaError,
    apply,
    apply_delta,
    diff,
    parse_pointer,
    pointer,
    same,
    size,
    view_delta,
)

KEYS = st.sampled_from(["a", "b", "c", "", "x/y", "m~n", "~1", "0", "ş"])
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.5, 1.0, "", "A"])
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(JSON, JSON)
def test_applying_the_diff_of_any_two_values_to_the_first_gives_the_second(old, new):
    ops = diff(old, new)
    assert same(apply(old, ops), new)
    assert json.loads(json.dumps(ops)) == ops  # the operations are plain JSON


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=20), st.data())
def test_a_list_edited_anywhere_is_patched_with_splices_never_longer_than_the_whole(old, data):
    new = list(old)
    for _ in range(data.draw(st.integers(0, 4))):
        if new and data.draw(st.booleans()):
            del new[data.draw(st.integers(0, len(new) - 1))]
        else:
            new.insert(data.draw(st.integers(0, len(new))), data.draw(st.integers(0, 30)))
    ops = diff({"l": old}, {"l": new})
    assert apply({"l": old}, ops) == {"l": new}
    assert size(ops) <= size([["/l", new]])


def test_equal_values_need_no_operation_and_types_are_never_confused():
    assert diff({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}) == []
    assert diff({"a": 1}, {"a": True}) == [["/a", True]]
    assert diff({"a": 1}, {"a": 1.0}) == [["/a", 1.0]]
    assert diff({"a": 0}, {"a": None}) == [["/a", None]]
    assert diff({"a": {}}, {"a": []}) == [["/a", []]]


def test_the_three_operations_read_as_documented():
    old = {"seats": [{"tiles": 14}, {"tiles": 14}], "hand": [1, 2, 3, 4, 5], "gone": 1}
    new = {"seats": [{"tiles": 14}, {"tiles": 15}], "hand": [1, 3, 4, 5, 9], "turn": None}
    ops = diff(old, new)
    assert ["/gone"] in ops  # remove
    assert ["/seats/1/tiles", 15] in ops  # set, inside an element that stayed
    assert ["/turn", None] in ops  # set a new member (null is a value, not a removal)
    assert apply(old, ops) == new
    # a splice: [pointer, index, count, items]
    assert apply({"l": [1, 2, 3]}, [["/l", 1, 1, [7, 8]]]) == {"l": [1, 7, 8, 3]}
    assert apply({"l": [1, 2]}, [["/l/2", 3]]) == {"l": [1, 2, 3]}  # set at the length appends
    assert apply({"l": [1, 2]}, [["/l/0"]]) == {"l": [2]}


def test_a_small_change_inside_a_large_value_is_sent_alone_and_a_changed_small_value_whole():
    tiles = [{"id": i, "letter": "A", "value": 1, "color": "red"} for i in range(14)]
    old = {"hand": tiles, "last": {"seq": 4, "type": "draw", "seat": 1}}
    new = {"hand": [*tiles[:3], *tiles[4:]], "last": {"seq": 5, "type": "pass", "seat": 2}}
    ops = diff(old, new)
    assert ["/hand", 3, 1, []] in ops
    assert ["/last", new["last"]] in ops  # three changed members: the whole event is shorter
    assert size(ops) < 100


def test_json_pointers_escape_slashes_and_tildes_both_ways():
    assert pointer(["a/b", "m~n", 3]) == "/a~1b/m~0n/3"
    assert parse_pointer("/a~1b/m~0n/3") == ["a/b", "m~n", "3"]
    assert parse_pointer("/~01") == ["~1"]
    assert parse_pointer("") == []
    assert apply({"x/y": {"~": 1}}, [["/x~1y/~0", 2]]) == {"x/y": {"~": 2}}


@pytest.mark.parametrize(
    "ops",
    [
        [["/missing"]],  # nothing to remove
        [["/a/b/c", 1]],  # no parent
        [["/l/5", 1]],  # beyond the array
        [["/l/01", 1]],  # not an index
        [["/l/x", 1]],
        [["/l", 0, 4, []]],  # splice beyond the end
        [["/l", -1, 0, []]],
        [["/l", 0, -1, []]],
        [["/l", True, 0, []]],
        [["/a", 0, 0, []]],  # splice on a number
        [["/l", 0, 0, 5]],  # splice items not an array
        [["a", 1]],  # not a pointer
        [[""]],  # removing the whole value
        [[1, 2]],
        [[]],
        ["/a"],
        [["/a", 1, 2]],
    ],
)
def test_an_operation_that_does_not_fit_is_refused_and_the_value_is_untouched(ops):
    value = {"a": 1, "l": [1, 2, 3]}
    before = copy.deepcopy(value)
    with pytest.raises(DeltaError):
        apply(value, ops)
    assert value == before


def test_a_view_delta_carries_its_versions_and_applies_only_to_its_base():
    old = {"version": 7, "pile": 40, "seats": [{"tiles": 14}]}
    new = {"version": 8, "pile": 39, "seats": [{"tiles": 15}]}
    delta = view_delta(old, new)
    assert delta == {
        "type": "delta",
        "from": 7,
        "version": 8,
        "ops": [["/pile", 39], ["/seats/0/tiles", 15]],
    }
    assert apply_delta(old, delta) == new
    assert old["version"] == 7  # the base is left as it was
    with pytest.raises(DeltaError):
        apply_delta({**old, "version": 6}, delta)  # a missed push: ask for the whole view
    with pytest.raises(DeltaError):
        apply_delta(old, {**delta, "ops": {"pile": 1}})
    with pytest.raises(DeltaError):
        apply_delta(old, {**delta, "ops": [["", [1]]]})


def test_a_delta_between_two_versions_with_nothing_else_changed_has_no_operations():
    view: dict[str, Any] = {"version": 3, "turn": {"seat": 1}}
    assert view_delta(view, {**view, "version": 4})["ops"] == []


def test_racks_turned_over_and_new_melds_come_in_the_short_tile_form_and_apply_exactly():
    from harftet.engine.tiles import tile_json, tiles_for

    tiles = [tile_json(t) for t in tiles_for("harftet")]
    old: dict[str, Any] = {"version": 3, "game": "harftet", "handResults": [], "series": []}
    racks = {"0": tiles[0:22], "1": [tiles[30], tiles[104]], "2": []}  # a joker off the table
    meld = [tiles[50], {"id": 105, "joker": True, "as": "A"}, tiles[60]]  # a joker with a face
    new = {**old, "version": 4, "handResults": [{"hand": 1, "left": racks}], "series": [meld]}
    delta = view_delta(old, new)
    assert ["/handResults/0/left/0", "tiles", list(range(22))] in delta["ops"]
    assert ["/handResults/0/left/1", "tiles", [30, 104]] in delta["ops"]
    assert apply_delta(old, json.loads(json.dumps(delta))) == new
    assert size(delta) * 3 < size({"type": "table", "view": new})  # ids, not whole tiles
    # a faced joker is not its plain tile: that meld is written out whole
    assert not any(len(op) == 3 and op[0].startswith("/series") for op in delta["ops"])


@pytest.mark.parametrize(
    "ops",
    [
        [["/l", "tiles", [106]]],  # no such tile
        [["/l", "tiles", [True]]],
        [["/l", "tiles", "1,2"]],
        [["/l", "tile", [1]]],  # not the short tile form
        [["/nothing/here", "tiles", [1]]],
    ],
)
def test_a_short_tile_form_that_does_not_fit_is_refused(ops):
    view = {"version": 1, "game": "kastet", "l": []}
    with pytest.raises(DeltaError):
        apply_delta(view, {"type": "delta", "from": 1, "version": 2, "ops": ops})
    with pytest.raises(DeltaError):  # nor without a game that has tiles
        apply_delta({**view, "game": "tavla"}, {"from": 1, "version": 2, "ops": ops[:1]})
    with pytest.raises(DeltaError):  # the structural apply alone has no tiles to expand
        apply(view, [["/l", "tiles", [1]]])


def test_applying_a_delta_leaves_it_as_it_was_so_it_applies_again_alike():
    # a spectator's push of several versions: a later op changes a value an earlier one set
    view = {"version": 1, "series": []}
    message = {"from": 1, "version": 3, "ops": [["/series", [[1]]], ["/series/0", 1, 0, [2]]]}
    assert apply_delta(view, message)["series"] == [[1, 2]]
    assert message["ops"][0] == ["/series", [[1]]]
    assert apply_delta(view, message)["series"] == [[1, 2]]
