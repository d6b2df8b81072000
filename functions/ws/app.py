"""WebSocket API: $connect (token checked), $disconnect, and the message routes: move, sync
and ping (template.yaml routes each action to a route with its own throttle, this function
behind all of them) and $default (any other action: answered an error)."""

from __future__ import annotations

import gc

gc.disable()  # the cold start's imports run with the collector paused (bench_cold_start.py)

import json
import re
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.api.errors import BodyError, error_response, language, parse_json
from harftet.api.events import body_text
from harftet.api.models import MoveRequest, WsMove
from harftet.bootstrap import App, app, settings
from harftet.errors import NotFoundError, TooManyConnectionsError, UnauthorizedError
from harftet.identity import Caller
from harftet.observability import new_logger, observed
from harftet.store.transient import is_transient
from harftet.tickets import verify_ticket

logger = new_logger()
OK = {"statusCode": 200}
MAX_MESSAGE_BYTES = 16 * 1024  # a move is a few hundred bytes; larger is answered an error


def _connect(event: dict[str, Any], connection_id: str) -> dict[str, Any]:
    query = event.get("queryStringParameters") or {}
    current = app()
    try:
        table_id = query.get("tableId")
        ticket = query.get("ticket")
        if ticket and table_id:  # a 60 s ticket of POST /tables/{tableId}/ticket
            caller = current.callers.present(verify_ticket(current.tokens, ticket, table_id))
        else:
            caller = current.callers.check(query.get("token"))
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
    """Handle one client message: its answer, or its refusal, on the socket."""
    current = app()
    send = current.send
    assert send is not None
    lang = language(event.get("headers"))  # a socket's messages carry no headers on AWS
    message: Any = None
    try:
        message = parse_json(body_text(event, limit=MAX_MESSAGE_BYTES), limit=MAX_MESSAGE_BYTES)
        if isinstance(message, dict) and message.get("lang") in ("tr", "en"):
            lang = message["lang"]  # so a socket can ask for its language
        answer = _answer(current, message, connection_id)
    except Exception as error:  # every rejection is answered on the socket
        refusal = _refusal(error, lang, message)
        send(connection_id, refusal)
        return _replied(refusal)
    try:
        send(connection_id, answer)
    except Exception:  # a move stands; a client with no answer asks again (same moveId)
        logger.warning("an answer could not be sent", exc_info=True)
    return _replied(answer)


def _replied(sent: dict[str, Any]) -> dict[str, Any]:
    """OK, with what the socket was sent as its body: a two-way route's response. The
    template's routes are one-way, so API Gateway drops it (the client hears the post only);
    the WebSocket pre-traffic hook, which invokes a new version directly with a connection no
    post reaches, reads the answer here (functions/wspretraffic, harftet.probe)."""
    return {**OK, "body": json.dumps(sent, ensure_ascii=False, separators=(",", ":"))}


def _answer(current: App, message: Any, connection_id: str) -> dict[str, Any]:
    """What the socket is answered: a pong, the whole view (sync), a dry run's verdict, or a
    move's delta (the fan-out's push of that version leaves this socket out)."""
    action = message.get("action") if isinstance(message, dict) else None
    if action == "ping":
        return {"type": "pong"}
    if action not in ("move", "sync"):
        raise BodyError(
            'unknown action: send {"action": "ping"}, {"action": "sync"} or {"action": "move", ...}'
        )
    # Read per message (one eventually consistent GetItem, about $0.03 per million changes):
    # the socket's player and table. A $connect Lambda authorizer's context would carry both on
    # every message, but this read is also what refuses a socket whose item a deletion swept
    # when closing it failed or raced (a sync would otherwise still show the table): issue 40.
    connection = current.sockets.connection(connection_id)
    if connection is None:
        raise UnauthorizedError("this connection is not registered: reconnect")
    caller = Caller(str(connection["playerId"]), "")
    if not connection.get("tableId"):
        raise BodyError("this connection watches no table: open one with ?tableId=")
    if action == "sync":  # the whole view, for a client that missed a push
        return {"type": "table", "view": current.tables.view(caller, str(connection["tableId"]))}
    target = WsMove.model_validate({k: message.get(k) for k in ("action", "tableId")})
    if target.tableId != connection.get("tableId"):
        raise NotFoundError(  # a socket reaches its own table only
            f"no table {target.tableId[:40]} on this connection (it is for table "
            f"{connection.get('tableId')}): open a connection to that table"
        )
    body = {k: v for k, v in message.items() if k not in ("action", "tableId", "lang")}
    request = MoveRequest.model_validate({"body": body})
    sent = request.body
    current.limits.check("dryRun" if sent.dryRun else "move", caller.player_id, current.clock())
    if sent.dryRun:  # answered to this connection only; nothing is stored
        checked = current.hints.dry_run(caller, target.tableId, sent.version, request.move())
        return {"type": "dryRun", **checked}
    assert sent.moveId is not None  # the model requires it for a real move
    return current.tables.move_on_socket(
        caller, target.tableId, sent.version, sent.moveId, request.move(), connection_id
    )


def _refusal(error: Exception, lang: str, message: Any) -> dict[str, Any]:
    """The error message of a refused client message, with the REST API's status for the
    same refusal (so a client handles both alike) and the moveId it refuses."""
    status, payload = error_response(error, lang)
    if status >= 500:
        logger.exception("unexpected error")
    move_id = message.get("moveId") if isinstance(message, dict) else None
    about = {"moveId": move_id} if isinstance(move_id, str) and MOVE_ID.fullmatch(move_id) else {}
    return {"type": "error", "status": status, **payload, **about}


@observed(logger, None, tracing=settings().tracing)
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


gc.freeze()  # what the init built lives as long as the instance: out of every later pass
gc.enable()
