"""A software passkey for tests: what a browser and its authenticator answer to WebAuthn
options, made with `cryptography` (ECDSA P-256) and `cbor2` (py_webauthn's own CBOR library).
Only tests use it; the server verifies with py_webauthn."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftPasskey:
    """One discoverable credential, created by `register` for the options' user."""

    def __init__(self, origin: str = "http://localhost:3000", rp_id: str = "localhost") -> None:
        self.origin = origin
        self.rp_id = rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.user_handle = b""
        self.count = 0

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    def _auth_data(self, flags: int, rp_id: str | None, extra: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256((rp_id or self.rp_id).encode()).digest()
        return rp_hash + bytes([flags]) + struct.pack(">I", self.count) + extra

    def register(
        self, options: dict[str, Any], *, origin: str | None = None, rp_id: str | None = None
    ) -> dict[str, Any]:
        """The credential JSON a browser sends after navigator.credentials.create()."""
        public = options["publicKey"]
        self.user_handle = unb64url(public["user"]["id"])
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id
        auth_data = self._auth_data(0x45, rp_id, attested + cose)  # UP, UV, AT
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", public["challenge"], origin)
        return self._credential(
            client_data, attestationObject=b64url(attestation), transports=["internal"]
        )

    def assert_(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        count: int | None = None,
    ) -> dict[str, Any]:
        """The credential JSON a browser sends after navigator.credentials.get()."""
        self.count = self.count + 1 if count is None else count
        auth_data = self._auth_data(0x05, rp_id)  # UP, UV
        client_data = self._client_data("webauthn.get", options["publicKey"]["challenge"], origin)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return self._credential(
            client_data,
            authenticatorData=b64url(auth_data),
            signature=b64url(signature),
            userHandle=b64url(self.user_handle),
        )

    def _credential(self, client_data: bytes, **response: Any) -> dict[str, Any]:
        """The credential JSON of this passkey: its client data, then ``response``."""
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": b64url(client_data), **response},
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
