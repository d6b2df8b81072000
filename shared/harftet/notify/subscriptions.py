"""The use cases behind the notification routes (API.md v3, "Inbox and notifications"): a
browser's push subscription, a phone's device token, and the VAPID key browsers subscribe
with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any

from harftet.errors import BadRequestError, NotFoundError
from harftet.identity import Caller
from harftet.store.mail import DEVICE, PUSH, Device
from harftet.store.ports import MailStorePort

from .deliver import MobilePush
from .targets import (
    MAX_DEVICES,
    MAX_SUBSCRIPTIONS,
    Resolver,
    TargetError,
    device_id,
    parse_subscription,
    resolve_host,
    valid_subscription_id,
)


@dataclass(eq=False)
class Subscriptions:
    """Push subscriptions and devices for the caller."""

    mail: MailStorePort
    clock: Callable[[], float]
    _: KW_ONLY
    mobile: MobilePush | None = None
    public_key: Callable[[], str | None] = lambda: None
    resolve: Resolver = resolve_host
    local_prefix: str | None = None  # the local push receiver: test mode only

    def subscribe(self, caller: Caller, body: Any, lang: str) -> dict[str, Any]:
        """Keep a browser's push subscription (the same endpoint: the same id)."""
        try:
            sub, prefs = parse_subscription(body, lang, self.resolve, self.local_prefix)
        except TargetError as error:
            raise BadRequestError(str(error)) from error
        player = caller.player_id
        new = not self.mail.has(player, PUSH, sub.id)
        if new and self.mail.count(player, PUSH) >= MAX_SUBSCRIPTIONS:
            raise BadRequestError(f"at most {MAX_SUBSCRIPTIONS} push subscriptions per player")
        self.mail.put_subscription(player, sub, self.clock())
        self.mail.set_prefs(player, prefs)
        return {"id": sub.id, "publicKey": self.public_key()}

    def unsubscribe(self, caller: Caller, sub_id: str) -> None:
        """Forget one of the caller's push subscriptions."""
        if not valid_subscription_id(sub_id) or not self.mail.remove_subscription(
            caller.player_id, sub_id
        ):
            raise NotFoundError(f"you have no push subscription {sub_id[:40]}")

    def add_device(self, caller: Caller, body: Any) -> dict[str, Any]:
        """Register a phone's token with SNS and keep it."""
        if not isinstance(body, dict) or set(body) != {"platform", "token"}:
            raise BadRequestError('the body must be {"platform": "fcm"|"apns", "token": "..."}')
        mobile = self.mobile
        if mobile is None:
            raise BadRequestError("mobile notifications are not set up on this server")
        try:
            found = device_id(body["platform"], body["token"])
            player = caller.player_id
            new = not self.mail.has(player, DEVICE, found)
            if new and self.mail.count(player, DEVICE) >= MAX_DEVICES:
                raise TargetError(f"at most {MAX_DEVICES} devices per player")
            arn = mobile.create_endpoint(body["platform"], body["token"])
        except TargetError as error:
            raise BadRequestError(str(error)) from error
        self.mail.put_device(player, Device(found, body["platform"], arn), self.clock())
        return {"id": found}

    def key(self) -> dict[str, Any]:
        """The VAPID public key browsers subscribe with (applicationServerKey)."""
        return {"publicKey": self.public_key()}
