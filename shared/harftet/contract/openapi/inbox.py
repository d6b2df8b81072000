"""The inbox (a player's tables, theirs to play first) and notifications: Web Push
subscriptions, phones (FCM, APNs) and the VAPID key."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from harftet.contract.openapi.route import CURSOR, PATH_PARAMETERS, Route
from harftet.contract.openapi.schemas import LogEvent


class InboxEntry(BaseModel):
    tableId: str
    game: Literal["harftet", "kastet"]
    pace: Literal["live", "correspondence"]
    status: Literal["waiting", "playing", "paused", "finished"]
    yourTurn: bool = Field(description="Sıra sende: the caller is to move")
    deadline: float | None = Field(description="the caller's turn deadline; null unless yourTurn")
    last: LogEvent | None = Field(description="the latest event at the table")
    players: list[str | None] = Field(description="names by seat, null where empty")
    deleted: list[int] = Field(
        default_factory=list,
        description="the seats (indexes into players) whose player was deleted: their stored "
        "name is the server's Turkish one; show the catalogue's player.deleted instead",
    )
    left: bool = Field(
        False,
        description="the caller left their seat during this game and sits at none now: the "
        "table goes on (or has ended) without them; never yourTurn",
    )
    closed: Literal["abandoned", "operator"] | None = Field(
        None,
        description='why a finished game ended early: "abandoned" (nobody was left to play it '
        'for), "operator" (closed by an operator); null otherwise',
    )


class Inbox(BaseModel):
    tables: list[InboxEntry] = Field(
        description="the caller's turn first, then the nearest deadline; then waiting tables, "
        "then recently finished ones"
    )
    cursor: str | None = Field(description="the next page's cursor; null on the last page")
    yourTurn: int = Field(description="how many tables on this page wait for the caller")


class PushSubscriptionKeys(BaseModel):
    model_config = {"extra": "forbid"}
    p256dh: str = Field(max_length=200, description="base64url, an uncompressed P-256 key")
    auth: str = Field(max_length=200, description="base64url, 16 bytes")


class QuietHours(BaseModel):
    model_config = {"extra": "forbid"}
    start: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    end: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")


class PushSubscriptionBody(BaseModel):
    """A browser's PushSubscription JSON (and, optionally, the player's notification
    language and quiet hours, Europe/Istanbul; default 23:00-08:00, null for none)."""

    model_config = {"extra": "forbid"}
    endpoint: str = Field(
        max_length=1024, description="https only, on a host with public addresses only"
    )
    expirationTime: float | None = None
    keys: PushSubscriptionKeys
    lang: Literal["tr", "en"] | None = Field(
        None, description="default: Accept-Language when sent, else Turkish"
    )
    quietHours: QuietHours | None = None


class Created(BaseModel):
    id: str
    publicKey: str | None = Field(None, description="the VAPID public key (applicationServerKey)")


class DeviceBody(BaseModel):
    """A phone's push token (and, optionally, the player's notification language and quiet
    hours, as with a browser's subscription; left out: kept as they are)."""

    model_config = {"extra": "forbid"}
    platform: Literal["fcm", "apns"]
    token: str = Field(max_length=4096, description="the FCM registration or APNs device token")
    lang: Literal["tr", "en"] | None = Field(None, description="left out: kept as it is")
    quietHours: QuietHours | None = Field(
        None, description="Europe/Istanbul; null for none; left out: kept as they are"
    )


class PushKey(BaseModel):
    publicKey: str | None = Field(
        description="the VAPID public key browsers subscribe with; null when Web Push is off"
    )


def routes() -> list[Route]:
    """The inbox's and the notifications' routes."""
    return [
        Route("get", "/players/me/tables",
              "Your tables (the inbox): yours to play first, then the nearest deadline",
              None, "200", Inbox, True, (CURSOR,)),
        Route("post", "/players/me/push-subscriptions",
              "Receive notifications in this browser (Web Push)", PushSubscriptionBody, "201",
              Created, True),
        Route("post", "/players/me/devices",
              "Receive notifications on this phone (FCM or APNs, through SNS)", DeviceBody,
              "201", Created, True),
        Route("get", "/push/key", "The VAPID public key for Web Push", None, "200", PushKey,
              False),
    ]  # fmt: skip


def unsubscribe(errors: dict[str, Any]) -> dict[str, Any]:
    """`DELETE /players/me/push-subscriptions/{id}`, with ``errors`` as its error answers."""
    return {
        "summary": "Stop notifications to that browser",
        "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": PATH_PARAMETERS["id"]}
        ],
        "security": [{"bearer": []}],
        "responses": {"204": {"description": "removed"}, **errors},
    }
