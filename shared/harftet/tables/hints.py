"""Reading ahead at a table: a dry run of a move (nothing stored) and the hints of RULES §4a
(the search's best lay for the caller's own seat, from what they may see)."""

from __future__ import annotations

import logging
from typing import Any

from harftet.api.views import stored_view
from harftet.engine import hand
from harftet.engine import hints as rules
from harftet.engine.effects import Outcome, placed_json
from harftet.engine.errors import EngineError, NotSeatedError, WrongStatusError
from harftet.engine.moves import Draw, Lay, Move
from harftet.engine.options import hint_budget
from harftet.engine.state import Table
from harftet.engine.tiles import hand_value, tiles_for
from harftet.engine.view import hints_left
from harftet.errors import BusyError, HintsOffError, StaleVersionError
from harftet.identity import Caller
from harftet.store.table_items import StoredTable

from .writer import TableWriter

logger = logging.getLogger(__name__)
HINT_TRIES = 3  # the position changed while the search ran: search again, this many times


class _PositionMovedError(Exception):
    """The hand or the table changed between a hint's search and its write."""


class Hints:
    """Dry runs and hints over the write path."""

    def __init__(self, writer: TableWriter) -> None:
        self.writer = writer

    def dry_run(self, caller: Caller, table_id: str, version: int, move: Move) -> dict[str, Any]:
        """Check ``move`` at ``version`` as the real move would, changing nothing: the same
        error, or ``{"legal": True, "view": <the caller's view as it would be>}``.

        Nothing is written, pushed or recorded. What the move would bring that nobody may
        know yet stays out: a draw's tile (the pile is secret), and when the move would end
        the hand (the racks turned over, the next deal) the view stays as it is now, with
        ``"endsHand": true``."""
        with self.writer.refusing(caller.player_id):  # a deleted player's token: 401
            return self._dry_run(caller, table_id, version, move)

    def _dry_run(self, caller: Caller, table_id: str, version: int, move: Move) -> dict[str, Any]:
        stored = self.writer.write(table_id, None).stored
        view = stored_view(stored, caller.player_id)
        if stored.version != version:  # checked first, as for the real move
            raise StaleVersionError(view)
        table = stored.table
        seat = table.seat_of(caller.player_id)
        if seat is None:
            raise NotSeatedError("you do not sit at this table")
        after = hand.apply_move(table, seat, move, self.writer.clock()).table
        ends = after.break_until is not None and table.break_until is None
        if ends or after.hand_number != table.hand_number or after.status != table.status:
            return {"legal": True, "view": view, "endsHand": True}
        would_be = stored_view(StoredTable(after, stored.version), caller.player_id)
        if isinstance(move, Draw):  # the would-be hand without the tile it would bring
            would_be["hand"] = view["hand"]
        return {"legal": True, "view": would_be}

    def hint(self, caller: Caller, table_id: str, reveal: int | None = None) -> dict[str, Any]:
        """The next meld of the best lay the search finds for the caller's own seat, from what
        they may see (RULES §4a; ``engine.hints``): each meld revealed costs one hint of the
        hand, stored with the table; ``reveal`` (1-based) asks for a given meld, so a retry of
        a hint already paid for is answered again for free. Where hints are unlimited the
        whole lay comes too, and nothing is stored."""
        for _ in range(HINT_TRIES):
            with self.writer.refusing(caller.player_id):  # a deleted player's token: 401
                answer = self._hint_once(caller, table_id, reveal)
            if answer is not None:
                return answer
        raise BusyError("the table moved on while the hint was searched: ask again")

    def _hint_once(
        self, caller: Caller, table_id: str, reveal: int | None
    ) -> dict[str, Any] | None:
        """One search and one write of a hint; None when the position changed in between."""
        table = self.writer.write(table_id, None).stored.table
        seat = _hint_seat(table, caller)
        rules.wanted(table, seat, reveal)  # 409 no_hints_left before any search
        mark = rules.position_mark(table, seat)
        proposal = self._best_lay(table, seat, table_id)
        melds = rules.melds_of(table, proposal.lay) if proposal is not None else []
        picked: list[int] = []

        def change(t: Table, now: float) -> Outcome:
            if rules.position_mark(t, seat) != mark or t.break_until is not None:
                raise _PositionMovedError()
            out, index = rules.take(t, seat, len(melds), mark, reveal)
            picked.append(index)
            return out

        try:
            written = self.writer.write(table_id, change)
        except _PositionMovedError:
            return None
        after = written.stored.table
        answer: dict[str, Any] = {
            "version": written.stored.version,
            "shed": proposal.shed if proposal is not None else 0,
            "meldShed": 0,
            "meld": None,
            "lay": None,
            "tiles": [],
            "hintsLeft": hints_left(after, seat),
            "revealed": rules.shown(after, seat),
            "area": None,
        }
        if proposal is not None and melds:
            answer |= _revealed(table, seat, proposal, melds, picked[-1], after)
        return answer

    def _best_lay(self, table: Table, seat: int, table_id: str) -> Any:
        """The search's best lay for ``seat`` from what it may see, checked by the engine."""
        # Imported here: the search and its indexes stay off the REST function's cold start.
        from harftet.engine.search import hint

        proposal = hint(_as_seen_by(table, seat), seat)
        if proposal is not None and not _accepted(table, seat, proposal.lay, self.writer.clock()):
            logger.error("the search proposed a refused lay", extra={"tableId": table_id})
            proposal = None
        return proposal


def _revealed(
    table: Table, seat: int, proposal: Any, melds: list[Any], index: int, after: Table
) -> dict[str, Any]:
    """What a hint shows of meld ``index``: the meld, its area, and the tiles of the hand it
    uses (where hints are unlimited: the whole lay, checkable)."""
    hand_ids = table.seats[seat].hand
    in_series = index < len(rules.series_melds(table, proposal.lay))
    values = tiles_for(table.game)
    shown: dict[str, Any] = {
        "meld": rules.meld_json(melds[index], hand_ids),
        "area": "series" if in_series else "pairs",
        # what this meld alone sheds: RULES §4a shows one meld, and its own worth beside the
        # whole lay's (shed), so a player is never told a meld is worth the whole lay
        "meldShed": sum(hand_value(values[p.id]) for p in melds[index] if p.id in hand_ids),
    }
    if hint_budget(after.hints) is None:  # unlimited: the whole lay, checkable
        shown["lay"] = lay_json(proposal.lay)
        shown["tiles"] = list(proposal.tiles)
    else:
        mine = set(hand_ids)
        seen = melds[: max(rules.shown(after, seat), index + 1)]
        shown["tiles"] = sorted({p.id for m in seen for p in m if p.id in mine})
    return shown


def _hint_seat(table: Table, caller: Caller) -> int:
    """The caller's seat, if they may ask for a hint now."""
    seat = table.seat_of(caller.player_id)
    if seat is None:
        raise NotSeatedError("you do not sit at this table: hints are for players")
    if hint_budget(table.hints) == 0:
        raise HintsOffError("this table was created with hints off")
    if table.status not in ("playing", "paused") or table.hand_number == 0:
        raise WrongStatusError(f"the table is {table.status}: hints are given during a hand")
    if table.break_until is not None:
        raise WrongStatusError("the hand is over: hints are given during a hand")
    return seat


def _as_seen_by(table: Table, seat: int) -> Table:
    """The table as ``seat`` knows it: no other hand, no pile order, no seed."""
    seen = table.clone()
    for i, chair in enumerate(seen.seats):
        if i != seat:
            chair.hand = []
    seen.pile = []
    seen.seed = 0
    return seen


def _accepted(table: Table, seat: int, lay: Lay, now: float) -> bool:
    """Whether the engine takes ``lay`` from ``seat`` — checked as if it were that seat's turn,
    since a hint may be asked while another player is on turn (no false refusal logged)."""
    if table.turn_seat != seat:
        table = table.clone()
        table.turn_seat, table.laid = seat, False
    try:
        hand.apply_move(table, seat, lay, now)
    except EngineError:
        return False
    return True


def lay_json(lay: Lay) -> dict[str, Any]:
    """A lay in the move body's shape: ``{"series": [[{"id", "as"?}, ...]], "pairs": [...]}``."""
    return {
        "series": [[placed_json(p) for p in meld] for meld in lay.series],
        "pairs": [[placed_json(p) for p in meld] for meld in lay.pairs],
    }
