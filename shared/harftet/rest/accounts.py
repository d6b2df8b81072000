"""The account and session routes (API.md v3 "Identity"): passkeys, transfer codes, sessions,
and the player's own data."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from .common import app, body, caller, reply, source_ip

router = APIGatewayRouter()


@router.post("/players/me/passkeys/options")
def passkey_registration_options() -> Response:
    return reply(200, app().accounts.registration_options(caller(router.current_event)))


@router.post("/players/me/passkeys")
def register_passkey() -> Response:
    from harftet.accounts.models import PasskeyResponse

    who = caller(router.current_event)
    sent = PasskeyResponse.model_validate(body(router.current_event))
    return reply(201, app().accounts.register(who, sent.challengeId, sent.credential))


@router.get("/players/me/passkeys")
def list_passkeys() -> Response:
    return reply(200, app().accounts.list_passkeys(caller(router.current_event)))


@router.delete("/players/me/passkeys/<passkey_id>")
def remove_passkey(passkey_id: str) -> Response:
    app().accounts.remove_passkey(caller(router.current_event), passkey_id)
    return reply(204)


@router.post("/sessions/passkey/options")
def passkey_sign_in_options() -> Response:
    return reply(200, app().accounts.sign_in_options(source_ip(router.current_event)))


@router.post("/sessions/passkey")
def passkey_sign_in() -> Response:
    from harftet.accounts.models import PasskeyResponse

    sent = PasskeyResponse.model_validate(body(router.current_event))
    return reply(200, app().accounts.passkey_sign_in(sent.challengeId, sent.credential))


@router.post("/players/me/transfer-codes")
def transfer_code() -> Response:
    return reply(201, app().accounts.transfer_code(caller(router.current_event)))


@router.post("/sessions/transfer")
def transfer_sign_in() -> Response:
    from harftet.accounts.models import TransferSignIn

    sent = TransferSignIn.model_validate(body(router.current_event))
    return reply(200, app().accounts.transfer_sign_in(sent.code, source_ip(router.current_event)))


@router.post("/sessions/refresh")
def refresh() -> Response:
    from harftet.accounts.models import Refresh

    sent = Refresh.model_validate(body(router.current_event))
    return reply(200, app().accounts.refresh(sent.refreshToken))


@router.delete("/sessions/current")
def sign_out() -> Response:
    app().accounts.sign_out(caller(router.current_event))
    return reply(204)


@router.get("/players/me/export")
def export() -> Response:
    return reply(200, app().data.export(caller(router.current_event)))


@router.delete("/players/me")
def delete_me() -> Response:
    app().data.delete(caller(router.current_event))
    return reply(204)
