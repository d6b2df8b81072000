"""The table use cases: create a table, list the lobby, view, sit, stand up, start, continue,
move, and an operator's close. Each is one call of the write path (`TableWriter`) and the
view of its result."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any

from harftet import cursors
from harftet.api.delta import view_delta
from harftet.api.views import stored_view
from harftet.bounds import CORRESPONDENCE_TABLES_MAX, WAITING_TABLES_MAX
from harftet.engine import ending, hand, proof
from harftet.engine import table as life
from harftet.engine.effects import Outcome
from harftet.engine.errors import NotSeatedError
from harftet.engine.moves import Move
from harftet.engine.options import TableOptions
from harftet.engine.search import DEFAULT_BOT_LEVEL, BotLevel
from harftet.engine.state import (
    Occupant,
    Table,
)
from harftet.engine.view import lobby_summary
from harftet.errors import (
    BadRequestError,
    BannedError,
    BusyError,
    NotFoundError,
    OperatorBannedError,
    StaleVersionError,
    TooManyHeldError,
    TooManyTablesError,
)
from harftet.identity import Caller
from harftet.store.answers import filled
from harftet.store.errors import HeldLimitError, VersionConflictError
from harftet.store.ports import AnswerStorePort, PlayerStorePort, TableStorePort
from harftet.store.table_items import CORRESPONDENCE_LOBBY, StoredTable

from .writer import Change, TableWriter, Written

logger = logging.getLogger(__name__)

LOBBY_STATUSES = ("waiting", "open", "playing")
LOBBY_LIMIT = 50
SeatHook = Callable[[str, str], object]
ListHook = Callable[[Table, int, str], object]


@dataclass(eq=False)
class Tables:
    """The table use cases over the write path; ``on_seated(player_id, table_id)`` is told
    whenever a person takes a seat or makes a table (the account remembers the table), and
    ``on_listed(table, version, player_id)`` then too (the caller's inbox lists it at once:
    API.md v4 read-your-writes, without waiting for the stream)."""

    writer: TableWriter
    tables: TableStorePort
    players: PlayerStorePort
    mac: cursors.Mac
    _: KW_ONLY
    new_table_id: Callable[[], str]
    test_mode: bool = False
    on_seated: SeatHook | None = None
    on_listed: ListHook | None = None
    answers: AnswerStorePort | None = None  # each move's first answer, for its retries

    def _now(self) -> float:
        return self.writer.clock()

    def _view(self, written: Written, viewer: str | None) -> dict[str, Any]:
        return stored_view(written.stored, viewer)

    def _seated(self, player_id: str, stored: StoredTable) -> None:
        """Tell ``on_seated`` and ``on_listed``; a lost note never fails the request it
        follows."""
        for hook, args in (
            (self.on_seated, (player_id, stored.table.table_id)),
            (self.on_listed, (stored.table, stored.version, player_id)),
        ):
            if hook is None:
                continue
            try:
                hook(*args)
            except Exception:
                logger.warning("could not note the table", exc_info=True)

    def occupant(self, caller: Caller) -> Occupant:
        """The caller as somebody about to sit down (refused while banned)."""
        try:
            item = self.players.get(caller.player_id)
        except NotFoundError as error:
            raise NotFoundError("your player no longer exists") from error
        banned = item.get("bannedUntil")
        if banned is not None and float(banned) > self._now():
            raise BannedError(float(banned))
        if item.get("operatorBan") is not None:  # harftet.moderation: an operator's ban
            raise OperatorBannedError()
        return Occupant(caller.player_id, str(item["name"]), rating=int(item.get("rating", 0)))

    # -- a new table, the lobby --------------------------------------------------------
    def create_table(
        self, caller: Caller, options: TableOptions, *, seed: int | None = None
    ) -> dict[str, Any]:
        """A new waiting table with ``options``; the caller manages it from seat 0 (options
        out of their bounds: 400 naming the field; test mode may go below some, RULES §4b;
        ``seed`` only in test mode)."""
        if seed is not None and not self.test_mode:
            raise BadRequestError("seed is accepted only when the operator enables test mode")
        table = life.new_table(
            self.new_table_id(),  # <cellId>.<random> in a cell (harftet.router)
            self.occupant(caller),
            options,
            seed=secrets.randbits(63) if seed is None else seed,
            now=self._now(),
            salt=secrets.token_hex(proof.SALT_BYTES),
            test_mode=self.test_mode,
        )
        version = self._create(table)
        self._seated(caller.player_id, StoredTable(table, version))
        return stored_view(StoredTable(table, version), caller.player_id)

    def _create(self, table: Table) -> int:
        """Store a new table within its manager's limits; its version."""
        try:
            version = self.tables.create_within_limit(table, WAITING_TABLES_MAX, self._now())
        except HeldLimitError as full:
            raise TooManyHeldError(None, full.held, CORRESPONDENCE_TABLES_MAX) from full
        except VersionConflictError as error:  # raced by the manager's own writes too often
            raise BusyError("too many requests at once: try again") from error
        if version is None:
            raise TooManyTablesError(
                f"you already manage {WAITING_TABLES_MAX} tables waiting for players: "
                "start one or leave it first",
                most=WAITING_TABLES_MAX,
            )
        return version

    def lobby(
        self,
        status: str = "waiting",
        limit: int = LOBBY_LIMIT,
        cursor: str | None = None,
        pace: str | None = "live",
    ) -> dict[str, Any]:
        """One page of the lobby, newest first: ``{"tables": [summary], "cursor"}`` (the next
        page's cursor, None on the last). Private tables are never listed. Live and
        correspondence tables are separate lists (``pace``)."""
        if status not in LOBBY_STATUSES:
            raise BadRequestError(f"status must be one of {', '.join(LOBBY_STATUSES)}")
        if pace not in ("live", "correspondence"):
            raise BadRequestError('pace must be "live" or "correspondence"')
        if pace == "correspondence":
            status = f"{CORRESPONDENCE_LOBBY}{status}"
        if not 1 <= limit <= LOBBY_LIMIT:
            raise BadRequestError(f"limit must be between 1 and {LOBBY_LIMIT}")
        after = self._read_cursor(cursor, status) if cursor is not None else None
        tables, last = self.tables.lobby_page(status, self._now(), limit, after)
        return {
            "tables": [lobby_summary(t) for t in tables],
            "cursor": None if last is None else cursors.sign(self.mac, [status, *last]),
        }

    def _read_cursor(self, cursor: str, status: str) -> tuple[int, str]:
        bad = BadRequestError("cursor is not one this lobby gave out: start from the first page")
        try:
            listed, created, table_id = cursors.read(self.mac, cursor)
        except (cursors.CursorError, ValueError, TypeError) as error:
            raise bad from error
        if listed != status:
            raise BadRequestError(f"this cursor pages status={listed}, not status={status}")
        if not isinstance(created, int) or not isinstance(table_id, str):
            raise bad
        return created, table_id

    # -- at the table ------------------------------------------------------------------
    def view(self, caller: Caller | None, table_id: str) -> dict[str, Any]:
        """The table as the caller may see it (timed events due now are applied first)."""
        return self._view(self.writer.write(table_id, None), caller.player_id if caller else None)

    def sit(
        self,
        caller: Caller,
        table_id: str,
        seat: int,
        *,
        bot: bool = False,
        level: BotLevel | None = None,
    ) -> dict[str, Any]:
        """Sit down (or, for the manager, seat a computer player of ``level``)."""
        if bot:
            chosen = level or DEFAULT_BOT_LEVEL
            change: Change = lambda t, now: life.seat_bot(  # noqa: E731
                t, seat, caller.player_id, now, level=chosen
            )
        else:
            occupant = self.occupant(caller)
            change = lambda t, now: life.sit(t, seat, occupant, now)  # noqa: E731
        written = self.writer.write(table_id, change, viewer=caller.player_id)
        if not bot:
            self._seated(caller.player_id, written.stored)
        return self._view(written, caller.player_id)

    def leave(self, caller: Caller, table_id: str, seat: int) -> dict[str, Any]:
        """Stand up from ``seat`` (the manager may also remove a computer player before start)."""
        written = self.writer.write(
            table_id, lambda t, now: life.stand_up(t, seat, caller.player_id, now)
        )
        return self._view(written, caller.player_id)

    def start(self, caller: Caller, table_id: str) -> dict[str, Any]:
        """The manager starts the game."""
        written = self.writer.write(
            table_id, lambda t, now: life.start(t, caller.player_id, now), viewer=caller.player_id
        )
        return self._view(written, caller.player_id)

    def continue_game(self, caller: Caller, table_id: str) -> dict[str, Any]:
        """The manager resumes a paused game."""
        written = self.writer.write(
            table_id, lambda t, now: life.continue_game(t, caller.player_id, now)
        )
        return self._view(written, caller.player_id)

    def close(self, table_id: str) -> dict[str, Any]:
        """An operator ends a table: finished, nobody's rating or record changes."""
        written = self.writer.write(
            table_id, lambda t, now: ending.closed(t, now, ending.BY_OPERATOR)
        )
        return {"tableId": table_id, "status": written.stored.table.status}

    # -- moves -------------------------------------------------------------------------
    def move(
        self, caller: Caller, table_id: str, version: int, move_id: str, move: Move
    ) -> dict[str, Any]:
        """Apply one move at ``version`` (REST); a repeated ``move_id`` returns the same answer:
        the caller's view as the first answer gave it (API.md v4 "Retries")."""
        written = self._move(caller, table_id, version, move_id, move)
        return self._answer(written, caller, table_id, move_id)

    def _answer(
        self, written: Written, caller: Caller, table_id: str, move_id: str
    ) -> dict[str, Any]:
        """The caller's view after their move: kept for its retries when just committed
        (harftet.store.answers), given as kept when replayed. A replay with no kept answer
        (the first request died before keeping it) of a table still at the version the move
        made is answered that version's view, which is the same; one that moved on since is
        answered the table as it is (nothing else is known of it)."""
        pid = caller.player_id
        now = self._now()
        if written.status == "replayed" and self.answers is not None:
            kept = self.answers.get(pid, table_id, move_id, now)
            if kept is not None:  # format 2 takes the hands played before from the table
                answer = filled(kept, lambda: self._view(written, pid)["handResults"])
                if answer is not None:
                    return answer
        view = self._view(written, pid)
        if written.status == "committed" and self.answers is not None:
            try:
                body = json.dumps(view, ensure_ascii=False, separators=(",", ":"))
                self.answers.put(pid, table_id, move_id, body, now)
            except Exception:  # the move stands: a retry is answered the table as it is then
                logger.warning("a move's answer was not kept", exc_info=True)
        return view

    def move_on_socket(
        self,
        caller: Caller,
        table_id: str,
        version: int,
        move_id: str,
        move: Move,
        connection_id: str,
    ) -> dict[str, Any]:
        """A move sent on the table's WebSocket, and its answer for that socket: what changed
        in the caller's view since ``version`` (a delta carrying ``moveId``), the fan-out
        leaving that socket out of the version's push; a repeated ``move_id``: the whole
        view (nothing is stored or pushed then)."""
        written = self._move(caller, table_id, version, move_id, move, connection_id)
        view = self._answer(written, caller, table_id, move_id)
        if written.status != "committed" or written.base is None:
            return {"type": "table", "view": view, "moveId": move_id}
        before = stored_view(written.base, caller.player_id)
        return {**view_delta(before, view), "moveId": move_id}

    def _move(
        self,
        caller: Caller,
        table_id: str,
        version: int,
        move_id: str,
        move: Move,
        answered: str | None = None,
    ) -> Written:
        with self.writer.refusing(caller.player_id):  # a deleted player's token: 401
            written = self.writer.write(
                table_id,
                _moving(caller, move),
                expected_version=version,
                move_key=f"{caller.player_id}:{move_id}",
                viewer=caller.player_id,
                answered=answered,
            )
        if written.status != "committed":  # a retry, or a refusal: only for who is there
            self.writer.present(caller.player_id)
        if written.status == "stale":
            kept = self.answers and self.answers.get(
                caller.player_id, table_id, move_id, self._now()
            )
            if kept:  # a move older than the table keeps ids of: its kept answer (`_answer`)
                return Written(written.stored, "replayed")
            raise StaleVersionError(self._view(written, caller.player_id))  # the client resyncs
        return written


def _moving(caller: Caller, move: Move) -> Change:
    """The change that applies ``caller``'s ``move``."""

    def change(table: Table, now: float) -> Outcome:
        seat = table.seat_of(caller.player_id)
        if seat is not None:
            return hand.apply_move(table, seat, move, now)
        back = life.take_back(table, caller.player_id, now)
        if back is None:
            raise NotSeatedError("you do not sit at this table")
        # RULES §6: the owner's move takes their seat back from the computer player, in the
        # same change (a refused move changes nothing, the seat included).
        seat = back.table.seat_of(caller.player_id)
        assert seat is not None
        out = hand.apply_move(back.table, seat, move, now)
        out.table.recent = [*back.events, *out.events]
        return Outcome(out.table, [*back.effects, *out.effects], out.table.recent)

    return change
