"""An echo WebSocket handler for the emulator's own tests; it answers through the Management API."""

from __future__ import annotations

import json
import os
from typing import Any

import boto3

client = boto3.client("apigatewaymanagementapi", endpoint_url=os.environ["WS_ENDPOINT"])


def _log(entry: dict[str, Any]) -> None:
    with open(os.environ["ECHO_LOG"], "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")


def _post(connection_id: str, data: Any) -> None:
    client.post_to_connection(ConnectionId=connection_id, Data=json.dumps(data).encode())


def handler(event: dict[str, Any], context: Any) -> Any:
    """$connect refuses token=bad|forbidden; $default runs the message's `action`."""
    ctx = event["requestContext"]
    me = ctx["connectionId"]
    route = ctx["routeKey"]
    if route == "$connect":
        token = str((event.get("queryStringParameters") or {}).get("token"))
        _log({"route": route, "connectionId": me, "query": event.get("queryStringParameters")})
        if token == "boom":
            raise RuntimeError("connect failed")
        return {"statusCode": {"bad": 401, "forbidden": 403}.get(token, 200)}
    if route == "$disconnect":
        _log({"route": route, "connectionId": me, "status": ctx.get("disconnectStatusCode")})
        return {"statusCode": 200}
    message = json.loads(event["body"])
    action = message.get("action")
    if action == "echo":
        _post(
            me,
            {
                "echo": message.get("data"),
                "routeKey": route,
                "eventType": ctx["eventType"],
                "connectionId": me,
                "pid": os.getpid(),
            },
        )
    elif action == "send":
        try:
            _post(message["to"], message.get("data"))
            _post(me, {"sent": True})
        except client.exceptions.GoneException:
            _post(me, {"gone": True})
    elif action == "info":
        info = client.get_connection(ConnectionId=me)
        _post(
            me,
            {
                "sourceIp": info["Identity"]["SourceIp"],
                "connectedAt": info["ConnectedAt"].isoformat(),
            },
        )
    elif action == "kick":
        client.delete_connection(ConnectionId=me)
    elif action == "raise":
        raise RuntimeError("message failed")
    elif action == "reply":
        return {"statusCode": 200, "body": json.dumps({"reply": True})}
    return {"statusCode": 200}
