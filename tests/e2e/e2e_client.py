"""Helpers for the end-to-end tests: an HTTP client per player, and a legal move from a view.

`Player` holds one guest account (created over `POST /players`) and an `httpx.Client` that sends
its token. `next_move(view)` chooses a legal move for the caller whose turn it is, from what
that caller may see (its own `hand`, the table's `series`, the `pile` count): lay the melds it
finds in its hand, else draw when allowed, else pass. `ranking_points` is RULES.md §3 written
out again here, so that the server's scoring is checked against the rules, not against itself.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

import httpx
from leaks import tile_ids

from harftet.api.delta import DeltaError, apply_delta
from harftet.engine.words import default_words
from harftet.engine.words.search import find_words

COLORS = ("red", "yellow", "blue", "black")
MAX_HAND = 22
MAX_SERIES = 26
JOKER_HAND_VALUE = 50
FINISH_PENALTY = -50
MULTIPLIER = {"kastet": 1, "harftet": 2}

View = dict[str, Any]
Tile = dict[str, Any]


def new_move_id() -> str:
    """A fresh client-chosen move id."""
    return uuid.uuid4().hex


class Player:
    """One guest player and an HTTP client that calls as them."""

    def __init__(self, base_url: str, name: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=30)
        created = self.http.post("/players", json={"name": name})
        assert created.status_code == 201, created.text
        body = created.json()
        self.id: str = body["playerId"]
        self.name: str = body["name"]
        self.token: str = body["token"]
        self.rating: int = body["rating"]
        self.http.headers["Authorization"] = f"Bearer {self.token}"

    def __repr__(self) -> str:
        return f"Player({self.name!r}, {self.id})"

    def close(self) -> None:
        self.http.close()

    # -- calls -------------------------------------------------------------------------
    def create_table(
        self,
        game: str,
        *,
        seats: int = 4,
        hands: int = 1,
        seed: int | None = None,
        turn_seconds: int = 600,
    ) -> View:
        body: dict[str, Any] = {
            "game": game,
            "seats": seats,
            "hands": hands,
            "partners": False,
            "turnSeconds": turn_seconds,
        }
        if seed is not None:
            body["seed"] = seed
        response = self.http.post("/tables", json=body)
        assert response.status_code == 201, response.text
        view: View = response.json()
        return view

    def sit(self, table_id: str, seat: int, *, bot: bool = False) -> httpx.Response:
        body = {"bot": True} if bot else None
        return self.http.post(f"/tables/{table_id}/seats/{seat}", json=body)

    def start(self, table_id: str) -> View:
        response = self.http.post(f"/tables/{table_id}/start")
        assert response.status_code == 200, response.text
        view: View = response.json()
        return view

    def table(self, table_id: str) -> View:
        """`GET /tables/{id}` as this player."""
        response = self.http.get(f"/tables/{table_id}")
        assert response.status_code == 200, response.text
        view: View = response.json()
        return view

    def move(
        self, table_id: str, version: int, move: dict[str, Any], *, move_id: str | None = None
    ) -> httpx.Response:
        """`POST /tables/{id}/moves` with ``move`` (e.g. ``{"type": "draw"}``) at ``version``."""
        body = {"version": version, "moveId": move_id or new_move_id(), **move}
        return self.http.post(f"/tables/{table_id}/moves", json=body)

    def profile(self, player_id: str | None = None) -> dict[str, Any]:
        response = self.http.get(f"/players/{player_id or self.id}")
        assert response.status_code == 200, response.text
        profile: dict[str, Any] = response.json()
        return profile


def seated_table(
    base_url: str, game: str, names: list[str], *, hands: int = 1, seed: int | None = None
) -> tuple[list[Player], View]:
    """Fresh players, the first creating a table and the others sitting in order (not started)."""
    players = [Player(base_url, name) for name in names]
    view = players[0].create_table(game, seats=len(players), hands=hands, seed=seed)
    for seat, player in enumerate(players[1:], start=1):
        response = player.sit(view["tableId"], seat)
        assert response.status_code == 200, response.text
        view = response.json()
    return players, view


# --- pushes -------------------------------------------------------------------------------

PUSHES = ("table", "delta")


def pushed_version(message: dict[str, Any]) -> int:
    """The table version a push brings its receiver to."""
    version: int = message["view"]["version"] if message["type"] == "table" else message["version"]
    return version


def take_push(view: View | None, message: dict[str, Any]) -> tuple[View | None, bool]:
    """What a client holding ``view`` holds after a push (API.md v3), and whether it must ask
    for the whole view (``{"action": "sync"}``): a whole view replaces an older one, a delta
    applies to the version it is from; a delta after a missed push asks for a sync."""
    if message["type"] == "table":
        newer = view is None or message["view"]["version"] >= view["version"]
        return (message["view"] if newer else view), False
    if view is not None and message["version"] <= view["version"]:
        return view, False  # already held (a REST answer came first)
    try:
        return apply_delta(view or {}, message), False
    except DeltaError:
        return view, True


# --- tiles --------------------------------------------------------------------------------


def table_tile_ids(view: View) -> set[int]:
    """The ids of the tiles on the table (series and pairs)."""
    return tile_ids(view["series"]) | tile_ids(view["pairs"])


def hand_value(game: str, tile: Tile) -> int:
    """What a tile left in hand costs (RULES.md §1): a joker 50, else its number or value."""
    if tile.get("joker"):
        return JOKER_HAND_VALUE
    return int(tile["number"] if game == "kastet" else tile["value"])


# --- choosing a move ----------------------------------------------------------------------


def kastet_melds(hand: list[Tile], room: int) -> list[list[Tile]]:
    """Disjoint runs of 3 (same colour, consecutive) and sets of 3-4 found in a hand; no jokers."""
    by_face: dict[tuple[str, int], list[Tile]] = defaultdict(list)
    for tile in hand:
        if not tile.get("joker"):
            by_face[(tile["color"], tile["number"])].append(tile)

    def has(face: tuple[str, int]) -> bool:
        return bool(by_face.get(face))

    melds: list[list[Tile]] = []
    for color in COLORS:
        for n in range(1, 12):
            while len(melds) < room and all(has((color, n + k)) for k in range(3)):
                melds.append([by_face[(color, n + k)].pop() for k in range(3)])
    for n in range(1, 14):
        while len(melds) < room and sum(has((c, n)) for c in COLORS) >= 3:
            melds.append([by_face[(c, n)].pop() for c in COLORS if has((c, n))])
    return melds


def harftet_melds(hand: list[Tile], room: int) -> list[list[dict[str, Any]]]:
    """Disjoint dictionary words of 3+ letters spelled from a hand (jokers declare a letter)."""
    rack = [(t["id"], None if t.get("joker") else t["letter"]) for t in hand]
    words = default_words()
    melds: list[list[dict[str, Any]]] = []
    while rack and len(melds) < room:
        found = find_words(words, rack, max_results=1)
        if not found:
            break
        _, spelled = found[0]
        melds.append([{"id": i} if a is None else {"id": i, "as": a} for i, a in spelled])
        used = {i for i, _ in spelled}
        rack = [r for r in rack if r[0] not in used]
    return melds


def next_move(view: View) -> dict[str, Any]:
    """A legal move (without version and moveId) for the caller, whose turn it must be."""
    turn = view["turn"]
    assert turn is not None and turn["seat"] == view["seat"], "not the caller's turn"
    hand: list[Tile] = view["hand"]
    if not turn["laid"]:
        room = MAX_SERIES - len(view["series"])
        if view["game"] == "kastet":
            new = [[{"id": t["id"]} for t in meld] for meld in kastet_melds(hand, room)]
        else:
            new = harftet_melds(hand, room)
        if new:
            # The whole series area: what stands (a joker on it keeps its face), then ours.
            standing = [[{"id": t["id"]} for t in meld] for meld in view["series"]]
            return {"type": "lay", "series": standing + new}
        if len(hand) < MAX_HAND and view["pile"] > 0:
            return {"type": "draw"}
    return {"type": "pass"}


# --- scoring (RULES.md §3) ----------------------------------------------------------------


def ranking_points(penalties: list[int], hands: int, game: str) -> list[int]:
    """Points by total penalty, lowest first; ties share their places' points (toward zero)."""
    m = MULTIPLIER[game]
    top, half = hands * m, (hands // 2) * m
    places = {4: [top, half, -half, -top], 3: [top, 0, -top], 2: [top, -top]}[len(penalties)]
    order = sorted(range(len(penalties)), key=lambda i: penalties[i])
    points = [0] * len(penalties)
    for place, seat in enumerate(order):
        tied = [p for p, s in enumerate(order) if penalties[s] == penalties[seat]]
        share = sum(places[p] for p in tied)
        points[seat] = abs(share) // len(tied) * (1 if share >= 0 else -1)
        assert place in tied
    return points
