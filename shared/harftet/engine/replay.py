"""A finished game, whole: every deal from the seed and the moves that were made, and the
game rebuilt from them through the engine (API.md "replay"; shown only once the game is
over, RULES §5).

``document(table, events)`` builds the replay document from the finished table and its log
(every event of the game, oldest first); ``play(document)`` re-applies the log's events
through the same transitions that made them and returns the table they lead to. Each event
the engine reports while replaying must equal the logged one, so a replay that would go
another way raises ``ReplayError`` instead of showing a different game.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from . import ending, hand, proof
from . import table as life
from .effects import Outcome, begin, changed, placed_from_json
from .errors import EngineError, WrongStatusError
from .moves import Draw, Lay, Move, Pass
from .options import TableOptions
from .rules import DEAL_SIZE, Rules
from .state import DEFAULT_BREAK_SECONDS, Event, Occupant, Table
from .tiles import tile_json, tiles_for


class ReplayError(ValueError):
    """The document does not replay: its events do not follow from its seed and options."""


def deals(table: Table) -> list[dict[str, Any]]:
    """Every hand dealt so far: ``{"deal": {seat: [ids]}, "pile": [ids], "committed",
    "dealProof"}`` (seats as strings, JSON's keys; the pile in drawing order, the first tile
    drawn first; ``committed`` the text whose SHA-256 the views showed as ``dealProof``)."""
    out = []
    n = len(table.seats)
    for number in range(1, table.hand_number + 1):
        ids = hand.shuffled(table.seed, number)
        out.append(
            {
                "deal": {str(s): ids[s * DEAL_SIZE : (s + 1) * DEAL_SIZE] for s in range(n)},
                "pile": ids[n * DEAL_SIZE :][::-1],  # drawn from the end
                "committed": proof.committed(table.salt, table.seed, number),
                "dealProof": proof.deal_proof(table.salt, table.seed, number),
            }
        )
    return out


def options(table: Table) -> dict[str, Any]:
    """What ``new_table`` was given, in the API's names."""
    return {
        "tableId": table.table_id,
        "game": table.game,
        "seats": len(table.seats),
        "hands": table.hands,
        "partners": table.partners,
        "turnSeconds": table.turn_seconds,
        "graceSeconds": table.grace_seconds,
        "waitSeconds": table.wait_seconds,
        "hints": table.hints,
        "private": table.private,
        "botSeconds": table.bot_seconds,
        "createdAt": table.created_at,
        "rated": table.rated,
        "breakSeconds": table.break_seconds,
        "pace": table.pace,
    }


def document(table: Table, events: list[Event]) -> dict[str, Any]:
    """The replay of ``table``'s game from its log ``events`` (all of them, oldest first):
    ``{"seed", "table": options, "before": [events before the first deal], "hands":
    [{"hand", "deal", "pile", "moves": [that hand's events]}], "result", "tiles"}``. Only
    for a finished game: before the end it would give away the seed and the hands. The seed
    is a 63-bit integer written as a string (API.md v4: a browser's JSON.parse rounds any
    integer past 2^53); ``tiles`` are the game's 106 tiles by id, so a client can show the
    deals and moves, which name tiles by id."""
    if table.status != "finished":
        raise WrongStatusError("the replay is shown only once the game is over")
    ordered = sorted((plain(e) for e in events), key=lambda e: int(e["seq"]))
    hands = [
        {"hand": i + 1, **d, "moves": [e for e in ordered if e["hand"] == i + 1]}
        for i, d in enumerate(deals(table))
    ]
    return {
        "seed": str(table.seed),
        "salt": table.salt,  # mixed into every deal proof (RULES §5a, docs/DEALS.md)
        "table": options(table),
        "before": [e for e in ordered if e["hand"] == 0],
        "hands": hands,
        "result": table.result,
        "tiles": [tile_json(t) for t in tiles_for(table.game)],
    }


def plain(value: Any) -> Any:
    """``value`` with DynamoDB's Decimals turned back into the ints and floats they were
    written from (a float's repr round-trips exactly), so logged events compare equal to
    the ones the engine reports again."""
    if isinstance(value, Decimal):
        return float(value) if value.as_tuple().exponent != 0 else int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def _occupant(event: Event) -> Occupant:
    if event["type"] == "bot":
        return life.bot_occupant(int(event["seat"]), event.get("level") or "medium")
    return Occupant(str(event["playerId"]), str(event["name"]), rating=int(event["rating"]))


def _move(event: Event) -> Move:
    kind = event["type"]
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    return Lay(
        tuple(tuple(placed_from_json(p) for p in m) for m in event["series"]),
        tuple(tuple(placed_from_json(p) for p in m) for m in event["pairs"]),
    )


def _same_turn(lay: Event, passed: Event) -> bool:
    """Whether a pass logged after a lay is that lay's own (``"pass": true``, a computer
    player's lay and pass): the same seat at the same moment."""
    return bool(passed["seat"] == lay["seat"] and float(passed["at"]) == float(lay["at"]))


def _swept(table: Table, event: Event, rules: Rules | None) -> Outcome | None:
    """The sweep at the event's time, if the event is what it reports first."""
    out = life.sweep(table, float(event["at"]), rules=rules)
    if out is not None and out.events and out.events[0] == event:
        return out
    return None


def _cause(table: Table, event: Event, after: list[Event], rules: Rules | None) -> Outcome:
    """Re-apply the transition whose first reported event is ``event`` (``after``: the
    events logged after it)."""
    kind, at, seat = event["type"], float(event["at"]), event["seat"]
    pid = event.get("playerId")
    if kind in ("draw", "lay", "pass"):
        move = _move(event)
        nxt = after[0] if after else None
        if isinstance(move, Lay) and nxt and nxt["type"] == "pass" and _same_turn(event, nxt):
            move = replace(move, end_turn=True)  # the lay ended the turn: one change
        return hand.apply_move(table, int(seat), move, at, rules=rules)
    if kind == "timeout" or (kind == "stand" and event.get("reason") == "dropped"):
        out = _swept(table, event, rules)
        if out is None:
            raise ReplayError(f"event {event['seq']}: nothing was due then")
        return out
    if kind == "bot":
        out = _swept(table, event, rules) if table.status in ("playing", "paused") else None
        return out or life.sit(table, int(seat), _occupant(event), at)
    if kind in ("sit", "substitute"):
        return life.sit(table, int(seat), _occupant(event), at)
    if kind == "stand":
        nxt = after[0] if after else None
        if event.get("reason") == "returned" and nxt is not None:
            return life.sit(table, int(nxt["seat"]), _occupant(nxt), at)
        if nxt is not None and nxt["type"] == "sit" and nxt.get("playerId") == pid:
            return life.sit(table, int(nxt["seat"]), _occupant(nxt), at)  # changed seats
        return life.leave(table, str(pid), at)
    if kind == "reconnect":
        if table.seat_of(str(pid)) is None:
            return life.sit(table, int(seat), _occupant(event), at)
        return life.reconnect(table, str(pid), at)
    if kind == "leave":
        return life.leave(table, str(pid), at)
    if kind == "disconnect":
        return life.disconnect(table, str(pid), at)
    if kind == "start":
        if table.status == "waiting":
            return life.start(table, str(table.manager), at)
        return _next_hand(table, at)  # the break ended: its time ran out, or all were ready
    if kind == "continue":
        return life.continue_game(table, str(table.manager), at)
    if kind == "gameEnd" and event.get("closed"):  # a wait's end, a deletion, an operator
        return _swept(table, event, rules) or ending.closed(table, at, str(event["closed"]))
    raise ReplayError(f"event {event['seq']}: a {kind} follows from another event")


def _next_hand(table: Table, at: float) -> Outcome:
    if table.break_until is None:
        raise ReplayError(f"a hand was dealt at {at} outside a break")
    new = begin(table.clone())
    hand.deal_next(new, at)
    return changed(new)


def play(doc: dict[str, Any], *, rules: Rules | None = None) -> Table:
    """The table that the replay document ``doc`` leads to, rebuilt through the engine
    (``rules`` overrides the game's rules, for tests). Raises ReplayError when an event
    does not follow."""
    doc = plain(doc)
    opts = doc["table"]
    events: list[Event] = sorted(
        [*doc["before"], *(e for h in doc["hands"] for e in h["moves"])],
        key=lambda e: int(e["seq"]),
    )
    if not events or events[0]["type"] != "sit" or events[0]["seat"] != 0:
        raise ReplayError("a game's log begins with its creator sitting at seat 0")
    first = events[0]
    table = life.new_table(
        str(opts["tableId"]),
        _occupant(first),
        TableOptions(
            opts["game"],
            seats=int(opts["seats"]),
            hands=int(opts["hands"]),
            partners=bool(opts["partners"]),
            turn_seconds=int(opts["turnSeconds"]),
            grace_seconds=int(opts["graceSeconds"]),
            wait_seconds=int(opts["waitSeconds"]),
            hints=opts["hints"],
            private=bool(opts["private"]),
            bot_seconds=int(opts["botSeconds"]),
            rated=bool(opts.get("rated", True)),
            break_seconds=int(opts.get("breakSeconds", DEFAULT_BREAK_SECONDS)),
            pace=opts.get("pace", "live"),
        ),
        seed=int(doc["seed"]),
        now=float(first["at"]),
        salt=str(doc.get("salt", "")),
        test_mode=True,
    )
    if table.recent != [first]:
        raise ReplayError("event 1 does not follow from the table's options")
    i = 1
    while i < len(events):
        event = events[i]
        try:
            out = _cause(table, event, events[i + 1 :], rules)
        except EngineError as error:
            raise ReplayError(f"event {event['seq']}: {error.message}") from error
        made = out.events
        if not made or made != events[i : i + len(made)]:
            raise ReplayError(f"event {event['seq']} ({event['type']}) does not replay")
        table = out.table
        i += len(made)
    return table
