"""Where a player's notifications may go, checked: browsers' push subscriptions (RFC 8030),
mobile devices (SNS platform endpoints), and the player's preferences (language, quiet hours).
Stored in the mail table (`harftet.store.mail`). A subscription's endpoint is a URL the
server will call, so it is checked before it is stored and again at each call
(`checked_target`: the host resolved then, every address checked, and the call connects only
to a checked address: `harftet.notify.pinned`): ``https`` only on port 443, no credentials,
size limits on it and on the keys, and a host whose every address is public by what it *is*
(`harftet.notify.addresses`: any IPv4 spelling, IPv6 forms embedding an IPv4 address). The
local stack's own push receiver is allowed only in test mode, and only as one of its
subscriptions: its path is compared segment by segment after decoding.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC
from typing import Any
from urllib.parse import unquote, urlsplit

from harftet.store.mail import Prefs, Subscription

from .addresses import NotAnAddressError, embedded_ipv4, is_public, parse_host

MAX_ENDPOINT = 1024
MAX_SUBSCRIPTIONS = 10  # per player: browsers and devices a person actually uses
MAX_DEVICES = 10
Resolver = Callable[[str], list[str]]
HHMM = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
DEFAULT_QUIET = ("23:00", "08:00")
DEFAULT_ZONE = "Europe/Istanbul"
FCM_TOKEN = re.compile(r"[A-Za-z0-9_:\-.]{20,4096}")
APNS_TOKEN = re.compile(r"[0-9a-fA-F]{64,200}")
RECEIVER_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # one subscription of the local receiver


class TargetError(ValueError):
    """A subscription or device the server refuses (400 bad_request, with this message)."""


def resolve_host(host: str) -> list[str]:
    """Every address ``host`` resolves to (the system resolver)."""
    try:
        infos = socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise TargetError(f"the push endpoint's host {host} does not resolve") from error
    return sorted({str(info[4][0]) for info in infos})


@dataclass(frozen=True, slots=True)
class Target:
    """Where a checked endpoint's request goes: its host and port as the URL names them, and
    the addresses the host had when it was checked (the only ones a call may connect to)."""

    host: str
    port: int
    addresses: tuple[str, ...]


def _path_segments(path: str) -> list[str] | None:
    """A URL path's segments, percent-decoded; None when one is empty, ``.`` or ``..`` (a
    path that climbs, however it is escaped, is nobody's endpoint)."""
    segments = unquote(path).removeprefix("/").split("/")
    if any(s in ("", ".", "..") for s in segments):
        return None
    return segments


def is_local_receiver(endpoint: str, local_prefix: str | None) -> bool:
    """Whether ``endpoint`` names one subscription of the local stack's own push receiver
    (``local_prefix``): the same scheme, host and port, no credentials, query or fragment, and
    a path that is the prefix's segments and one id, compared after decoding."""
    if not local_prefix or "\\" in endpoint:
        return False
    try:
        got, want = urlsplit(endpoint), urlsplit(local_prefix)
        ports = got.port, want.port
    except ValueError:
        return False
    if (got.scheme, got.hostname, ports[0]) != (want.scheme, want.hostname, ports[1]):
        return False
    if got.username is not None or got.password is not None or got.query or got.fragment:
        return False
    segments = _path_segments(got.path)
    prefix = _path_segments(want.path.rstrip("/"))
    return (
        segments is not None
        and segments[:-1] == prefix
        and RECEIVER_ID.fullmatch(segments[-1]) is not None
    )


def checked_target(
    endpoint: str, resolve: Resolver = resolve_host, local_prefix: str | None = None
) -> Target:
    """Where ``endpoint`` may be called, its host resolved now and every address checked;
    TargetError saying why not (OWASP SSRF: decide by the address, resolve, check all)."""
    if not isinstance(endpoint, str) or not endpoint:
        raise TargetError("endpoint must be the push service's URL")
    if len(endpoint) > MAX_ENDPOINT:
        raise TargetError(f"endpoint is longer than {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError as error:
        raise TargetError("endpoint is not a valid URL") from error
    host = parts.hostname
    if is_local_receiver(endpoint, local_prefix) and host:
        local = parse_host(host)  # the local stack's own receiver, in test mode only
        addresses = [str(local)] if local is not None else resolve(host)
        return Target(host, port or 80, tuple(addresses))
    if parts.scheme != "https":
        raise TargetError("endpoint must be an https URL")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise TargetError("endpoint must not carry credentials")
    if not host:
        raise TargetError("endpoint has no host")
    if port not in (None, 443):
        raise TargetError("endpoint must use the https port 443")
    return Target(host, 443, tuple(_public_addresses(host, resolve)))


def _public_addresses(host: str, resolve: Resolver) -> list[str]:
    """Every address ``host`` stands for, each a public one; TargetError naming one that is
    not (or the IPv4 address it embeds)."""
    try:
        literal = parse_host(host)
    except NotAnAddressError as error:
        raise TargetError(f"the push endpoint's host is not valid: {error}") from error
    addresses = [str(literal)] if literal is not None else resolve(host)
    if not addresses:
        raise TargetError(f"the push endpoint's host {host} does not resolve")
    for address in addresses:
        try:
            public = is_public(address)
        except ValueError:
            public = False
        if not public:
            inside = ", ".join(str(v4) for v4 in _embedded(address))
            raise TargetError(
                f"the push endpoint's host {host} resolves to {address}"
                + (f" (which carries {inside})" if inside else "")
                + ", which is not a public address"
            )
    return addresses


def _embedded(address: str) -> list[Any]:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return []
    return embedded_ipv4(ip) if isinstance(ip, ipaddress.IPv6Address) else []


def check_endpoint(
    endpoint: str, resolve: Resolver = resolve_host, local_prefix: str | None = None
) -> str:
    """``endpoint`` if the server may call it; TargetError saying why not."""
    checked_target(endpoint, resolve, local_prefix)
    return endpoint


def _key(value: Any, name: str, sizes: tuple[int, ...]) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise TargetError(f"keys.{name} must be a base64url string")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as error:
        raise TargetError(f"keys.{name} is not base64url") from error
    if len(raw) not in sizes:
        raise TargetError(f"keys.{name} must decode to {' or '.join(map(str, sizes))} bytes")
    if name == "p256dh" and raw[0] != 4:
        raise TargetError("keys.p256dh must be an uncompressed P-256 public key")
    return value


def check_quiet(value: Any) -> tuple[str, str] | None:
    """Quiet hours ``{"start": "HH:MM", "end": "HH:MM"}`` (null: none)."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"start", "end"}:
        raise TargetError('quietHours must be {"start": "HH:MM", "end": "HH:MM"} or null')
    start, end = value["start"], value["end"]
    if not all(isinstance(v, str) and HHMM.fullmatch(v) for v in (start, end)):
        raise TargetError("quietHours start and end must be times as HH:MM (00:00-23:59)")
    return str(start), str(end)


def subscription_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()[:20]


def in_quiet_hours(now: float, quiet: tuple[str, str] | None, zone: str = DEFAULT_ZONE) -> float:
    """Seconds until the quiet hours that ``now`` falls in end; 0 outside them."""
    if quiet is None or quiet[0] == quiet[1]:
        return 0.0
    offset = _offset(now, zone)
    local = (now + offset) % 86400
    start, end = (int(t[:2]) * 3600 + int(t[3:]) * 60 for t in quiet)
    inside = start <= local < end if start < end else (local >= start or local < end)
    if not inside:
        return 0.0
    return float((end - local) % 86400)


def _offset(now: float, zone: str) -> float:
    try:
        from datetime import datetime
        from zoneinfo import ZoneInfo

        delta = datetime.fromtimestamp(now, UTC).astimezone(ZoneInfo(zone)).utcoffset()
        return delta.total_seconds() if delta is not None else 0.0
    except Exception:  # no tz database (some Lambda images): Türkiye is UTC+3 all year
        return 3 * 3600.0


def parse_subscription(
    body: Any, lang: str, resolve: Resolver = resolve_host, local_prefix: str | None = None
) -> tuple[Subscription, Prefs]:
    """A browser's PushSubscription JSON, checked, and the preferences it carries; TargetError
    saying what is wrong."""
    if not isinstance(body, dict):
        raise TargetError("the body must be a PushSubscription JSON object")
    allowed = {"endpoint", "expirationTime", "keys", "lang", "quietHours"}
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise TargetError(f"unknown field {unknown[0]}")
    endpoint = check_endpoint(body.get("endpoint"), resolve, local_prefix)  # type: ignore[arg-type]
    keys = body.get("keys")
    if not isinstance(keys, dict) or set(keys) != {"p256dh", "auth"}:
        raise TargetError("keys must hold exactly p256dh and auth")
    p256dh = _key(keys["p256dh"], "p256dh", (65,))
    auth = _key(keys["auth"], "auth", (16,))
    expiration = body.get("expirationTime")
    if expiration is not None and (
        isinstance(expiration, bool) or not isinstance(expiration, int | float)
    ):
        raise TargetError("expirationTime must be a number or null")
    chosen = body.get("lang", lang)
    if chosen not in ("tr", "en"):
        raise TargetError('lang must be "tr" or "en"')
    quiet = check_quiet(body["quietHours"]) if "quietHours" in body else DEFAULT_QUIET
    sub = Subscription(subscription_id(endpoint), endpoint, p256dh, auth)
    return sub, Prefs(chosen, quiet)


def device_id(platform: Any, token: Any) -> str:
    """The id of a device token (the same for the same token), checked; TargetError else."""
    if platform not in ("fcm", "apns"):
        raise TargetError('platform must be "fcm" or "apns"')
    pattern = FCM_TOKEN if platform == "fcm" else APNS_TOKEN
    if not isinstance(token, str) or not pattern.fullmatch(token):
        what = "an FCM registration token" if platform == "fcm" else "an APNs device token (hex)"
        raise TargetError(f"token must be {what}")
    return hashlib.sha256(f"{platform}:{token}".encode()).hexdigest()[:20]


def valid_subscription_id(sub_id: str) -> bool:
    """Whether ``sub_id`` is the shape of a subscription's id."""
    return re.fullmatch(r"[0-9a-f]{20}", sub_id) is not None
