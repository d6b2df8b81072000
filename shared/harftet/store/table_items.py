"""A table's item in the tables table, and back: the stored version (`StoredTable`), the move
ids kept for retries (`Moves`) and the sparse indexes' attributes (`IndexKeys`).

Item: ``tableId``, ``version`` (N), ``state`` (B, the engine's compact codec), ``mv`` (the
move ids a client may still retry — per player the last ``MOVES_KEPT``, each under a
12-character digest), ``lobby``/``watch``/``createdAt`` (only while listed: the sparse lobby
indexes), ``due``/``deadline``/``dueV`` (only while something is timed: the sparse index the
sweeper reads, never a Scan; ``dueV`` is the version that set the deadline, so a change that
keeps it writes neither the index nor a timer), ``expiresAt`` (TTL) and ``ans`` (the socket a
version's move was answered on). The move path builds these attribute values itself: boto3's
generic (de)serializer costs more than the engine.
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harftet.engine import codec
from harftet.engine.seating import WAITING_SECONDS
from harftet.engine.state import Table
from harftet.engine.timing import next_due
from harftet.engine.view import lobby_status

# Per player, the move ids kept for idempotency: a client retries only the move it has no
# answer for (API.md), so its last two cover a retry racing the next move from another device.
MOVES_KEPT = 2
MOVES = "mv"
OLD_MOVES = "moves"  # the former map of whole `{playerId}:{moveId}` keys (read, then removed)
ANSWERED = "ans"  # the connection answered on the spot for this version (StoredTable.answered)
DUE = "due"
TIMER = "tq"  # StoredTable.timer_due
WRITTEN = "wat"  # StoredTable.written_at (ms), on a version without events only
# A deadline leans on a timer message still this far ahead at least (ms): the message reads the
# table when it falls due, so a write this close to it may come after its read (two clocks).
TIMER_MARGIN_MS = 2000
# DynamoDB's TTL removes what nobody will come back to: a table still waiting a day after it
# was made (WAITING_SECONDS: it leaves the lobby then too), a finished game 30 days after.
FINISHED_KEPT_SECONDS = 30 * 24 * 3600
# Correspondence tables have lists of their own (RULES §6): the same indexes, their key
# values prefixed ("c:waiting", "c:open", "c:playing").
CORRESPONDENCE_LOBBY = "c:"
# Two sparse indexes keyed by createdAt: ``lobby-index`` (``lobby`` = "waiting", projected
# whole: waiting tables are few and do not move) and ``watch-index`` (``watch`` = "open" or
# "playing", keys only, so that a move, which leaves both keys as they are, costs the index
# nothing). Private tables carry neither.
LOBBY_KEYS = {"waiting": "lobby", "open": "watch", "playing": "watch"}
LOBBY_INDEXES = {"lobby": "lobby-index", "watch": "watch-index"}
LobbyKey = tuple[int, str]  # (createdAt in ms, tableId): where a page ends


def _digest(text: str, size: int) -> str:
    return base64.urlsafe_b64encode(
        hashlib.blake2b(text.encode(), digest_size=size).digest()
    ).decode()


def move_digest(move_key: str) -> str:
    """The stored key of a move key ``{playerId}:{moveId}``: 4 characters of the player (to keep
    each player's last moves) and 8 of the whole key (48 bits: a false replay needs a collision
    among a table's few kept ids, about 1 in 10^13)."""
    player = move_key.partition(":")[0]
    return _digest(player, 3) + _digest(move_key, 6)


class Moves(Mapping[str, int]):
    """The applied move ids a client may still retry: ``move_key in moves`` and
    ``moves[move_key]`` (the version it produced) take the whole ``{playerId}:{moveId}``; the
    map holds only digests (``move_digest``)."""

    __slots__ = ("_by_digest",)

    def __init__(self, by_digest: Mapping[str, int] | None = None) -> None:
        self._by_digest: dict[str, int] = dict(by_digest or {})

    def __getitem__(self, move_key: str) -> int:
        return self._by_digest[move_digest(move_key)]

    def __contains__(self, move_key: object) -> bool:
        return isinstance(move_key, str) and move_digest(move_key) in self._by_digest

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_digest)

    def __len__(self) -> int:
        return len(self._by_digest)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Moves):
            return self._by_digest == other._by_digest
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Moves({self._by_digest!r})"

    @property
    def digests(self) -> dict[str, int]:
        """digest → version, as stored."""
        return dict(self._by_digest)

    def remember(self, move_key: str | None, version: int) -> Moves:
        """These moves and ``move_key`` (producing ``version``), each player keeping only its
        last ``MOVES_KEPT``; no key (a change that is no player's move): these moves."""
        if move_key is None:
            return self
        digest = move_digest(move_key)
        kept = {**self._by_digest, digest: version}
        player = digest[:4]
        mine = sorted((v, d) for d, v in kept.items() if d[:4] == player)
        for _, old in mine[:-MOVES_KEPT]:
            del kept[old]
        return Moves(kept)


@dataclass(slots=True)
class StoredTable:
    """A table as stored, at its version."""

    table: Table
    version: int
    moves: Moves = field(default_factory=Moves)  # the move ids kept -> version each produced
    due_version: int | None = None  # the version that set the current deadline (dueV)
    # the WebSocket connection that sent this version's move and got its answer on the spot
    # (``ans``): the fan-out leaves it out of this version's push
    answered: str | None = None
    # the deadline index's sort key the item holds (``deadline``, ms; None: not known or not
    # in the index): a later deadline it still stands for keeps it (IndexKeys.keeps)
    index_deadline: int | None = None
    # the due (ms) of the latest timer message the table's versions asked for (``tq``): while
    # it is ahead, a later deadline leans on it (``timer_asked``)
    timer_due: int | None = None
    # when a version without events (a hint that spends the hand's budget) was written (``wat``,
    # the writer's clock as an event's ``at`` would have it; None on a version with events,
    # whose last event tells): the fan-out's base time for a delta (fanout.spectators.stored_at).
    # The release before neither writes nor removes it: during a canary a hint it writes may
    # show an earlier hint's time, which is earlier than its own (a lower bound: still safe,
    # a socket opened after it gets the whole view)
    written_at: float | None = None


def from_item(item: dict[str, Any]) -> StoredTable:
    """A stored table from a low-level item."""
    moves = {k: int(v["N"]) for k, v in item.get(MOVES, {}).get("M", {}).items()}
    for key, value in item.get(OLD_MOVES, {}).get("M", {}).items():  # an item written before
        moves[move_digest(key)] = int(value["N"])
    due_version = item.get("dueV")
    answered = item.get(ANSWERED)
    deadline = item.get("deadline")
    return StoredTable(
        table=codec.decode(item["state"]["B"]),
        version=int(item["version"]["N"]),
        moves=Moves(moves),
        due_version=int(due_version["N"]) if due_version else None,
        answered=answered["S"] if answered else None,
        index_deadline=int(deadline["N"]) if deadline else None,
        timer_due=int(item[TIMER]["N"]) if TIMER in item else None,
        written_at=int(item[WRITTEN]["N"]) / 1000 if WRITTEN in item else None,
    )


def from_stream_image(image: dict[str, Any]) -> StoredTable:
    """A stored table from a stream record's NewImage (Lambda's event carries binary
    attributes base64-encoded; boto3's get_records gives bytes)."""
    state = image["state"]["B"]
    if isinstance(state, str):
        state = base64.b64decode(state)
    return from_item({**image, "state": {"B": state}})


def deadline_set(versions: Sequence[StoredTable]) -> bool:
    """Whether one of these consecutive versions of a table (oldest first) set its newest
    deadline, so that a timer must be sent for it; False when an earlier version set it (its
    timer is on its way). An item without ``dueV`` (written before it existed) says yes."""
    newest = versions[-1]
    return newest.due_version is None or newest.due_version >= versions[0].version


def timer_asked(
    stored: StoredTable | None, table: Table, version: int, now: float, lean: bool = True
) -> tuple[int | None, int | None]:
    """(``dueV``, ``tq``) of ``table`` stored as ``version`` over ``stored`` at ``now``: which
    version's timer message stands for its deadline, and the due (ms) of the latest message
    asked for. A version asks for one (dueV = its version) when it moves the deadline, unless
    a message asked for before is still ahead (by TIMER_MARGIN_MS) and due no later than the
    new deadline: that one reads the table when it falls due and sends itself again for the
    deadline it finds (harftet.timers.firing), so a person's turns of 45 s that end in a few
    seconds send one message between them, not one each. A deadline before it (a computer
    player's second) asks for its own and leaves the later one as ``tq``. Correspondence
    tables (their timers armed from the index) ask at every move, and so does every table
    without ``lean`` (the template's TimersLean off: the first deploy of this rule, while the
    release before, which drops a message that finds another deadline, still fires timers)."""
    exact = exact_ms(table)
    if exact is None:
        return None, None
    if stored is None:
        return version, exact
    if exact == exact_ms(stored.table):
        return stored.due_version, stored.timer_due  # the deadline stays: its message stands
    ahead = stored.timer_due
    if (
        not lean
        or ahead is None
        or table.pace == "correspondence"
        or ahead <= now * 1000 + TIMER_MARGIN_MS
    ):
        return version, exact  # nothing asked for is ahead still
    if ahead <= exact:
        return stored.due_version, ahead  # the message due before it stands for it
    return version, ahead  # its own message, the later one still asked for


def timers_of(newest: StoredTable, base: StoredTable | None) -> list[float]:
    """The timer messages (their dues, epoch seconds) a batch of versions from ``base`` (the
    version before the batch; None: not known) to ``newest`` sends when one of them asked
    (``deadline_set``): the newest deadline's — or the message it leans on, when that is due
    first — and the latest message asked for if a version of the batch asked for it (a
    computer player's turn after it asked for its own)."""
    due = next_due(newest.table)
    if due is None:
        return []
    asked = newest.timer_due
    if asked is None:
        return [due]
    dues = [min(due, asked / 1000)]
    if (base is None or base.timer_due != asked) and asked / 1000 not in dues:
        dues.append(asked / 1000)
    return dues


def number(value: int) -> dict[str, str]:
    """A DynamoDB number attribute."""
    return {"N": str(value)}


def moves_value(moves: Moves) -> dict[str, Any]:
    """The ``mv`` attribute of kept move ids."""
    return {"M": {k: number(v) for k, v in moves.digests.items()}}


def exact_ms(table: Table) -> int | None:
    """A table's exact next deadline (ms), None without one."""
    due = next_due(table)
    return None if due is None else int(due * 1000)


@dataclass(frozen=True, slots=True)
class IndexKeys:
    """The sparse indexes' attributes of a table.

    The deadline index is spread over ``shards`` partition keys ("due#0".."due#N-1"): one
    index partition takes about 1,000 writes a second, and a turn moves its table's deadline
    (two index writes), so the shards bound a cell's tables (bench/scale_model.py sizes them;
    the template's DeadlineShards). Raise it, never lower it: the sweeper reads shards
    0..N-1, and a table keeps its shard until its deadline moves. A live table's index key
    is its deadline made as late as one step (``step_ms``, the template's
    DeadlineStepSeconds) after the write allows (``deadline``), and a key the item holds
    stays while it is no earlier than the table's deadline and at most one step later
    (``keeps``), so that turns that move the deadline back and forth (a person's 45 s turn, a
    computer player's 1 s) write no index key until their deadlines pass it; only the
    sweeper, the safety net for a lost timer, reads the index (the stream sends each exact
    deadline to SQS), and it finds a table at most one step late, never early. A
    correspondence table keeps its exact deadline (its timer is armed from the index:
    harftet.timers.far)."""

    shards: int = 8
    step_ms: int = 0

    def due_key(self, table_id: str) -> str:
        """The deadline index partition of a table: stable, spread evenly over the shards."""
        return f"{DUE}#{zlib.crc32(table_id.encode()) % self.shards}"

    def deadline(self, due: float, exact: bool = False, now: float | None = None) -> int:
        """The deadline index's sort key (ms) for a deadline set at ``now``: as late as one
        step after ``now`` allows — never earlier than the deadline nor more than a step
        after it — so that the deadlines of the next turns (a computer player's in a second, a
        person's in 45 s) still fall under it (``keeps``); rounded up to ``step_ms`` without
        ``now``."""
        ms = int(due * 1000)
        step = self.step_ms
        if exact or step <= 0:
            return ms
        if now is None:
            return -(-ms // step) * step
        return min(max(ms, int(now * 1000) + step), ms + step)

    def keeps(self, key: int | None, due: float, exact: bool = False) -> bool:
        """Whether the index key ``key`` (ms) the item holds still stands for a deadline
        ``due``: the same exact deadline, or (rounded) no earlier and within one step."""
        if key is None:
            return False
        ms = int(due * 1000)
        if exact or self.step_ms <= 0:
            return key == ms
        return ms <= key <= ms + self.step_ms

    def fields(self, table: Table, now: float) -> tuple[dict[str, Any], list[str]]:
        """The sparse-index attributes to SET (as attribute values), and those to REMOVE."""
        sets, removes = lobby_fields(table)
        if table.status == "waiting":
            sets["expiresAt"] = number(int(table.created_at + WAITING_SECONDS))
        elif table.status == "finished":
            sets["expiresAt"] = number(int(now + FINISHED_KEPT_SECONDS))
        else:
            removes.append("expiresAt")
        due = next_due(table)
        if due is not None:
            sets["due"] = {"S": self.due_key(table.table_id)}
            sets["deadline"] = number(self.deadline(due, table.pace == "correspondence", now))
        else:
            removes += ["due", "deadline", "dueV", TIMER]
        return sets, removes


def lobby_fields(table: Table) -> tuple[dict[str, Any], list[str]]:
    """The lobby list that shows the table, if any (the sparse lobby indexes): attributes to
    SET and to REMOVE."""
    sets: dict[str, Any] = {}
    listed = lobby_status(table)
    key = LOBBY_KEYS[listed] if listed is not None else None
    if listed is not None and key is not None:
        prefix = CORRESPONDENCE_LOBBY if table.pace == "correspondence" else ""
        sets[key] = {"S": prefix + listed}
        sets["createdAt"] = number(int(table.created_at * 1000))
    removes = [k for k in sorted(set(LOBBY_KEYS.values())) if k != key]
    return sets, removes
