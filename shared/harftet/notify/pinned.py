"""An HTTP session that connects only to addresses checked a moment before (OWASP SSRF:
resolve, check every address, then connect to the checked address — never resolve again, so a
host re-pointed between the check and the call, DNS rebinding, reaches nothing new).

``pinned_session({(host, port): address})`` is a ``requests`` session for pywebpush: each
connection to ``host:port`` goes to ``address`` (TLS still verifies the certificate for
``host``), a connection to anything else is refused, redirects are never followed and no proxy
or ``.netrc`` from the environment is used (a proxy would resolve the host itself).
"""

from __future__ import annotations

import socket
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError
from urllib3.util import connection

Pins = dict[tuple[str, int], str]


def pin_key(host: str, port: int) -> tuple[str, int]:
    """How a host and port are looked up among the pins (case and a final dot aside)."""
    return host.lower().strip("[]").rstrip("."), port


def _connect(conn: Any, pins: Pins) -> socket.socket:
    """The socket for ``conn``: to its host's checked address, or no socket at all."""
    address = pins.get(pin_key(conn._dns_host, conn.port))
    if address is None:
        raise NewConnectionError(conn, f"{conn.host}:{conn.port} is not a checked address")
    try:
        return connection.create_connection(
            (address, conn.port),
            conn.timeout,
            source_address=conn.source_address,
            socket_options=conn.socket_options,
        )
    except OSError as error:
        raise NewConnectionError(conn, f"Failed to establish a new connection: {error}") from error


def _pools(pins: Pins) -> dict[str, type[HTTPConnectionPool]]:
    class PinnedHTTP(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, pins)

    class PinnedHTTPS(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, pins)

    class PinnedHTTPPool(HTTPConnectionPool):
        ConnectionCls = PinnedHTTP

    class PinnedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = PinnedHTTPS

    return {"http": PinnedHTTPPool, "https": PinnedHTTPSPool}


class _PinnedAdapter(HTTPAdapter):
    def __init__(self, pins: Pins) -> None:
        self.pins = pins
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _pools(self.pins)


class PinnedSession(requests.Session):
    """A session whose every request goes only to the pinned addresses, redirects unfollowed."""

    def __init__(self, pins: Pins) -> None:
        super().__init__()
        self.trust_env = False  # no proxy, no .netrc: nothing else resolves or adds to it
        adapter = _PinnedAdapter({pin_key(*key): address for key, address in pins.items()})
        self.mount("http://", adapter)
        self.mount("https://", adapter)

    def request(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["allow_redirects"] = False  # a 3xx is the answer, never a second request
        return super().request(*args, **kwargs)


def pinned_session(pins: Pins) -> requests.Session:
    """A requests session connecting ``(host, port)`` only to its checked address."""
    return PinnedSession(pins)
