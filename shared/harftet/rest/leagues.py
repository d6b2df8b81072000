"""Weekly leagues (API.md v4 "Skill and leagues"): the caller's division this week, and any
week's division."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from .common import Routes, app, reply

router = Routes()


@router.get("/leagues/<game>/me")
def my_division(game: str) -> Response:
    who = router.caller()
    return reply(200, app().leagues.mine(who.player_id, game))


@router.get("/leagues/<game>/weeks/<week>/divisions/<division>")
def division(game: str, week: str, division: str) -> Response:
    router.caller()
    return reply(200, app().leagues.division(game, week, division))
