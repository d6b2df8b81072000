"""The matchmaking routes (API.md v4 "Matchmaking"): ``POST /matchmaking``, ``GET`` and
``DELETE /matchmaking/{ticketId}`` (a player token)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response

from harftet.errors import NotFoundError

from .common import Routes, app, reply

router = Routes()


def _matchmaking() -> Any:
    found = app().matchmaking
    if found is None:
        raise NotFoundError("matchmaking is not offered here")
    return found


@router.post("/matchmaking")
def open_ticket() -> Response:
    from harftet.matchmaking.models import TicketRequest

    who = router.caller()
    sent = router.sent(TicketRequest)
    return reply(202, _matchmaking().open(who, sent.game, sent.seats, sent.waitSeconds))


@router.get("/matchmaking/<ticketId>")
def get_ticket(ticketId: str) -> Response:
    return reply(200, _matchmaking().status(router.caller(), ticketId))


@router.delete("/matchmaking/<ticketId>")
def cancel_ticket(ticketId: str) -> Response:
    _matchmaking().cancel(router.caller(), ticketId)
    return reply(204)
