"""WebSocket API: $connect (token checked), $disconnect, and $default for ping, sync and
move."""

from __future__ import annotations

import gc

# A cold start's imports run with the cyclic collector paused: each pass it makes while they
# build boto3's and our modules walks everything built so far (bench/bench_cold_start.py:
# ~60 ms of the REST handler's init). Collection resumes at the end of this file.
gc.disable()

import re
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.api.errors import BodyError, error_response, language, parse_json
from harftet.api.events import body_text
from harftet.api.models import MoveRequest, WsMove
from harftet.bootstrap import app, settings
from harftet.errors import NotFoundError, TooManyConnectionsError, UnauthorizedError
from harftet.identity import Caller
from harftet.observability import traced
from harftet.store.transient import is_transient
from harftet.tickets import verify_ticket

logger = Logger()
OK = {"statusCode": 200}
MAX_MESSAGE_BYTES = 16 * 1024  # a move is a few hundred bytes; larger is answered an error


def _connect(event: dict[str, Any], connection_id: str) -> dict[str, Any]:
    query = event.get("queryStringParameters") or {}
    current = app()
    try:
        table_id = query.get("tableId")
        ticket = query.get("ticket")
        if ticket and table_id:  # a 60 s ticket of POST /tables/{tableId}/ticket
            caller = verify_ticket(current.tokens, ticket, table_id)
        else:
            caller = current.tokens.verify(query.get("token"))
        if not table_id:  # the player's own connection: invitations, friends' presence
            current.presence.open(caller, connection_id)
            return OK
        current.sockets.connect(caller, table_id, connection_id)
    except UnauthorizedError:
        return {"statusCode": 401, "body": "unauthorized"}
    except NotFoundError:
        return {"statusCode": 404, "body": "no such table"}
    except TooManyConnectionsError as error:
        return {"statusCode": 429, "body": str(error)}
    except Exception as error:
        if not is_transient(error):
            raise
        logger.warning("connect refused: DynamoDB is busy", extra={"error": str(error)})
        return {"statusCode": 503, "body": "busy: try again shortly"}
    return OK


MOVE_ID = re.compile(r"[\w.:-]{1,64}")  # an error names the move it refuses (its moveId)


def _message(event: dict[str, Any], connection_id: str) -> dict[str, Any]:
    """Handle one client message; rejections are answered on the socket."""
    current = app()
    send = current.send
    assert send is not None
    lang = language(event.get("headers"))  # a socket's messages carry no headers on AWS
    message: Any = None
    try:
        message = parse_json(body_text(event, limit=MAX_MESSAGE_BYTES), limit=MAX_MESSAGE_BYTES)
        action = message.get("action") if isinstance(message, dict) else None
        if action == "ping":
            send(connection_id, {"type": "pong"})
            return OK
        if action not in ("move", "sync"):
            raise BodyError(
                'unknown action: send {"action": "ping"}, {"action": "sync"} or '
                '{"action": "move", ...}'
            )
        connection = current.sockets.connection(connection_id)
        if connection is None:
            raise UnauthorizedError("this connection is not registered: reconnect")
        caller = Caller(str(connection["playerId"]), "")
        if not connection.get("tableId"):
            raise BodyError("this connection watches no table: open one with ?tableId=")
        if action == "sync":  # the whole view, for a client that missed a push
            view = current.tables.view(caller, str(connection["tableId"]))
            send(connection_id, {"type": "table", "view": view})
            return OK
        target = WsMove.model_validate({k: message.get(k) for k in ("action", "tableId")})
        if target.tableId != connection.get("tableId"):
            raise NotFoundError(  # a socket reaches its own table only
                f"no table {target.tableId[:40]} on this connection (it is for table "
                f"{connection.get('tableId')}): open a connection to that table"
            )
        if message.get("lang") in ("tr", "en"):  # so a socket can ask for its language
            lang = message["lang"]
        body = {k: v for k, v in message.items() if k not in ("action", "tableId", "lang")}
        request = MoveRequest.model_validate({"body": body})
        kind = "dryRun" if request.body.dryRun else "move"
        current.limits.check(kind, caller.player_id, current.clock())
        if request.body.dryRun:  # answered to this connection only; nothing is stored
            checked = current.hints.dry_run(
                caller, target.tableId, request.body.version, request.move()
            )
            send(connection_id, {"type": "dryRun", **checked})
            return OK
        assert request.body.moveId is not None  # the model requires it for a real move
        # answered here, at once: what changed for this player (the fan-out's push of this
        # version leaves this socket out)
        answer = current.tables.move_on_socket(
            caller,
            target.tableId,
            request.body.version,
            request.body.moveId,
            request.move(),
            connection_id,
        )
    except Exception as error:  # every rejection is answered on the socket
        status, payload = error_response(error, lang)
        if status >= 500:
            logger.exception("unexpected error")
        move_id = message.get("moveId") if isinstance(message, dict) else None
        about = (
            {"moveId": move_id} if isinstance(move_id, str) and MOVE_ID.fullmatch(move_id) else {}
        )
        # the REST API's status for the same refusal, so a client handles both alike
        send(connection_id, {"type": "error", "status": status, **payload, **about})
    else:
        try:
            send(connection_id, answer)
        except Exception:  # the move stands; a client with no answer asks again (same moveId)
            logger.warning("the answer to a move could not be sent", exc_info=True)
    return OK


@logger.inject_lambda_context
@traced(settings().tracing)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    context_ = event.get("requestContext", {})
    route = context_.get("routeKey")
    connection_id = context_["connectionId"]
    logger.append_keys(connection_id=connection_id, route=route)
    if route == "$connect":
        return _connect(event, connection_id)
    if route == "$disconnect":
        app().sockets.disconnect(connection_id)
        return OK
    return _message(event, connection_id)


# What the init built lives as long as the instance: frozen out of every later collection pass
# (a request's pass walks only what requests make), and collection resumes.
gc.freeze()
gc.enable()
