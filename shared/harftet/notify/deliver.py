"""The notifier: one queued notification to every browser and device of its player, at most
once each, in the player's language, outside their quiet hours (deadline reminders excepted).

Web Push goes through ``pywebpush`` (RFC 8030 delivery, RFC 8291 message encryption, RFC
8292 VAPID): a well-kept library, so no cryptography or protocol is written here. Every
endpoint is checked again before the call (a host may have been re-pointed since it was
stored): resolved, every address checked, and the call connects to a checked address only,
never following a redirect (`harftet.notify.pinned`). Mobile devices go through SNS platform
endpoints. A subscription the push service answers 404 or 410 (or an SNS endpoint that is
disabled) is removed; other failures raise, so that the queue retries the message with
backoff and, in the end, parks it in the dead-letter queue (alarmed).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from harftet.notify import Notification
from harftet.notify.targets import (
    DEFAULT_QUIET,
    Resolver,
    TargetError,
    checked_target,
    in_quiet_hours,
)
from harftet.notify.texts import render
from harftet.store.mail import DEVICE, PUSH, Device, Subscription
from harftet.store.ports import InboxStorePort, MailStorePort

logger = logging.getLogger(__name__)
PUSH_TTL_SECONDS = 24 * 3600  # how long a push service keeps a message for a sleeping device
MAX_DELAY = 900  # SQS


class RetryLater(Exception):
    """A delivery that failed for a reason that may pass (the queue retries it)."""


class Requeue(Protocol):
    def __call__(self, notification: Notification, delay: int) -> None: ...


@dataclass(eq=False)
class WebPush:
    """Sends one Web Push message with pywebpush; "sent", "gone" (404/410) or "refused"."""

    private_key: Callable[[], str]
    subject: str
    resolve: Resolver | None = None
    local_prefix: str | None = None

    def __call__(self, sub: Subscription, payload: dict[str, Any]) -> str:
        import requests
        from pywebpush import WebPushException, webpush

        from harftet.notify.pinned import pinned_session
        from harftet.notify.targets import resolve_host

        try:  # resolved now, every address checked: the call goes to a checked one only
            target = checked_target(sub.endpoint, self.resolve or resolve_host, self.local_prefix)
        except TargetError:
            return "gone"  # no longer a public address: never called, forgotten
        session = pinned_session({(target.host, target.port): target.addresses[0]})
        try:
            webpush(
                {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                data=json.dumps(payload, ensure_ascii=False),
                vapid_private_key=self.private_key(),
                vapid_claims={"sub": self.subject},
                ttl=PUSH_TTL_SECONDS,
                timeout=5,
                requests_session=session,
            )
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            if status in (404, 410):
                return "gone"
            if status is None or status == 429 or status >= 500:
                raise RetryLater(f"push service answered {status}") from error
            logger.warning("a push service refused a message", extra={"status": status})
            return "refused"
        except requests.RequestException as error:
            raise RetryLater(f"push service unreachable: {type(error).__name__}") from error
        return "sent"


APNS_PLATFORMS = ("APNS", "APNS_SANDBOX")  # production, development builds


class MobilePush:
    """SNS mobile push (platform endpoints for FCM and APNs; boto3 ``sns`` client). The APNs
    application's platform (``apns_platform``: APNS, or APNS_SANDBOX for development builds)
    is the key of a message's iOS part: SNS gives an endpoint only its platform's part (else
    the bare ``default`` text: no title, no payload to open the table with)."""

    def __init__(
        self, client: Any, applications: dict[str, str], *, apns_platform: str = "APNS_SANDBOX"
    ) -> None:
        if apns_platform not in APNS_PLATFORMS:
            raise ValueError(f"APNS_PLATFORM must be one of {APNS_PLATFORMS}: {apns_platform!r}")
        self._client = client
        self.applications = {k: v for k, v in applications.items() if v}
        self.apns_platform = apns_platform
        named = _platform_of(self.applications.get("apns", ""))
        if named in APNS_PLATFORMS and named != apns_platform:
            logger.error(
                "the APNs application is %s but ApnsPlatform says %s: iOS devices get the "
                "bare text only; deploy with ApnsPlatform=%s",
                named, apns_platform, named,
            )  # fmt: skip

    def create_endpoint(self, platform: str, token: str) -> str:
        arn = self.applications.get(platform)
        if arn is None:
            raise TargetError(f"{platform} notifications are not set up on this server")
        answer = self._client.create_platform_endpoint(PlatformApplicationArn=arn, Token=token)
        return str(answer["EndpointArn"])

    def delete_endpoint(self, endpoint_arn: str) -> None:
        """Delete a device's platform endpoint (its player is deleted): one that is gone
        already is no error (SNS answers success for an unknown endpoint)."""
        from botocore.exceptions import ClientError

        try:
            self._client.delete_endpoint(EndpointArn=endpoint_arn)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") not in ("NotFound", "InvalidParameter"):
                raise

    def __call__(self, device: Device, payload: dict[str, Any]) -> str:
        from botocore.exceptions import ClientError

        text = json.dumps(payload, ensure_ascii=False)
        notification = {"title": payload["title"], "body": payload["body"]}
        message = {
            "default": payload["body"],
            "GCM": json.dumps({"notification": notification, "data": {"payload": text}}),
            self.apns_platform: json.dumps({"aps": {"alert": notification}, "payload": text}),
        }
        try:
            self._client.publish(
                TargetArn=device.endpoint_arn,
                MessageStructure="json",
                Message=json.dumps(message, ensure_ascii=False),
            )
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code")
            if code in ("EndpointDisabled", "EndpointDisabledException", "NotFound"):
                return "gone"
            if code in ("InvalidParameter", "InvalidParameterException"):
                return "refused"
            raise RetryLater(f"SNS answered {code}") from error
        return "sent"


@dataclass(slots=True)
class Delivered:
    sent: int = 0
    gone: int = 0
    held: bool = False
    skipped: str | None = None
    failures: list[str] = field(default_factory=list)


@dataclass(eq=False)
class Notifier:
    """Delivers queued notifications (the notifier function, and the local stack)."""

    mail: MailStorePort
    inbox: InboxStorePort | None
    web: Callable[[Subscription, dict[str, Any]], str] | None
    mobile: MobilePush | None
    requeue: Requeue | None
    clock: Callable[[], float] = time.time
    names: Callable[[str], str | None] | None = None

    def deliver(self, n: Notification) -> Delivered:
        """Send ``n`` (RetryLater when some target must be tried again later)."""
        now = self.clock()
        out = Delivered()
        prefs = self.mail.prefs(n.player_id)
        lang, quiet = (prefs.lang, prefs.quiet) if prefs is not None else ("tr", DEFAULT_QUIET)
        if n.kind != "reminder":
            wait = in_quiet_hours(now, quiet)
            if wait > 0 and self.requeue is not None:
                self.requeue(n, int(min(MAX_DELAY, wait + 1)))
                out.held = True
                return out
        out.skipped = self._stale(n)
        if out.skipped is not None:
            return out
        payload = self._payload(n, lang)
        for kind, target_id, target, send in self._targets(n.player_id):
            self._send_once(n, kind, target_id, target, send, payload, now, out)
        if out.failures:
            raise RetryLater("; ".join(out.failures))
        return out

    def _payload(self, n: Notification, lang: str) -> dict[str, Any]:
        name = self.names(n.player_id) if self.names is not None else None
        return {
            **render(n.kind, n.data, name, lang),
            "kind": n.kind,
            "tableId": n.table_id,
            "url": f"/play/?table={n.table_id}",
            "tag": f"{n.table_id}:{n.kind}",
        }

    def _targets(self, player_id: str) -> list[tuple[str, str, Any, Callable[..., str] | None]]:
        """(kind, id, target, sender) of every browser and phone of the player."""
        found: list[tuple[str, str, Any, Callable[..., str] | None]] = [
            (PUSH, s.id, s, self.web) for s in self.mail.subscriptions(player_id)
        ]
        if self.mobile is not None:
            found += [(DEVICE, d.id, d, self.mobile) for d in self.mail.devices(player_id)]
        return found

    def _send_once(
        self,
        n: Notification,
        kind: str,
        target_id: str,
        target: Any,
        send: Callable[..., str] | None,
        payload: dict[str, Any],
        now: float,
        out: Delivered,
    ) -> None:
        """Send to one target, at most once (its claim); a gone one is forgotten."""
        if send is None:
            return
        key = f"{n.key}#{kind}{target_id}"
        if not self.mail.claim(n.player_id, key, now):
            return  # sent already (a retried or duplicated message)
        try:
            result = send(target, payload)
        except RetryLater as error:
            self.mail.release(n.player_id, key)
            out.failures.append(f"{kind}{target_id}: {error}")
            return
        except Exception:
            self.mail.release(n.player_id, key)
            raise
        if result == "gone":
            if kind == PUSH:
                self.mail.remove_subscription(n.player_id, target_id)
            else:
                self.mail.remove_device(n.player_id, target_id)
            out.gone += 1
        elif result == "sent":
            out.sent += 1
        self.mail.sent(n.player_id, key)

    def _stale(self, n: Notification) -> str | None:
        """Why ``n`` no longer needs saying (a held "your turn" the player has since played,
        a reminder for a turn that is over), or None."""
        if self.inbox is None or n.kind not in ("turn", "reminder"):
            return None
        item = self.inbox.get(n.player_id, n.table_id)
        if item is None:
            return "the table left the inbox"
        if not item.rank.startswith("0#"):
            return "no longer the player's turn"
        if n.kind == "reminder" and item.version != n.version:
            return "the turn is over"
        return None


def _platform_of(application_arn: str) -> str | None:
    """The platform an SNS platform application's ARN names (``...:app/APNS/name``)."""
    _, _, rest = application_arn.partition(":app/")
    return rest.split("/", 1)[0] if rest else None
