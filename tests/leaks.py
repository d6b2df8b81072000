"""One check for every test that looks for tiles where they must not be (RULES.md §5)."""

from __future__ import annotations

from typing import Any


def tile_ids(value: Any) -> set[int]:
    """Every tile id anywhere in a JSON value: the ``id`` of any object that has an integer
    one (tiles are the only such objects in views, pushes and errors), and the ids of a
    delta's short tile form ``[pointer, "tiles", ids]`` (harftet.api.delta)."""
    found: set[int] = set()
    if (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], str)
        and value[1] == "tiles"
        and isinstance(value[2], list)
    ):
        found |= {i for i in value[2] if isinstance(i, int) and not isinstance(i, bool)}
    if isinstance(value, dict):
        if isinstance(value.get("id"), int) and not isinstance(value["id"], bool):
            found.add(value["id"])
        for item in value.values():
            found |= tile_ids(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= tile_ids(item)
    return found
