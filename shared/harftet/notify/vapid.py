"""The VAPID key pair (RFC 8292): the private key as 32 raw bytes in base64url (what
pywebpush/py_vapid read), the public key as the uncompressed P-256 point in base64url (what
a browser's ``pushManager.subscribe`` takes as ``applicationServerKey``).

Deployed, the private key is an SSM SecureString (``VAPID_PRIVATE_KEY_PARAM``), made once by
``python -m harftet.notify.vapid`` (docs/DEPLOY.md); the local stack makes one at start
(``VAPID_PRIVATE_KEY``). Keys come from ``cryptography``; nothing is hand-rolled.
"""

from __future__ import annotations

import base64


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def generate() -> str:
    """A new private key (base64url of its 32 bytes)."""
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    return _b64(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key(private: str) -> str:
    """The public key of ``private`` (base64url of the uncompressed point)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    raw = base64.urlsafe_b64decode(private + "=" * (-len(private) % 4))
    key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(point)


def private_key(key: str | None, name: str | None) -> str | None:
    """The server's private key: ``key`` (VAPID_PRIVATE_KEY), or the SSM SecureString named
    ``name`` (VAPID_PRIVATE_KEY_PARAM); None when neither is set."""
    if key:
        return key
    if not name:
        return None
    from aws_lambda_powertools.utilities.parameters import get_parameter

    return str(get_parameter(name, decrypt=True, max_age=3600))


def server_public_key(shown: str | None, private: str | None) -> str | None:
    """``shown`` (VAPID_PUBLIC_KEY; deployed, the REST function never reads the private key),
    or the local stack's, derived from its private key."""
    if shown:
        return shown
    return public_key(private) if private else None


if __name__ == "__main__":  # python -m harftet.notify.vapid: a new key pair (docs/DEPLOY.md)
    made = generate()
    print(f"private (SSM SecureString): {made}")
    print(f"public (VapidPublicKey):    {public_key(made)}")
