"""A short game played through the public API, the way players' clients play it:
the pre-traffic hooks play one against a new version before it takes traffic (functions/
pretraffic: ``play``, REST only; functions/wspretraffic: ``play_on_socket``, a new WebSocket
version invoked directly), and the synthetic game plays one against a computer player
through the REST API and the WebSocket on a schedule (functions/synthetic:
``play_with_computer``; docs/DEPLOY.md "Deploys").

``call(method, path, body, token)`` → ``(status, body)`` is how it reaches the API (a Lambda
invoke of one version, or HTTP). A step that does not answer as documented ends the game:
the result names it. Every guest a game signs up (the result's ``guests``: their ids) is
deleted at its end (``DELETE /players/me``: the player and all they owned, inbox, mail and
sockets), whether the game passed, failed, or was cut short by an error; a guest that could
not be deleted fails the game and is named in ``left``, so no run leaves a player unseen."""

from __future__ import annotations

import base64
import json
import secrets
import time
import uuid
from collections.abc import Callable
from typing import Any, Protocol

Call = Callable[[str, str, dict[str, Any] | None, str | None], tuple[int, Any]]
# One WebSocket API event in, the WebSocket function's reply out (a Lambda invoke).
Deliver = Callable[[dict[str, Any]], dict[str, Any]]
PUSH_SECONDS = 10.0  # how long a push may take before the game counts as failed


class ProbeFailed(Exception):
    """A step answered what the API does not document for it."""


def _expect(step: str, answer: tuple[int, Any], status: int) -> Any:
    code, body = answer
    if code != status:
        raise ProbeFailed(f"{step}: {code} {str(body)[:200]}")
    return body


def play(call: Call, moves: int = 1, clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Two guests at a private 2-seat Kastet table: the first creates and starts it, then
    whoever's turn it is draws (which ends a turn), ``moves`` turns; both leave, and both are
    deleted (also after a failure). ``{"ok", "seconds", "moves", "guests", "error"?, "left"?}``. No
    computer player: nothing but the API under test moves."""
    started = clock()
    made = 0
    with Guests(call) as guests:
        try:
            tokens, table, view = _practice_table(call, guests)
            while made < moves:
                seat = _turn(view, made)
                move = {"version": view["version"], "moveId": uuid.uuid4().hex, "type": "draw"}
                view = _expect("draw", call("POST", f"{table}/moves", move, tokens[seat]), 200)
                made += 1
            _leave(call, table, tokens)
        except Exception as failed:  # a step answered otherwise, an invoke refused or timed out
            result = {"ok": False, "moves": made, "error": _why(failed)}
        else:
            result = {"ok": True, "moves": made}
    return guests.settle(result, clock() - started)


class Guests:
    """The guests a game signed up; leaving ``with`` deletes each (``DELETE /players/me``
    with its token: the player and everything they owned), whatever ended the game. A
    delete that fails is kept: ``settle`` fails the game with it."""

    def __init__(self, call: Call) -> None:
        self.call = call
        self.signed_up: list[tuple[str, str]] = []  # (playerId, token)
        self.made: list[str] = []  # every guest's playerId (the result's "guests")
        self.left: list[str] = []  # the players that could not be deleted
        self.error = ""

    def sign_up(self, name: str) -> str:
        """A new guest's token (the guest is deleted at the end)."""
        body = _expect("POST /players", self.call("POST", "/players", {"name": name}, None), 201)
        self.signed_up.append((str(body.get("playerId")), str(body["token"])))
        self.made.append(str(body.get("playerId")))
        return str(body["token"])

    def __enter__(self) -> Guests:
        return self

    def __exit__(self, *exc: object) -> None:
        for player_id, token in self.signed_up:
            try:
                _expect("delete guest", self.call("DELETE", "/players/me", None, token), 204)
            except Exception as error:  # the next guest is still deleted
                self.left.append(player_id)
                self.error = self.error or _why(error)
        self.signed_up = []

    def settle(self, result: dict[str, Any], seconds: float) -> dict[str, Any]:
        """``result`` with its ``seconds``, failed (``left``) if a guest was not deleted."""
        result = {**result, "seconds": seconds, "guests": self.made}
        if self.left:
            error = result.get("error") or self.error
            result |= {"ok": False, "error": str(error)[:300], "left": self.left}
        return result


def _why(error: BaseException) -> str:
    """A failed step's message: its own for a step that answered otherwise, else the error's
    kind and message (an invoke refused, a timeout)."""
    text = str(error) if isinstance(error, ProbeFailed) else f"{type(error).__name__}: {error}"
    return text[:300]


def _practice_table(call: Call, guests: Guests) -> tuple[list[str], str, dict[str, Any]]:
    """Two guests (``guests`` deletes them) at a private 2-seat Kastet table the first made
    and started: their tokens, the table's path and the view after the start."""
    tokens = [guests.sign_up(name) for name in ("Sonda", "Yoklama")]
    body = {"game": "kastet", "seats": 2, "hands": 1, "private": True}
    view = _expect("POST /tables", call("POST", "/tables", body, tokens[0]), 201)
    table = f"/tables/{view['tableId']}"
    _expect("sit", call("POST", f"{table}/seats/1", None, tokens[1]), 200)
    return tokens, table, _expect("start", call("POST", f"{table}/start", None, tokens[0]), 200)


def _turn(view: dict[str, Any], made: int) -> int:
    seat = _seat(view)
    if seat is None or seat not in (0, 1):
        raise ProbeFailed(f"no seat's turn after {made} moves: {view.get('status')}")
    return seat


def _leave(call: Call, table: str, tokens: list[str]) -> None:
    for seat, token in enumerate(tokens):
        _expect("leave", call("DELETE", f"{table}/seats/{seat}", None, token), 200)


def play_on_socket(
    call: Call, deliver: Deliver, clock: Callable[[], float] = time.monotonic
) -> dict[str, Any]:
    """The practice table of ``play`` made, sat and started over REST (``call``); the guest
    whose turn it is connects to it on the WebSocket function (``deliver``) with their token,
    syncs, draws, and disconnects; the draw must be what REST then shows; both leave over
    REST and are deleted (also after a failure). The connection is made up here, so no post
    reaches it: each answer is read from the function's reply. ``{"ok", "seconds", "moves",
    "guests", "error"?, "left"?}``."""
    started = clock()
    made = 0
    tokens: list[str] = []
    table = ""
    with Guests(call) as guests:
        try:
            tokens, table, view = _practice_table(call, guests)
            seat = _turn(view, made)
            # API Gateway's shape, URL-safe: a push to it names it in the Management API's path
            connection = base64.urlsafe_b64encode(secrets.token_bytes(11)).decode()
            query = {"token": tokens[seat], "tableId": str(view["tableId"])}
            try:  # closed even if $connect failed: it may have stored the connection first
                connect = socket_event("$connect", connection, query=query)
                _socket_status("$connect", deliver(connect))
                version = _sync_and_draw(deliver, connection, view)
                stored = _expect("GET table", call("GET", table, None, tokens[seat]), 200)
                if stored.get("version") != version:  # before $disconnect: it makes a version
                    raise ProbeFailed(f"the draw answered version {version}, REST shows {stored}")
                made = 1
            finally:
                closed = deliver(socket_event("$disconnect", connection))
            _socket_status("$disconnect", closed)
            _leave(call, table, tokens)
            result: dict[str, Any] = {"ok": True, "moves": made}
        except Exception as failed:  # a step answered otherwise, or the function raised
            if table:
                _leave_anyway(call, table, tokens)
            result = {"ok": False, "moves": made, "error": _why(failed)}
    return guests.settle(result, clock() - started)


def _sync_and_draw(deliver: Deliver, connection: str, view: dict[str, Any]) -> int:
    """A sync that must answer the view at its version, then a draw that must answer its
    delta: the version the draw made."""
    synced = _socket_answer("sync", deliver(socket_event("sync", connection, {"action": "sync"})))
    if synced.get("type") != "table" or synced["view"].get("version") != view["version"]:
        raise ProbeFailed(f"sync: {str(synced)[:200]}")
    move = {"action": "move", "tableId": view["tableId"], "version": view["version"],
            "moveId": uuid.uuid4().hex, "type": "draw"}  # fmt: skip
    moved = _socket_answer("move", deliver(socket_event("move", connection, move)))
    version = moved.get("version")
    if moved.get("type") != "delta" or moved.get("moveId") != move["moveId"]:
        raise ProbeFailed(f"move: {str(moved)[:200]}")
    if not isinstance(version, int) or version <= view["version"]:
        raise ProbeFailed(f"move: version {version} after {view['version']}")
    return version


def _socket_status(step: str, reply: Any) -> None:
    status = reply.get("statusCode") if isinstance(reply, dict) else None
    if status != 200:
        raise ProbeFailed(f"{step}: {status} {str(reply)[:200]}")


def _socket_answer(step: str, reply: Any) -> dict[str, Any]:
    """The answer a message's reply carries (what the socket was sent); an error ends it."""
    _socket_status(step, reply)
    answer = json.loads(reply.get("body") or "null")
    if not isinstance(answer, dict) or answer.get("type") == "error":
        raise ProbeFailed(f"{step}: {str(answer)[:200]}")
    return answer


def _leave_anyway(call: Call, table: str, tokens: list[str]) -> None:
    """After a failed game: each guest leaves if they can (a failure here changes nothing)."""
    for seat, token in enumerate(tokens):
        try:
            call("DELETE", f"{table}/seats/{seat}", None, token)
        except Exception:  # the game's own error is the one reported
            continue


def socket_event(
    route: str,
    connection_id: str,
    message: dict[str, Any] | None = None,
    query: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A WebSocket API event, as API Gateway sends one to the function: ``$connect`` (with
    the ``query`` string), ``$disconnect``, or a ``message`` on its action's route."""
    kind = {"$connect": "CONNECT", "$disconnect": "DISCONNECT"}.get(route, "MESSAGE")
    event: dict[str, Any] = {
        "requestContext": {
            "routeKey": route, "eventType": kind, "connectionId": connection_id,
            "stage": "live", "requestId": uuid.uuid4().hex, "messageDirection": "IN",
            "connectedAt": int(time.time() * 1000),
            "identity": {"sourceIp": "127.0.0.1", "userAgent": "harftet-probe"},
        },
        "isBase64Encoded": False,
    }  # fmt: skip
    if query is not None:
        event["headers"] = {"User-Agent": "harftet-probe"}
        event["queryStringParameters"] = query
    if message is not None:
        event["body"] = json.dumps(message)
    return event


class Socket(Protocol):
    """A WebSocket connection as the game uses it (websockets' sync client has this shape)."""

    def send(self, message: str) -> None: ...
    def recv(self, timeout: float | None = None) -> str | bytes: ...
    def close(self) -> None: ...


def play_with_computer(
    call: Call,
    connect: Callable[[str], Socket],
    ws_url: str,
    moves: int = 2,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """A guest against a computer player (no pause between its moves) at a private 2-seat
    Kastet table, as a client plays: the table made, the computer seated and the game started
    over REST; then on the WebSocket (opened with a connect ticket) the guest's ``moves`` turns
    are draws sent on the socket, each followed to the push of its change, and the computer's
    moves arrive as pushes; the guest leaves over REST and is deleted (also after a failure).
    ``{"ok", "seconds", "moves", "computerMoves", "pushSeconds" (the slowest move's
    send-to-push), "guests", "error"?, "left"?}``."""
    started = clock()
    game: dict[str, Any] = {"moves": 0, "computer": 0, "push": 0.0}
    with Guests(call) as guests:
        try:
            token = guests.sign_up("Sonda")
            body = {"game": "kastet", "seats": 2, "hands": 1, "private": True, "botSeconds": 0}
            view = _expect("POST /tables", call("POST", "/tables", body, token), 201)
            table_id = view["tableId"]
            table = f"/tables/{table_id}"
            seat = {"bot": True, "level": "easy"}
            _expect("computer player", call("POST", f"{table}/seats/1", seat, token), 200)
            ticket = _expect("ticket", call("POST", f"{table}/ticket", None, token), 201)
            socket = connect(f"{ws_url}?ticket={ticket['ticket']}&tableId={table_id}")
            try:
                view = _expect("start", call("POST", f"{table}/start", None, token), 200)
                _turns(socket, table_id, view, moves, game, clock)
            finally:
                socket.close()
            _expect("leave", call("DELETE", f"{table}/seats/0", None, token), 200)
            result: dict[str, Any] = {"ok": True, "pushSeconds": game["push"]}
        except Exception as failed:  # any step that fails (a refused socket, a timeout) fails
            result = {"ok": False, "error": _why(failed)}
    result |= {"moves": game["moves"], "computerMoves": game["computer"]}
    return guests.settle(result, clock() - started)


def _turns(
    socket: Socket,
    table_id: str,
    view: dict[str, Any],
    moves: int,
    game: dict[str, Any],
    clock: Callable[[], float],
) -> None:
    """Play the guest's (seat 0) turns over the socket until ``moves`` are made and the
    computer has answered the last; ``game`` counts them and keeps the slowest push."""
    while game["moves"] < moves or _seat(view) != 0:
        if view.get("status") != "playing":
            raise ProbeFailed(f"the game stopped after {game['moves']} moves: {view.get('status')}")
        if _seat(view) == 0 and game["moves"] < moves:
            sent = clock()
            move = {"action": "move", "tableId": table_id, "version": view["version"],
                    "moveId": uuid.uuid4().hex, "type": "draw"}  # fmt: skip
            socket.send(json.dumps(move))
            view = _next_push(socket, view)
            game["push"] = max(game["push"], clock() - sent)
            game["moves"] += 1
        else:  # the computer's turn: its move comes as a push
            view = _next_push(socket, view)
            game["computer"] += 1


def _seat(view: dict[str, Any]) -> int | None:
    seat = (view.get("turn") or {}).get("seat")
    return seat if isinstance(seat, int) else None


def _next_push(socket: Socket, view: dict[str, Any]) -> dict[str, Any]:
    """The view after the next change pushed on ``socket`` (pushes of versions held are
    skipped; a delta that does not apply asks for the whole view)."""
    from harftet.api.delta import DeltaError, apply_delta

    while True:
        message = json.loads(socket.recv(timeout=PUSH_SECONDS))
        kind = message.get("type")
        if kind == "error":
            raise ProbeFailed(f"move over the socket: {str(message.get('error'))[:200]}")
        if kind == "table" and message["view"]["version"] > view["version"]:
            return dict(message["view"])
        if kind == "delta" and message["version"] > view["version"]:
            try:
                return apply_delta(view, message)
            except DeltaError:
                socket.send(json.dumps({"action": "sync"}))


def api_event(method: str, path: str, body: Any, token: str | None) -> dict[str, Any]:
    """A REST API proxy event, as API Gateway sends one (to invoke a function directly)."""
    headers = {"content-type": "application/json", "user-agent": "harftet-probe"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return {
        "resource": path, "path": path, "httpMethod": method, "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": None, "pathParameters": None, "isBase64Encoded": False,
        "body": None if body is None else json.dumps(body),
        "requestContext": {
            "stage": "live", "requestId": uuid.uuid4().hex, "httpMethod": method,
            "path": path, "resourcePath": path, "identity": {"sourceIp": "127.0.0.1"},
        },
    }  # fmt: skip


def over_websocket(url: str) -> Socket:
    """A WebSocket connection to ``url`` (the synthetic game's socket: websockets' client)."""
    from websockets.sync.client import connect

    return connect(url, open_timeout=PUSH_SECONDS, close_timeout=2)


def over_http(base_url: str, timeout: float = 10.0) -> Call:
    """``call`` over HTTPS to the public REST API at ``base_url`` (the synthetic game)."""
    import urllib.error
    import urllib.request

    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        headers = {"content-type": "application/json", "user-agent": "harftet-synthetic"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base_url.rstrip("/") + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, error.read()[:200].decode("utf-8", "replace")
        except (urllib.error.URLError, TimeoutError, ValueError) as error:
            return 599, str(error)

    return call
