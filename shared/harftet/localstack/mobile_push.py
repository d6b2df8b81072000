"""Mobile push on the local stack: SNS platform applications in moto, and a receiver to read
what reached a phone (issue 35, finding 10).

In AWS the operator creates the SNS platform applications (FCM, APNs) and passes their ARNs
to the functions (template.yaml's FcmApplicationArn, ApnsApplicationArn). The local stack
creates one of each in its moto server at every start and gives the functions their ARNs,
so ``POST /players/me/devices`` registers a phone (an SNS platform endpoint) and the notifier
publishes to it as in AWS. moto keeps what is published to an endpoint; in test mode the
receiver routes show it:

- ``GET /push-receiver/devices/{token}`` → ``{"platform", "enabled", "messages": [...]}``:
  each message as the phone's app reads it (the notification's title and body, and the
  payload the notifier put in it: kind, url, ...).
- ``PUT /push-receiver/devices/{token}/status`` ``{"enabled": false}``: the endpoint disabled,
  as SNS does when FCM or APNs says the app is gone (the notifier then forgets the device).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from harftet.localstack.environment import ACCOUNT, MOBILE_APPLICATIONS, REGION

# Where each platform's part of a published message is (MessageStructure "json").
MESSAGE_KEYS = {"GCM": "GCM", "APNS": "APNS", "APNS_SANDBOX": "APNS_SANDBOX"}
PREFIX = "/push-receiver/devices/"


def create_applications(sns: Any) -> None:
    """Create the platform applications in moto (``sns``: a boto3 SNS client for it)."""
    for kind, name in MOBILE_APPLICATIONS.values():
        sns.create_platform_application(
            Name=name, Platform=kind, Attributes={"PlatformCredential": "local"}
        )


def _endpoint(token: str) -> Any:
    """moto's platform endpoint for a device token (moto runs in this process), or None."""
    from moto.sns.models import sns_backends

    backend = sns_backends[ACCOUNT][REGION]
    return next((e for e in backend.platform_endpoints.values() if e.token == token), None)


def _as_read(kind: str, raw: str) -> dict[str, Any]:
    """A published message as the phone's app reads it."""
    whole = json.loads(raw)
    if MESSAGE_KEYS[kind] not in whole:  # SNS sends the endpoint the bare default text
        return {"notification": {"body": whole["default"]}}
    part = json.loads(whole[MESSAGE_KEYS[kind]])
    if kind == "GCM":
        notification, payload = part["notification"], part["data"]["payload"]
    else:
        notification, payload = part["aps"]["alert"], part["payload"]
    return {**json.loads(payload), "notification": notification}


async def device(request: Request) -> Response:
    found = _endpoint(request.path_params["token"])
    if found is None:
        return JSONResponse({"error": "no device has this token"}, status_code=404)
    kind = found.application.platform
    return JSONResponse(
        {
            "platform": {v[0]: k for k, v in MOBILE_APPLICATIONS.items()}.get(kind, kind),
            "enabled": found.enabled,
            "messages": [_as_read(kind, raw) for raw in list(found.messages.values())],
        }
    )


async def status(request: Request) -> Response:
    found = _endpoint(request.path_params["token"])
    if found is None:
        return JSONResponse({"error": "no device has this token"}, status_code=404)
    enabled = bool((await request.json()).get("enabled"))
    found.attributes["Enabled"] = enabled  # what SNS does when the app is uninstalled
    return JSONResponse({"enabled": enabled})


def routes() -> list[Route]:
    """The receiver's routes, for the emulator to mount in test mode."""
    return [
        Route(PREFIX + "{token}", device, methods=["GET"]),
        Route(PREFIX + "{token}/status", status, methods=["PUT"]),
    ]
