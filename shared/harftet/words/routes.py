"""The word routes (API.md v3 "Words"), a powertools Router that functions/rest/app.py
includes: `GET /words/{word}` (public, like `GET /phrases`) and `POST /words/{word}/reports`
(a player token). Errors go to the app's one exception handler."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from harftet.api.body import MAX_BODY_BYTES
from harftet.api.errors import language, parse_json
from harftet.api.events import body_text
from harftet.errors import BadRequestError
from harftet.identity import bearer

router = APIGatewayRouter()


@cache
def _reports() -> Any:
    from harftet.wiring import default_service, dynamodb
    from harftet.words.reports import WordReports

    service = default_service()
    players = getattr(service.players, "table_name", None) or os.environ["PLAYERS_TABLE"]
    connections = (
        getattr(service.connections, "table_name", None) or os.environ["CONNECTIONS_TABLE"]
    )
    return WordReports.over(dynamodb(), players, connections)


def _reply(status: int, body: Any) -> Response:
    return Response(status_code=status, content_type="application/json", body=body)


@router.get("/words/<word>")
def get_word(word: str) -> Response:
    from harftet.words.info import WordInputError, look_up

    try:
        return _reply(200, look_up(word, language(router.current_event.headers)))
    except WordInputError as error:
        raise BadRequestError(str(error)) from None


@router.post("/words/<word>/reports")
def report_word(word: str) -> Response:
    from harftet.wiring import default_service
    from harftet.words.info import WordInputError
    from harftet.words.models import WordReport

    service = default_service()
    caller = service.tokens.verify(bearer(router.current_event.headers.get("authorization")))
    raw = body_text(router.current_event.raw_event, limit=MAX_BODY_BYTES)
    body = WordReport.model_validate(parse_json(raw, limit=MAX_BODY_BYTES))
    try:
        answer = _reports().report(caller.player_id, word, body.kind, service.clock())
    except WordInputError as error:
        raise BadRequestError(str(error)) from None
    return _reply(202, answer)
