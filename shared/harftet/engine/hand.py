"""Playing a hand: dealing, drawing, laying, passing, and the end of a hand.

Every function here that takes a Table either documents that it changes it (``deal``,
called on a clone) or leaves it untouched and returns a new one (``apply_move``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import proof
from .effects import Outcome, begin, changed, note, placed_json
from .errors import IllegalMoveError, NotYourTurnError, WrongStatusError
from .lay_checks import validate_lay
from .moves import Draw, Lay, Move, Pass, Ready
from .rules import DEAL_SIZE, MAX_HAND, Rules, rules_for
from .scoring import settle
from .state import HandResult, Placed, Table
from .tiles import TILE_COUNT, hand_value

FINISH_PENALTY = -50


def shuffled(seed: int, hand_number: int) -> list[int]:
    """The 106 tile ids in the order hand ``hand_number`` of a game with ``seed`` deals them:
    14 to each seat in seat order, the rest the pile (drawn from its end)."""
    ids = list(range(TILE_COUNT))
    # Python's Mersenne Twister seeded with a string, and its shuffle: docs/DEALS.md says
    # how to recompute it (clients/web/verify.js does, in the browser).
    random.Random(proof.shuffle_input(seed, hand_number)).shuffle(ids)
    return ids


def deal(table: Table, now: float) -> None:
    """Start hand ``table.hand_number`` on ``table`` (changed in place: pass a clone)."""
    ids = shuffled(table.seed, table.hand_number)
    n = len(table.seats)
    for i, seat in enumerate(table.seats):
        seat.hand = ids[i * DEAL_SIZE : (i + 1) * DEAL_SIZE]
    table.pile = ids[n * DEAL_SIZE :]
    table.series = []
    table.pairs = []
    table.first_seat = (table.hand_number - 1) % n
    table.turn_seat = table.first_seat
    table.laid = False
    table.passes = 0
    table.deadline = now + table.turn_seconds  # the opener's clock starts at the deal
    table.break_until = None
    table.ready = []
    for chair in table.seats:  # hints are counted per hand
        chair.hints_used = chair.hint_shown = chair.hint_mark = 0
    note(table, now, "start", None, first=table.first_seat)


def deal_next(table: Table, now: float) -> None:
    """End the break: deal the next hand (``table`` changed in place: pass a clone)."""
    table.hand_number += 1
    deal(table, now)


def all_ready(table: Table) -> bool:
    """Whether nobody is waited for: every connected person at the table said ready
    (computer players, disconnected players and empty seats count as ready; RULES §2a)."""
    return all(
        i in table.ready or chair.occupant is None or chair.occupant.bot or not chair.connected
        for i, chair in enumerate(table.seats)
    )


def ready(table: Table, seat: int, now: float) -> Outcome:
    """``seat`` is ready for the next hand; once nobody is waited for, it is dealt at once."""
    if table.break_until is None or table.status not in ("playing", "paused"):
        raise WrongStatusError("there is no break now: ready is said between hands")
    if seat in table.ready:
        return Outcome(table)
    new = begin(table.clone())
    new.ready = sorted([*new.ready, seat])
    if new.status == "playing" and all_ready(new):
        deal_next(new, now)
    return changed(new)


def legal_to_draw(table: Table, seat: int) -> bool:
    """Whether ``seat`` may draw now: its turn, no lay yet, under 22 tiles, pile not empty."""
    return (
        table.status == "playing"
        and table.turn_seat == seat
        and not table.laid
        and len(table.seats[seat].hand) < MAX_HAND
        and bool(table.pile)
    )


def legal_to_pass_without_lay(table: Table, seat: int) -> bool:
    """Whether ``seat`` may pass without laying: it holds 22 tiles or the pile is empty."""
    return len(table.seats[seat].hand) >= MAX_HAND or not table.pile


def forced_move(table: Table) -> Move:
    """What the turn timer plays for the seat in turn: a draw if allowed, else a pass."""
    assert table.turn_seat is not None
    return Draw() if legal_to_draw(table, table.turn_seat) else Pass()


def apply_move(
    table: Table,
    seat: int,
    move: Move,
    now: float,
    *,
    forced: bool = False,
    rules: Rules | None = None,
) -> Outcome:
    """Play ``move`` for ``seat``; returns the new table (``table`` is never changed)."""
    if isinstance(move, Ready):
        return ready(table, seat, now)
    _check_turn(table, seat)
    rules = rules or rules_for(table.game)
    laid = _check_move(table, seat, move, rules)
    new = begin(table.clone())
    if forced:
        note(new, now, "timeout", seat)
    if isinstance(move, Draw):
        outcome = _draw(new, seat, now)
    elif isinstance(move, Pass):
        note(new, now, "pass", seat)
        outcome = _pass(new, seat, now, rules)
    else:
        assert laid is not None
        outcome = _lay(new, seat, now, *laid)
        if isinstance(move, Lay) and move.end_turn:  # the turn's pass, in the same change
            note(new, now, "pass", seat)
            outcome = _pass(new, seat, now, rules)
    if not forced:  # a player who moves is present, whatever their sockets say (RULES §4)
        chair = outcome.table.seats[seat]
        chair.timeouts = 0
        chair.connected = True
        chair.disconnected_at = None
    return outcome


def _check_turn(table: Table, seat: int) -> None:
    """A move is played during a hand, by the seat in turn."""
    if table.status != "playing":
        raise WrongStatusError(f"the table is {table.status}, not playing")
    if table.break_until is not None:
        raise WrongStatusError("the hand is over: the next one is dealt after the break")
    if table.turn_seat != seat:
        raise NotYourTurnError(f"it is seat {table.turn_seat}'s turn")


def _check_move(
    table: Table, seat: int, move: Move, rules: Rules
) -> tuple[list[list[Placed]], list[list[Placed]], set[int]] | None:
    """Refuse a move the rules do not allow now; for a lay, its checked series, new pairs and
    added hand tiles (``validate_lay``)."""
    if isinstance(move, Draw):
        _check_draw(table, seat)
    elif isinstance(move, Pass):
        _check_pass(table, seat)
    elif isinstance(move, Lay):
        return validate_lay(table, seat, move, rules)
    else:
        raise IllegalMoveError(f"unknown move {move!r}", reason="unknown_move")
    return None


def _draw(table: Table, seat: int, now: float) -> Outcome:
    """The seat takes the pile's top tile; the turn passes (``table`` changed in place)."""
    table.seats[seat].hand.append(table.pile.pop())
    table.passes = 0
    note(table, now, "draw", seat)  # never the tile: the pile is secret
    _next_turn(table, now)
    return changed(table)


def _lay(
    table: Table,
    seat: int,
    now: float,
    series: list[list[Placed]],
    pairs: list[list[Placed]],
    added: set[int],
) -> Outcome:
    """A checked lay goes on the table (``table`` changed in place); the turn goes on."""
    table.series = series
    table.pairs.extend(pairs)
    table.seats[seat].hand = [t for t in table.seats[seat].hand if t not in added]
    table.laid = True
    table.passes = 0
    # The whole resulting arrangement is on the table for all to see: carrying it lets
    # a replay re-apply the lay exactly (RULES §5).
    note(
        table,
        now,
        "lay",
        seat,
        tiles=sorted(added),
        series=[[placed_json(p) for p in m] for m in series],
        pairs=[[placed_json(p) for p in m] for m in pairs],
    )
    return changed(table)


def _check_draw(table: Table, seat: int) -> None:
    """A draw comes before any lay of the turn, under 22 tiles, from a pile not empty."""
    if table.laid:
        raise IllegalMoveError(
            "you laid this turn: you may not draw after a lay, pass instead", reason="already_laid"
        )
    if len(table.seats[seat].hand) >= MAX_HAND:
        raise IllegalMoveError(
            f"you hold {MAX_HAND} tiles, the most allowed: lay or pass",
            reason="hand_full",
            params={"max": MAX_HAND},
        )
    if not table.pile:
        raise IllegalMoveError("the pile is empty: lay or pass", reason="pile_empty")


def _check_pass(table: Table, seat: int) -> None:
    """Passing without a lay this turn needs 22 tiles in hand or an empty pile."""
    if not table.laid and not legal_to_pass_without_lay(table, seat):
        raise IllegalMoveError(
            "draw or lay: you may pass without laying only with 22 tiles or an empty pile",
            reason="must_draw_or_lay",
        )


def _next_turn(table: Table, now: float) -> None:
    assert table.turn_seat is not None
    table.turn_seat = (table.turn_seat + 1) % len(table.seats)
    table.laid = False
    table.deadline = now + table.turn_seconds


def _pass(table: Table, seat: int, now: float, rules: Rules) -> Outcome:
    """End the turn; finish the hand on an empty hand or after a full round of passes."""
    if table.laid and not table.seats[seat].hand:
        return _end_hand(table, seat, now, rules)
    if not table.laid:
        table.passes += 1
        if table.passes >= len(table.seats):
            return _end_hand(table, None, now, rules)
    _next_turn(table, now)
    return changed(table)


def _end_hand(table: Table, finisher: int | None, now: float, rules: Rules) -> Outcome:
    """Score the hand; break before the next one (RULES §2a: no clock runs, the results stay
    in view), or finish the game and settle it."""
    penalties = [
        FINISH_PENALTY if i == finisher else hand_penalty(seat.hand, rules)
        for i, seat in enumerate(table.seats)
    ]
    left = {i: sorted(seat.hand) for i, seat in enumerate(table.seats)}
    table.hand_results.append(HandResult(table.hand_number, finisher, penalties, left))
    for seat, p in zip(table.seats, penalties, strict=True):
        seat.penalty += p
    note(
        table,
        now,
        "handEnd",
        finisher,
        finisher=finisher,
        penalties=list(penalties),
        left={str(i): list(ids) for i, ids in left.items()},
    )
    table.turn_seat = None
    table.deadline = None
    table.laid = False
    table.passes = 0
    if table.hand_number < table.hands:
        table.break_until = now + table.break_seconds
        table.ready = []
        if all_ready(table):  # nobody to wait for: computer players only
            deal_next(table, now)
        return changed(table)
    table.status = "finished"
    effects = settle(table)
    result = table.result or {}
    note(
        table, now, "gameEnd", None, penalties=result.get("penalties"), points=result.get("points")
    )
    return changed(table, effects)


def hand_penalty(hand: Sequence[int], rules: Rules) -> int:
    """The sum of the hand values of ``hand`` (each joker 50)."""
    return sum(hand_value(rules.tiles[t]) for t in hand)
