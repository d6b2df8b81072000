"""The use cases behind the inbox and notification routes (API.md v3, "Inbox and
notifications"): ``GET /players/me/tables``, push subscriptions, mobile devices."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from harftet.errors import BadRequestError, NotFoundError
from harftet.identity import Caller, Tokens
from harftet.inbox import PAGE, InboxStore, read_cursor, sign_cursor
from harftet.notify.deliver import MobilePush
from harftet.notify.targets import Resolver, TargetError, Targets, resolve_host


class Mail:
    """Inbox pages, push subscriptions and devices for the caller."""

    def __init__(
        self,
        inbox: InboxStore,
        targets: Targets,
        tokens: Tokens,
        *,
        mobile: MobilePush | None = None,
        public_key: Callable[[], str | None] = lambda: None,
        resolve: Resolver = resolve_host,
        local_prefix: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.inbox = inbox
        self.targets = targets
        self.tokens = tokens
        self.mobile = mobile
        self.public_key = public_key
        self.resolve = resolve
        self.local_prefix = local_prefix  # the local push receiver: test mode only
        self.clock = clock

    def tables(self, caller: Caller, cursor: str | None = None) -> dict[str, Any]:
        """One page of the caller's tables: their turn first, then the nearest deadline."""
        after = None
        if cursor is not None:
            try:
                after = read_cursor(self.tokens.mac, cursor, caller.player_id)
            except (ValueError, TypeError, UnicodeDecodeError) as error:
                raise BadRequestError(
                    "cursor is not one your inbox gave out: start from the first page"
                ) from error
        entries, last = self.inbox.page(caller.player_id, self.clock(), PAGE, after)
        waiting = sum(1 for e in entries if e["yourTurn"])
        return {
            "tables": entries,
            "cursor": sign_cursor(self.tokens.mac, last) if last else None,
            "yourTurn": waiting,
        }

    def subscribe(self, caller: Caller, body: Any, lang: str) -> dict[str, Any]:
        try:
            sub_id = self.targets.add_subscription(
                caller.player_id, body, lang=lang, resolve=self.resolve,
                local_prefix=self.local_prefix,
            )  # fmt: skip
        except TargetError as error:
            raise BadRequestError(str(error)) from error
        return {"id": sub_id, "publicKey": self.public_key()}

    def unsubscribe(self, caller: Caller, sub_id: str) -> None:
        if not self.targets.remove_subscription(caller.player_id, sub_id):
            raise NotFoundError(f"you have no push subscription {sub_id[:40]}")

    def add_device(self, caller: Caller, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict) or set(body) != {"platform", "token"}:
            raise BadRequestError('the body must be {"platform": "fcm"|"apns", "token": "..."}')
        mobile = self.mobile
        if mobile is None:
            raise BadRequestError("mobile notifications are not set up on this server")
        try:
            device_id = self.targets.add_device(
                caller.player_id, body["platform"], body["token"], mobile.create_endpoint
            )
        except TargetError as error:
            raise BadRequestError(str(error)) from error
        return {"id": device_id}

    def key(self) -> dict[str, Any]:
        """The VAPID public key browsers subscribe with (applicationServerKey)."""
        return {"publicKey": self.public_key()}
