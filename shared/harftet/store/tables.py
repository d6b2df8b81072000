"""The tables table: one item per table, written only by a conditional write on its version.

Item: ``tableId``, ``version`` (N), ``state`` (B, the engine's compact codec), ``mv`` (the
move ids a client may still retry, for idempotency — written in the same conditional write:
per player the last ``MOVES_KEPT``, each under a 12-character digest), ``lobby``/``createdAt``
(only while waiting: the sparse lobby index) and ``due``/``deadline``/``dueV`` (only while
something is timed: the sparse index the sweeper reads, never a Scan; ``dueV`` is the version
that set the deadline, so a change that keeps it writes neither the index nor a timer).

Every attribute counts in a write unit (1 KB): the item stays ≤ 1 KB for a playing table
(bench/bench_cost.py measures it over whole games).

``tx``: the ClientRequestToken of the last transaction that wrote the item. Transactions are
idempotent: each TransactWriteItems carries a ClientRequestToken (AWS then answers a retry of
one that succeeded — its answer lost — with success, without writing again), and the store
recognises its own write where the token is not honoured (moto; or a retry past the token's
ten minutes): a table created is found under its new id, and a table update finds its own
token and version in the item the failed condition returns.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError

from harftet.engine import codec
from harftet.engine.state import Table
from harftet.engine.view import lobby_status
from harftet.errors import NotFoundError
from harftet.timing import next_due

from .errors import HeldLimitError, VersionConflictError
from .holdings import ADDS, HELD, MAX_HELD, HeldTables, holders

# Per player, the move ids kept for idempotency: a client retries only the move it has no
# answer for (API.md), so its last two cover a retry racing the next move from another device.
MOVES_KEPT = 2
MOVES = "mv"
OLD_MOVES = "moves"  # the former map of whole `{playerId}:{moveId}` keys (read, then removed)
MAX_ID = 64
DUE = "due"
# The deadline index is spread over DEADLINE_SHARDS partition keys ("due#0".."due#N-1"). One
# index partition takes about 1,000 writes a second, and a turn moves its table's deadline
# (two index writes: the old entry out, the new one in), so the shards bound a cell's tables:
# bench/scale_model.py sizes them (the template's DeadlineShards). Raise it, never lower it: the
# sweeper reads shards 0..N-1, and a table keeps its shard until its deadline moves.
# The template passes DeadlineShards (32 by default); without it (the local stack, tests) 8:
# the local sweeper reads every shard every 10 s from one serialized emulator.
DUE_SHARDS = int(os.environ.get("DEADLINE_SHARDS", "8"))
# The deadline index's sort key is a live table's deadline rounded UP to DEADLINE_STEP_MS, so
# that a turn that moves the deadline within the same step writes no index key (a moved key is
# two index writes: most changes of a live game would make them). The timers do not read the
# index (the stream sends each exact deadline to SQS); only the sweeper, the safety net for a
# lost timer, does, and it finds a table once its rounded deadline has passed: at most one
# step later than the exact one. A correspondence table keeps its exact deadline (its timer is
# armed from the index: harftet.far_timers). The template passes DeadlineStepSeconds (60);
# without it (the local stack, tests) 0: the exact deadline.
DEADLINE_STEP_MS = int(float(os.environ.get("DEADLINE_STEP_SECONDS", "0")) * 1000)
# DynamoDB's TTL removes what nobody will come back to: a table still waiting a day after it
# was made (it leaves the lobby then too), and a finished game 30 days after its end.
WAITING_SECONDS = 24 * 3600
FINISHED_KEPT_SECONDS = 30 * 24 * 3600
LOBBY = "waiting"
# Correspondence tables have lists of their own (RULES §6): the same indexes, their key
# values prefixed ("c:waiting", "c:open", "c:playing").
CORRESPONDENCE_LOBBY = "c:"
TX = "tx"  # the item attribute holding the last transaction's ClientRequestToken
ANSWERED = "ans"  # the connection answered on the spot for this version (StoredTable.answered)


def request_token() -> str:
    """A fresh ClientRequestToken (1–36 characters): 16 hex digits, 64 random bits."""
    return secrets.token_hex(8)


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

    def remember(self, move_key: str, version: int) -> Moves:
        """These moves and ``move_key`` (producing ``version``), each player keeping only its
        last ``MOVES_KEPT``."""
        digest = move_digest(move_key)
        kept = {**self._by_digest, digest: version}
        player = digest[:4]
        mine = sorted((v, d) for d, v in kept.items() if d[:4] == player)
        for _, old in mine[:-MOVES_KEPT]:
            del kept[old]
        return Moves(kept)


@dataclass(slots=True)
class StoredTable:
    table: Table
    version: int
    moves: Moves = field(default_factory=Moves)  # the move ids kept -> version each produced
    due_version: int | None = None  # the version that set the current deadline (dueV)
    # the WebSocket connection that sent this version's move and got its answer on the spot
    # (``ans``): the fan-out leaves it out of this version's push
    answered: str | None = None


# The move path reads and writes a handful of fixed attributes, so it builds DynamoDB's
# attribute values itself: boto3's generic (de)serializer costs more than the engine.
def _from_item(item: dict[str, Any]) -> StoredTable:
    """A stored table from a low-level item."""
    moves = {k: int(v["N"]) for k, v in item.get(MOVES, {}).get("M", {}).items()}
    for key, value in item.get(OLD_MOVES, {}).get("M", {}).items():  # an item written before
        moves[move_digest(key)] = int(value["N"])
    due_version = item.get("dueV")
    answered = item.get(ANSWERED)
    return StoredTable(
        table=codec.decode(item["state"]["B"]),
        version=int(item["version"]["N"]),
        moves=Moves(moves),
        due_version=int(due_version["N"]) if due_version else None,
        answered=answered["S"] if answered else None,
    )


def from_stream_image(image: dict[str, Any]) -> StoredTable:
    """A stored table from a stream record's NewImage (Lambda's event carries binary
    attributes base64-encoded; boto3's get_records gives bytes)."""
    state = image["state"]["B"]
    if isinstance(state, str):
        state = base64.b64decode(state)
    return _from_item({**image, "state": {"B": state}})


def _number(value: int) -> dict[str, str]:
    return {"N": str(value)}


def _moves(moves: Moves) -> dict[str, Any]:
    return {"M": {k: _number(v) for k, v in moves.digests.items()}}


def _due_key(table_id: str) -> str:
    """The deadline index partition of a table: stable, spread evenly over the shards."""
    return f"{DUE}#{zlib.crc32(table_id.encode()) % DUE_SHARDS}"


def _index_deadline(due: float, exact: bool = False) -> int:
    """The deadline index's sort key (ms) for a deadline: rounded up to DEADLINE_STEP_MS."""
    ms = int(due * 1000)
    step = DEADLINE_STEP_MS
    return ms if exact or step <= 0 else -(-ms // step) * step


def _exact_ms(table: Table) -> int | None:
    """A table's exact next deadline (ms), None without one."""
    due = next_due(table)
    return None if due is None else int(due * 1000)


def _index_fields(table: Table, now: float) -> tuple[dict[str, Any], list[str]]:
    """The sparse-index attributes to SET (as attribute values), and those to REMOVE."""
    sets: dict[str, Any] = {}
    removes: list[str] = []
    # -- lobby (api): the list that shows the table, if any (the sparse lobby indexes)
    listed = lobby_status(table)
    key = LOBBY_KEYS[listed] if listed is not None else None
    if listed is not None and key is not None:
        prefix = CORRESPONDENCE_LOBBY if table.pace == "correspondence" else ""
        sets[key] = {"S": prefix + listed}
        sets["createdAt"] = _number(int(table.created_at * 1000))
    removes += [k for k in sorted(set(LOBBY_KEYS.values())) if k != key]
    # -- end lobby
    if table.status == "waiting":
        sets["expiresAt"] = _number(int(table.created_at + WAITING_SECONDS))
    else:
        if table.status == "finished":
            sets["expiresAt"] = _number(int(now + FINISHED_KEPT_SECONDS))
        else:
            removes.append("expiresAt")
    due = next_due(table)
    if due is not None:
        sets["due"] = {"S": _due_key(table.table_id)}
        sets["deadline"] = _number(_index_deadline(due, table.pace == "correspondence"))
    else:
        removes += ["due", "deadline", "dueV"]
    return sets, removes


# -- the lobby (api) ------------------------------------------------------------------------
# Two sparse indexes keyed by createdAt: ``lobby-index`` (``lobby`` = "waiting", projected
# whole: waiting tables are few and do not move) and ``watch-index`` (``watch`` = "open" or
# "playing", keys only, so that a move, which leaves both keys as they are, costs the index
# nothing). Private tables carry neither.
LOBBY_KEYS = {"waiting": "lobby", "open": "watch", "playing": "watch"}
LOBBY_INDEXES = {"lobby": "lobby-index", "watch": "watch-index"}
LobbyKey = tuple[int, str]  # (createdAt in ms, tableId): where a page ends


class LobbyPages:
    """Mixed into TableStore: lobby pages and the manager's limit of waiting tables."""

    _client: Any
    _name: str
    _players: str
    held_count: Callable[..., int]  # HeldTables'
    _player_item: Callable[..., dict[str, Any]]  # HeldTables'

    def _new_item(self, table: Table) -> dict[str, Any]:
        raise NotImplementedError

    def _exists(self, table: Table) -> bool:
        raise NotImplementedError

    def lobby_page(
        self, status: str, now: float, limit: int = 50, after: LobbyKey | None = None
    ) -> tuple[list[Table], LobbyKey | None]:
        """Up to ``limit`` listed tables of ``status``, newest first, after ``after``; and the
        key to start the next page from (None on the last page)."""
        base = status.removeprefix(CORRESPONDENCE_LOBBY)
        pace = "live" if base == status else "correspondence"
        key = LOBBY_KEYS[base]
        condition = "#k = :k"
        names = {"#k": key}
        values: dict[str, Any] = {":k": {"S": status}}
        if base == "waiting":  # a waiting table leaves the lobby after a day
            condition += " AND #c >= :since"
            names["#c"] = "createdAt"
            values[":since"] = _number(int((now - WAITING_SECONDS) * 1000))
        kwargs: dict[str, Any] = {
            "TableName": self._name,
            "IndexName": LOBBY_INDEXES[key],
            "KeyConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
            "ScanIndexForward": False,
            "Limit": limit + 1,
        }
        if after is not None:
            kwargs["ExclusiveStartKey"] = {
                key: {"S": status},
                "createdAt": _number(after[0]),
                "tableId": {"S": after[1]},
            }
        items: list[dict[str, Any]] = []
        while len(items) <= limit:
            page = self._client.query(**kwargs)
            items += page.get("Items", [])
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        more = len(items) > limit
        items = items[:limit]
        last = (int(items[-1]["createdAt"]["N"]), items[-1]["tableId"]["S"]) if more else None
        if key == "lobby":
            tables = [codec.decode(i["state"]["B"]) for i in items]
        else:
            tables = self._tables([i["tableId"]["S"] for i in items])
        return [t for t in tables if lobby_status(t) == base and t.pace == pace], last

    def _tables(self, ids: list[str], consistent: bool = False) -> list[Table]:
        """The tables of ``ids`` that exist, in that order (BatchGetItem)."""
        found: dict[str, Table] = {}
        keys = [{"tableId": {"S": i}} for i in dict.fromkeys(ids)]
        while keys:
            batch, keys = keys[:100], keys[100:]
            request: dict[str, Any] = {
                self._name: {
                    "Keys": batch,
                    "ProjectionExpression": "tableId, #s",
                    "ExpressionAttributeNames": {"#s": "state"},
                    "ConsistentRead": consistent,
                }
            }
            for _ in range(8):
                answer = self._client.batch_get_item(RequestItems=request)
                for item in answer.get("Responses", {}).get(self._name, []):
                    found[item["tableId"]["S"]] = codec.decode(item["state"]["B"])
                request = answer.get("UnprocessedKeys") or {}
                if not request:
                    break
                time.sleep(0.05)
        return [found[i] for i in ids if i in found]

    def create_within_limit(self, table: Table, limit: int, now: float) -> int | None:
        """Create ``table`` unless its manager already holds ``limit`` waiting tables (None
        then). The player item lists the tables they made; each is checked against the table
        itself, and the list is written in the same transaction as the new table, on the list
        read, so that no burst of requests gets past the limit. A correspondence table also
        joins the manager's held tables in that write (HeldLimitError when they hold the most
        anybody may: ``harftet.store.holdings``)."""
        manager = table.manager
        assert manager is not None
        key = {"playerId": {"S": manager}}
        names = {"#w": "waitingTables"}
        holds_it = manager in holders(table, now)
        for _ in range(10):
            if holds_it:
                count = self.held_count(manager, now)
                if count >= MAX_HELD:
                    raise HeldLimitError(manager, count)
            item = self._player_item(manager, names)
            old = item.get("waitingTables")
            held = [v["S"] for v in old["L"]] if old else []
            waiting = [
                t.table_id
                for t in self._tables(held, consistent=True)
                if t.status == "waiting"
                and t.manager == manager
                and t.created_at > now - WAITING_SECONDS
            ]
            if len(waiting) >= limit:
                return None
            new = {"L": [{"S": i} for i in [*waiting, table.table_id]]}
            update: dict[str, Any] = {
                "TableName": self._players,
                "Key": key,
                "UpdateExpression": "SET #w = :new",
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": {":new": new},
            }
            if old is None:
                update["ConditionExpression"] = "attribute_not_exists(#w)"
            else:
                update["ConditionExpression"] = "#w = :old"
                update["ExpressionAttributeValues"][":old"] = old
            if holds_it:  # the held set's ADD, on its size (a failure: counted again above)
                update["UpdateExpression"] += " ADD #held :held, #adds :one"
                update["ConditionExpression"] += (
                    " AND (attribute_not_exists(#held) OR size(#held) < :most)"
                )
                names_held = {"#held": HELD, "#adds": ADDS}
                update["ExpressionAttributeNames"] = {**names, **names_held}
                update["ExpressionAttributeValues"] |= {
                    ":held": {"SS": [table.table_id]},
                    ":one": {"N": "1"},
                    ":most": {"N": str(MAX_HELD)},
                }
            put = self._new_item(table)
            try:
                self._client.transact_write_items(
                    TransactItems=[{"Put": put}, {"Update": update}],
                    ClientRequestToken=request_token(),
                )
            except ClientError as error:
                reasons = error.response.get("CancellationReasons") or []
                codes = [r.get("Code") for r in reasons]
                if codes and codes[0] == "ConditionalCheckFailed" and self._exists(table):
                    # The new id (random) is taken: by this very transaction, whose answer
                    # was lost and which botocore sent again. It is written: say so.
                    return 1
                if (
                    len(codes) == 2
                    and codes[1] == "ConditionalCheckFailed"
                    and codes[0] in (None, "None")
                ):
                    continue  # another table of theirs landed in between: count again
                if "TransactionConflict" in codes:
                    continue  # another transaction on one of the items: redo it all
                raise
            return 1
        raise VersionConflictError(None)


# -- end of the lobby (api) ----------------------------------------------------------------


class TableStore(LobbyPages, HeldTables):
    """Reads and writes table items with optimistic locking."""

    def __init__(self, client: Any, table_name: str, players_table: str) -> None:
        self._client = client
        self._name = table_name
        self._players = players_table

    def get(self, table_id: str) -> StoredTable:
        """The table, read strongly consistently; NotFoundError if there is none."""
        if not 0 < len(table_id) <= MAX_ID:
            raise NotFoundError(f"no table {table_id[:MAX_ID]}")
        response = self._client.get_item(
            TableName=self._name, Key={"tableId": {"S": table_id}}, ConsistentRead=True
        )
        item = response.get("Item")
        if item is None:
            raise NotFoundError(f"no table {table_id}")
        return _from_item(item)

    def _exists(self, table: Table) -> bool:
        """Whether ``table``'s id is stored with ``table``'s manager (our own creation)."""
        try:
            return self.get(table.table_id).table.manager == table.manager
        except NotFoundError:
            return False

    def create(self, table: Table) -> int:
        """Write a new table at version 1; fails if the id exists."""
        self._client.put_item(**self._new_item(table))
        return 1

    def _new_item(self, table: Table) -> dict[str, Any]:
        sets, _ = _index_fields(table, time.time())
        if "deadline" in sets:
            sets["dueV"] = _number(1)
        item = {
            "tableId": {"S": table.table_id},
            "version": _number(1),
            "state": {"B": codec.encode(table)},
            MOVES: _moves(Moves()),
            **sets,
        }
        return {
            "TableName": self._name,
            "Item": item,
            "ConditionExpression": "attribute_not_exists(tableId)",
        }

    def save(
        self,
        stored: StoredTable,
        table: Table,
        *,
        move_id: str | None = None,
        player_updates: list[dict[str, Any]] | None = None,
        now: float | None = None,
        answered: str | None = None,
    ) -> StoredTable:
        """Write ``table`` over ``stored`` if nobody wrote in between, with any player updates
        in the same transaction; ``answered``: the connection that sent the move and is
        answered by its sender (kept for this version only). Raises VersionConflictError
        carrying the current item."""
        version = stored.version + 1
        moves = stored.moves
        if move_id is not None:
            moves = moves.remember(move_id, version)
        at = time.time() if now is None else now
        sets, removes = _index_fields(table, at)
        # An index key written again with the value it holds would still be an index write
        # (DynamoDB does not promise to skip it): write only what changed since the version
        # read, which holds exactly what that version wrote. A move leaves the lobby keys as
        # they are; a change that keeps the deadline (a draw, a chat, a reconnect) writes
        # neither the deadline index (it projects keys only) nor dueV (so no timer is sent);
        # one that moves it within the index's step (DEADLINE_STEP_MS) writes dueV only.
        before, _ = _index_fields(stored.table, at)
        timed = "deadline" in sets
        moved = timed and _exact_ms(table) != _exact_ms(stored.table)
        for key in [*LOBBY_KEYS.values(), "createdAt", "due", "deadline"]:
            if key in sets and before.get(key) == sets[key]:
                del sets[key]
        if moved:
            sets["dueV"] = _number(version)
        due_version = (version if moved else stored.due_version) if timed else None
        values: dict[str, Any] = {
            ":expected": _number(stored.version),
            ":version": _number(version),
            ":state": {"B": codec.encode(table)},
        }
        names: dict[str, str] = {"#v": "version", "#s": "state"}
        assignments = ["#v = :version", "#s = :state"]
        # The kept ids are written every time (a few dozen bytes: no extra write unit), so an
        # item of the former shape moves its ids over and drops the old map in one write.
        names["#m"] = MOVES
        values[":moves"] = _moves(moves)
        assignments.append("#m = :moves")
        removes.append(OLD_MOVES)  # free on items without it
        if answered is not None:
            names["#ans"] = ANSWERED
            values[":ans"] = {"S": answered}
            assignments.append("#ans = :ans")
        else:
            removes.append(ANSWERED)  # free on items without it
        token = request_token() if player_updates else None
        if token is not None:  # a transaction: it marks the item, to know it again
            names["#tx"] = TX
            values[":tx"] = {"S": token}
            assignments.append("#tx = :tx")
        for i, (key, value) in enumerate(sets.items()):
            names[f"#i{i}"] = key
            values[f":i{i}"] = value
            assignments.append(f"#i{i} = :i{i}")
        expression = "SET " + ", ".join(assignments)
        if removes:
            for i, key in enumerate(removes):
                names[f"#r{i}"] = key
            expression += " REMOVE " + ", ".join(f"#r{i}" for i in range(len(removes)))
        update = {
            "TableName": self._name,
            "Key": {"tableId": {"S": table.table_id}},
            "UpdateExpression": expression,
            "ConditionExpression": "#v = :expected",
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
        try:
            if player_updates:
                self._client.transact_write_items(
                    TransactItems=[{"Update": update}]
                    + [{"Update": {"TableName": self._players, **u}} for u in player_updates],
                    ClientRequestToken=token,
                )
            else:
                self._client.update_item(**update)
        except ClientError as error:
            if token is not None and self._landed(error, table.table_id, token, version):
                return StoredTable(table=table, version=version, moves=moves, answered=answered)
            raise self._conflict(error, table.table_id) from error
        return StoredTable(
            table=table, version=version, moves=moves, due_version=due_version, answered=answered
        )

    def _landed(self, error: ClientError, table_id: str, token: str, version: int) -> bool:
        """Whether a cancelled transaction is our own, already written: its answer was lost
        and botocore sent it again, and the table item holds its token at its version."""
        reasons = error.response.get("CancellationReasons") or []
        if not reasons or reasons[0].get("Code") != "ConditionalCheckFailed":
            return False
        item: Any = reasons[0].get("Item")
        if not item:  # some implementations do not return the old item
            item = self._client.get_item(
                TableName=self._name, Key={"tableId": {"S": table_id}}, ConsistentRead=True
            ).get("Item")
        if not item:
            return False
        mark = item.get(TX) or {}
        stored = item.get("version") or {}
        return bool(mark.get("S") == token and stored.get("N") == str(version))

    def _conflict(self, error: ClientError, table_id: str) -> Exception:
        """Turn a lost race into VersionConflictError with the current item (no second read
        where DynamoDB returned it)."""
        code = error.response.get("Error", {}).get("Code")
        item: Any = error.response.get("Item")
        if code == "TransactionCanceledException":
            reasons = error.response.get("CancellationReasons") or []
            if any(r.get("Code") == "TransactionConflict" for r in reasons):
                return VersionConflictError(None)  # another transaction on an item: redo it all
            failed = [r.get("Code") == "ConditionalCheckFailed" for r in reasons]
            if any(failed[1:]) and not failed[0]:
                return VersionConflictError(None)  # a player changed since read: redo it all
            if not failed or not failed[0]:
                return error
            item = reasons[0].get("Item")
        elif code != "ConditionalCheckFailedException":
            return error
        current = _from_item(item) if item else None
        if current is None:  # some implementations do not return the old item
            try:
                current = self.get(table_id)
            except NotFoundError:
                current = None
        return VersionConflictError(current)

    def due(self, now: float, limit: int = 100) -> list[str]:
        """Ids of tables whose next timed event is due at ``now``, earliest first (sparse index
        queries, one per shard, side by side; never a Scan)."""

        def shard(n: int) -> list[tuple[int, str]]:
            kwargs: dict[str, Any] = {
                "TableName": self._name,
                "IndexName": "deadline-index",
                "KeyConditionExpression": "#d = :due AND #t <= :now",
                "ExpressionAttributeNames": {"#d": "due", "#t": "deadline"},
                "ExpressionAttributeValues": {
                    ":due": {"S": f"{DUE}#{n}"},
                    ":now": _number(int(now * 1000)),
                },
                "Limit": limit,
            }
            found: list[tuple[int, str]] = []
            while len(found) < limit:
                page = self._client.query(**kwargs)
                found += [
                    (int(i["deadline"]["N"]), i["tableId"]["S"]) for i in page.get("Items", [])
                ]
                if "LastEvaluatedKey" not in page:
                    break
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
            return found

        found = [entry for entries in self._shards(shard) for entry in entries]
        return [table_id for _, table_id in sorted(found)[:limit]]

    def due_between(self, start: float, end: float, limit: int = 1000) -> list[tuple[float, str]]:
        """(deadline, tableId) of the tables whose next timed event falls in (start, end]:
        correspondence deadlines coming within SQS's reach (harftet.far_timers)."""

        def shard(n: int) -> list[tuple[float, str]]:
            page = self._client.query(
                TableName=self._name,
                IndexName="deadline-index",
                KeyConditionExpression="#d = :due AND #t BETWEEN :a AND :b",
                ExpressionAttributeNames={"#d": "due", "#t": "deadline"},
                ExpressionAttributeValues={
                    ":due": {"S": f"{DUE}#{n}"},
                    ":a": _number(int(start * 1000) + 1),
                    ":b": _number(int(end * 1000)),
                },
                Limit=limit,
            )
            return [(int(i["deadline"]["N"]) / 1000, i["tableId"]["S"]) for i in page["Items"]]

        return sorted(entry for entries in self._shards(shard) for entry in entries)[:limit]

    def next_due(self) -> float | None:
        """When the earliest timed event of any table falls due (epoch seconds), or None."""

        def shard(n: int) -> list[int]:
            page = self._client.query(
                TableName=self._name,
                IndexName="deadline-index",
                KeyConditionExpression="#d = :due",
                ExpressionAttributeNames={"#d": "due"},
                ExpressionAttributeValues={":due": {"S": f"{DUE}#{n}"}},
                Limit=1,
            )
            return [int(item["deadline"]["N"]) for item in page.get("Items", [])]

        deadlines = [d for found in self._shards(shard) for d in found]
        return min(deadlines) / 1000 if deadlines else None

    def _shards(self, query: Any) -> list[Any]:
        """``query(shard)`` for every deadline shard, 8 at a time (boto3 clients are
        thread-safe; one short invocation reads them all)."""
        with ThreadPoolExecutor(min(8, DUE_SHARDS)) as pool:
            return list(pool.map(query, range(DUE_SHARDS)))

    def lobby(self, now: float, limit: int = 50) -> list[Table]:
        """Waiting tables made in the last day, newest first (sparse index query)."""
        return self.lobby_page("waiting", now, limit)[0]
