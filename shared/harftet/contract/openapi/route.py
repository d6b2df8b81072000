"""What each feature's module lists: its routes, one `Route` an operation, and the parameters
they share."""

from __future__ import annotations

from typing import Any, NamedTuple

from pydantic import BaseModel

from harftet.words.info import WORD_LETTERS


class Route(NamedTuple):
    """One operation of the REST API, as the document describes it."""

    method: str
    path: str
    summary: str
    request: type[BaseModel] | None  # the body's model (None: no body)
    status: str  # the success status
    response: type[BaseModel] | None  # the success body's model (None: 204, no content)
    auth: bool  # a player's bearer token
    query: tuple[dict[str, Any], ...] = ()  # its query parameters


# Every path parameter's schema, by name; an operation lists its own in this order.
PATH_PARAMETERS: dict[str, dict[str, Any]] = {
    "playerId": {"type": "string", "minLength": 1, "maxLength": 64},
    "tableId": {"type": "string", "minLength": 1, "maxLength": 64},
    "seat": {"type": "integer", "minimum": 0, "maximum": 3},
    "id": {"type": "string", "minLength": 1, "maxLength": 64},
    "ticketId": {"type": "string", "minLength": 1, "maxLength": 64},
    "tournamentId": {"type": "string", "pattern": "^[0-9a-f]{12}$"},
    "passkeyId": {"type": "string", "minLength": 1, "maxLength": 1400},
    "word": {  # the 29 letters in either case (circumflexes fold: â → A)
        "type": "string",
        "minLength": 1,
        "maxLength": 32,
        "pattern": f"^[{WORD_LETTERS}]+$",
    },
    "game": {"type": "string", "enum": ["kastet", "harftet"]},
    "week": {"type": "string", "pattern": "^[0-9]{4}-W[0-9]{2}$"},  # an ISO week: 2026-W49
    "division": {"type": "string", "minLength": 1, "maxLength": 16},  # <tier>-<n>: gumus-12
}

# A paged list's cursor: the lobby and the inbox.
CURSOR: dict[str, Any] = {
    "name": "cursor",
    "in": "query",
    "description": "the previous page's cursor (opaque)",
    "schema": {"type": "string", "maxLength": 600},
}
