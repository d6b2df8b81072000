"""Tournaments (RULES §8, API.md v4 "Tournaments") in the players table, under keys no player
id can be, each read by a GetItem or BatchGetItem on a key made for it (never a Scan):

- ``trn#<id>``: the tournament (its settings, ``status``, ``round``, ``phase`` of that round:
  ``seating`` → ``playing``, ``tables`` of that round, ``entries``, the secret ``draw`` of its
  seating, never shown). Listed through the players table's sparse ``board-index``: ``board``
  is ``trn#<status>`` and ``score`` its start (epoch s) — a Query per status, no new index.
- ``tre#<id>#<k>``: the entries of one of ``SHARDS`` partitions (``k`` from the player id):
  an attribute ``e#<playerId>`` = ``{"name", "rating", "at"}`` each (a registration writes one
  small item, the seating reads all of them in one BatchGetItem).
- ``trr#<id>#<round>``: the round's plan (``tables``: each table's people in seat order),
  put once (the first round-starter's plan is everyone's).
- ``trt#<id>#<round>#<index>``: a finished table's result (``players``, ``penalties``,
  ``endedMs``, ``left``), put in the table's own transaction by the write path's game-end
  hook (`ResultWrite`), ``counted`` once the round's counter has it.
- ``trc#<id>#<round>``: the round's counter of results (``ended``); `count` marks a result
  counted and adds one in ONE transaction, so each table counts once however often told.
- ``trp#<playerId>``: the player's tournaments (``ids``, for her export and deletion) and
  podium badges (attributes ``badge#<id>`` = ``{"name", "place"}``).

A deleted player's id is replaced by an anonymous one in the entries, plans and results of
the tournaments she entered (`anonymise`); her ``trp#`` item goes (`forget`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from .items import deserialize, query_items, serialize
from .transient import busy

SHARDS = 64
BOARD_INDEX = "board-index"
Key = dict[str, Any]


def tournament_key(tid: str) -> str:
    return f"trn#{tid}"


def shard_key(tid: str, player_id: str) -> str:
    shard = int(hashlib.sha256(player_id.encode()).hexdigest()[:8], 16) % SHARDS
    return f"tre#{tid}#{shard}"


def plan_key(tid: str, round_number: int) -> str:
    return f"trr#{tid}#{round_number}"


def result_key(tid: str, round_number: int, index: int) -> str:
    return f"trt#{tid}#{round_number}#{index}"


def counter_key(tid: str, round_number: int) -> str:
    return f"trc#{tid}#{round_number}"


def player_key(player_id: str) -> str:
    return f"trp#{player_id}"


def listed(status: str) -> str:
    """The ``board`` of a tournament of ``status`` (its partition of the board index)."""
    return f"trn#{status}"


@dataclass(frozen=True, slots=True)
class ResultWrite:
    """A tournament table's result, put with the table's last version (a table ends once)."""

    tournament_id: str
    round: int
    index: int
    players: tuple[str, ...]
    penalties: tuple[int, ...]
    ended_ms: int
    left: tuple[str, ...] = ()


def result_update(write: ResultWrite) -> dict[str, Any]:
    """The players-table Update (without ``TableName``) that stores ``write``, once."""
    values = {
        ":p": list(write.players), ":pen": list(write.penalties), ":e": write.ended_ms,
        ":l": list(write.left), ":t": write.tournament_id, ":r": write.round, ":i": write.index,
    }  # fmt: skip
    return {
        "Key": _key(result_key(write.tournament_id, write.round, write.index)),
        "UpdateExpression": "SET #players = :p, #pen = :pen, #ended = :e, #left = :l, "
        "#tid = :t, #round = :r, #index = :i",
        "ConditionExpression": "attribute_not_exists(playerId)",
        "ExpressionAttributeNames": {
            "#players": "players",
            "#pen": "penalties",
            "#ended": "endedMs",
            "#left": "left",
            "#tid": "tournamentId",
            "#round": "round",
            "#index": "index",
        },
        "ExpressionAttributeValues": serialize(values),
    }


def _key(key: str) -> Key:
    return {"playerId": {"S": key}}


def plain(value: Any) -> Any:
    """DynamoDB's Decimals as ints (or floats), sets as sorted lists."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(plain(v) for v in value)
    return value


def _failed(error: ClientError) -> bool:
    code = error.response.get("Error", {}).get("Code")
    if code == "ConditionalCheckFailedException":
        return True
    reasons = error.response.get("CancellationReasons") or []
    return code == "TransactionCanceledException" and any(
        r.get("Code") in ("ConditionalCheckFailed", "TransactionConflict") for r in reasons
    )


class TournamentStore:
    """The tournament items above, over the players table's client and name."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self.name = table_name

    # -- reads -------------------------------------------------------------------------
    def _get(self, key: str) -> dict[str, Any] | None:
        try:
            item = self._client.get_item(
                TableName=self.name, Key=_key(key), ConsistentRead=True
            ).get("Item")
        except ClientError as error:
            raise busy(error) from error
        return plain(deserialize(item)) if item else None

    def _batch(self, keys: list[str]) -> dict[str, dict[str, Any]]:
        """The items of ``keys`` that exist, by key (strongly consistent, 100 at a time)."""
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(keys), 100):
            chunk = [_key(k) for k in dict.fromkeys(keys[start : start + 100])]
            request: dict[str, Any] = {self.name: {"Keys": chunk, "ConsistentRead": True}}
            while request:
                try:
                    response = self._client.batch_get_item(RequestItems=request)
                except ClientError as error:
                    raise busy(error) from error
                for raw in response.get("Responses", {}).get(self.name, []):
                    item = plain(deserialize(raw))
                    found[str(item["playerId"])] = item
                request = response.get("UnprocessedKeys") or {}
        return found

    def get(self, tid: str) -> dict[str, Any] | None:
        """The tournament (None: no such tournament)."""
        return self._get(tournament_key(tid)) if 0 < len(tid) <= 64 else None

    def page(
        self, status: str, limit: int, after: Key | None = None
    ) -> tuple[list[dict[str, Any]], Key | None]:
        """Tournaments of ``status`` by their start (finished ones latest first) and where
        the page ended (None: the last page)."""
        query: dict[str, Any] = {
            "TableName": self.name, "IndexName": BOARD_INDEX,
            "KeyConditionExpression": "#b = :b",
            "ExpressionAttributeNames": {"#b": "board"},
            "ExpressionAttributeValues": {":b": {"S": listed(status)}},
            "ScanIndexForward": status != "finished", "Limit": limit,
        }  # fmt: skip
        if after is not None:
            query["ExclusiveStartKey"] = after
        try:
            response = self._client.query(**query)
        except ClientError as error:
            raise busy(error) from error
        items = [plain(deserialize(i)) for i in response.get("Items", [])]
        return items, response.get("LastEvaluatedKey")

    def due(self, status: str, now: float, limit: int = 100) -> list[dict[str, Any]]:
        """Tournaments of ``status`` whose start is at or before ``now``."""
        query = {
            "TableName": self.name, "IndexName": BOARD_INDEX,
            "KeyConditionExpression": "#b = :b AND #score <= :now",
            "ExpressionAttributeNames": {"#b": "board", "#score": "score"},
            "ExpressionAttributeValues": serialize({":b": listed(status), ":now": int(now)}),
        }  # fmt: skip
        try:
            found = query_items(self._client, query, most=limit)
        except ClientError as error:
            raise busy(error) from error
        return [plain(deserialize(i)) for i in found[:limit]]

    def entrants(self, tid: str) -> dict[str, dict[str, Any]]:
        """Every entry: player id → ``{"name", "rating", "at"}``."""
        keys = [f"tre#{tid}#{k}" for k in range(SHARDS)]
        found: dict[str, dict[str, Any]] = {}
        for item in self._batch(keys).values():
            for name, value in item.items():
                if name.startswith("e#"):
                    found[name[2:]] = value
        return found

    def entry(self, tid: str, player_id: str) -> dict[str, Any] | None:
        item = self._get(shard_key(tid, player_id)) or {}
        found = item.get("e#" + player_id)
        return found if isinstance(found, dict) else None

    def plan(self, tid: str, round_number: int) -> list[list[str]] | None:
        item = self._get(plan_key(tid, round_number))
        return [list(t) for t in item["tables"]] if item else None

    def plans(self, tid: str, rounds: int) -> dict[int, dict[str, Any]]:
        """Rounds 1..``rounds``' plans in one BatchGetItem: round → ``{"tables", "proofs"}``."""
        found = self._batch([plan_key(tid, r) for r in range(1, rounds + 1)])
        return {
            r: {"tables": [list(t) for t in item["tables"]], "proofs": item.get("proofs") or []}
            for r in range(1, rounds + 1)
            if (item := found.get(plan_key(tid, r))) is not None
        }

    def results(self, tid: str, round_number: int, tables: int) -> list[dict[str, Any]]:
        """The results of the round's tables that ended (by index)."""
        keys = [result_key(tid, round_number, i) for i in range(tables)]
        found = self._batch(keys)
        return [found[k] for k in keys if k in found]

    def ended(self, tid: str, round_number: int) -> int:
        item = self._get(counter_key(tid, round_number)) or {}
        return int(item.get("ended", 0))

    def of_player(self, player_id: str) -> dict[str, Any]:
        """``{"ids": [...], "badges": {tid: {"name", "place"}}}`` of the player."""
        item = self._get(player_key(player_id)) or {}
        badges = {k[6:]: v for k, v in item.items() if k.startswith("badge#")}
        return {"ids": list(item.get("ids") or []), "badges": badges}

    # -- writes ------------------------------------------------------------------------
    def _transact(self, items: list[dict[str, Any]]) -> bool:
        """One transaction of Update items (TableName added); False: a condition failed
        (or another transaction held an item: the caller reads and decides again)."""
        try:
            self._client.transact_write_items(
                TransactItems=[{"Update": {"TableName": self.name, **i}} for i in items]
            )
        except ClientError as error:
            if _failed(error):
                return False
            raise busy(error) from error
        return True

    def _update(self, **update: Any) -> bool:
        try:
            self._client.update_item(TableName=self.name, **update)
        except ClientError as error:
            if _failed(error):
                return False
            raise busy(error) from error
        return True

    def create(self, item: dict[str, Any]) -> bool:
        """A new tournament (``item`` holds ``tournamentId``, ``status``, ``startsAt``);
        False when that id exists already (a repeat made it first)."""
        tid = str(item["tournamentId"])
        stored = {
            **item, "playerId": tournament_key(tid), "board": listed(str(item["status"])),
            "score": int(item["startsAt"]),
        }  # fmt: skip
        try:
            self._client.put_item(
                TableName=self.name, Item=serialize(stored),
                ConditionExpression="attribute_not_exists(playerId)",
            )  # fmt: skip
        except ClientError as error:
            if _failed(error):
                return False
            raise busy(error) from error
        return True

    def register(self, tid: str, player_id: str, entry: dict[str, Any], now: float) -> bool:
        """The player's entry and one more entry counted, while registration is open and
        there is room; False: nothing written (closed, full, entered already, no such)."""
        e = "e#" + player_id
        return self._transact([
            {
                "Key": _key(tournament_key(tid)),
                "UpdateExpression": "ADD #n :one",
                "ConditionExpression": "#s = :reg AND #n < #cap AND #start > :now "
                "AND #open <= :now",
                "ExpressionAttributeNames": {
                    "#s": "status", "#n": "entries", "#cap": "capacity", "#start": "startsAt",
                    "#open": "opensAt",
                },
                "ExpressionAttributeValues": serialize(
                    {":one": 1, ":reg": "registering", ":now": Decimal(str(round(now, 3)))}
                ),
            },
            {
                "Key": _key(shard_key(tid, player_id)),
                "UpdateExpression": "SET #e = :e",
                "ConditionExpression": "attribute_not_exists(#e)",
                "ExpressionAttributeNames": {"#e": e},
                "ExpressionAttributeValues": serialize({":e": entry}),
            },
            {
                "Key": _key(player_key(player_id)),
                "UpdateExpression": "ADD #ids :t",
                "ExpressionAttributeNames": {"#ids": "ids"},
                "ExpressionAttributeValues": serialize({":t": {tid}}),
            },
        ])  # fmt: skip

    def unregister(self, tid: str, player_id: str, now: float) -> bool:
        """The player's entry removed and one entry less, before the start; False: nothing
        written (started or closed, or not entered)."""
        return self._transact([
            {
                "Key": _key(tournament_key(tid)),
                "UpdateExpression": "ADD #n :minus",
                "ConditionExpression": "#s = :reg AND #start > :now",
                "ExpressionAttributeNames": {"#s": "status", "#n": "entries", "#start": "startsAt"},
                "ExpressionAttributeValues": serialize(
                    {":minus": -1, ":reg": "registering", ":now": Decimal(str(round(now, 3)))}
                ),
            },
            {
                "Key": _key(shard_key(tid, player_id)),
                "UpdateExpression": "REMOVE #e",
                "ConditionExpression": "attribute_exists(#e)",
                "ExpressionAttributeNames": {"#e": "e#" + player_id},
            },
            {
                "Key": _key(player_key(player_id)),
                "UpdateExpression": "DELETE #ids :t",
                "ExpressionAttributeNames": {"#ids": "ids"},
                "ExpressionAttributeValues": serialize({":t": {tid}}),
            },
        ])  # fmt: skip

    def step(self, tid: str, expect: dict[str, Any], sets: dict[str, Any]) -> bool:
        """The tournament's ``sets`` written only if each field of ``expect`` still holds
        its value (None: the field is absent); ``status`` moves its list too. Whether it did."""
        if "status" in sets:
            sets = {**sets, "board": listed(str(sets["status"]))}
        names: dict[str, str] = {}
        values: dict[str, Any] = {}
        conditions = ["attribute_exists(playerId)"]
        for i, (field, value) in enumerate(expect.items()):
            names[f"#c{i}"] = field
            if value is None:
                conditions.append(f"attribute_not_exists(#c{i})")
            else:
                values[f":c{i}"] = value
                conditions.append(f"#c{i} = :c{i}")
        for i, (field, value) in enumerate(sets.items()):
            names[f"#s{i}"], values[f":s{i}"] = field, value
        expression = "SET " + ", ".join(f"#s{i} = :s{i}" for i in range(len(sets)))
        return self._update(
            Key=_key(tournament_key(tid)), UpdateExpression=expression,
            ConditionExpression=" AND ".join(conditions),
            ExpressionAttributeNames=names, ExpressionAttributeValues=serialize(values),
        )  # fmt: skip

    def put_plan(self, tid: str, round_number: int, tables: list[list[str]]) -> list[list[str]]:
        """The round's plan: ``tables`` if none was put before, else the one that was."""
        item = {"playerId": plan_key(tid, round_number), "tables": tables}
        try:
            self._client.put_item(
                TableName=self.name, Item=serialize(item),
                ConditionExpression="attribute_not_exists(playerId)",
            )  # fmt: skip
        except ClientError as error:
            if not _failed(error):
                raise busy(error) from error
            found = self.plan(tid, round_number)
            assert found is not None
            return found
        return tables

    def put_proofs(self, tid: str, round_number: int, proofs: list[str]) -> None:
        """Each table's commitment to its first deal, beside the round's plan (once)."""
        self._update(
            Key=_key(plan_key(tid, round_number)), UpdateExpression="SET #p = :p",
            ConditionExpression="attribute_exists(playerId) AND attribute_not_exists(#p)",
            ExpressionAttributeNames={"#p": "proofs"},
            ExpressionAttributeValues=serialize({":p": proofs}),
        )  # fmt: skip

    def proofs(self, tid: str, round_number: int) -> list[str]:
        """The round's tables' first-deal commitments, in table order ([]: none yet)."""
        item = self._get(plan_key(tid, round_number)) or {}
        return [str(p) for p in item.get("proofs") or []]

    def count(self, tid: str, round_number: int, index: int) -> bool:
        """The table's result counted in its round's counter, once: whether this call did."""
        return self._transact([
            {
                "Key": _key(result_key(tid, round_number, index)),
                "UpdateExpression": "SET #c = :t",
                "ConditionExpression": "attribute_exists(playerId) AND attribute_not_exists(#c)",
                "ExpressionAttributeNames": {"#c": "counted"},
                "ExpressionAttributeValues": serialize({":t": True}),
            },
            {
                "Key": _key(counter_key(tid, round_number)),
                "UpdateExpression": "ADD #e :one",
                "ExpressionAttributeNames": {"#e": "ended"},
                "ExpressionAttributeValues": serialize({":one": 1}),
            },
        ])  # fmt: skip

    def award(self, player_id: str, tid: str, name: str, place: int) -> None:
        """The player's podium badge of the tournament (again: the same badge)."""
        self._update(
            Key=_key(player_key(player_id)),
            UpdateExpression="SET #b = :b ADD #ids :t",
            ExpressionAttributeNames={"#b": "badge#" + tid, "#ids": "ids"},
            ExpressionAttributeValues=serialize(
                {":b": {"name": name, "place": place}, ":t": {tid}}
            ),
        )

    def anonymise(
        self, tid: str, player_id: str, anon: str, entry: dict[str, Any], rounds: int
    ) -> None:
        """A deleted player made ``anon`` in the tournament's entries, plans and results
        (`tournament_deletion.anonymise`)."""
        from .tournament_deletion import anonymise

        anonymise(self, tid, player_id, anon, entry, rounds)

    def forget(self, player_id: str) -> None:
        """The player's list of tournaments and her badges gone (her entries are withdrawn
        or made anonymous first: `anonymise`)."""
        try:
            self._client.delete_item(TableName=self.name, Key=_key(player_key(player_id)))
        except ClientError as error:
            raise busy(error) from error
