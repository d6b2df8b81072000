"""The one place that decides what a viewer may see of a table.

A seated player sees their own hand and everybody's tile counts; anybody else sees the
spectator view. Neither ever holds another hand's tiles, the pile order or the seed.
"""

from __future__ import annotations

from typing import Any

from harftet.engine.words import ALPHABET

from . import proof
from .ending import closed_reason
from .options import hint_budget
from .rules import DEAL_SIZE, MAX_HAND, MAX_SERIES
from .state import Placed, Table
from .tiles import COLORS, Tile, tile_json, tiles_for

MIN_SERIES = 3  # tiles of a Kastet series meld, letters of a Harftet word (rules.py checks it)
PAIR_TILES = 2  # tiles of a pair in both games
KASTET_NUMBERS = (1, 13)  # a Kastet tile's numbers; 1 is low only


def rule_limits(game: str) -> dict[str, Any]:
    """The rule constants a client needs to build a lay (RULES.md §2), so that it copies none:
    the server stays the judge, the client only tints and disables by these."""
    limits: dict[str, Any] = {
        "maxSeries": MAX_SERIES,  # melds the series area holds
        "handLimit": MAX_HAND,  # a hand this size may not draw and may pass
        "dealSize": DEAL_SIZE,
        "minSeries": MIN_SERIES,
        "pairTiles": PAIR_TILES,
        "pairsOpenAt": MAX_SERIES,  # the pair area opens while the series area holds this many
        "colors": list(COLORS),
    }
    if game == "kastet":
        # a run: one colour, consecutive numbers; a set: one number, each colour at most once
        return limits | {"numbers": list(KASTET_NUMBERS), "maxSet": len(COLORS)}
    # a joker stands for one letter of the alphabet (in order, for keyboards and sorting)
    return limits | {"alphabet": ALPHABET}


def table_view(table: Table, viewer: str | None) -> dict[str, Any]:
    """The table as ``viewer`` (a player id, or None for a spectator) may see it."""
    tiles = tiles_for(table.game)
    # Built from scratch, field by field: nothing reaches a viewer unless named here.
    view: dict[str, Any] = {
        "tableId": table.table_id,
        "game": table.game,
        "version": 0,  # the store's version; the service fills it in
        "status": table.status,
        "manager": table.manager,
        "hands": table.hands,
        "handNumber": table.hand_number,
        "partners": table.partners,
        "turnSeconds": table.turn_seconds,
        "createdAt": table.created_at,
        "seats": _seats_view(table),
        "turn": _turn_view(table),
        "pile": len(table.pile),
        "series": [_meld_view(m, tiles) for m in table.series],
        "pairs": [_meld_view(m, tiles) for m in table.pairs],
        "handResults": _hand_results_view(table, tiles),
        "result": table.result,
        # why a finished game ended before its last hand ("abandoned", "operator"), else None
        "closed": closed_reason(table),
        "hints": shown_hints(table),
        "private": table.private,
        "botSeconds": table.bot_seconds,
        "practice": table.practice,
        "limits": rule_limits(table.game),
        "rated": table.rated,
        "breakSeconds": table.break_seconds,
        "graceSeconds": table.grace_seconds,
        "waitSeconds": table.wait_seconds,
        "pace": table.pace,
        "hintsLeft": None,
        "dealProof": _deal_proof(table),
        # the event that made this version (as in the log), None before any
        "last": dict(table.recent[-1]) if table.recent else None,
    }
    pause = _break_view(table)
    if pause is not None:
        view["break"] = pause
    mine = table.seat_of(viewer) if viewer is not None else None
    if mine is not None:
        view |= _own_view(table, mine, tiles)
    return view


def _seats_view(table: Table) -> list[dict[str, Any] | None]:
    """Every seat as anybody may see it: who sits there, how many tiles, the penalty; an
    empty seat is None before the start."""
    started = table.hand_number > 0
    seats: list[dict[str, Any] | None] = []
    for i, chair in enumerate(table.seats):
        occupant = chair.occupant
        if occupant is None and not started:
            seats.append(None)
            continue
        seats.append(
            {
                "seat": i,
                "playerId": occupant.player_id if occupant else None,
                "name": occupant.name if occupant else None,
                "connected": chair.connected if occupant else False,
                "bot": occupant.bot if occupant else False,
                **({"level": occupant.level} if occupant and occupant.bot else {}),
                "vacant": occupant is None,
                "tiles": len(chair.hand),
                "penalty": chair.penalty,
            }
        )
    return seats


def _meld_view(meld: list[Placed], tiles: tuple[Tile, ...]) -> list[dict[str, Any]]:
    """A meld on the table, each tile as the API shows it (a joker with its face)."""
    return [tile_json(tiles[p.id], p.face) for p in meld]


def _hand_results_view(table: Table, tiles: tuple[Tile, ...]) -> list[dict[str, Any]]:
    """The hands played so far: who finished, the penalties, and the racks left."""
    return [
        {
            "hand": r.hand,
            "finisher": r.finisher,
            "penalties": list(r.penalties),
            # the racks are turned over at the end of a hand (RULES §5)
            "left": {str(s): [tile_json(tiles[t]) for t in ids] for s, ids in r.left.items()},
        }
        for r in table.hand_results
    ]


def _turn_view(table: Table) -> dict[str, Any] | None:
    """The clock: whose turn it is, whether they laid, and when the turn times out (None
    while paused); None outside a hand."""
    if table.status in ("playing", "paused") and table.turn_seat is not None:
        return {
            "seat": table.turn_seat,
            "laid": table.laid,
            "deadline": table.deadline if table.status == "playing" else None,
        }
    return None


def _break_view(table: Table) -> dict[str, Any] | None:
    """The break between hands: when it ends and who said ready; None outside one."""
    if table.break_until is not None and table.status in ("playing", "paused"):
        return {"until": table.break_until, "ready": list(table.ready)}
    return None


def _deal_proof(table: Table) -> str | None:
    """The commitment to the current hand's shuffle (RULES §5a): reveals nothing of it."""
    if table.hand_number > 0:
        return proof.deal_proof(table.salt, table.seed, table.hand_number)
    return None


def _own_view(table: Table, seat: int, tiles: tuple[Tile, ...]) -> dict[str, Any]:
    """What only the player at ``seat`` sees: their seat, their own hand, their hints left."""
    return {
        "seat": seat,
        "hand": [tile_json(tiles[i]) for i in table.seats[seat].hand],
        "hintsLeft": hints_left(table, seat),
    }


def shown_hints(table: Table) -> bool | int | str:
    """The table's hints option as the API shows it: false, a budget, or "unlimited"."""
    budget = hint_budget(table.hints)
    return "unlimited" if budget is None else (budget or False)


def hints_left(table: Table, seat: int) -> int | None:
    """The hints ``seat`` may still take this hand: None where unlimited or off."""
    budget = hint_budget(table.hints)
    if not budget:
        return None
    return max(0, budget - table.seats[seat].hints_used)


def vacant_seats(table: Table) -> list[int]:
    """The seats anybody may take now: empty seats before the start, vacated seats of a
    game in progress; none once the game is over."""
    if table.status == "finished":
        return []
    return [i for i, s in enumerate(table.seats) if s.occupant is None]


def lobby_status(table: Table) -> str | None:
    """Which lobby list a table belongs to (API.md "Lobby"): "waiting" (for players to
    start), "open" (paused with a vacant seat for a substitute), "playing" (to watch), or
    None (a private table, a finished one, or a paused one with every seat taken)."""
    if table.private:
        return None
    if table.status == "waiting":
        return "waiting"
    if table.status == "paused":
        return "open" if vacant_seats(table) else None
    if table.status == "playing":
        return "playing"
    return None


def lobby_summary(table: Table) -> dict[str, Any]:
    """The short description of a table that the lobby lists."""
    return {
        "tableId": table.table_id,
        "game": table.game,
        "status": table.status,
        "seats": len(table.seats),
        "taken": sum(1 for s in table.seats if s.occupant is not None),
        "players": [s.occupant.name if s.occupant else None for s in table.seats],
        "manager": table.manager,
        "hands": table.hands,
        "partners": table.partners,
        "turnSeconds": table.turn_seconds,
        "createdAt": table.created_at,
        "vacant": vacant_seats(table),
        "private": table.private,
        "hints": shown_hints(table),
        "botSeconds": table.bot_seconds,
        "practice": table.practice,
        "pace": table.pace,
    }


# What a log event may carry: what everyone at the table saw (RULES §5). A draw never says
# the tile; other fields the engine adds pass only when they name no hidden tile.
_HIDDEN_KEYS = {"tile", "drawn", "rack", "pile", "seed", "deal"}


def public_event(event: dict[str, Any]) -> dict[str, Any]:
    """A log event as players may read it."""
    shown = {k: v for k, v in event.items() if k not in _HIDDEN_KEYS}
    if event.get("type") == "draw":
        shown.pop("tiles", None)
    if not isinstance(shown.get("hand"), int | None):
        del shown["hand"]  # "hand" is the hand's number, never a rack
    return shown
