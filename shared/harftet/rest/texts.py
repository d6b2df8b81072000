"""The catalogue of what a player reads (API.md v4 ``GET /texts``) and the health check."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from harftet.api.errors import language

from .common import Routes, reply

router = Routes()


@router.get("/health")
def health() -> Response:
    return reply(200, {"status": "ok"})


@router.get("/texts")
def texts() -> Response:
    """The catalogue of one language, cacheable by its ETag."""
    from harftet.api.texts import texts_reply

    event = router.current_event
    asked = event.get_query_string_value("lang", None)  # "lang=" asks for "": refused
    lang = language(event.headers) if asked is None else asked
    status, body, headers = texts_reply(lang, event.headers.get("if-none-match"))
    return Response(status, content_type="application/json", body=body, headers=headers)
