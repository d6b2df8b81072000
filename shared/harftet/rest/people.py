"""People at the tables (API.md v3 "People"): friends, blocks, invitations, phrases, reports
on players."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from .common import app, body, caller, limit, reply

router = APIGatewayRouter()


@router.get("/players/me/friends")
def friends() -> Response:
    return reply(200, app().friends.friends(caller(router.current_event)))


@router.post("/players/me/friends")
def friend_request() -> Response:
    from harftet.accounts.models import FriendRequest

    who = caller(router.current_event)
    sent = FriendRequest.model_validate(body(router.current_event))
    return reply(200, app().friends.request(who, sent.code))


@router.post("/players/me/friends/<player_id>")
def accept_friend(player_id: str) -> Response:
    return reply(200, app().friends.accept(caller(router.current_event), player_id))


@router.delete("/players/me/friends/<player_id>")
def remove_friend(player_id: str) -> Response:
    app().friends.remove(caller(router.current_event), player_id)
    return reply(204)


@router.post("/players/me/blocks/<player_id>")
def block(player_id: str) -> Response:
    app().friends.block(caller(router.current_event), player_id)
    return reply(204)


@router.delete("/players/me/blocks/<player_id>")
def unblock(player_id: str) -> Response:
    app().friends.unblock(caller(router.current_event), player_id)
    return reply(204)


@router.post("/tables/<table_id>/invitations")
def invite(table_id: str) -> Response:
    from harftet.accounts.models import Invitation

    who = caller(router.current_event)
    sent = Invitation.model_validate(body(router.current_event))
    return reply(202, app().friends.invite(who, table_id, sent.playerId))


@router.get("/phrases")
def phrases() -> Response:
    from harftet.phrases import catalogue

    return reply(200, catalogue())


@router.post("/tables/<table_id>/phrases")
def send_phrase(table_id: str) -> Response:
    from harftet.accounts.models import SendPhrase

    who = caller(router.current_event)
    sent = SendPhrase.model_validate(body(router.current_event))
    return reply(200, app().phrases.send(who, table_id, sent.phrase))


@router.post("/tables/<table_id>/reports")
def report(table_id: str) -> Response:
    from harftet.api.models import ReportRequest

    who = caller(router.current_event)
    request = ReportRequest.model_validate(body(router.current_event))
    limit("report", who.player_id)
    return reply(202, app().moderation.report(who.player_id, table_id, request.seat, request.kind))
