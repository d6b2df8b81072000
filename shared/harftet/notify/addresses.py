"""What a host in a URL the server will call *is*, whatever its spelling.

A client hands us push endpoints: URLs our notifier calls. Whether that call may leave
depends on the address it reaches, never on how the host was written (OWASP's SSRF
guidance). So a host is first read as the address it denotes — an IPv4 address in any of the
forms the C resolver takes (``2130706433``, ``0x7f.1``, ``0177.0.0.01``, ``127.1``), an IPv6
literal with or without a zone — and an address is public only when it and every IPv4 address
embedded in it (IPv4-mapped, -compatible and -translated, NAT64, 6to4, Teredo, ISATAP) are
globally reachable unicast addresses. The special-purpose ranges are listed here as IANA
lists them, not left to the running Python's ``is_global`` (which has changed between patch
releases).
"""

from __future__ import annotations

import ipaddress
import re

IP = ipaddress.IPv4Address | ipaddress.IPv6Address

# IANA's IPv4 special-purpose registry: nothing here is a push service.
NOT_GLOBAL_V4 = tuple(
    ipaddress.IPv4Network(n)
    for n in (
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
        "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24",
        "192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15",
        "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
    )
)  # fmt: skip
# IANA's IPv6 special-purpose registry, and what is not global unicast at all.
NOT_GLOBAL_V6 = tuple(
    ipaddress.IPv6Network(n)
    for n in (
        "::/8",  # unspecified, loopback, IPv4-compatible, -mapped and -translated, NAT64
        "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16",
        "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    )
)  # fmt: skip
GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")  # every other block is not unicast on the net
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the IPv4 address in the low 32 bits
LOW32 = 0xFFFFFFFF
ISATAP_IDS = (0x00005EFE, 0x02005EFE)  # RFC 5214: the interface id names the IPv4 address
# One part of a numeric IPv4 host as inet_aton reads it: hex, octal or decimal.
_PART = r"(?:0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*)"
_NUMERIC = re.compile(rf"{_PART}(?:\.{_PART}){{0,3}}\.?")
_NAME = re.compile(r"(?=.{1,253}\.?$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_-]+\.?")


class NotAnAddressError(ValueError):
    """A host that is neither an address in any spelling nor a plain DNS name."""


def bsd_ipv4(text: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address ``text`` denotes in the forms inet_aton takes (1 to 4 parts, each
    decimal, 0-octal or 0x-hex, the last filling the remaining bytes); None when it is not
    numeric. A numeric host out of range is no address at all (NotAnAddressError)."""
    if not _NUMERIC.fullmatch(text):
        return None
    parts = [int(p, 0) if p[:2].lower() != "0x" else int(p[2:] or "0", 16) for p in _split(text)]
    *leading, last = parts
    if any(p > 0xFF for p in leading) or last >= 1 << (8 * (4 - len(leading))):
        raise NotAnAddressError(f"{text} is not an IPv4 address")
    value = last
    for i, part in enumerate(leading):
        value |= part << (8 * (3 - i))
    return ipaddress.IPv4Address(value)


def _split(text: str) -> list[str]:
    parts = text.rstrip(".").split(".")
    # inet_aton reads "010" as octal 8, "0" as 0: int(x, 0) refuses leading zeros, so octal
    # parts are read by hand.
    return [str(int(p, 8)) if len(p) > 1 and p[0] == "0" and p[1] not in "xX" else p for p in parts]


def parse_host(host: str) -> IP | None:
    """The address a URL's host denotes (any IPv4 spelling, an IPv6 literal with or without
    its zone), or None for a DNS name; NotAnAddressError for anything else (non-ASCII,
    percent-escapes, a numeric name that is no address)."""
    if not host or not host.isascii():
        raise NotAnAddressError("the host must be an address or an ASCII (IDNA) name")
    host = host.lower()
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError as error:
            raise NotAnAddressError(f"{host} is not an IPv6 address") from error
    found = bsd_ipv4(host)
    if found is not None:
        return found
    if not _NAME.fullmatch(host) or host.rstrip(".").rsplit(".", 1)[-1].isdigit():
        raise NotAnAddressError(f"{host} is not a host name")
    return None


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address an IPv6 address carries for a translator or a tunnel to reach."""
    value = int(ip)
    found: list[ipaddress.IPv4Address] = []
    if value >> 32 in (0, 0xFFFF, 0xFFFF0000) or ip in NAT64:  # compatible, mapped, SIIT, NAT64
        found.append(ipaddress.IPv4Address(value & LOW32))
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)  # the server and the (obfuscated) client
    if (value >> 32) & LOW32 in ISATAP_IDS:
        found.append(ipaddress.IPv4Address(value & LOW32))
    return found


def is_public(address: str | IP) -> bool:
    """Whether ``address`` (text or parsed; an IPv6 zone is ignored) is a globally reachable
    unicast address, and so is every IPv4 address embedded in it."""
    ip = address if not isinstance(address, str) else ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv4Address):
        return _is_public_v4(ip)
    if ip not in GLOBAL_UNICAST_V6 or any(ip in net for net in NOT_GLOBAL_V6):
        return False
    return all(_is_public_v4(v4) for v4 in embedded_ipv4(ip))


def _is_public_v4(ip: ipaddress.IPv4Address) -> bool:
    return ip.is_global and not any(ip in net for net in NOT_GLOBAL_V4)
