"""The OpenAPI document of the REST API, from the request models and the answer shapes each
feature's module declares (tables, players, inbox, accounts, people, operator, words).

Run ``python -m harftet.contract.openapi > docs/openapi.json``; a test keeps the committed copy
current.
"""

from __future__ import annotations

from typing import Any

from harftet.contract.openapi import (
    accounts,
    exact,
    inbox,
    leagues,
    matchmaking,
    operator,
    people,
    players,
    tables,
    tournaments,
    words,
)
from harftet.contract.openapi.components import Components
from harftet.contract.openapi.route import PATH_PARAMETERS, Route
from harftet.contract.openapi.schemas import Error

ERRORS = {
    "400": "bad_request: malformed JSON, wrong types, unknown fields, out-of-range values",
    "401": "unauthorized: missing, forged or expired token",
    "403": "not_your_turn, not_seated, not_manager, banned, hints_off, forbidden (an operator "
    "route without the operator's signature or key)",
    "404": "not_found",
    "405": "method_not_allowed (the Allow header lists the path's methods)",
    "409": "stale_version (with the current view), seat_taken, wrong_status, too_many_tables, "
    "no_hints_left",
    "422": "illegal_move (the message names the meld or tile and why)",
    "429": "rate_limited",
    "503": "busy: the request lost a race too many times; safe to retry",
}
# The operator routes: in AWS a SigV4 signature (their API is AWS_IAM only); on the local stack
# the data folder's operator-key file in a header (API.md v4).
OPERATOR = {
    "operatorKey": {
        "type": "apiKey",
        "in": "header",
        "name": "X-Operator-Key",
        "description": "The local stack: the contents of the data folder's operator-key file "
        "(.data/operator-key). In AWS the operator API takes AWS_IAM (SigV4) signatures instead.",
    }
}
INFO = {
    "title": "Harftet",
    "version": "1.0.0",
    "description": "Online tables of Kastet and Harftet. WebSocket: connect to "
    "/ws?token=T&tableId=ID; every change to the table pushes "
    '{"type": "table", "view": TableView}; send {"action": "ping"} or '
    '{"action": "move", "tableId": ID, ...move body}; a move body with "dryRun": true '
    'is answered to that connection only, {"type": "dryRun", "legal": true, "view": ...} '
    'or {"type": "error", "error": {...}}.',
}


def all_routes() -> list[Route]:
    """Every route the REST API serves, in the document's order (a path where it first
    appears)."""
    return [
        *players.routes(),
        *tables.routes(),
        *inbox.routes(),
        *accounts.routes(),
        *people.routes(),
        *leagues.routes(),
        *operator.routes(),
        *words.routes(),
        *matchmaking.routes(),
        *tournaments.routes(),
    ]


def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document."""
    components = Components()
    move_body = tables.move_body(components)
    error = components.ref(Error)
    paths: dict[str, Any] = {}
    for route in all_routes():
        operation = _operation(route, components, move_body, error)
        paths.setdefault(route.path, {})[route.method] = operation
    paths["/players/me/push-subscriptions/{id}"] = {"delete": inbox.unsubscribe(_errors(error))}
    exact.apply(components.schemas)
    paths["/health"] = {
        "get": {"summary": "Ready check", "responses": {"200": {"description": "ready"}}}
    }
    return {
        "openapi": "3.1.0",
        "info": INFO,
        "paths": paths,
        "components": {
            "schemas": dict(sorted(components.schemas.items())),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}, **OPERATOR},
        },
    }


def _operation(
    route: Route, components: Components, move_body: dict[str, Any], error: dict[str, str]
) -> dict[str, Any]:
    """One operation: its summary, answers, parameters, body and security."""
    moves = route.path.endswith("/moves")
    if route.response is None:  # 204
        answer: dict[str, Any] = {"description": "done (no content)"}
    else:
        success: dict[str, Any] = components.ref(route.response)
        if moves:
            success = {"oneOf": [success, components.ref(tables.DryRun)]}
        answer = {"description": "success", "content": _json(success)}
    operation: dict[str, Any] = {
        "summary": route.summary,
        "responses": {
            route.status: answer,
            **_errors(error),
            "405": {
                "description": ERRORS["405"],
                "headers": {"Allow": {"required": True, "schema": {"type": "string"}}},
                "content": _json(error),
            },
        },
    }
    parameters: list[dict[str, Any]] = [
        {"name": name, "in": "path", "required": True, "schema": PATH_PARAMETERS[name]}
        for name in PATH_PARAMETERS
        if "{" + name + "}" in route.path
    ]
    parameters += route.query
    if parameters:
        operation["parameters"] = parameters
    body = move_body if moves else (components.ref(route.request) if route.request else None)
    if body is not None:
        # Sitting down takes no body (only a manager seating a computer player sends one).
        required = not route.path.endswith("/seats/{seat}")
        operation["requestBody"] = {"required": required, "content": _json(body)}
    if route.auth:
        operation["security"] = [{"bearer": []}]
    elif route.path.startswith("/operator/"):
        operation["security"] = [{"operatorKey": []}]
    return operation


def _errors(error: dict[str, str]) -> dict[str, Any]:
    """The error answers every operation has, by status."""
    return {code: {"description": text, "content": _json(error)} for code, text in ERRORS.items()}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}
