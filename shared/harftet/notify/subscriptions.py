"""The use cases behind the notification routes (API.md v3, "Inbox and notifications"): a
browser's push subscription, a phone's device token, and the VAPID key browsers subscribe
with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any

from harftet.errors import BadRequestError, NotFoundError
from harftet.identity import Caller
from harftet.store.mail import DEVICE, PUSH, Device, Prefs
from harftet.store.ports import MailStorePort

from .deliver import MobilePush
from .targets import (
    DEFAULT_QUIET,
    MAX_DEVICES,
    MAX_SUBSCRIPTIONS,
    Resolver,
    TargetError,
    check_quiet,
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
        """Register a phone's token with SNS and keep it; ``lang`` and ``quietHours``, when
        sent, are the player's notification settings, as a browser's subscription sets them
        (a phone-only player had no way to choose them)."""
        if not isinstance(body, dict) or not {"platform", "token"} <= set(body) <= {
            "platform",
            "token",
            "lang",
            "quietHours",
        }:
            raise BadRequestError(
                'the body must be {"platform": "fcm"|"apns", "token": "..."} with, optionally, '
                '"lang" and "quietHours"'
            )
        mobile = self.mobile
        if mobile is None:
            raise BadRequestError("mobile notifications are not set up on this server")
        try:
            prefs = self._device_prefs(caller.player_id, body)
            found = device_id(body["platform"], body["token"])
            player = caller.player_id
            new = not self.mail.has(player, DEVICE, found)
            if new and self.mail.count(player, DEVICE) >= MAX_DEVICES:
                raise TargetError(f"at most {MAX_DEVICES} devices per player")
            arn = mobile.create_endpoint(body["platform"], body["token"])
        except TargetError as error:
            raise BadRequestError(str(error)) from error
        self.mail.put_device(player, Device(found, body["platform"], arn), self.clock())
        if prefs is not None:
            self.mail.set_prefs(player, prefs)
        return {"id": found}

    def _device_prefs(self, player_id: str, body: dict[str, Any]) -> Prefs | None:
        """The settings a device's body changes (None: it sends none; what it leaves out stays
        as it was); TargetError saying what is wrong."""
        if "lang" not in body and "quietHours" not in body:
            return None
        kept = self.mail.prefs(player_id) or Prefs("tr", DEFAULT_QUIET)
        lang = kept.lang if body.get("lang") is None else body["lang"]  # null: kept too
        if lang not in ("tr", "en"):
            raise TargetError('lang must be "tr" or "en"')
        quiet = check_quiet(body["quietHours"]) if "quietHours" in body else kept.quiet
        return Prefs(lang, quiet)

    def key(self) -> dict[str, Any]:
        """The VAPID public key browsers subscribe with (applicationServerKey)."""
        return {"publicKey": self.public_key()}
