"""Use cases: create players and tables, sit, start, continue, move, leave, presence, time.

Every change to a table goes through ``_write``: a strongly consistent read, the due timed
events (lazy enforcement), the engine, then one conditional write on the version read —
with any rating changes in the same transaction — and a small typed result. Nothing here
pushes: the tables table's stream feeds the fan-out (``harftet.publish``), which publishes
every stored version after its commit, whoever wrote it and whatever happened to them.
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from botocore.exceptions import ClientError

from harftet import timing
from harftet.api.delta import view_delta
from harftet.bounds import WAITING_TABLES_MAX
from harftet.engine import hand, proof
from harftet.engine import table as life
from harftet.engine.effects import Outcome
from harftet.engine.errors import EngineError, NotSeatedError, WrongStatusError
from harftet.engine.moves import Draw, Lay, Move
from harftet.engine.options import hint_budget
from harftet.engine.search import DEFAULT_BOT_LEVEL, BotLevel
from harftet.engine.state import (
    DEFAULT_BOT_SECONDS,
    DEFAULT_BREAK_SECONDS,
    DEFAULT_GRACE_SECONDS,
    DEFAULT_WAIT_SECONDS,
    GameName,
    Hints,
    Occupant,
    Pace,
    Placed,
    Table,
)
from harftet.engine.view import hints_left, lobby_summary, table_view
from harftet.errors import (
    BadRequestError,
    BannedError,
    BusyError,
    HintsOffError,
    NotFoundError,
    OperatorBannedError,
    StaleVersionError,
    TooManyConnectionsError,
    TooManyHeldError,
    TooManyTablesError,
)
from harftet.identity import Caller, Tokens
from harftet.inbox import InboxStore
from harftet.push import Sender
from harftet.router import new_player_id, new_table_id
from harftet.store.errors import HeldLimitError, VersionConflictError
from harftet.store.holdings import HELD, MAX_HELD, hold, holders, merged, release
from harftet.store.log import PAGE as LOG_PAGE
from harftet.store.players import player_update
from harftet.store.ports import ConnectionStore, LogStore, PlayerStore, TableStore
from harftet.store.tables import CORRESPONDENCE_LOBBY, StoredTable
from harftet.store.transient import is_transient

logger = logging.getLogger(__name__)

Change = Callable[[Table, float], Outcome]
LOBBY_STATUSES = ("waiting", "open", "playing")
LOBBY_LIMIT = 50
REPLAY_EVENTS = 100_000
# A log read waits this long in all (in steps) for a fan-out more than one change behind.
LOG_WAITS = (0.05, 0.1, 0.2, 0.4, 0.8)  # a game's whole log (a 21-hand game logs a few thousand)
MAX_WAITING_TABLES = WAITING_TABLES_MAX
WriteStatus = Literal["committed", "replayed", "unchanged"]
# API.md "WebSocket": beyond these a connect is refused.
MAX_PLAYER_CONNECTIONS = 4
MAX_TABLE_CONNECTIONS = 200


@dataclass(frozen=True, slots=True)
class Written:
    """What one write did: ``committed`` a new version, ``replayed`` a move already applied,
    or left the table ``unchanged``; ``stored`` is the table as it now is."""

    stored: StoredTable
    status: WriteStatus
    base: StoredTable | None = None  # a committed change: the version it was decided on


class _PositionMovedError(Exception):
    """The hand or the table changed between a hint's search and its write."""


def _public_player(item: dict[str, Any], now: float) -> dict[str, Any]:
    banned = item.get("bannedUntil")
    return {
        "playerId": item["playerId"],
        "name": item["name"],
        "rating": int(item.get("rating", 0)),
        "gamesPlayed": int(item.get("gamesPlayed", 0)),
        "gamesAbandoned": int(item.get("gamesAbandoned", 0)),
        "bannedUntil": int(banned) if banned is not None and banned > now else None,
    }


class Service:
    """The application's use cases over injected stores, sender, tokens and clock."""

    def __init__(
        self,
        tables: TableStore,
        players: PlayerStore,
        connections: ConnectionStore,
        tokens: Tokens,
        send: Sender | None = None,
        *,
        clock: Callable[[], float] = time.time,
        test_mode: bool = False,
        retries: int = 10,
        log: LogStore | None = None,
        inbox: InboxStore | None = None,
    ) -> None:
        self.tables = tables
        self.players = players
        self.connections = connections
        self.tokens = tokens
        self.send = send
        self.clock = clock
        self.test_mode = test_mode
        self.retries = retries
        self.log = log
        self.inbox = inbox  # the per-player list of tables (harftet.inbox), where deployed
        self.sleep: Callable[[float], None] = time.sleep  # the log read's short waits
        # Told a player's connections changed (harftet.accounts.presence: friends' pushes).
        self.presence: Callable[[str], object] | None = None

    # -- players ---------------------------------------------------------------------
    def create_player(self, name: str) -> dict[str, Any]:
        """A guest account and its token."""
        player_id = new_player_id()  # <cellId>.<hex> in a cell (harftet.router)
        item = self.players.create(player_id, name, self.clock())
        token = self.tokens.issue(player_id, name)  # wall-clock time, like its verification
        return {**_public_player(item, self.clock()), "token": token}

    def player(self, player_id: str) -> dict[str, Any]:
        """A player's public profile."""
        try:
            return _public_player(self.players.get(player_id), self.clock())
        except NotFoundError as error:
            raise NotFoundError(f"no player {player_id}") from error

    def _occupant(self, caller: Caller) -> Occupant:
        """The caller as somebody about to sit down (refused while banned)."""
        try:
            item = self.players.get(caller.player_id)
        except NotFoundError as error:
            raise NotFoundError("your player no longer exists") from error
        banned = item.get("bannedUntil")
        if banned is not None and float(banned) > self.clock():
            raise BannedError(float(banned))
        if item.get("operatorBan") is not None:  # harftet.people: an operator's ban
            raise OperatorBannedError()
        return Occupant(caller.player_id, str(item["name"]), rating=int(item.get("rating", 0)))

    # -- tables ----------------------------------------------------------------------
    def create_table(
        self,
        caller: Caller,
        *,
        game: GameName,
        seats: int,
        hands: int,
        partners: bool,
        turn_seconds: int,
        hints: Hints = True,
        private: bool = False,
        bot_seconds: int = DEFAULT_BOT_SECONDS,
        seed: int | None = None,
        rated: bool = True,
        break_seconds: int = DEFAULT_BREAK_SECONDS,
        grace_seconds: int = DEFAULT_GRACE_SECONDS,
        wait_seconds: int = DEFAULT_WAIT_SECONDS,
        pace: Pace = "live",
    ) -> dict[str, Any]:
        """A new waiting table; the caller manages it from seat 0 (options out of their
        bounds: 400 naming the field; test mode may go below some, RULES §4b)."""
        if seed is not None and not self.test_mode:
            raise BadRequestError("seed is accepted only when the operator enables test mode")
        creator = self._occupant(caller)
        table = life.new_table(
            new_table_id(),  # <cellId>.<random> in a cell (harftet.router)
            game,
            creator,
            seed=secrets.randbits(63) if seed is None else seed,
            now=self.clock(),
            seats=seats,
            hands=hands,
            partners=partners,
            turn_seconds=turn_seconds,
            hints=hints,
            private=private,
            bot_seconds=bot_seconds,
            rated=rated,
            break_seconds=break_seconds,
            grace_seconds=grace_seconds,
            wait_seconds=wait_seconds,
            pace=pace,
            salt=secrets.token_hex(proof.SALT_BYTES),  # the deal proofs' secret (RULES §5a)
            test_mode=self.test_mode,
        )
        try:
            version = self.tables.create_within_limit(table, MAX_WAITING_TABLES, self.clock())
        except HeldLimitError as full:
            raise TooManyHeldError(None, full.held, MAX_HELD) from full
        except VersionConflictError as error:  # raced by the manager's own writes too often
            raise BusyError("too many requests at once: try again") from error
        if version is None:
            raise TooManyTablesError(
                f"you already manage {MAX_WAITING_TABLES} tables waiting for players: "
                "start one or leave it first",
                most=MAX_WAITING_TABLES,
            )
        return self._view(StoredTable(table, version), caller.player_id)

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
        tables, last = self.tables.lobby_page(status, self.clock(), limit, after)
        return {
            "tables": [lobby_summary(t) for t in tables],
            "cursor": None if last is None else self._cursor(status, last),
        }

    def _cursor(self, status: str, last: tuple[int, str]) -> str:
        """An opaque cursor: where the page ended, signed so that it cannot be forged."""
        data = json.dumps([status, last[0], last[1]], separators=(",", ":")).encode()
        return f"{_b64(data)}.{_b64(self.tokens.mac(data)[:16])}"

    def _read_cursor(self, cursor: str, status: str) -> tuple[int, str]:
        bad = BadRequestError("cursor is not one this lobby gave out: start from the first page")
        try:
            data_part, mac_part = cursor.split(".")
            data = _unb64(data_part)
            if not hmac.compare_digest(_unb64(mac_part), self.tokens.mac(data)[:16]):
                raise bad
            listed, created, table_id = json.loads(data)
        except (ValueError, TypeError) as error:
            raise bad from error
        if listed != status:
            raise BadRequestError(f"this cursor pages status={listed}, not status={status}")
        if not isinstance(created, int) or not isinstance(table_id, str):
            raise bad
        return created, table_id

    def view(self, caller: Caller | None, table_id: str) -> dict[str, Any]:
        """The table as the caller may see it (timed events due now are applied first)."""
        return self._view(self._write(table_id, None).stored, caller.player_id if caller else None)

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
            occupant = self._occupant(caller)
            change = lambda t, now: life.sit(t, seat, occupant, now)  # noqa: E731
        written = self._write(table_id, change, viewer=caller.player_id)  # held: see _save
        return self._view(written.stored, caller.player_id)

    def leave(self, caller: Caller, table_id: str, seat: int) -> dict[str, Any]:
        """Stand up from ``seat`` (the manager may also remove a computer player before start)."""
        written = self._write(
            table_id, lambda t, now: life.stand_up(t, seat, caller.player_id, now)
        )
        return self._view(written.stored, caller.player_id)

    def start(self, caller: Caller, table_id: str) -> dict[str, Any]:
        """The manager starts the game."""
        written = self._write(
            table_id, lambda t, now: life.start(t, caller.player_id, now), viewer=caller.player_id
        )
        return self._view(written.stored, caller.player_id)

    def continue_game(self, caller: Caller, table_id: str) -> dict[str, Any]:
        """The manager resumes a paused game."""
        written = self._write(table_id, lambda t, now: life.continue_game(t, caller.player_id, now))
        return self._view(written.stored, caller.player_id)

    def move(
        self, caller: Caller, table_id: str, version: int, move_id: str, move: Move
    ) -> dict[str, Any]:
        """Apply one move at ``version`` (REST); a repeated ``move_id`` returns the same answer:
        the caller's view."""
        written = self._move(caller, table_id, version, move_id, move)
        return self._view(written.stored, caller.player_id)

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
        view = self._view(written.stored, caller.player_id)
        if written.status != "committed" or written.base is None:
            return {"type": "table", "view": view, "moveId": move_id}
        before = self._view(written.base, caller.player_id)
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
        return self._write(
            table_id,
            self._moving(caller, move),
            expected_version=version,
            move_key=f"{caller.player_id}:{move_id}",
            viewer=caller.player_id,
            answered=answered,
        )

    def _moving(self, caller: Caller, move: Move) -> Change:
        """The change that applies ``caller``'s ``move``."""

        def change(table: Table, now: float) -> Outcome:
            seat = table.seat_of(caller.player_id)
            if seat is None:
                back = life.take_back(table, caller.player_id, now)
                if back is None:
                    raise NotSeatedError("you do not sit at this table")
                # RULES §6: the owner's move takes their seat back from the computer player,
                # in the same change (a refused move changes nothing, the seat included).
                seat = back.table.seat_of(caller.player_id)
                assert seat is not None
                out = hand.apply_move(back.table, seat, move, now)
                out.table.recent = [*back.events, *out.events]
                return Outcome(out.table, [*back.effects, *out.effects], out.table.recent)
            return hand.apply_move(table, seat, move, now)

        return change

    # -- reading ahead: dry runs, hints, the log, replays (api) -----------------------
    def dry_run(self, caller: Caller, table_id: str, version: int, move: Move) -> dict[str, Any]:
        """Check ``move`` at ``version`` as the real move would, changing nothing: the same
        error, or ``{"legal": True, "view": <the caller's view as it would be>}``.

        Nothing is written, pushed or recorded. What the move would bring that nobody may
        know yet stays out: a draw's tile (the pile is secret), and when the move would end
        the hand (the racks turned over, the next deal) the view stays as it is now, with
        ``"endsHand": true``."""
        stored = self._write(table_id, None).stored
        if stored.version != version:  # checked first, as for the real move
            raise StaleVersionError(self._view(stored, caller.player_id))
        table = stored.table
        seat = table.seat_of(caller.player_id)
        if seat is None:
            raise NotSeatedError("you do not sit at this table")
        after = hand.apply_move(table, seat, move, self.clock()).table
        ends = after.break_until is not None and table.break_until is None
        if ends or after.hand_number != table.hand_number or after.status != table.status:
            return {"legal": True, "view": self._view(stored, caller.player_id), "endsHand": True}
        view = self._view(StoredTable(after, stored.version), caller.player_id)
        if isinstance(move, Draw):  # the would-be hand without the tile it would bring
            view["hand"] = self._view(stored, caller.player_id)["hand"]
        return {"legal": True, "view": view}

    def hint(self, caller: Caller, table_id: str, reveal: int | None = None) -> dict[str, Any]:
        """The next meld of the best lay the search finds for the caller's own seat, from what
        they may see (RULES §4a; ``hints.py``): each meld revealed costs one hint of the hand,
        stored with the table; ``reveal`` (1-based) asks for a given meld, so a retry of a
        hint already paid for is answered again for free. Where hints are unlimited the
        whole lay comes too, and nothing is stored."""
        for _ in range(3):  # the position changed while the search ran: search again
            answer = self._hint_once(caller, table_id, reveal)
            if answer is not None:
                return answer
        raise BusyError("the table moved on while the hint was searched: ask again")

    def _hint_once(
        self, caller: Caller, table_id: str, reveal: int | None
    ) -> dict[str, Any] | None:
        """One search and one write of a hint; None when the position changed in between."""
        from harftet.engine import hints

        stored = self._write(table_id, None).stored
        table = stored.table
        seat = self._hint_seat(table, caller)
        hints.wanted(table, seat, reveal)  # 409 no_hints_left before any search
        mark = hints.position_mark(table, seat)
        proposal = self._best_lay(table, seat, table_id)
        melds = hints.melds_of(table, proposal.lay) if proposal is not None else []
        picked: list[int] = []

        def change(t: Table, now: float) -> Outcome:
            if hints.position_mark(t, seat) != mark or t.break_until is not None:
                raise _PositionMovedError()
            out, index = hints.take(t, seat, len(melds), mark, reveal)
            picked.append(index)
            return out

        try:
            written = self._write(table_id, change)
        except _PositionMovedError:
            return None
        after = written.stored.table
        answer: dict[str, Any] = {
            "version": written.stored.version,
            "shed": proposal.shed if proposal is not None else 0,
            "meld": None,
            "lay": None,
            "tiles": [],
            "hintsLeft": hints_left(after, seat),
            "revealed": hints.shown(after, seat),
            "area": None,
        }
        if proposal is None or not melds:
            return answer
        hand_ids = table.seats[seat].hand
        answer["meld"] = hints.meld_json(melds[picked[-1]], hand_ids)
        in_series = picked[-1] < len(hints.series_melds(table, proposal.lay))
        answer["area"] = "series" if in_series else "pairs"
        if hint_budget(after.hints) is None:  # unlimited: the whole lay, checkable
            answer["lay"] = lay_json(proposal.lay)
            answer["tiles"] = list(proposal.tiles)
        else:
            mine = set(hand_ids)
            shown = melds[: max(answer["revealed"], picked[-1] + 1)]
            answer["tiles"] = sorted({p.id for m in shown for p in m if p.id in mine})
        return answer

    def _hint_seat(self, table: Table, caller: Caller) -> int:
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

    def _best_lay(self, table: Table, seat: int, table_id: str) -> Any:
        """The search's best lay for ``seat`` from what it may see, checked by the engine."""
        # Imported here: the search and its indexes stay off the REST function's cold start.
        from harftet.engine.search import hint

        proposal = hint(_as_seen_by(table, seat), seat)
        if proposal is not None and not _accepted(table, seat, proposal.lay, self.clock()):
            logger.error("the search proposed a refused lay", extra={"tableId": table_id})
            proposal = None
        return proposal

    def events(self, caller: Caller | None, table_id: str, after: int = 0) -> dict[str, Any]:
        """What happened at the table this game after event ``after``, oldest first: only
        what everyone saw (RULES §5), so anyone who may view the table may read it."""
        stored = self.tables.get(table_id)  # 404 for a table that does not exist
        return {"events": [public_event(e) for e in self._log_after(stored, after)]}

    def _log_after(self, stored: StoredTable, after: int) -> list[dict[str, Any]]:
        """The log after ``after``, completed up to the version just read (read-your-writes).

        The fan-out appends a version's events after its commit, so the log may lag the
        table by a change or two. The table item holds its latest change's events: when the
        log reaches up to them they complete it; when it lags further, the fan-out is given
        a moment (LOG_WAITS) — never an answer with a hole in it."""
        if self.log is None:
            return []
        table = stored.table
        recent = [{**e, "version": stored.version} for e in table.recent]
        found: list[dict[str, Any]] = []
        for pause in (*LOG_WAITS, None):
            found = self.log.after(table.table_id, after)
            last = int(found[-1]["seq"]) if found else after
            if last >= table.seq or len(found) >= LOG_PAGE:
                return found
            missing = [e for e in recent if int(e["seq"]) > last]
            if missing and int(missing[0]["seq"]) == last + 1:
                return found + missing
            if pause is not None:
                self.sleep(pause)
        return found

    def replay(self, caller: Caller | None, table_id: str) -> dict[str, Any]:
        """The whole game once it is finished: the seed, every deal and pile, every move."""
        table = self._write(table_id, None).stored.table
        if table.status != "finished":
            raise WrongStatusError(f"the table is {table.status}: a replay comes once it is over")
        from harftet.engine import replay  # only finished games need it

        events = self.log.after(table_id, 0, limit=REPLAY_EVENTS) if self.log is not None else []
        # The engine's events, as it replays them: without the store's version of each.
        events = [{k: v for k, v in e.items() if k != "version"} for e in events]
        return replay.document(table, events)

    # -- live ------------------------------------------------------------------------
    def connect(self, caller: Caller, table_id: str, connection_id: str) -> None:
        """A WebSocket opened on a table: a seated player is connected again. Refused beyond
        API.md's limits (a player's connections to a table, a table's connections)."""
        stored = self.tables.get(table_id)
        # Registered first and counted after, so two racing connects cannot both slip in.
        self.connections.add(connection_id, table_id, caller.player_id, self.clock())
        others = self.connections.for_table(table_id)
        mine = [c for c in others if c["playerId"] == caller.player_id]
        if len(others) > MAX_TABLE_CONNECTIONS or len(mine) > MAX_PLAYER_CONNECTIONS:
            self.connections.remove(connection_id)
            raise TooManyConnectionsError(
                f"at most {MAX_PLAYER_CONNECTIONS} connections per player and "
                f"{MAX_TABLE_CONNECTIONS} per table"
            )
        table = stored.table
        if table.seat_of(caller.player_id) is not None or any(
            s.original and s.original.player_id == caller.player_id for s in table.seats
        ):
            self._write(table_id, lambda t, now: life.reconnect(t, caller.player_id, now))
        self.presence_changed(caller.player_id)

    def disconnect(self, connection_id: str) -> None:
        """A WebSocket closed (or was found gone): with no other connection of that player
        left on the table, the player counts as gone."""
        old = self.connections.remove(connection_id)
        if old is None:
            return
        table_id, player_id = str(old.get("tableId") or ""), str(old["playerId"])
        if table_id and not any(
            c["playerId"] == player_id for c in self.connections.for_table(table_id)
        ):
            with contextlib.suppress(NotFoundError):
                self._write(table_id, lambda t, now: life.disconnect(t, player_id, now))
        self.presence_changed(player_id)

    def presence_changed(self, player_id: str) -> None:
        """Let the player's friends know, where wired; never fails the caller's request."""
        if self.presence is None:
            return
        try:
            self.presence(player_id)
        except Exception:
            logger.warning("presence not announced", exc_info=True)

    def connection(self, connection_id: str) -> dict[str, Any] | None:
        """What a connection is watching."""
        return self.connections.get(connection_id)

    # -- time ------------------------------------------------------------------------
    def advance(self, table_id: str, version: int | None = None) -> Written:
        """Apply the one timed event due now (a timeout, a grace or wait end, or one computer
        player's move) — only while the table is still at ``version`` when one is given."""
        return self._write(
            table_id,
            lambda t, now: timing.due_event(t, now, bots=True) or Outcome(t),
            only_at=version,
        )

    def sweep(self, limit: int = 100) -> int:
        """Apply one due timed event to every table that is due now; returns how many."""
        done = 0
        for table_id in self.tables.due(self.clock(), limit):
            try:
                if self.advance(table_id).status == "committed":
                    done += 1
            except Exception:  # one broken table must not stop the sweep
                logger.exception("sweeping a table failed", extra={"tableId": table_id})
        return done

    def sweep_for(self, seconds: float, sleep: Callable[[float], None] = time.sleep) -> int:
        """Sweep now, then keep sweeping as events fall due during the next ``seconds``:
        the safety net behind the timers (a lost timer still fires within a few seconds)."""
        end = self.clock() + seconds
        done = self.sweep()
        while True:
            due = self.tables.next_due()
            now = self.clock()
            if due is None or due > end or now >= end:
                return done
            if due > now:
                sleep(min(due, end) - now)
            swept = self.sweep()
            done += swept
            if not swept:  # a due table that could not be swept: retry later, never spin
                sleep(max(0.0, min(1.0, end - self.clock())))

    # -- the one write path ----------------------------------------------------------
    def _write(
        self,
        table_id: str,
        change: Change | None,
        *,
        expected_version: int | None = None,
        move_key: str | None = None,
        viewer: str | None = None,
        only_at: int | None = None,
        answered: str | None = None,
    ) -> Written:
        """Read, decide, write once, and say what happened; nothing is published here.

        Timed events already due are applied first, each as its own version (lazy
        enforcement; never a computer player's move). Then: a ``move_key`` already applied is
        replayed; a client's ``expected_version`` that is not the table's raises
        StaleVersionError (with ``viewer``'s view); ``only_at`` (a timer's version) changes
        nothing once the table moved on; else ``change`` decides and one conditional write
        stores it. A lost race is retried from the item DynamoDB returned; BusyError after
        ``retries``. ``answered``: the connection the change's answer goes to (its sender's
        socket), stored with the change's version only.
        """
        try:
            return self._write_once(
                table_id, change, expected_version, move_key, viewer, only_at, answered
            )
        except ClientError as error:  # still throttled (or failing) after the SDK's retries
            if is_transient(error):
                raise BusyError("the table is too busy right now: try again") from error
            raise

    def _write_once(
        self,
        table_id: str,
        change: Change | None,
        expected_version: int | None,
        move_key: str | None,
        viewer: str | None,
        only_at: int | None,
        answered: str | None = None,
    ) -> Written:
        status: WriteStatus = "unchanged"
        stored: StoredTable | None = None
        for _ in range(self.retries):
            if stored is None:
                stored = self.tables.get(table_id)
            if move_key is not None and move_key in stored.moves:
                return Written(stored, "replayed")
            if only_at is not None and stored.version != only_at:
                return Written(stored, status)
            now = self.clock()
            outcome = timing.due_event(stored.table, now)  # a due timed event goes first
            decided = outcome is None
            if decided:
                if expected_version is not None and stored.version != expected_version:
                    raise StaleVersionError(self._view(stored, viewer))
                outcome = _decide(change, stored.table, now)
                if outcome is None or outcome.table is stored.table:
                    return Written(stored, status)
            assert outcome is not None
            try:
                new = self._save(
                    stored,
                    outcome,
                    move_key if decided else None,
                    now,
                    viewer,
                    answered if decided else None,
                )
            except VersionConflictError as conflict:
                stored = conflict.current  # None: read it again
                if decided and stored is not None and expected_version is not None:
                    if move_key is not None and move_key in stored.moves:
                        return Written(stored, "replayed")  # the same move won elsewhere
                    raise StaleVersionError(self._view(stored, viewer)) from conflict
                continue
            if decided:
                return Written(new, "committed", base=stored)
            status, stored = "committed", new
        raise BusyError("the table is too busy right now: try again")

    def _save(
        self,
        stored: StoredTable,
        outcome: Outcome,
        move_key: str | None,
        now: float,
        viewer: str | None = None,
        answered: str | None = None,
    ) -> StoredTable:
        """One conditional write of the outcome, with its rating changes and the changes to
        who holds the table (``harftet.store.holdings``) in the same transaction."""
        updates = []
        for change in outcome.effects:
            player = self.players.get(change.player_id) if change.reason == "leave" else None
            updates.append(player_update(change, player, now))
        people = getattr(self.players, "people", None)  # profiles and boards (harftet.people)
        if people is not None and outcome.effects:
            from harftet.people import game_end_updates

            updates += game_end_updates(people, outcome, now)
        updates += self._held_updates(stored.table, outcome.table, now, viewer)
        return self.tables.save(
            stored,
            outcome.table,
            move_id=move_key,
            player_updates=merged(updates),
            now=now,
            answered=answered,
        )

    def _held_updates(
        self, before: Table, after: Table, now: float, viewer: str | None
    ) -> list[dict[str, Any]]:
        """The players whose held correspondence tables this change adds or takes ``after``
        to or from: an ADD each (409 TooManyHeldError for one who holds the most already;
        their item's size condition refuses a burst's extra ones, and the redo ends here) and
        a DELETE each."""
        was, held = holders(before, now), holders(after, now)
        if was == held:
            return []
        updates = [release(pid, after.table_id) for pid in sorted(was - held)]
        for pid in sorted(held - was):
            try:
                item = self.players.get(pid)  # strongly consistent
            except NotFoundError:
                continue  # not a player (an anonymous seat of a deleted one)
            name, count = str(item["name"]), len(item.get(HELD) or ())
            if count >= MAX_HELD:  # full: are they all still theirs?
                count = self.tables.held_count(pid, now, MAX_HELD)
            if count >= MAX_HELD:
                raise TooManyHeldError(None if pid == viewer else name, count, MAX_HELD)
            updates.append(hold(pid, after.table_id, MAX_HELD))
        return updates

    # -- views -----------------------------------------------------------------------
    def view_of(self, stored: StoredTable, viewer: str | None) -> dict[str, Any]:
        """A stored version as ``viewer`` may see it (None: a spectator)."""
        return self._view(stored, viewer)

    def _view(self, stored: StoredTable, viewer: str | None) -> dict[str, Any]:
        view = table_view(stored.table, viewer)
        view["version"] = stored.version
        if isinstance(view.get("last"), dict):
            view["last"]["version"] = stored.version  # as the log's events carry it
        return view


def _decide(change: Change | None, table: Table, now: float) -> Outcome | None:
    """What ``change`` makes of ``table``; a refusal learns the table's game (its message
    names tiles as that game's players see them)."""
    if change is None:
        return None
    try:
        return change(table, now)
    except EngineError as refused:
        refused.game = table.game
        raise


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    if len(text) > 400:
        raise ValueError("too long")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


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


def _placed_json(placed: Placed) -> dict[str, Any]:
    if placed.face is None:
        return {"id": placed.id}
    face = placed.face
    shown = {"color": face[0], "number": face[1]} if isinstance(face, tuple) else face
    return {"id": placed.id, "as": shown}


def lay_json(lay: Lay) -> dict[str, Any]:
    """A lay in the move body's shape: ``{"series": [[{"id", "as"?}, ...]], "pairs": [...]}``."""
    return {
        "series": [[_placed_json(p) for p in meld] for meld in lay.series],
        "pairs": [[_placed_json(p) for p in meld] for meld in lay.pairs],
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


__all__ = [
    "BadRequestError",
    "BannedError",
    "BusyError",
    "EngineError",
    "HintsOffError",
    "NotFoundError",
    "OperatorBannedError",
    "Service",
    "StaleVersionError",
    "TooManyConnectionsError",
    "TooManyHeldError",
    "TooManyTablesError",
    "Written",
    "is_transient",
]
