"""The account, session and phrase routes (API.md v3 "Identity", phrases of "People"), a
powertools Router that functions/rest/app.py includes: parse → one call → reply. Errors go
to the app's one exception handler."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from harftet.api.body import MAX_BODY_BYTES
from harftet.api.errors import parse_json
from harftet.api.events import body_text
from harftet.identity import Caller, bearer

router = APIGatewayRouter()


def _accounts() -> Any:
    from harftet.accounts import default_accounts

    return default_accounts()


@cache
def _phrases() -> Any:
    from harftet.accounts.people import People
    from harftet.phrases import Phrases
    from harftet.wiring import default_service, dynamodb

    people = People(_accounts())
    service = default_service()
    table = getattr(service.connections, "table_name", None) or os.environ["CONNECTIONS_TABLE"]
    return Phrases(service, dynamodb(), table, people.blocked_by)


def _reply(status: int, body: Any = None) -> Response:
    if status == 204:
        return Response(status_code=204, body=None)
    return Response(status_code=status, content_type="application/json", body=body)


def _body() -> Any:
    raw = body_text(router.current_event.raw_event, limit=MAX_BODY_BYTES)
    return parse_json(raw, limit=MAX_BODY_BYTES)


def _caller() -> Caller:
    from harftet.wiring import default_service

    header = router.current_event.headers.get("authorization")
    return default_service().tokens.verify(bearer(header))


def _source_ip() -> str:
    return router.current_event.request_context.identity.source_ip or "unknown"


@router.post("/players/me/passkeys/options")
def passkey_registration_options() -> Response:
    return _reply(200, _accounts().registration_options(_caller()))


@router.post("/players/me/passkeys")
def register_passkey() -> Response:
    from harftet.accounts.models import PasskeyResponse

    caller = _caller()
    body = PasskeyResponse.model_validate(_body())
    return _reply(201, _accounts().register(caller, body.challengeId, body.credential))


@router.get("/players/me/passkeys")
def list_passkeys() -> Response:
    return _reply(200, _accounts().list_passkeys(_caller()))


@router.delete("/players/me/passkeys/<passkey_id>")
def remove_passkey(passkey_id: str) -> Response:
    _accounts().remove_passkey(_caller(), passkey_id)
    return _reply(204)


@router.post("/sessions/passkey/options")
def passkey_sign_in_options() -> Response:
    return _reply(200, _accounts().sign_in_options(_source_ip()))


@router.post("/sessions/passkey")
def passkey_sign_in() -> Response:
    from harftet.accounts.models import PasskeyResponse

    body = PasskeyResponse.model_validate(_body())
    return _reply(200, _accounts().passkey_sign_in(body.challengeId, body.credential))


@router.post("/players/me/transfer-codes")
def transfer_code() -> Response:
    return _reply(201, _accounts().transfer_code(_caller()))


@router.post("/sessions/transfer")
def transfer_sign_in() -> Response:
    from harftet.accounts.models import TransferSignIn

    body = TransferSignIn.model_validate(_body())
    return _reply(200, _accounts().transfer_sign_in(body.code, _source_ip()))


@router.post("/sessions/refresh")
def refresh() -> Response:
    from harftet.accounts.models import Refresh

    body = Refresh.model_validate(_body())
    return _reply(200, _accounts().refresh(body.refreshToken))


@router.delete("/sessions/current")
def sign_out() -> Response:
    _accounts().sign_out(_caller())
    return _reply(204)


@router.get("/players/me/export")
def export() -> Response:
    return _reply(200, _accounts().export(_caller()))


@router.delete("/players/me")
def delete_me() -> Response:
    _accounts().delete(_caller())
    return _reply(204)


@router.get("/phrases")
def phrases() -> Response:
    from harftet.phrases import catalogue

    return _reply(200, catalogue())


@router.post("/tables/<table_id>/phrases")
def send_phrase(table_id: str) -> Response:
    from harftet.accounts.models import SendPhrase

    caller = _caller()
    body = SendPhrase.model_validate(_body())
    return _reply(200, _phrases().send(caller, table_id, body.phrase))


def remember_table(caller: Caller, table_id: str) -> None:
    """After a sit or a new table: note the table on the player (found when they delete
    themselves). Never fails the request it follows."""
    try:
        _accounts().remember_table(caller, table_id)
    except Exception:  # pragma: no cover - a lost note costs only the anonymising later
        import logging

        logging.getLogger(__name__).warning("could not note the table", exc_info=True)


# -- people: friends, blocks, invitations (harftet.accounts.people) ----------------------
def _people() -> Any:
    from harftet.accounts.people import People

    return People(_accounts())


@router.get("/players/me/friends")
def friends() -> Response:
    return _reply(200, _people().friends(_caller()))


@router.post("/players/me/friends")
def friend_request() -> Response:
    from harftet.accounts.models import FriendRequest

    caller = _caller()
    body = FriendRequest.model_validate(_body())
    return _reply(200, _people().request(caller, body.code))


@router.post("/players/me/friends/<player_id>")
def accept_friend(player_id: str) -> Response:
    return _reply(200, _people().accept(_caller(), player_id))


@router.delete("/players/me/friends/<player_id>")
def remove_friend(player_id: str) -> Response:
    _people().remove(_caller(), player_id)
    return _reply(204)


@router.post("/players/me/blocks/<player_id>")
def block(player_id: str) -> Response:
    _people().block(_caller(), player_id)
    return _reply(204)


@router.delete("/players/me/blocks/<player_id>")
def unblock(player_id: str) -> Response:
    _people().unblock(_caller(), player_id)
    return _reply(204)


@router.post("/tables/<table_id>/invitations")
def invite(table_id: str) -> Response:
    from harftet.accounts.models import Invitation

    caller = _caller()
    body = Invitation.model_validate(_body())
    return _reply(202, _people().invite(caller, table_id, body.playerId))
