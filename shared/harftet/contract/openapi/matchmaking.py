"""Matchmaking (harftet.rest.matchmaking): look for opponents of one's skill, read the
search, stop it."""

from __future__ import annotations

from harftet.contract.openapi.route import Route


def routes() -> list[Route]:
    """The routes of harftet.rest.matchmaking."""
    from harftet.matchmaking import models as m

    return [
        Route("post", "/matchmaking",
              "Look for opponents of your skill (one search at a time: 409 already_waiting); "
              "the WebSocket pushes matched",
              m.TicketRequest, "202", m.TicketAnswer, True),
        Route("get", "/matchmaking/{ticketId}", "Your search for opponents and its table",
              None, "200", m.TicketAnswer, True),
        Route("delete", "/matchmaking/{ticketId}",
              "Stop looking (409 wrong_status once opponents were found)",
              None, "204", None, True),
    ]  # fmt: skip
