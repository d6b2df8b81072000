"""Matchmaking tickets (API.md v4 "Matchmaking", RULES §8) in the match table.

Items (key ``id``):

- ``ticket#<ticketId>``: one search for opponents — who, the game and seats, the wait the
  player chose, their skill when they asked (``mu``, ``sigma``, the tier's ordinal comes from
  them) and the players they blocked or who blocked them (``avoid``). ``status`` moves
  ``waiting`` → ``seating`` → ``matched``, or ``waiting`` → ``cancelled``, each step a
  conditional write on the status before, so two matchers (or a matcher and the player's
  cancel) never both win.
- ``player#<playerId>``: the player's one open ticket (API: a second is 409
  ``already_waiting``), put in the same transaction as the ticket, deleted when it ends.

The sparse ``queue-index`` (``queue``, ``at``) holds what a matcher must look at: waiting
tickets under their pool (``<game>#<seats>``, oldest first) and claimed ones under
``seating`` until their table exists (so a matcher killed half-way leaves work the next one
finishes). A claim writes the whole plan of the table (``plan``) into every ticket of it;
whoever finishes it builds the same table under the same id (a conditional put), so it is
created once however many finish it. Every item expires a day after it was made (TTL)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from .items import deserialize, query_items, serialize
from .transient import busy

TICKET = "ticket#"
LOCK = "player#"
MINE = "mine#"  # the ids of every ticket a player opened in the last day (to forget them)
SEATING = "seating"
QUEUE_INDEX = "queue-index"
KEPT_SECONDS = 24 * 3600
Plan = dict[str, Any]


def pool_of(game: str, seats: int) -> str:
    """The queue of waiting tickets of one game and seat count."""
    return f"{game}#{seats}"


@dataclass(frozen=True)
class Ticket:
    """A player's search for opponents. ``at``: when it was opened (epoch seconds, ms)."""

    ticket_id: str
    player_id: str
    name: str
    rating: int
    game: str
    seats: int
    wait_seconds: int
    at: float
    mu: float
    sigma: float
    avoid: frozenset[str] = frozenset()
    status: str = "waiting"
    table_id: str | None = None
    plan: Plan | None = field(default=None, compare=False)

    @property
    def pool(self) -> str:
        return pool_of(self.game, self.seats)


def _num(value: float) -> Decimal:
    return Decimal(str(round(float(value), 6)))


def ticket_item(ticket: Ticket) -> dict[str, Any]:
    """The ticket as stored (plain values; the queue it is in while it needs a matcher)."""
    item: dict[str, Any] = {
        "id": TICKET + ticket.ticket_id,
        "ticketId": ticket.ticket_id,
        "playerId": ticket.player_id,
        "name": ticket.name,
        "rating": ticket.rating,
        "game": ticket.game,
        "seats": ticket.seats,
        "waitSeconds": ticket.wait_seconds,
        "at": _num(ticket.at),
        "mu": _num(ticket.mu),
        "sigma": _num(ticket.sigma),
        "status": ticket.status,
        "expiresAt": int(ticket.at) + KEPT_SECONDS,
    }
    if ticket.avoid:
        item["avoid"] = set(ticket.avoid)
    if ticket.status == "waiting":
        item["queue"] = ticket.pool
    elif ticket.status == SEATING:
        item["queue"] = SEATING
    if ticket.table_id is not None:
        item["tableId"] = ticket.table_id
    if ticket.plan is not None:
        item["plan"] = ticket.plan
    return item


def from_item(item: dict[str, Any]) -> Ticket:
    """A ticket from its stored plain values."""
    plan = item.get("plan")
    return Ticket(
        ticket_id=str(item["ticketId"]),
        player_id=str(item["playerId"]),
        name=str(item["name"]),
        rating=int(item["rating"]),
        game=str(item["game"]),
        seats=int(item["seats"]),
        wait_seconds=int(item["waitSeconds"]),
        at=float(item["at"]),
        mu=float(item["mu"]),
        sigma=float(item["sigma"]),
        avoid=frozenset(str(p) for p in item.get("avoid") or ()),
        status=str(item["status"]),
        table_id=str(item["tableId"]) if item.get("tableId") else None,
        plan=_plain(plan) if plan is not None else None,
    )


def _plain(value: Any) -> Any:
    """Decimals back to ints (a plan holds whole numbers only), lists and dicts kept."""
    if isinstance(value, Decimal):
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _failed(error: ClientError) -> bool:
    """Whether ``error`` is a condition that did not hold (alone or in a transaction)."""
    code = error.response.get("Error", {}).get("Code")
    if code == "ConditionalCheckFailedException":
        return True
    if code == "TransactionCanceledException":
        reasons = error.response.get("CancellationReasons") or []
        return any(r.get("Code") == "ConditionalCheckFailed" for r in reasons)
    return False


class MatchStore:
    """Tickets over the match table (a boto3 DynamoDB client)."""

    def __init__(self, client: Any, table: str) -> None:
        self._client = client
        self._table = table

    def open(self, ticket: Ticket) -> str | None:
        """Store a new waiting ticket and its player's lock together; None, or the id of the
        ticket the player already holds (nothing written)."""
        lock: dict[str, Any] = {"id": LOCK + ticket.player_id, "ticketId": ticket.ticket_id}
        lock["expiresAt"] = int(ticket.at) + KEPT_SECONDS
        new = "attribute_not_exists(id)"
        items: list[dict[str, Any]] = [
            {"Put": {"TableName": self._table, "Item": serialize(item), "ConditionExpression": new}}
            for item in (ticket_item(ticket), lock)
        ]
        mine = {":t": {ticket.ticket_id}, ":e": lock["expiresAt"]}
        items.append({"Update": {
            "TableName": self._table,
            "Key": {"id": {"S": MINE + ticket.player_id}},
            "UpdateExpression": "ADD tickets :t SET expiresAt = :e",
            "ExpressionAttributeValues": serialize(mine),
        }})  # fmt: skip
        try:
            self._client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if not _failed(error):
                raise busy(error) from error
            return self.holder(ticket.player_id) or ticket.ticket_id
        return None

    def _get(self, key: str) -> dict[str, Any] | None:
        try:
            found = self._client.get_item(
                TableName=self._table, Key={"id": {"S": key}}, ConsistentRead=True
            ).get("Item")
        except ClientError as error:
            raise busy(error) from error
        return deserialize(found) if found else None

    def ticket(self, ticket_id: str) -> Ticket | None:
        """The ticket (read strongly consistently), or None."""
        item = self._get(TICKET + ticket_id) if 0 < len(ticket_id) <= 64 else None
        return from_item(item) if item else None

    def holder(self, player_id: str) -> str | None:
        """The ticket the player holds open, by its lock (None: none)."""
        item = self._get(LOCK + player_id)
        return str(item["ticketId"]) if item else None

    def forget(self, player_id: str) -> None:
        """Delete every ticket of the player (a deleted player: API.md v4), their lock and
        their list; a waiting one can then never be claimed."""
        item = self._get(MINE + player_id) or {}
        keys = [TICKET + str(t) for t in item.get("tickets") or ()]
        for key in [*keys, LOCK + player_id, MINE + player_id]:
            try:
                self._client.delete_item(TableName=self._table, Key={"id": {"S": key}})
            except ClientError as error:
                raise busy(error) from error

    def release(self, player_id: str, ticket_id: str) -> None:
        """Drop the player's lock if it is still this ticket's."""
        try:
            self._client.delete_item(
                TableName=self._table,
                Key={"id": {"S": LOCK + player_id}},
                ConditionExpression="ticketId = :t",
                ExpressionAttributeValues={":t": {"S": ticket_id}},
            )
        except ClientError as error:
            if not _failed(error):
                raise busy(error) from error

    def _step(self, ticket_id: str, before: str, sets: dict[str, Any], remove: bool) -> bool:
        """Move a ticket on from ``before`` with ``sets``, dropping it from the queue when
        ``remove``; whether it was still ``before``."""
        names = {"#s": "status", **{f"#a{i}": k for i, k in enumerate(sets)}}
        values = serialize(
            {":before": before, **{f":a{i}": v for i, v in enumerate(sets.values())}}
        )
        expression = "SET " + ", ".join(f"#a{i} = :a{i}" for i in range(len(sets)))
        if remove:
            names["#q"] = "queue"
            expression += " REMOVE #q"
        try:
            self._client.update_item(
                TableName=self._table,
                Key={"id": {"S": TICKET + ticket_id}},
                UpdateExpression=expression,
                ConditionExpression="#s = :before",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
        except ClientError as error:
            if not _failed(error):
                raise busy(error) from error
            return False
        return True

    def cancel(self, ticket_id: str) -> bool:
        """A waiting ticket is cancelled; whether it was still waiting."""
        return self._step(ticket_id, "waiting", {"status": "cancelled"}, remove=True)

    def settle(self, ticket_id: str) -> bool:
        """A claimed ticket's table exists: it is matched; whether it was still seating."""
        return self._step(ticket_id, SEATING, {"status": "matched"}, remove=True)

    def claim(self, ticket_ids: list[str], plan: Plan) -> bool:
        """Every ticket of ``ticket_ids`` moves from waiting to seating with ``plan`` (its
        ``tableId`` too), all or none; whether they did (none: one was no longer waiting)."""
        values = serialize({":w": "waiting", ":s": SEATING, ":plan": plan, ":t": plan["tableId"]})
        items = [
            {"Update": {
                "TableName": self._table,
                "Key": {"id": {"S": TICKET + ticket_id}},
                "UpdateExpression": "SET #s = :s, #q = :s, #p = :plan, tableId = :t",
                "ConditionExpression": "#s = :w",
                "ExpressionAttributeNames": {"#s": "status", "#q": "queue", "#p": "plan"},
                "ExpressionAttributeValues": values,
            }}
            for ticket_id in ticket_ids
        ]  # fmt: skip
        try:
            self._client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if _failed(error) or _conflict(error):
                return False  # another matcher or a cancel came first: regrouped next pass
            raise busy(error) from error
        return True

    def _queue(self, queue: str, limit: int) -> list[Ticket]:
        query = {
            "TableName": self._table,
            "IndexName": QUEUE_INDEX,
            "KeyConditionExpression": "#q = :q",
            "ExpressionAttributeNames": {"#q": "queue"},
            "ExpressionAttributeValues": {":q": {"S": queue}},
            "Limit": limit,
        }
        try:
            found = query_items(self._client, query, most=limit)
        except ClientError as error:
            raise busy(error) from error
        return [from_item(deserialize(item)) for item in found[:limit]]

    def waiting(self, pool: str, limit: int = 1000) -> list[Ticket]:
        """The pool's waiting tickets, oldest first (the index: eventually consistent)."""
        return self._queue(pool, limit)

    def seating(self, limit: int = 100) -> list[Ticket]:
        """Claimed tickets whose table may not exist yet, oldest first."""
        return self._queue(SEATING, limit)


def pools_in(records: list[dict[str, Any]]) -> list[str]:
    """The queues new waiting tickets arrived in, from the match table's stream records."""
    found = set()
    for record in records:
        image = (record.get("dynamodb") or {}).get("NewImage") or {}
        queue = deserialize(image).get("queue") if "queue" in image else None
        if isinstance(queue, str) and queue != SEATING:
            found.add(queue)
    return sorted(found)


def _conflict(error: ClientError) -> bool:
    reasons = error.response.get("CancellationReasons") or []
    return any(r.get("Code") == "TransactionConflict" for r in reasons)


__all__ = ["SEATING", "MatchStore", "Plan", "Ticket", "from_item", "pool_of", "pools_in"]
