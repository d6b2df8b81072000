"""A short game played through the public API, the way players' clients play it:
the pre-traffic hook plays it against a new version before it takes traffic (functions/
pretraffic), and the synthetic game does on a schedule (docs/DEPLOY.md "Deploys").

``call(method, path, body, token)`` → ``(status, body)`` is how it reaches the API (a Lambda
invoke of one version, or HTTP). A step that does not answer as documented ends the game:
the result names it."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from typing import Any

Call = Callable[[str, str, dict[str, Any] | None, str | None], tuple[int, Any]]


class ProbeFailed(Exception):
    """A step answered what the API does not document for it."""


def _expect(step: str, answer: tuple[int, Any], status: int) -> Any:
    code, body = answer
    if code != status:
        raise ProbeFailed(f"{step}: {code} {str(body)[:200]}")
    return body


def play(call: Call, moves: int = 1, clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Two guests at a private 2-seat Kastet table: the first creates and starts it, then
    whoever's turn it is draws (which ends a turn), ``moves`` turns; both leave. ``{"ok", "seconds",
    "moves", "error"?}``. No computer player: nothing but the API under test moves."""
    started = clock()
    made = 0
    try:
        tokens = [_guest(call, name) for name in ("Sonda", "Yoklama")]
        body = {"game": "kastet", "seats": 2, "hands": 1, "private": True}
        view = _expect("POST /tables", call("POST", "/tables", body, tokens[0]), 201)
        table = f"/tables/{view['tableId']}"
        _expect("sit", call("POST", f"{table}/seats/1", None, tokens[1]), 200)
        view = _expect("start", call("POST", f"{table}/start", None, tokens[0]), 200)
        while made < moves:
            seat = (view.get("turn") or {}).get("seat")
            if seat not in (0, 1):
                raise ProbeFailed(f"no seat's turn after {made} moves: {view.get('status')}")
            move = {"version": view["version"], "moveId": uuid.uuid4().hex, "type": "draw"}
            view = _expect("draw", call("POST", f"{table}/moves", move, tokens[seat]), 200)
            made += 1
        for seat, token in enumerate(tokens):
            _expect("leave", call("DELETE", f"{table}/seats/{seat}", None, token), 200)
    except (ProbeFailed, KeyError, TypeError) as failed:
        return {"ok": False, "seconds": clock() - started, "moves": made, "error": str(failed)}
    return {"ok": True, "seconds": clock() - started, "moves": made}


def _guest(call: Call, name: str) -> str:
    return str(
        _expect("POST /players", call("POST", "/players", {"name": name}, None), 201)["token"]
    )


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
