"""Tournaments (API.md v4 "Tournaments"): the list by status, one tournament with its
standings and tables, entering and withdrawing (a player token); creating one (the operator
API: IAM in AWS, the X-Operator-Key header on the local stack)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from harftet.errors import ForbiddenError

from .common import Routes, app, reply

router = Routes()


@router.get("/tournaments")
def list_tournaments() -> Response:
    router.caller()
    query = router.current_event.get_query_string_value
    return reply(200, app().tournaments.page(query("status", None), query("cursor", None)))


@router.get("/tournaments/<tournamentId>")
def get_tournament(tournamentId: str) -> Response:
    return reply(200, app().tournaments.view(router.caller(), tournamentId))


@router.post("/tournaments/<tournamentId>/entries")
def enter(tournamentId: str) -> Response:
    return reply(201, app().tournaments.register(router.caller(), tournamentId))


@router.delete("/tournaments/<tournamentId>/entries/me")
def withdraw(tournamentId: str) -> Response:
    app().tournaments.unregister(router.caller(), tournamentId)
    return reply(204)


@router.post("/operator/tournaments")
def create_tournament() -> Response:
    from harftet.tournaments.models import TournamentRequest

    if not router.current_event.request_context.identity.user_arn:
        raise ForbiddenError(
            "operator routes need IAM authorisation (on the local stack: the X-Operator-Key "
            "header with the contents of the data folder's operator-key file)"
        )
    sent = router.sent(TournamentRequest)
    return reply(201, app().tournaments.create(sent))
