"""Cells and the router in front of them (docs/SCALE.md): pure functions, no AWS calls.

A cell is one whole copy of the stack (template.yaml with ``CellId``). Every table lives in
exactly one cell for its whole life, and its id says which: a cell makes table ids
``<cellId>.<random>`` (``new_table_id``), so routing a table's request needs no lookup and no
shared state — ``Router.for_table`` reads the prefix. What has no table id yet (a new player,
a new table, the lobby) goes to a *home* cell: the player's, chosen by rendezvous hashing
(highest random weight) over the cells open for new work, weighted by their capacity, when the
player is made; the player id then names that cell (``new_player_id``) for good, so adding a
cell moves nobody.

The router is a small discovery service (``Router.redirect``): deployed as one function
behind its own domain (a Lambda function URL, or a CloudFront Function with this logic at the
edge), it answers ``GET /cells/home`` and ``GET /cells/route?tableId=`` with the cell's URLs,
which a client keeps (its home; each table's cell) and then calls directly — no hop on the
game's path — and ``307 Temporary Redirect`` for anything else (a new guest, a link to a
table).

Its cell list lives in a DynamoDB table of the router's account (``CELLS_TABLE``), one item
per cell keyed by the cell's AWS account and its id: each cell's deploy writes its own item
(``register_cell``, run by the cell stack's custom resource through a role the router's account
grants, docs/DEPLOY.md "The router"), and the router reads them all with one Scan, kept
``CELLS_CACHE_SECONDS`` (``CellDirectory``). No size limit that matters (an item is a few
hundred bytes, a Scan page 1 MB) and no deploy of the router when a cell comes or goes.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

SEPARATOR = "."  # never in a url-safe base64 id, so a plain table id has no cell
CELL_ID = re.compile(r"^[a-z][a-z0-9]{0,7}$")
_TABLE_PATH = re.compile(r"^/tables/([^/]+)(/.*)?$")


def new_table_id(cell: str = "") -> str:
    """A new table id: ``<cellId>.<12 random characters>`` in a cell (the stack's CELL_ID),
    else just the random part (a stand-alone stack)."""
    random = secrets.token_urlsafe(9)
    return f"{cell}{SEPARATOR}{random}" if cell else random


def new_player_id(cell: str = "") -> str:
    """A new player id: ``<cellId>.<32 hex digits>`` in a cell — the player's home for good —
    else just the hex digits."""
    import uuid

    return f"{cell}{SEPARATOR}{uuid.uuid4().hex}" if cell else uuid.uuid4().hex


def cell_of(table_id: str) -> str | None:
    """The cell a table id names, or None (a stand-alone stack's id, or not an id)."""
    cell, separator, rest = table_id.partition(SEPARATOR)
    if not separator or not rest or not CELL_ID.match(cell):
        return None
    return cell


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: its id, its URLs, how many tables it is sized for, and whether it takes new
    players and tables (a draining cell only serves what it holds)."""

    cell_id: str
    rest_url: str
    ws_url: str
    capacity: float = 1.0
    open: bool = True


class UnknownCellError(LookupError):
    """A table id names a cell the router does not know (404 for the caller)."""


def _score(key: str, cell: Cell) -> float:
    """Rendezvous weight of ``key`` on ``cell``: -capacity / ln(u), u uniform in (0, 1) from a
    hash of both (weighted highest-random-weight hashing)."""
    import math

    digest = hashlib.blake2b(f"{cell.cell_id}\0{key}".encode(), digest_size=8).digest()
    u = (int.from_bytes(digest, "big") + 1) / (2**64 + 1)
    return -cell.capacity / math.log(u)


class Router:
    """Where a request goes, from the cells it knows."""

    def __init__(self, cells: Iterable[Cell]) -> None:
        self.cells = {cell.cell_id: cell for cell in cells}
        if not self.cells:
            raise ValueError("a router needs at least one cell")
        for cell_id in self.cells:
            if not CELL_ID.match(cell_id):
                raise ValueError(f"not a cell id: {cell_id!r}")

    def home(self, player_key: str) -> Cell:
        """The cell where ``player_key``'s new tables (and the lobby they see) go: the cell a
        player id names (where the player was made), else the key's rendezvous choice."""
        named = cell_of(player_key)
        if named is not None and named in self.cells:
            return self.cells[named]
        open_cells = [c for c in self.cells.values() if c.open] or list(self.cells.values())
        return max(open_cells, key=lambda c: (_score(player_key, c), c.cell_id))

    def for_table(self, table_id: str) -> Cell:
        """The cell that holds ``table_id``; UnknownCellError when it names no known cell."""
        cell = cell_of(table_id)
        if cell is None or cell not in self.cells:
            raise UnknownCellError(f"no cell holds table {table_id[:64]}")
        return self.cells[cell]

    def route(self, method: str, path: str, player_key: str = "") -> Cell:
        """The cell for a REST request: a table's own paths go to its cell, everything else
        (players, a new table, the lobby) to the caller's home (``player_key``: the player id
        the caller's token names, or any stable client key before it has one)."""
        match = _TABLE_PATH.match(path)
        if match and not (method == "POST" and path.rstrip("/") == "/tables"):
            return self.for_table(match.group(1))
        return self.home(player_key)

    def redirect(
        self, method: str, path: str, query: str = "", player_key: str = ""
    ) -> tuple[int, dict[str, str], str]:
        """The router's HTTP answer: (status, headers, body).

        - ``GET /cells/route?tableId=ID``: the cell holding the table, as JSON
          ``{"cellId", "restUrl", "webSocketUrl"}`` (404 ``not_found`` for no known cell);
        - ``GET /cells/home``: the caller's home cell (``player_key``), the same JSON;
        - anything else: ``307`` to the same path on the cell's REST URL. Browsers and HTTP
          clients drop ``Authorization`` on a redirect to another origin, so a signed-in client
          asks the two paths above once (per table; its home) and then calls the cell itself.
        """
        import json

        def cell_json(cell: Cell) -> tuple[int, dict[str, str], str]:
            body = {"cellId": cell.cell_id, "restUrl": cell.rest_url, "webSocketUrl": cell.ws_url}
            return 200, {"content-type": "application/json"}, json.dumps(body)

        def not_found(message: str) -> tuple[int, dict[str, str], str]:
            error = {"error": {"code": "not_found", "message": message}}
            return 404, {"content-type": "application/json"}, json.dumps(error)

        if path == "/cells/home":
            return cell_json(self.home(player_key))
        if path == "/cells/route":
            table_id = (parse_qs(query).get("tableId") or [""])[0]
            try:
                return cell_json(self.for_table(table_id))
            except UnknownCellError as error:
                return not_found(str(error))
        try:
            cell = self.route(method, path, player_key)
        except UnknownCellError:
            return not_found("No such table")
        location = cell.rest_url.rstrip("/") + path + (f"?{query}" if query else "")
        return 307, {"location": location}, ""


def player_key(authorization: str | None) -> str:
    """The player id an ``Authorization: Bearer`` token names, unverified (the cell verifies
    it: the router only needs somewhere stable to send the request); "" without one."""
    if not authorization or not authorization.startswith("Bearer "):
        return ""
    import jwt

    try:
        claims = jwt.decode(authorization[7:], options={"verify_signature": False})
    except jwt.PyJWTError:
        return ""
    return str(claims.get("sub", ""))


def cells_from_exports(exports: Mapping[str, str]) -> list[Cell]:
    """Cells from CloudFormation exports (``aws cloudformation list-exports``: name → value):
    every ``harftet-cell-<id>-rest`` with its ``-ws``."""
    cells = []
    for name, value in sorted(exports.items()):
        match = re.fullmatch(r"harftet-cell-([a-z][a-z0-9]{0,7})-rest", name)
        if match:
            ws = exports.get(f"harftet-cell-{match.group(1)}-ws")
            if ws:
                cells.append(Cell(match.group(1), value, ws))
    return cells


def cells_from_env(value: str) -> list[Cell]:
    """Cells from ``HARFTET_CELLS``: a JSON list of ``{"cellId", "restUrl", "webSocketUrl",
    "capacity"?, "open"?}`` (what the deploy writes from the cells' exports)."""
    import json

    return [
        Cell(
            str(c["cellId"]),
            str(c["restUrl"]),
            str(c["webSocketUrl"]),
            float(c.get("capacity", 1.0)),
            bool(c.get("open", True)),
        )
        for c in json.loads(value)
    ]


# --- the cell list in DynamoDB ---------------------------------------------------------------
# One item per cell: {"account" (partition key: the cell's AWS account), "cellId" (sort key),
# "restUrl", "webSocketUrl", "capacity", "open", "region", "registeredAt"}. The key starts with
# the account so that the router's registrar role lets a cell's account write its own items
# only (IAM dynamodb:LeadingKeys = the account the cell's session is tagged with).
CACHE_SECONDS = 30.0
log = logging.getLogger("harftet.router")


def cells_from_items(items: Iterable[Mapping[str, Any]]) -> list[Cell]:
    """The cells of the table's items (as boto3's Table.scan answers them). Two accounts naming
    the same cell id: the one registered first keeps it (the other is logged, not routed)."""
    found: dict[str, tuple[float, Cell]] = {}
    for item in items:
        cell_id = str(item.get("cellId", ""))
        if not CELL_ID.match(cell_id) or not item.get("restUrl") or not item.get("webSocketUrl"):
            log.warning("cells table: an item that is no cell: %s", str(item)[:200])
            continue
        cell = Cell(
            cell_id,
            str(item["restUrl"]),
            str(item["webSocketUrl"]),
            float(item.get("capacity") or 1.0),
            item.get("open", True) is not False,
        )
        at = float(item.get("registeredAt") or 0.0)
        if cell_id in found and found[cell_id][0] <= at:
            log.error("cell %s registered by two accounts: %s kept", cell_id, found[cell_id][1])
            continue
        found[cell_id] = (at, cell)
    return [cell for _, cell in sorted(found.values(), key=lambda f: f[1].cell_id)]


def scan_cells(table: Any) -> list[Cell]:
    """Every cell in the cells table (``table``: a boto3 DynamoDB Table), all pages."""
    items: list[dict[str, Any]] = []
    kwargs: dict[str, Any] = {"ConsistentRead": True}
    while True:
        page = table.scan(**kwargs)
        items += page.get("Items", [])
        if "LastEvaluatedKey" not in page:
            return cells_from_items(items)
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def register_cell(table: Any, cell: Cell, account: str, region: str, now: float) -> None:
    """Write (or rewrite) the cell's item (``table``: a boto3 DynamoDB Table): its URLs,
    capacity and whether it is open. The first registration time is kept across rewrites (it
    settles a cell id two accounts claim)."""
    from decimal import Decimal

    values = {
        "restUrl": cell.rest_url,
        "webSocketUrl": cell.ws_url,
        "capacity": Decimal(repr(float(cell.capacity))),
        "open": cell.open,
        "region": region,
    }
    sets = ", ".join(f"#{name} = :{name}" for name in values)
    table.update_item(
        Key={"account": account, "cellId": cell.cell_id},
        UpdateExpression=f"SET {sets}, #registeredAt = if_not_exists(#registeredAt, :first)",
        ExpressionAttributeNames={f"#{name}": name for name in [*values, "registeredAt"]},
        ExpressionAttributeValues={
            **{f":{name}": value for name, value in values.items()},
            ":first": int(now),
        },
    )


def deregister_cell(table: Any, cell_id: str, account: str) -> None:
    """Remove the cell's item (its stack is deleted): the router stops routing to it."""
    table.delete_item(Key={"account": account, "cellId": cell_id})


class CellDirectory:
    """The router over the cells ``load`` lists, loaded again when older than ``ttl`` seconds.
    A failed load keeps the cells known before (logged); with none known yet it raises."""

    def __init__(
        self,
        load: Callable[[], list[Cell]],
        ttl: float = CACHE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._load = load
        self._ttl = ttl
        self._clock = clock
        self._router: Router | None = None
        self._at = 0.0

    def router(self) -> Router:
        now = self._clock()
        if self._router is not None and now - self._at < self._ttl:
            return self._router
        try:
            self._router = Router(self._load())
        except Exception:
            if self._router is None:
                raise
            log.exception("cells table unreadable: routing with the cells known before")
        self._at = now
        return self._router


def _directory() -> CellDirectory:
    """The handler's cells: the ``CELLS_TABLE`` (the router's stack), else ``HARFTET_CELLS``
    (a JSON list: a router without its table, e.g. a test)."""
    table = os.environ.get("CELLS_TABLE")
    ttl = float(os.environ.get("CELLS_CACHE_SECONDS") or CACHE_SECONDS)
    if not table:
        fixed = cells_from_env(os.environ["HARFTET_CELLS"])
        return CellDirectory(lambda: fixed, ttl=float("inf"))
    import boto3  # the Lambda runtime's: the router's package carries PyJWT only

    cells = boto3.resource("dynamodb").Table(table)
    return CellDirectory(lambda: scan_cells(cells), ttl=ttl)


_directory_kept: CellDirectory | None = None


def handler(event: dict[str, Any], context: object = None) -> dict[str, Any]:
    """The router as a Lambda function URL (payload 2.0): the cells from its cells table (kept
    ``CELLS_CACHE_SECONDS``, 30 s); the answer of ``Router.redirect``."""
    global _directory_kept
    if _directory_kept is None:
        _directory_kept = _directory()
    router = _directory_kept.router()
    http: dict[str, Any] = (event.get("requestContext") or {}).get("http") or {}
    headers: dict[str, str] = event.get("headers") or {}
    status, answer_headers, body = router.redirect(
        str(http.get("method", "GET")),
        str(event.get("rawPath", "/")),
        str(event.get("rawQueryString", "")),
        player_key(headers.get("authorization")) or str(headers.get("x-client", "")),
    )
    return {"statusCode": status, "headers": answer_headers, "body": body}


def main(argv: list[str] | None = None) -> int:
    """``aws cloudformation list-exports --output json | python -m harftet.router``: one
    account's cells from its exports as a JSON list on one line (``HARFTET_CELLS``, what a
    router without its cells table takes; or to compare with the table). ``--closed c01,c02``
    marks cells draining (no new players or tables)."""
    import argparse
    import json
    import sys

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--closed", default="", help="comma-separated ids of draining cells")
    args = parser.parse_args(argv)
    listed = json.load(sys.stdin)
    exports = {str(e["Name"]): str(e["Value"]) for e in listed.get("Exports", [])}
    cells = cells_from_exports(exports)
    if not cells:
        print("no harftet-cell-<id>-rest/-ws exports found", file=sys.stderr)
        return 1
    closed = {c for c in args.closed.split(",") if c}
    print(
        json.dumps(
            [
                {
                    "cellId": c.cell_id,
                    "restUrl": c.rest_url,
                    "webSocketUrl": c.ws_url,
                    "capacity": c.capacity,
                    "open": c.cell_id not in closed,
                }
                for c in cells
            ],
            separators=(",", ":"),
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
