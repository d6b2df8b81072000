"""Push endpoints are URLs the server calls: no spelling of an internal address gets through
(issue #35, finding 3), neither when a subscription is stored nor when a notification is sent
(the host resolved again, every address checked, the connection made to the checked address,
no redirect followed), and the local push receiver cannot be left by its path (finding 6).

`INTERNAL` is the table of forms: IPv4 spellings (decimal, octal, hex, short), IPv6 forms that
embed an internal IPv4 address (mapped, compatible, translated, NAT64, 6to4, Teredo, ISATAP),
IPv6's own internal ranges, DNS names a resolver we control points inside, and URL tricks."""

from __future__ import annotations

import http.server
import ipaddress
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from harftet.errors import BadRequestError
from harftet.identity import Caller
from harftet.notify.deliver import RetryLater, WebPush
from harftet.notify.subscriptions import Subscriptions
from harftet.notify.targets import TargetError, check_endpoint, is_local_receiver
from harftet.notify.vapid import generate
from harftet.store.mail import Subscription

PUBLIC_V4 = "142.250.74.78"
INTERNAL_V4 = (
    "127.0.0.1", "169.254.169.254", "10.0.0.1", "192.168.1.1", "172.16.0.1", "0.0.0.0",
    "100.64.0.1", "198.18.0.1", "224.0.0.1", "255.255.255.255",
)  # fmt: skip


def _spellings(address: str) -> list[str]:
    """The ways the C resolver (and so a URL's host) writes one IPv4 address."""
    a, b, c, d = (int(x) for x in address.split("."))
    value = int(ipaddress.IPv4Address(address))
    return [
        address,
        str(value),  # one decimal number
        hex(value),  # one hex number
        "0" + oct(value)[2:],  # one octal number
        ".".join(hex(x) for x in (a, b, c, d)),  # dotted hex
        ".".join("0" + oct(x)[2:] for x in (a, b, c, d)),  # dotted octal
        f"{a}.{b}.{(c << 8) | d}",  # three parts
        f"{a}.{(b << 16) | (c << 8) | d}",  # two parts
        f"{hex(a)}.{b}.0{oct(c)[2:]}.{d}",  # mixed
        address + ".",  # a final dot
    ]


EMBEDDING_V6 = [
    "::1", "0:0:0:0:0:0:0:1", "0000:0000:0000:0000:0000:0000:0000:0001", "::",
    "::ffff:127.0.0.1", "::ffff:7f00:1", "::FFFF:A9FE:A9FE", "::ffff:169.254.169.254",
    "::127.0.0.1", "::a9fe:a9fe", "::ffff:0:127.0.0.1", "::ffff:0:a9fe:a9fe",
    "64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "64:ff9b::10.0.0.1", "64:ff9b::192.168.1.1",
    "64:ff9b:1::a9fe:a9fe", "64:ff9b::808:808",  # NAT64, even of a public address
    "2002:7f00:1::1", "2002:a9fe:a9fe::1", "2002:a00:1::", "2002:c0a8:101::1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1 (obfuscated)
    "2001:0:a9fe:a9fe:0:0:0:1",  # Teredo, server 169.254.169.254
    "2001:0:4136:e378:8000:63bf:5601:56fe",  # Teredo, client 169.254.169.254
    "2a00:1450:4001:1:0:5efe:a9fe:a9fe",  # ISATAP inside a public prefix
    "2a00:1450:4001:1:200:5efe:7f00:1",
    "fe80::1", "fe80::1%25eth0", "fc00::1", "fd12:3456:789a::1", "fec0::1", "ff02::1",
    "2001:db8::1", "100::1", "3fff::1", "5f00::1",
]  # fmt: skip

INSIDE = {  # a resolver we control: names that lead inside
    "localhost": ["127.0.0.1"],
    "metadata.google.internal": ["169.254.169.254"],
    "internal.example.com": ["10.0.0.8"],
    "v6loop.example.com": ["::1"],
    "nat64.example.com": ["64:ff9b::a9fe:a9fe"],
    "sixtofour.example.com": ["2002:7f00:1::1"],
    "mapped.example.com": ["::ffff:169.254.169.254"],
    "mixed.example.com": [PUBLIC_V4, "127.0.0.1"],
    "mixed6.example.com": ["2a00:1450:4001::5f", "fd00::1"],
    "zone.example.com": ["fe80::1%eth0"],
}
OUTSIDE = {"push.example.com": [PUBLIC_V4], "fcm.googleapis.com": ["2a00:1450:4001::5f"]}

INTERNAL: list[str] = (
    [f"https://{form}/wpush/abc" for address in INTERNAL_V4 for form in _spellings(address)]
    + [f"https://[{form}]/wpush/abc" for form in EMBEDDING_V6]
    + [f"https://{name}/wpush/abc" for name in INSIDE]
    + [
        "https://push.example.com@127.0.0.1/wpush/abc",  # the host is after the @
        "https://127.0.0.1\\@push.example.com/wpush/abc",
        "https://127.0.0.1#@push.example.com/wpush/abc",
        "https://127.0.0.1:443/wpush/abc",
        "https://[::ffff:127.0.0.1]:443/wpush/abc",
        "https://①②⑦.0.0.1/wpush/abc",  # IDNA maps these digits to 127.0.0.1
        "https://127。0。0。1/wpush/abc",  # ideographic full stops
        "https://%31%32%37.0.0.1/wpush/abc",
        "https://LOCALHOST/wpush/abc",
        "https://localhost./wpush/abc",
        "https://1.2.3.999/wpush/abc",  # numeric, no address
        "http://127.0.0.1:3000/push-receiver/ab",  # the local receiver, outside test mode
    ]
)  # fmt: skip


def resolve(host: str) -> list[str]:
    return {**INSIDE, **OUTSIDE}.get(host.lower().rstrip("."), [])


def test_the_table_holds_more_than_a_hundred_internal_forms() -> None:
    assert len(INTERNAL) >= 100 and len(set(INTERNAL)) == len(INTERNAL)


@pytest.mark.parametrize("endpoint", INTERNAL)
def test_no_internal_address_is_accepted_as_a_push_endpoint(endpoint: str) -> None:
    with pytest.raises(TargetError) as refused:
        check_endpoint(endpoint, resolve)
    assert "does not resolve" not in str(refused.value)  # refused for what it is, not luck


def test_a_refusal_names_the_internal_address_an_ipv6_form_carries() -> None:
    with pytest.raises(TargetError, match=r"carries 169\.254\.169\.254"):
        check_endpoint("https://[64:ff9b::a9fe:a9fe]/x", resolve)
    with pytest.raises(TargetError, match=r"carries 127\.0\.0\.1"):
        check_endpoint("https://[2002:7f00:1::1]/x", resolve)


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://push.example.com/wpush/v2/abc",
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://PUSH.example.com./wpush/abc",
        f"https://{PUBLIC_V4}/wpush/abc",
        "https://[2a00:1450:4001::5f]/wpush/abc",
        "https://[2002:808:808::1]/wpush/abc",  # 6to4 of a public address
    ],
)
def test_public_push_services_are_still_accepted(endpoint: str) -> None:
    assert check_endpoint(endpoint, resolve) == endpoint


def test_a_refused_endpoint_is_a_400_and_nothing_is_stored(mail: Any, clock: Any) -> None:
    _, store, _ = mail
    subs = Subscriptions(store, clock, resolve=resolve)
    body = {"endpoint": "https://[64:ff9b::a9fe:a9fe]/x", "keys": {"p256dh": "BN" + "A" * 85,
            "auth": "A" * 22}}  # fmt: skip
    with pytest.raises(BadRequestError, match="not a public address"):
        subs.subscribe(Caller("p1", ""), body, "tr")
    assert store.subscriptions("p1") == []


@pytest.fixture
def mail(clock: Any) -> Any:
    from fakes import FakeInbox, FakeMail, FakeMailTable

    table = FakeMailTable()
    return None, FakeMail(table), FakeInbox(table)


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every address the notifier opens a connection to (none is really opened)."""
    from urllib3.util import connection

    opened: list[tuple[str, int]] = []

    def create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
        opened.append(address)
        raise OSError("not in a test")

    monkeypatch.setattr(connection, "create_connection", create_connection)
    return opened


def _browser_key() -> str:
    """A real P-256 public key, as a browser's subscription carries (the payload is encrypted
    before any connection is made)."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    raw = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


BROWSER_KEY = _browser_key()


def _sub(endpoint: str) -> Subscription:
    return Subscription("s", endpoint, BROWSER_KEY, "A" * 22)


def test_at_send_time_no_internal_form_is_ever_connected_to(connections: list[Any]) -> None:
    """Stored before these rules (or re-pointed since): each is checked again and forgotten."""
    web = WebPush(generate, "mailto:ops@example.com", resolve=resolve)
    answers = {endpoint: web(_sub(endpoint), {"title": "t", "body": "b"}) for endpoint in INTERNAL}
    assert set(answers.values()) == {"gone"} and connections == []


def test_a_host_rebound_inside_after_the_check_is_never_called(connections: list[Any]) -> None:
    answers = iter([[PUBLIC_V4], ["169.254.169.254"]])
    rebinding = lambda host: next(answers)  # noqa: E731
    check_endpoint("https://push.example.com/x", rebinding)  # stored: public then
    web = WebPush(generate, "mailto:ops@example.com", resolve=rebinding)
    assert web(_sub("https://push.example.com/x"), {"title": "t", "body": "b"}) == "gone"
    assert connections == []


def test_the_call_connects_to_the_address_that_was_checked(connections: list[Any]) -> None:
    """The host is resolved once, at the check; the socket goes to that address (a second
    lookup by the HTTP library would be a second chance for a rebinding)."""
    answers = iter([[PUBLIC_V4], ["127.0.0.1"]])
    web = WebPush(generate, "mailto:ops@example.com", resolve=lambda host: next(answers))
    with pytest.raises(RetryLater):
        web(_sub("https://push.example.com/x"), {"title": "t", "body": "b"})
    assert connections == [(PUBLIC_V4, 443)]


@pytest.fixture
def redirecting() -> Iterator[tuple[str, list[str]]]:
    """A push service on 127.0.0.1 that answers every push with a redirect inside."""
    seen: list[str] = []

    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(self.path)
            self.send_response(307)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/push-receiver/", seen
    finally:
        server.shutdown()


def test_a_redirect_is_the_answer_and_never_followed(redirecting: Any) -> None:
    prefix, seen = redirecting
    web = WebPush(generate, "mailto:ops@example.com", local_prefix=prefix)
    assert web(_sub(prefix + "ab"), {"title": "t", "body": "b"}) == "refused"
    assert seen == ["/push-receiver/ab"]  # one request, to the checked place only


LOCAL = "http://127.0.0.1:3000/push-receiver/"
ESCAPES = [
    LOCAL + "../operator/players/p1/ban",
    LOCAL + "ab/../../operator/players/p1/ban",
    LOCAL + "%2e%2e/operator/players/p1/ban",
    LOCAL + "%2E%2E/operator/players/p1/ban",
    LOCAL + ".%2e/operator/players/p1/ban",
    LOCAL + "ab%2f..%2f..%2foperator%2fplayers%2fp1%2fban",
    LOCAL + "..\\operator/players/p1/ban",
    LOCAL + "..%5coperator/players/p1/ban",
    "http://127.0.0.1:3000/push-receiver\\..\\operator/players/p1/ban",
    LOCAL + "./ab",
    LOCAL + "/ab",
    LOCAL + "ab?next=/operator",
    LOCAL + "ab#x",
    "http://127.0.0.1:3001/push-receiver/ab",  # another port: moto's
    "http://user@127.0.0.1:3000/push-receiver/ab",
    "https://127.0.0.1:3000/push-receiver/ab",
]


@pytest.mark.parametrize("endpoint", ESCAPES)
def test_the_local_receiver_cannot_be_left_by_its_path(endpoint: str) -> None:
    assert not is_local_receiver(endpoint, LOCAL)
    with pytest.raises(TargetError):
        check_endpoint(endpoint, resolve, local_prefix=LOCAL)


def test_an_escaping_local_endpoint_is_never_called(connections: list[Any]) -> None:
    web = WebPush(generate, "mailto:ops@example.com", resolve=resolve, local_prefix=LOCAL)
    assert {web(_sub(e), {"title": "t", "body": "b"}) for e in ESCAPES} == {"gone"}
    assert connections == []
    with pytest.raises(RetryLater):  # a real subscription of the receiver is called
        web(_sub(LOCAL + "0123456789abcdef"), {"title": "t", "body": "b"})
    assert connections == [("127.0.0.1", 3000)]
