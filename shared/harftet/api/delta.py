"""What changed between two JSON values, as a short list of operations — the WebSocket's
``{"type": "delta"}`` pushes (docs/asyncapi.yaml) — and applying such a list.

Standard library only. The diff is structural and knows nothing of tables: a field added to
the view later is carried like any other. An operation is a JSON array whose first element is
a JSON Pointer (RFC 6901) into the value:

- ``[p]``: remove — the object member ``p`` names is deleted (an array element: the later
  elements move down);
- ``[p, v]``: set — ``p``'s member becomes ``v`` (an object member is added or replaced; an
  array element is replaced, or appended when the index is the array's length);
- ``[p, i, n, items]``: splice — in the array at ``p``, the ``n`` elements from index ``i``
  are replaced by the array ``items``;
- ``[p, "tiles", ids]``: set, in the short tile form — ``p``'s member becomes the list of the
  game's tiles with these ids, each as the view writes a tile (``harftet.engine.tiles``: a
  tile's id names its face; the game is the view's ``game``). A view delta writes every list
  of plain tiles so (a rack turned over at a hand's end, a new meld), hoisted out of the value
  it was in: that value carries ``[]`` there and the tiles op follows it.

Operations apply in order, each to the result of the one before. ``diff`` chooses, at every
level, whichever is shorter: the changes inside a value or the whole new value. The structural
part is standard library only; the short tile form is the views' (``view_delta``,
``apply_delta``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from difflib import SequenceMatcher
from functools import cache
from typing import Any

Op = list[Any]
TILES = "tiles"  # the short tile form's marker: [p, "tiles", ids]
Expand = Callable[[Any], list[Any]]  # ids -> the tiles, as the view writes them


class DeltaError(ValueError):
    """A delta that does not apply to the value at hand (its base differs, or an operation
    names a member that is not there)."""


def size(value: Any) -> int:
    """Bytes of ``value`` as the server sends it (compact UTF-8 JSON)."""
    return len(_text(value).encode())


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _key(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def pointer(path: list[str | int]) -> str:
    """The JSON Pointer of a path of keys and indexes."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def parse_pointer(text: str) -> list[str]:
    """The reference tokens of a JSON Pointer."""
    if text == "":
        return []
    if not text.startswith("/"):
        raise DeltaError(f"a pointer starts with '/': {text[:40]!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in text[1:].split("/")]


def same(a: Any, b: Any) -> bool:
    """JSON equality: ``True`` is not ``1``, and key order does not matter."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(b, dict | list | tuple) or type(a) is not type(b):
        return False
    return bool(a == b)


def diff(old: Any, new: Any) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (none when they are equal)."""
    return _diff(old, new, [])


def _diff(old: Any, new: Any, path: list[str | int]) -> list[Op]:
    if same(old, new):
        return []
    whole: list[Op] = [[pointer(path), new]]
    ops: list[Op]
    if isinstance(old, dict) and isinstance(new, dict):
        ops = [[pointer([*path, k])] for k in old if k not in new]
        for k, value in new.items():
            if k in old:
                ops += _diff(old[k], value, [*path, k])
            else:
                ops.append([pointer([*path, k]), value])
    elif isinstance(old, list | tuple) and isinstance(new, list | tuple):
        ops = _diff_list(list(old), list(new), path)
    else:
        return whole
    return ops if not path or size(ops) < size(whole) else whole


def _diff_list(old: list[Any], new: list[Any], path: list[str | int]) -> list[Op]:
    """Splices for what was removed or added, changes inside elements that stayed in place;
    last change first, so that every index is still the old one when its operation applies."""
    matcher = SequenceMatcher(None, [_key(x) for x in old], [_key(x) for x in new], False)
    ops: list[Op] = []
    for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for k in reversed(range(i2 - i1)):
                ops += _diff(old[i1 + k], new[j1 + k], [*path, i1 + k])
        else:
            ops.append([pointer(path), i1, i2 - i1, new[j1:j2]])
    return ops


def apply(value: Any, ops: list[Op], expand: Expand | None = None) -> Any:
    """``value`` with ``ops`` applied (``value`` and ``ops`` themselves are left as they
    were: a value an op sets is a copy, which a later op may change); ``expand`` turns the ids
    of a short tile form into tiles (without it such an op does not apply)."""
    result = json.loads(_text(value))
    for op in json.loads(_text(ops)):
        result = _apply_one(result, op, expand)
    return result


def _apply_one(root: Any, op: Any, expand: Expand | None = None) -> Any:
    if not isinstance(op, list) or not op or not isinstance(op[0], str) or len(op) > 4:
        raise DeltaError(f"not an operation: {_text(op)[:80]}")
    if len(op) == 3:
        if op[1] != TILES or expand is None:
            raise DeltaError(f"not an operation: {_text(op)[:80]}")
        op = [op[0], expand(op[2])]
    tokens = parse_pointer(op[0])
    if len(op) == 4:
        target = _resolve(root, tokens)
        start, count, items = op[1], op[2], op[3]
        if not (isinstance(target, list) and isinstance(items, list)):
            raise DeltaError(f"a splice needs an array at {op[0]!r}")
        if not _index_ok(start, len(target)) or start + _count(count) > len(target):
            raise DeltaError(f"a splice beyond the array at {op[0]!r}")
        target[start : start + count] = items
        return root
    if not tokens:
        if len(op) == 1:
            raise DeltaError("the whole value cannot be removed")
        return op[1]
    parent = _resolve(root, tokens[:-1])
    last = tokens[-1]
    if isinstance(parent, dict):
        if len(op) == 1:
            if last not in parent:
                raise DeltaError(f"nothing to remove at {op[0]!r}")
            del parent[last]
        else:
            parent[last] = op[1]
    elif isinstance(parent, list):
        index = _array_index(last, op[0])
        if len(op) == 1:
            if index >= len(parent):
                raise DeltaError(f"nothing to remove at {op[0]!r}")
            del parent[index]
        elif index < len(parent):
            parent[index] = op[1]
        elif index == len(parent):
            parent.append(op[1])
        else:
            raise DeltaError(f"beyond the array at {op[0]!r}")
    else:
        raise DeltaError(f"no object or array holds {op[0]!r}")
    return root


def _count(count: Any) -> int:
    if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
        return count
    raise DeltaError("a splice's count is a whole number")


def _index_ok(index: Any, length: int) -> bool:
    return isinstance(index, int) and not isinstance(index, bool) and 0 <= index <= length


def _array_index(token: str, text: str) -> int:
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise DeltaError(f"not an array index in {text!r}")
    return int(token)


def _resolve(root: Any, tokens: list[str]) -> Any:
    node = root
    for token in tokens:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list):
            index = _array_index(token, "/".join(tokens))
            if index >= len(node):
                raise DeltaError(f"no element {index} at {'/'.join(tokens)!r}")
            node = node[index]
        else:
            raise DeltaError(f"nothing at {'/' + '/'.join(tokens)!r}")
    return node


# -- views -------------------------------------------------------------------------------


def view_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The push that turns a connection's view ``old`` into ``new``: its ``version`` is not
    among the operations (it is the message's own); lists of plain tiles in the short form."""
    ops = diff(_unversioned(old), _unversioned(new))
    game = new.get("game")
    if isinstance(game, str) and game == old.get("game") and game in ("kastet", "harftet"):
        ops = short_tiles(ops, _plain_tiles(game))
    return {"type": "delta", "from": old["version"], "version": new["version"], "ops": ops}


@cache
def _plain_tiles(game: str) -> tuple[dict[str, Any], ...]:
    """The game's tiles by id, as a view writes a tile not on the table (no joker's face)."""
    from harftet.engine.tiles import tile_json, tiles_for

    return tuple(tile_json(tile) for tile in tiles_for(game))


def tile_expander(game: Any) -> Expand:
    """The short tile form's ids → tiles of ``game``; DeltaError for anything else."""
    if game not in ("kastet", "harftet"):
        raise DeltaError(f"no tiles of game {str(game)[:20]!r}")
    tiles = _plain_tiles(game)

    def expand(ids: Any) -> list[Any]:
        if not isinstance(ids, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(tiles) for i in ids
        ):
            raise DeltaError("the short tile form carries a list of tile ids")
        return [dict(tiles[i]) for i in ids]

    return expand


class _ShortTiles:
    """Writes lists of plain tiles in the short tile form (see `short_tiles`)."""

    def __init__(self, tiles: tuple[dict[str, Any], ...]) -> None:
        self.tiles = tiles

    def ids_of(self, value: Any) -> list[int] | None:
        """The ids of ``value`` when it is a non-empty list of the game's tiles as they are."""
        if not isinstance(value, list) or not value:
            return None
        ids = []
        for item in value:
            key = item.get("id") if isinstance(item, dict) else None
            if not isinstance(key, int) or isinstance(key, bool) or not 0 <= key < len(self.tiles):
                return None
            if not same(item, self.tiles[key]):
                return None
            ids.append(key)
        return ids

    def shortened(self, path: list[str | int], value: Any) -> tuple[Any, list[Op]]:
        """(value with its tile lists emptied, the tiles ops that fill them)."""
        ids = self.ids_of(value)
        if ids is not None:
            op: Op = [pointer(path), TILES, ids]
            if size(op) + 2 < size(value):
                return [], [op]
        extra: list[Op] = []
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                out[k], more = self.shortened([*path, k], v)
                extra += more
            return out, extra
        if isinstance(value, list):
            items = []
            for n, v in enumerate(value):
                item, more = self.shortened([*path, n], v)
                items.append(item)
                extra += more
            return items, extra
        return value, extra

    def op(self, op: Op) -> list[Op]:
        """One op, and the tiles ops its value or items need."""
        base: list[str | int] = [*parse_pointer(op[0])]
        if len(op) == 2:
            ids = self.ids_of(op[1])
            whole: Op = [op[0], TILES, ids]
            if ids is not None and size(whole) < size(op):
                return [whole]
            value, extra = self.shortened(base, op[1])
            return [[op[0], value], *extra]
        if len(op) == 4:
            items, extra = [], []
            for n, item in enumerate(op[3]):
                short, more = self.shortened([*base, op[1] + n], item)
                items.append(short)
                extra += more
            return [[op[0], op[1], op[2], items], *extra]
        return [op]


def short_tiles(ops: list[Op], tiles: tuple[dict[str, Any], ...]) -> list[Op]:
    """``ops`` with every list of plain tiles in a set's value or a splice's items written in
    the short tile form (where that is shorter): the list becomes ``[]`` in its value and a
    ``[p, "tiles", ids]`` op right after it puts the tiles there."""
    writer = _ShortTiles(tiles)
    return [short for op in ops for short in writer.op(op)]


def apply_delta(view: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """The view after ``message`` (a delta push); DeltaError when ``view`` is not the
    version the delta starts from, or the delta does not fit it (ask for a full view)."""
    if view.get("version") != message.get("from"):
        base, start = view.get("version"), message.get("from")
        raise DeltaError(f"the delta is from version {start}, this view is version {base}")
    ops = message.get("ops")
    if not isinstance(ops, list):
        raise DeltaError("a delta carries a list of ops")
    result = apply(view, ops, tile_expander(view.get("game")) if _short(ops) else None)
    if not isinstance(result, dict):
        raise DeltaError("a delta turns a view into a view")
    result["version"] = message["version"]
    return result


def _short(ops: list[Any]) -> bool:
    return any(isinstance(op, list) and len(op) == 3 for op in ops)


def _unversioned(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "version"}
