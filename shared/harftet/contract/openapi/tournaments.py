"""Tournaments (harftet.rest.tournaments, RULES §8): the list, one tournament with its
standings and tables, entries; creating one on the operator API."""

from __future__ import annotations

from harftet.contract.openapi.route import CURSOR, Route

STATUS = {
    "name": "status",
    "in": "query",
    "description": "registering (default), running or finished",
    "schema": {"type": "string", "enum": ["registering", "running", "finished"]},
}
IAM = " (operator API: AWS_IAM, never a player token)"


def routes() -> list[Route]:
    """The routes of harftet.rest.tournaments."""
    from harftet.tournaments import models as m

    return [
        Route("get", "/tournaments", "Tournaments by status (registering and running by "
              "their start, finished latest first)", None, "200", m.TournamentPage, True,
              (STATUS, CURSOR)),
        Route("get", "/tournaments/{tournamentId}",
              "A tournament: standings (people only, best first), every table so far, the "
              "podium once finished, and your part", None, "200", m.TournamentAnswer, True),
        Route("post", "/tournaments/{tournamentId}/entries",
              "Enter (again: the same answer); 409 tournament_full, registration_closed",
              None, "201", m.EntryAnswer, True),
        Route("delete", "/tournaments/{tournamentId}/entries/me",
              "Withdraw before the start (409 registration_closed after it)",
              None, "204", None, True),
        Route("post", "/operator/tournaments", "Create a tournament" + IAM,
              m.TournamentRequest, "201", m.TournamentSummary, False),
    ]  # fmt: skip
