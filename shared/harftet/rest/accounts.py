"""The account and session routes (API.md v3 "Identity"): passkeys, transfer codes, sessions,
and the player's own data."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from .common import Routes, app, reply

router = Routes()


@router.post("/players/me/passkeys")
def register_passkey() -> Response:
    from harftet.accounts.models import PasskeyResponse

    who = router.caller()
    sent = router.sent(PasskeyResponse)
    return reply(201, app().accounts.register(who, sent.challengeId, sent.credential))


@router.post("/players/me/transfer-codes")
def transfer_code() -> Response:
    return reply(201, app().accounts.transfer_code(router.caller()))


@router.post("/sessions/passkey/options")
def passkey_sign_in_options() -> Response:
    return reply(200, app().accounts.sign_in_options(router.source_ip()))


@router.post("/sessions/passkey")
def passkey_sign_in() -> Response:
    from harftet.accounts.models import PasskeyResponse

    sent = router.sent(PasskeyResponse)
    return reply(200, app().accounts.passkey_sign_in(sent.challengeId, sent.credential))


@router.post("/sessions/transfer")
def transfer_sign_in() -> Response:
    from harftet.accounts.models import TransferSignIn

    sent = router.sent(TransferSignIn)
    return reply(200, app().accounts.transfer_sign_in(sent.code, router.source_ip()))


@router.post("/sessions/refresh")
def refresh() -> Response:
    from harftet.accounts.models import Refresh

    return reply(200, app().accounts.refresh(router.sent(Refresh).refreshToken))


# The routes that only hand the caller and the path's parameters to a use case.
router.relay(
    {
        "POST /players/me/passkeys/options": "accounts.registration_options",
        "GET /players/me/passkeys": "accounts.list_passkeys",
        "DELETE /players/me/passkeys/<passkey_id>": "accounts.remove_passkey",
        "DELETE /sessions/current": "accounts.sign_out",
        "GET /players/me/export": "data.export",
        "DELETE /players/me": "data.delete",
    }
)
