"""REST API: the routes of `harftet.rest` (parse → one feature call → reply) under one error
handler that maps every refusal in one place.

The import is a Lambda's cold start (bench/bench_cold_start.py), so it holds only what every
request needs: the request models (pydantic) are imported by the routes that read a body, the
application and its DynamoDB client are made on the first request that uses them
(harftet.bootstrap), and the dictionary is loaded by the first Harftet rule that needs it.
`prime` does all of it ahead (SnapStart).
"""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, CORSConfig, Response
from aws_lambda_powertools.logging.correlation_paths import API_GATEWAY_REST

from harftet.api.errors import error_response, language
from harftet.bootstrap import dynamodb, settings
from harftet.errors import RateLimitedError
from harftet.observability import new_logger, observed
from harftet.rest import ROUTERS
from harftet.rest.common import reply
from harftet.rest.methods import allowed_methods, method_not_allowed

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.typing import LambdaContext

logger = new_logger()


def _cors(origins: str) -> CORSConfig | None:
    """CORS for browser clients on ALLOWED_ORIGINS (comma-separated); none when empty."""
    allowed = [o.strip() for o in origins.split(",") if o.strip()]
    if not allowed:
        return None
    return CORSConfig(
        allow_origin=allowed[0],
        extra_origins=allowed[1:],
        # If-None-Match and ETag: the catalogue (GET /texts) is revalidated from another
        # origin too (catalogue.js); Retry-After says how long a 429 lasts.
        allow_headers=["Authorization", "Content-Type", "Accept-Language", "If-None-Match"],
        expose_headers=["Retry-After", "ETag"],
        max_age=600,
    )


app = APIGatewayRestResolver(cors=_cors(settings().allowed_origins))
for router in ROUTERS:
    app.include_router(router)


@app.exception_handler(Exception)
def _error(error: Exception) -> Response:
    status, body = error_response(error, language(app.current_event.headers))
    if status >= 500:
        logger.exception("unexpected error")
    if isinstance(error, RateLimitedError):
        return reply(status, body, {"Retry-After": str(error.retry_after)})
    return reply(status, body)


@app.not_found
def _not_found(_: Exception) -> Response:
    path = app.current_event.path
    allowed = allowed_methods(path)
    method = app.current_event.http_method
    if method in allowed:  # the path's shape, with an id no route takes (a control character...)
        return reply(404, {"error": {"code": "not_found", "message": f"nothing at {path[:200]}"}})
    if allowed:  # a known path, another method: 405 with Allow (harftet.rest.methods)
        status, body, allow = method_not_allowed(method, allowed)
        return reply(status, body, {"Allow": allow})
    return reply(404, {"error": {"code": "not_found", "message": f"no route {path[:200]}"}})


@observed(logger, None, tracing=settings().tracing, correlation_id_path=API_GATEWAY_REST)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    logger.append_keys(tableId=(event.get("pathParameters") or {}).get("tableId"))  # sam logs
    return app.resolve(event, context)


def prime() -> None:
    """Load now what a first request would: the DynamoDB client, the request models, the
    dictionary and its word index. Lambda SnapStart runs it before the snapshot (below), so a
    restored instance has it all; no network call (the client connects on its first request)."""
    from harftet.api import models
    from harftet.engine.words import default_words
    from harftet.engine.words.index import for_words

    dynamodb().real()
    for model in (models.CreatePlayer, models.CreateTable, models.SitDown, models.MoveRequest):
        model.model_rebuild()
    for_words(default_words())


try:  # the Lambda Python runtime (3.12+) ships it; elsewhere there is no snapshot to prime
    from snapshot_restore_py import register_before_snapshot
except ImportError:
    pass
else:
    register_before_snapshot(prime)


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
