"""People at the tables (API.md v3 "People"): friends, blocks, invitations, phrases, reports
on players."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from .common import Routes, app, limit, reply

router = Routes()


@router.post("/players/me/friends")
def friend_request() -> Response:
    from harftet.accounts.models import FriendRequest

    who = router.caller()
    return reply(200, app().friends.request(who, router.sent(FriendRequest).code))


@router.post("/tables/<table_id>/invitations")
def invite(table_id: str) -> Response:
    from harftet.accounts.models import Invitation

    who = router.caller()
    return reply(202, app().friends.invite(who, table_id, router.sent(Invitation).playerId))


@router.get("/phrases")
def phrases() -> Response:
    from harftet.phrases import catalogue

    return reply(200, catalogue())


@router.post("/tables/<table_id>/phrases")
def send_phrase(table_id: str) -> Response:
    from harftet.accounts.models import SendPhrase

    who = router.caller()
    return reply(200, app().phrases.send(who, table_id, router.sent(SendPhrase).phrase))


@router.post("/tables/<table_id>/reports")
def report(table_id: str) -> Response:
    from harftet.api.models import ReportRequest

    who = router.caller()
    request = router.sent(ReportRequest)
    limit("report", who.player_id)
    return reply(202, app().moderation.report(who.player_id, table_id, request.seat, request.kind))


# The routes that only hand the caller and the path's parameters to a use case.
router.relay(
    {
        "GET /players/me/friends": "friends.friends",
        "POST /players/me/friends/<player_id>": "friends.accept",
        "DELETE /players/me/friends/<player_id>": "friends.remove",
        "POST /players/me/blocks/<player_id>": "friends.block",
        "DELETE /players/me/blocks/<player_id>": "friends.unblock",
    }
)
