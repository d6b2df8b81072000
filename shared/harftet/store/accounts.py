"""What makes a guest an account, in the players table (harftet.accounts).

Key layout (the players table's one key, ``playerId``):

* ``<player id>`` — the player's own item (``harftet.store.players``) also holds
  ``passkeys`` (a map: credential id, base64url → public key, sign count, dates),
  ``sessions`` (a map: session id → refresh generation, dates, the passkey it came from),
  ``tables`` (a string set: every table the player sat at, so a deletion finds them),
  ``transferCode`` (the one code out, so a deletion or a new code drops it) and ``acct``
  (a counter every change of ``passkeys``/``sessions`` checks and bumps: optimistic locking).
* ``challenge#<id>`` — a WebAuthn challenge, single use (taken by a delete), with ``expiresAt``.
* ``transfer#<code>`` — a transfer code, single use (taken by a delete), with ``expiresAt``.
* ``friendcode#<code>`` — the player of a friend code (``owner``), kept while the player is.
* Friends, requests and blocks are maps on the player item (harftet.friends).

``expiresAt`` is the table's TTL attribute (template.yaml); it never sits on a player item.
Expired items may linger until DynamoDB's TTL removes them, so every read checks it too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from boto3.dynamodb.types import Binary
from botocore.exceptions import ClientError

from harftet.errors import BusyError

from .errors import NoAccountError
from .items import deserialize, serialize

CHALLENGE = "challenge#"
TRANSFER = "transfer#"
FRIEND_CODE = "friendcode#"  # → the player of a friend code (harftet.friends)
# Prefixes no player id (32 hex digits) can have; other features keep their own (push#...).
SECRET_PREFIXES = (CHALLENGE, TRANSFER, FRIEND_CODE)
SAVE_TRIES = 5


def plain(value: Any) -> Any:
    """DynamoDB's Binary and Decimal as bytes and int/float, all the way down."""
    if isinstance(value, Binary):
        return value.__bytes__()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, set):
        return sorted(plain(v) for v in value)
    if hasattr(value, "as_integer_ratio") and not isinstance(value, bool | int | float):
        return int(value) if value == int(value) else float(value)
    return value


def _failed_condition(error: ClientError) -> bool:
    return error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


class _Saving(Protocol):
    def account(self, player_id: str) -> dict[str, Any]: ...

    def save(self, read: dict[str, Any], **values: Any) -> bool: ...


def changed(
    store: _Saving,
    player_id: str,
    change: Callable[[dict[str, Any]], dict[str, Any]],
    tries: int = SAVE_TRIES,
) -> dict[str, Any]:
    """An account's read-change-write over ``store``'s ``account`` and conditional ``save``
    (an empty answer of ``change`` writes nothing), retried from a fresh read: the account as
    read; NoAccountError when there is none, BusyError when it changed under every try."""
    for _ in range(tries):
        account = store.account(player_id)
        values = change(account)
        if not values or store.save(account, **values):
            return account
    raise BusyError("your account is changing too often at once: try again")


class AccountStore:
    """Passkeys, sessions, challenges and transfer codes of the players table."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._name = table_name

    # -- single-use secrets: challenges and transfer codes ------------------------------
    def put_once(self, key: str, values: dict[str, Any], expires_at: int) -> bool:
        """Store a new single-use item; False if ``key`` is taken (pick another)."""
        assert key.startswith(SECRET_PREFIXES)
        try:
            self._client.put_item(
                TableName=self._name,
                Item=serialize({**values, "playerId": key, "expiresAt": int(expires_at)}),
                ConditionExpression="attribute_not_exists(playerId)",
            )
        except ClientError as error:
            if _failed_condition(error):
                return False
            raise
        return True

    def take(self, key: str, now: float) -> dict[str, Any] | None:
        """Remove a single-use item and return it (None if unknown, used or expired): of
        two requests racing for it, only one gets it."""
        assert key.startswith(SECRET_PREFIXES)
        answer = self._client.delete_item(
            TableName=self._name, Key={"playerId": {"S": key}}, ReturnValues="ALL_OLD"
        )
        item = answer.get("Attributes")
        if not item:
            return None
        found: dict[str, Any] = plain(deserialize(item))
        if int(found.get("expiresAt", 0)) <= now:
            return None
        return found

    def get_secret(self, key: str) -> dict[str, Any] | None:
        """A lookup item (e.g. a friend code), left in place; None if there is none."""
        assert key.startswith(SECRET_PREFIXES)
        answer = self._client.get_item(
            TableName=self._name, Key={"playerId": {"S": key}}, ConsistentRead=True
        )
        item = answer.get("Item")
        return plain(deserialize(item)) if item else None

    def drop(self, key: str) -> None:
        assert key.startswith(SECRET_PREFIXES)
        self._client.delete_item(TableName=self._name, Key={"playerId": {"S": key}})

    # -- the player's item --------------------------------------------------------------
    def account(self, player_id: str) -> dict[str, Any]:
        """The player's item with plain values; NotFoundError if there is none."""
        if not 0 < len(player_id) <= 64 or player_id.startswith(SECRET_PREFIXES):
            raise NoAccountError("no such player")
        answer = self._client.get_item(
            TableName=self._name, Key={"playerId": {"S": player_id}}, ConsistentRead=True
        )
        item = answer.get("Item")
        if item is None:
            raise NoAccountError("no such player")
        found: dict[str, Any] = plain(deserialize(item))
        return found

    def save(self, read: dict[str, Any], **values: Any) -> bool:
        """Write ``values`` (e.g. ``passkeys``, ``sessions``) onto the player item read as
        ``read``; False (nothing written) if the account changed since, or is gone."""
        old = int(read.get("acct", 0))
        names = {f"#{k}": k for k in values}
        given = {f":{k}": v for k, v in values.items()}
        sets = [f"#{k} = :{k}" for k in values]
        try:
            self._client.update_item(
                TableName=self._name,
                Key={"playerId": {"S": read["playerId"]}},
                UpdateExpression="SET " + ", ".join([*sets, "acct = :new"]),
                ConditionExpression="attribute_exists(playerId) AND "
                + ("acct = :old" if "acct" in read else "attribute_not_exists(acct)"),
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=serialize(
                    {**given, ":new": old + 1, **({":old": old} if "acct" in read else {})}
                ),
            )
        except ClientError as error:
            if _failed_condition(error):
                return False
            raise
        return True

    change = changed  # read, change, write if nobody wrote meanwhile; retried

    def remember_table(self, player_id: str, table_id: str) -> None:
        """Note that the player sat at ``table_id`` (found again when they delete themselves)."""
        try:
            self._client.update_item(
                TableName=self._name,
                Key={"playerId": {"S": player_id}},
                UpdateExpression="ADD #t :t",
                ConditionExpression="attribute_exists(playerId)",
                ExpressionAttributeNames={"#t": "tables"},
                ExpressionAttributeValues={":t": {"SS": [table_id]}},
            )
        except ClientError as error:
            if not _failed_condition(error):
                raise

    def delete(self, player_id: str) -> None:
        """The player's item, gone (name, rating, passkeys, sessions: everything)."""
        self._client.delete_item(TableName=self._name, Key={"playerId": {"S": player_id}})
