"""The local stack's push service (test mode only): a receiver that speaks RFC 8030 so that
notifications can be checked end to end with no push vendor reachable.

- ``POST /push-receiver/subscriptions`` makes a browser-like subscription: a P-256 key pair
  and an auth secret kept here (as a browser would), answered as PushSubscription JSON.
- ``POST /push-receiver/{id}`` is the endpoint the notifier calls: the VAPID ``Authorization``
  is verified (py_vapid: the signature; PyJWT: the claims, audience and expiry) against the
  server's public key, the body decrypted (http_ece, RFC 8291 aes128gcm) and recorded; 201.
- ``GET /push-receiver/{id}`` → ``{"messages": [...], "refused": n}``: what arrived.
- ``PUT /push-receiver/{id}/status`` ``{"status": 410}`` makes later deliveries answer that.

No cryptography is written here: keys from ``cryptography``, the rest from the libraries.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

PREFIX = "/push-receiver/"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Receiver:
    def __init__(self, base_url: str, server_key: str | None) -> None:
        self.base_url = base_url.rstrip("/")
        self.server_key = server_key  # the VAPID public key every push must be signed with
        self.subs: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()

    def subscribe(self) -> dict[str, Any]:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        key = ec.generate_private_key(ec.SECP256R1())
        auth = secrets.token_bytes(16)
        sub_id = secrets.token_hex(8)
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        with self.lock:
            self.subs[sub_id] = {
                "key": key, "auth": auth, "messages": [], "refused": 0, "status": 201,
                "answered": [],
            }  # fmt: skip
        return {
            "endpoint": f"{self.base_url}{PREFIX}{sub_id}",
            "expirationTime": None,
            "keys": {"p256dh": _b64(public), "auth": _b64(auth)},
        }

    def receive(self, sub_id: str, headers: dict[str, str], body: bytes) -> tuple[int, str]:
        """Check and decrypt one push; (status, reason)."""
        import http_ece
        import jwt
        from cryptography.hazmat.primitives.asymmetric import ec
        from py_vapid import Vapid02

        sub = self.subs.get(sub_id)
        if sub is None:
            return 404, "no such subscription"
        if sub["status"] != 201:
            with self.lock:
                sub["answered"].append(int(sub["status"]))
            return int(sub["status"]), "told to refuse"
        auth = headers.get("authorization", "")
        try:
            if not Vapid02.verify(auth):
                raise ValueError("bad signature")
            fields = dict(part.strip().split("=", 1) for part in auth.split(" ", 1)[1].split(","))
            if self.server_key is not None and fields["k"] != self.server_key:
                raise ValueError("signed with another key")
            public = ec.EllipticCurvePublicKey.from_encoded_point(
                ec.SECP256R1(), _unb64(fields["k"])
            )
            jwt.decode(
                fields["t"], public, algorithms=["ES256"], audience=self.base_url,
                options={"require": ["exp", "aud", "sub"]},
            )  # fmt: skip
        except Exception as error:  # any malformed or unverifiable header
            with self.lock:
                sub["refused"] += 1
            return 401, f"VAPID: {error}"
        if headers.get("content-encoding") != "aes128gcm" or "ttl" not in headers:
            with self.lock:
                sub["refused"] += 1
            return 400, "RFC 8030/8291: aes128gcm content and a TTL are required"
        try:
            plain = http_ece.decrypt(
                body, private_key=sub["key"], auth_secret=sub["auth"], version="aes128gcm"
            )
            message = json.loads(plain)
        except Exception as error:
            with self.lock:
                sub["refused"] += 1
            return 400, f"cannot decrypt: {error}"
        with self.lock:
            sub["messages"].append({"at": time.time(), "ttl": headers["ttl"], **message})
        return 201, "ok"


def routes(base_url: str, vapid_private_key: str | None) -> list[Route]:
    """The receiver's routes, for the emulator to mount in test mode."""
    from harftet.notify.vapid import public_key

    key = public_key(vapid_private_key) if vapid_private_key else None
    receiver = Receiver(base_url, key)

    async def subscribe(request: Request) -> Response:
        return JSONResponse(receiver.subscribe(), status_code=201)

    async def push(request: Request) -> Response:
        sub_id = request.path_params["sub_id"]
        headers = {k.lower(): v for k, v in request.headers.items()}
        status, reason = receiver.receive(sub_id, headers, await request.body())
        return JSONResponse({"status": reason}, status_code=status)

    async def messages(request: Request) -> Response:
        sub = receiver.subs.get(request.path_params["sub_id"])
        if sub is None:
            return JSONResponse({"error": "no such subscription"}, status_code=404)
        shown = {k: sub[k] for k in ("messages", "refused", "answered")}
        return JSONResponse(shown)

    async def status(request: Request) -> Response:
        sub = receiver.subs.get(request.path_params["sub_id"])
        if sub is None:
            return JSONResponse({"error": "no such subscription"}, status_code=404)
        sub["status"] = int((await request.json())["status"])
        return JSONResponse({"status": sub["status"]})

    return [
        Route(f"{PREFIX}subscriptions", subscribe, methods=["POST"]),
        Route(PREFIX + "{sub_id}", push, methods=["POST"]),
        Route(PREFIX + "{sub_id}", messages, methods=["GET"]),
        Route(PREFIX + "{sub_id}/status", status, methods=["PUT"]),
    ]
