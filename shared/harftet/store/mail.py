"""The mail table's other items of a player (`harftet.notify` decides what they hold): Web Push
subscriptions (``push#<id>``), mobile devices (``device#<id>``), notification preferences
(``prefs``) and the marks that make a notification at-most-once (``sent#<key>``, with TTL)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError

PUSH = "push#"
DEVICE = "device#"
SENT = "sent#"
PREFS = "prefs"
SENT_KEPT_SECONDS = 7 * 86400


@dataclass(frozen=True, slots=True)
class Subscription:
    """A browser's Web Push subscription."""

    id: str
    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True, slots=True)
class Device:
    """A phone registered with SNS mobile push."""

    id: str
    platform: str
    endpoint_arn: str


@dataclass(frozen=True, slots=True)
class Prefs:
    """A player's notification language and quiet hours (None: never quiet)."""

    lang: str
    quiet: tuple[str, str] | None


class MailStore:
    """Subscriptions, devices, preferences and sent marks (a boto3 DynamoDB client)."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._name = table_name

    def _key(self, player_id: str, sk: str) -> dict[str, Any]:
        return {"playerId": {"S": player_id}, "sk": {"S": sk}}

    def count(self, player_id: str, prefix: str) -> int:
        """How many items of ``prefix`` (PUSH, DEVICE) the player has."""
        answer = self._client.query(
            TableName=self._name,
            KeyConditionExpression="playerId = :p AND begins_with(sk, :k)",
            ExpressionAttributeValues={":p": {"S": player_id}, ":k": {"S": prefix}},
            Select="COUNT",
        )
        return int(answer.get("Count", 0))

    def has(self, player_id: str, prefix: str, item_id: str) -> bool:
        """Whether the player has the item ``prefix + item_id``."""
        key = self._key(player_id, prefix + item_id)
        return self._client.get_item(TableName=self._name, Key=key).get("Item") is not None

    def _put(self, player_id: str, sk: str, strings: dict[str, str], now: float) -> None:
        """A subscription or a device: its ``strings`` and when it was made."""
        item = {k: {"S": v} for k, v in strings.items()}
        self._client.put_item(
            TableName=self._name,
            Item={**self._key(player_id, sk), **item, "createdAt": {"N": str(int(now))}},
        )

    def _rows(self, player_id: str, prefix: str, names: tuple[str, ...]) -> list[list[str]]:
        """Each of the player's items of ``prefix``: its id, then its strings ``names``."""
        answer = self._client.query(
            TableName=self._name,
            KeyConditionExpression="playerId = :p AND begins_with(sk, :k)",
            ExpressionAttributeValues={":p": {"S": player_id}, ":k": {"S": prefix}},
        )
        return [
            [item["sk"]["S"].removeprefix(prefix), *(item[name]["S"] for name in names)]
            for item in answer.get("Items", [])
        ]

    # -- web push ---------------------------------------------------------------------
    def put_subscription(self, player_id: str, sub: Subscription, now: float) -> None:
        strings = {"endpoint": sub.endpoint, "p256dh": sub.p256dh, "auth": sub.auth}
        self._put(player_id, PUSH + sub.id, strings, now)

    def remove_subscription(self, player_id: str, sub_id: str) -> bool:
        """Delete one of the player's subscriptions; False when they had none by that id."""
        answer = self._client.delete_item(
            TableName=self._name, Key=self._key(player_id, PUSH + sub_id), ReturnValues="ALL_OLD"
        )
        return bool(answer.get("Attributes"))

    def subscriptions(self, player_id: str) -> list[Subscription]:
        rows = self._rows(player_id, PUSH, ("endpoint", "p256dh", "auth"))
        return [Subscription(*row) for row in rows]

    # -- mobile devices ---------------------------------------------------------------
    def put_device(self, player_id: str, device: Device, now: float) -> None:
        strings = {"platform": device.platform, "endpointArn": device.endpoint_arn}
        self._put(player_id, DEVICE + device.id, strings, now)

    def devices(self, player_id: str) -> list[Device]:
        return [Device(*row) for row in self._rows(player_id, DEVICE, ("platform", "endpointArn"))]

    def remove_device(self, player_id: str, device_id: str) -> None:
        self._client.delete_item(TableName=self._name, Key=self._key(player_id, DEVICE + device_id))

    # -- preferences ------------------------------------------------------------------
    def set_prefs(self, player_id: str, prefs: Prefs) -> None:
        item: dict[str, Any] = {**self._key(player_id, PREFS), "lang": {"S": prefs.lang}}
        if prefs.quiet is not None:
            item["quietStart"] = {"S": prefs.quiet[0]}
            item["quietEnd"] = {"S": prefs.quiet[1]}
        else:
            item["quietOff"] = {"BOOL": True}
        self._client.put_item(TableName=self._name, Item=item)

    def prefs(self, player_id: str) -> Prefs | None:
        """The player's preferences (None: never set)."""
        item = self._client.get_item(TableName=self._name, Key=self._key(player_id, PREFS)).get(
            "Item"
        )
        if item is None:
            return None
        if item.get("quietOff"):
            return Prefs(item["lang"]["S"], None)
        return Prefs(item["lang"]["S"], (item["quietStart"]["S"], item["quietEnd"]["S"]))

    # -- at most once -----------------------------------------------------------------
    def claim(self, player_id: str, key: str, now: float, stale: float = 120.0) -> bool:
        """Claim the sending of ``key`` (a notification to one target): False when it was
        sent, or another delivery holds a fresh claim on it."""
        try:
            self._client.put_item(
                TableName=self._name,
                Item={
                    **self._key(player_id, SENT + key),
                    "state": {"S": "claimed"},
                    "at": {"N": str(int(now))},
                    "expiresAt": {"N": str(int(now + SENT_KEPT_SECONDS))},
                },
                ConditionExpression="attribute_not_exists(sk) OR (#s = :c AND #a < :stale)",
                ExpressionAttributeNames={"#s": "state", "#a": "at"},
                ExpressionAttributeValues={
                    ":c": {"S": "claimed"},
                    ":stale": {"N": str(int(now - stale))},
                },
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def sent(self, player_id: str, key: str) -> None:
        """Mark a claimed notification as sent (a claim that is gone — its player deleted,
        its TTL passed — is not made again: a mark without ``expiresAt`` would stay forever)."""
        try:
            self._client.update_item(
                TableName=self._name,
                Key=self._key(player_id, SENT + key),
                UpdateExpression="SET #s = :sent",
                ConditionExpression="attribute_exists(sk)",
                ExpressionAttributeNames={"#s": "state"},
                ExpressionAttributeValues={":sent": {"S": "sent"}},
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                raise

    def release(self, player_id: str, key: str) -> None:
        """Give a claim back (the delivery failed and will be retried)."""
        self._client.delete_item(TableName=self._name, Key=self._key(player_id, SENT + key))
