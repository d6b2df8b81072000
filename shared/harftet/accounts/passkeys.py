"""The WebAuthn ceremonies, done by py_webauthn (``webauthn`` on PyPI): options out, responses
checked (CBOR, COSE keys, signatures, origin, relying party, challenge, flags, counter).
Nothing here parses or verifies anything by hand. Imported only by the passkey routes, so
the REST function's cold start does not pay for ``cryptography``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from harftet.errors import UnauthorizedError

RP_NAME = "Harftet"
CEREMONY_MS = 120_000  # the browser's own timeout; the challenge lives a little longer


@dataclass(frozen=True)
class PasskeyConfig:
    """The relying party: its id (a registrable domain, e.g. ``harftet.example``; browsers
    refuse IP addresses) and the origins a ceremony may come from."""

    rp_id: str
    origins: tuple[str, ...]


def config_from_env(env: Mapping[str, str]) -> PasskeyConfig | None:
    """PASSKEY_RP_ID and PASSKEY_ORIGINS (comma-separated; default ALLOWED_ORIGINS); the RP
    id defaults to the first origin's host. None: passkeys are not configured."""
    raw = env.get("PASSKEY_ORIGINS") or env.get("ALLOWED_ORIGINS") or ""
    origins = tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())
    rp_id = (env.get("PASSKEY_RP_ID") or "").strip()
    if not rp_id and origins:
        rp_id = urlsplit(origins[0]).hostname or ""
    if not rp_id or not origins:
        return None
    return PasskeyConfig(rp_id, origins)


def _refused(error: Exception) -> UnauthorizedError:
    return UnauthorizedError(f"the passkey response was refused: {str(error)[:160]}")


def registration_options(
    config: PasskeyConfig,
    challenge: bytes,
    player_id: str,
    name: str,
    existing: list[bytes],
) -> dict[str, Any]:
    """``PublicKeyCredentialCreationOptions`` as JSON (a discoverable credential: signing in
    needs no name; the user handle is the player id)."""
    from webauthn import generate_registration_options, options_to_json
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    options = generate_registration_options(
        rp_id=config.rp_id,
        rp_name=RP_NAME,
        user_id=player_id.encode(),
        user_name=name,
        user_display_name=name,
        challenge=challenge,
        timeout=CEREMONY_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=c) for c in existing],
    )
    parsed: dict[str, Any] = json.loads(options_to_json(options))
    return parsed


def _checked(config: PasskeyConfig, credential: dict[str, Any], challenge: bytes) -> dict[str, Any]:
    """What either ceremony checks a ``credential`` against: the challenge it was given, this
    relying party and its origins."""
    return {
        "credential": credential,
        "expected_challenge": challenge,
        "expected_rp_id": config.rp_id,
        "expected_origin": list(config.origins),
    }


def verify_registration(
    config: PasskeyConfig, credential: dict[str, Any], challenge: bytes
) -> dict[str, Any]:
    """``{"id": bytes, "publicKey": bytes, "signCount": int, "backedUp": bool}`` of a
    verified registration response; UnauthorizedError for anything wrong."""
    from webauthn import verify_registration_response

    try:
        verified = verify_registration_response(**_checked(config, credential, challenge))
    except Exception as error:  # py_webauthn's InvalidRegistrationResponse, parse errors…
        raise _refused(error) from error
    return {
        "id": verified.credential_id,
        "publicKey": verified.credential_public_key,
        "signCount": verified.sign_count,
        "backedUp": verified.credential_backed_up,
    }


def authentication_options(config: PasskeyConfig, challenge: bytes) -> dict[str, Any]:
    """``PublicKeyCredentialRequestOptions`` as JSON (no allow list: any discoverable
    passkey of this relying party may answer)."""
    from webauthn import generate_authentication_options, options_to_json

    options = generate_authentication_options(
        rp_id=config.rp_id, challenge=challenge, timeout=CEREMONY_MS
    )
    parsed: dict[str, Any] = json.loads(options_to_json(options))
    return parsed


def claimed(credential: dict[str, Any]) -> tuple[bytes, str]:
    """The credential id and the user handle (the player id) an assertion claims — to find
    the stored key before `verify_authentication` checks it."""
    from webauthn.helpers import parse_authentication_credential_json

    try:
        parsed = parse_authentication_credential_json(credential)
        handle = parsed.response.user_handle
        if not handle:
            raise ValueError("the assertion carries no user handle")
        return parsed.raw_id, handle.decode("ascii")
    except Exception as error:
        raise _refused(error) from error


def verify_authentication(
    config: PasskeyConfig,
    credential: dict[str, Any],
    challenge: bytes,
    public_key: bytes,
    sign_count: int,
) -> int:
    """The new sign count of a verified assertion; UnauthorizedError for anything wrong
    (a counter that does not go up, where the authenticator keeps one, included)."""
    from webauthn import verify_authentication_response

    try:
        verified = verify_authentication_response(
            **_checked(config, credential, challenge),
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
        )
    except Exception as error:
        raise _refused(error) from error
    return int(verified.new_sign_count)
