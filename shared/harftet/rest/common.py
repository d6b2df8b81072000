"""What every REST route shares: the application, the caller, the body, the budgets, and
the answer. A route parses, makes one call of a feature, and replies; a refusal raised
anywhere goes to the one error handler (functions/rest/app.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from harftet.api.body import MAX_BODY_BYTES
from harftet.api.errors import parse_json
from harftet.api.events import body_text
from harftet.bootstrap import App, app
from harftet.errors import BadRequestError
from harftet.identity import Caller, bearer

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "App",
    "Routes",
    "app",
    "body",
    "caller",
    "count",
    "limit",
    "reply",
    "seat",
    "signed",
    "source_ip",
]

SEAT = re.compile(r"[0-9]{1,2}")
COUNT = re.compile(r"[0-9]{1,9}")
Model = TypeVar("Model", bound="BaseModel")


def reply(status: int, body: Any = None, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer (204: an empty one)."""
    if status == 204:
        return Response(status_code=204, body=None, headers=headers)
    return Response(status, content_type="application/json", body=body, headers=headers)


def body(event: Any) -> Any:
    """The request's JSON body (BodyError saying what is wrong with it)."""
    return parse_json(body_text(event.raw_event, limit=MAX_BODY_BYTES), limit=MAX_BODY_BYTES)


def caller(event: Any) -> Caller:
    """Who the request's bearer token names, if that player still exists (401 otherwise)."""
    return app().callers.check(bearer(event.headers.get("authorization")))


def signed(event: Any) -> Caller:
    """Who the request's bearer token names, its signature checked only: for the routes whose
    use case answers a seated player only and checks the player on a refusal (the move path,
    harftet.accounts.callers)."""
    return app().callers.signed(bearer(event.headers.get("authorization")))


def source_ip(event: Any) -> str:
    """The request's source address, as API Gateway gives it."""
    return event.request_context.identity.source_ip or "unknown"


def limit(kind: str, who: str) -> None:
    """429 rate_limited when ``who`` is over its ``kind`` budget (harftet.limits)."""
    current = app()
    current.limits.check(kind, who, current.clock())


def seat(raw: str) -> int:
    """A seat number from the path."""
    if not SEAT.fullmatch(raw):
        raise BadRequestError(f"seat must be a seat number (0-3), not '{raw[:16]}'", field="seat")
    return int(raw)


def count(name: str, raw: str | None) -> int:
    """A whole number from the query."""
    if raw is None or not COUNT.fullmatch(raw):
        shown = (raw or "")[:16]
        raise BadRequestError(f"{name} must be a whole number, not '{shown}'", field=name)
    return int(raw)


class Routes(APIGatewayRouter):
    """A feature's routes, and what a route reads of the request it answers."""

    def caller(self) -> Caller:
        """Who the request's bearer token names, if that player still exists (401 otherwise)."""
        return caller(self.current_event)

    def signed(self) -> Caller:
        """The bearer token's caller, its signature checked only (the move path: `signed`)."""
        return signed(self.current_event)

    def body(self) -> Any:
        """The request's JSON body (400 saying what is wrong with it)."""
        return body(self.current_event)

    def sent(self, model: type[Model]) -> Model:
        """The request's JSON body as ``model`` (400 naming the field at fault)."""
        return model.model_validate(self.body())

    def source_ip(self) -> str:
        """The request's source address."""
        return source_ip(self.current_event)

    def relay(self, routes: dict[str, str]) -> None:
        """Routes (``{"METHOD path": "feature.method"}``) that only hand the caller and the
        path's parameters (in order) to a use case of the application, and answer 200 with
        what it returns, or 204 when it returns nothing."""
        for route, use_case in routes.items():
            method, path = route.split(" ")
            self.route(path, method)(_relay(self, *use_case.split(".")))


def _relay(routes: Routes, feature: str, name: str) -> Callable[..., Response]:
    """The route of one use case: ``app().<feature>.<name>(caller, *path parameters)``."""

    def relayed(**params: str) -> Response:
        found = getattr(getattr(app(), feature), name)(routes.caller(), *params.values())
        return reply(200, found) if found is not None else reply(204)

    relayed.__name__ = name
    return relayed
