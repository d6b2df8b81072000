"""The one write path: every change to a table is a strongly consistent read, the due timed
events (lazy enforcement), the engine's decision, then one conditional write on the version
read — with what the change does to players (ratings, profiles, held tables) in the same
transaction — and a small typed result, `Written`. What a caller is shown (a view, a refusal
carrying one) is its use case's business: nothing here renders the wire.

Nothing here pushes: the tables table's stream feeds the fan-out (`harftet.fanout`), which
publishes every stored version after its commit, whoever wrote it. What the rest of the
application adds to a write comes through hooks the composition root hands in: a game's end
(``on_game_end``: the profiles and leaderboards), never a probe of another feature.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import KW_ONLY, dataclass
from typing import Literal, Protocol

from harftet.bounds import CORRESPONDENCE_TABLES_MAX
from harftet.engine import timing
from harftet.engine.effects import Outcome
from harftet.engine.errors import EngineError
from harftet.engine.seating import holders
from harftet.engine.state import Table
from harftet.errors import (
    BusyError,
    HarftetError,
    NotFoundError,
    TooManyHeldError,
    UnauthorizedError,
)
from harftet.store.errors import VersionConflictError
from harftet.store.holdings import HELD
from harftet.store.ports import PlayerStorePort, TableStorePort
from harftet.store.table_items import StoredTable
from harftet.store.writes import Commit, HoldWrite, PlayerWrite, RatingWrite, ReleaseWrite

Change = Callable[[Table, float], Outcome]
WriteStatus = Literal["committed", "replayed", "unchanged", "stale"]


@dataclass(frozen=True, slots=True)
class Written:
    """What one write did: ``committed`` a new version, ``replayed`` a move already applied,
    left the table ``unchanged``, or refused a client's version that is not the table's
    (``stale``: nothing decided); ``stored`` is the table as it now is."""

    stored: StoredTable
    status: WriteStatus
    base: StoredTable | None = None  # a committed change: the version it was decided on


class GameEndHook(Protocol):
    """What a change's rating changes also write (a profile, a leaderboard entry)."""

    def __call__(self, outcome: Outcome, now: float) -> list[PlayerWrite]: ...


def decide(change: Change | None, table: Table, now: float) -> Outcome | None:
    """What ``change`` makes of ``table``; a refusal learns the table's game (its message
    names tiles as that game's players see them)."""
    if change is None:
        return None
    try:
        return change(table, now)
    except EngineError as refused:
        refused.game = table.game
        raise


@dataclass(eq=False)
class TableWriter:
    """Reads, decides and writes one table change at a time, with optimistic locking."""

    tables: TableStorePort
    players: PlayerStorePort
    clock: Callable[[], float]
    _: KW_ONLY
    retries: int = 10
    on_game_end: GameEndHook | None = None
    held_limit: int = CORRESPONDENCE_TABLES_MAX

    def write(
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
        replayed; a client's ``expected_version`` that is not the table's is ``stale`` (its
        caller refuses the move with the table as it is); ``only_at`` (a timer's version) changes
        nothing once the table moved on; else ``change`` decides and one conditional write
        stores it. A lost race is retried from the item DynamoDB returned; BusyError after
        ``retries``. ``answered``: the connection the change's answer goes to (its sender's
        socket), stored with the change's version only.
        """
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
                    return Written(stored, "stale")
                outcome = decide(change, stored.table, now)
                if outcome is None or outcome.table is stored.table:
                    return Written(stored, status)
            assert outcome is not None
            mine = (move_key, answered) if decided else (None, None)
            try:
                new = self._save(stored, outcome, now, viewer, *mine)
            except VersionConflictError as conflict:
                after = self._after_conflict(conflict, decided, expected_version, move_key)
                if isinstance(after, Written):
                    return after
                stored = after
                continue
            if decided:
                return Written(new, "committed", base=stored)
            status, stored = "committed", new
        raise BusyError("the table is too busy right now: try again")

    def present(self, player_id: str) -> None:
        """UnauthorizedError when ``player_id`` no longer exists: the move path checks a token's
        signature only, and a deleted player is seated nowhere, so a refusal (or a retried
        move's answer) makes this read before it is given (harftet.accounts.callers)."""
        if not self.players.exists(player_id):
            raise UnauthorizedError("this player no longer exists")

    @contextmanager
    def refusing(self, player_id: str) -> Iterator[None]:
        """A refusal raised inside is given only to a player who still exists (`present`);
        a busy table (503: nothing decided, retry) is no refusal and reads nothing more."""
        try:
            yield
        except BusyError:
            raise
        except (HarftetError, EngineError):
            self.present(player_id)
            raise

    def _after_conflict(
        self,
        conflict: VersionConflictError,
        decided: bool,
        expected_version: int | None,
        move_key: str | None,
    ) -> StoredTable | Written | None:
        """After a lost race: the table to decide on again (None: read it again), or the
        same move's answer when it won elsewhere; a client's version is stale now."""
        current = conflict.current
        if decided and current is not None and expected_version is not None:
            if move_key is not None and move_key in current.moves:
                return Written(current, "replayed")  # the same move won elsewhere
            return Written(current, "stale")
        return current

    def _save(
        self,
        stored: StoredTable,
        outcome: Outcome,
        now: float,
        viewer: str | None,
        move_key: str | None,
        answered: str | None,
    ) -> StoredTable:
        """One conditional write of the outcome, with its rating changes, what a game's end
        writes and who now holds the table, all in the same transaction."""
        writes: list[PlayerWrite] = []
        for change in outcome.effects:
            player = self.players.get(change.player_id) if change.reason == "leave" else None
            writes.append(RatingWrite(change, player))
        # a game that ends with nobody's rating changing (abandoned, closed) still ends: a
        # tournament round needs its result
        ends = outcome.table.status == "finished" and stored.table.status != "finished"
        if self.on_game_end is not None and (outcome.effects or ends):
            writes += self.on_game_end(outcome, now)
        writes += self._held_writes(stored.table, outcome.table, now, viewer)
        return self.tables.save(stored, outcome.table, Commit(move_key, writes, now, answered))

    def _held_writes(
        self, before: Table, after: Table, now: float, viewer: str | None
    ) -> list[PlayerWrite]:
        """The players this change makes hold ``after`` as a running correspondence table, or
        stop holding it (RULES §6): a hold each (TooManyHeldError for one who holds the most
        already; their item's size condition refuses a burst's extra ones, and the redo ends
        here) and a release each."""
        was, held = holders(before, now), holders(after, now)
        if was == held:
            return []
        writes: list[PlayerWrite] = [
            ReleaseWrite(pid, after.table_id) for pid in sorted(was - held)
        ]
        for pid in sorted(held - was):
            try:
                item = self.players.get(pid)  # strongly consistent
            except NotFoundError:
                continue  # not a player (an anonymous seat of a deleted one)
            count = len(item.get(HELD) or ())
            if count >= self.held_limit:  # full: are they all still theirs?
                count = self.tables.held_count(pid, now, self.held_limit)
            if count >= self.held_limit:
                who = None if pid == viewer else str(item["name"])
                raise TooManyHeldError(who, count, self.held_limit)
            writes.append(HoldWrite(pid, after.table_id, self.held_limit))
        return writes
