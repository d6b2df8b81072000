"""The word routes (API.md v3 "Words"): ``GET /words/{word}`` (public, like ``GET /phrases``)
and ``POST /words/{word}/reports`` (a player token)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from harftet.api.errors import language
from harftet.errors import BadRequestError

from .common import Routes, app, reply

router = Routes()


@router.get("/words/<word>")
def get_word(word: str) -> Response:
    from harftet.words.info import WordInputError, look_up

    try:
        return reply(200, look_up(word, language(router.current_event.headers)))
    except WordInputError as error:
        raise BadRequestError(str(error)) from None


@router.post("/words/<word>/reports")
def report_word(word: str) -> Response:
    from harftet.words.info import WordInputError
    from harftet.words.models import WordReport

    who = router.caller()
    sent = router.sent(WordReport)
    try:
        answer = app().word_reports.report(who.player_id, word, sent.kind)
    except WordInputError as error:
        raise BadRequestError(str(error)) from None
    return reply(202, answer)
