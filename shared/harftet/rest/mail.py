"""The inbox and notification routes (API.md v3 "Inbox and notifications")."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response

from harftet.api.errors import language
from harftet.errors import BadRequestError

from .common import Routes, app, reply

router = Routes()


def _mailing(feature: Any) -> Any:
    if feature is None or app().stores.mail is None:
        raise BadRequestError("this server keeps no inbox (MAIL_TABLE is not set)")
    return feature


@router.get("/players/me/tables")
def my_tables() -> Response:
    who = router.caller()
    cursor = router.current_event.get_query_string_value("cursor", None)
    return reply(200, _mailing(app().inbox).tables(who, cursor))


@router.post("/players/me/push-subscriptions")
def add_push_subscription() -> Response:
    who = router.caller()
    headers = router.current_event.headers or {}
    asked = any(str(k).lower() == "accept-language" for k in headers)
    lang = language(headers) if asked else "tr"  # notifications are Turkish unless asked
    subscriptions = _mailing(app().subscriptions)
    return reply(201, subscriptions.subscribe(who, router.body(), lang))


@router.delete("/players/me/push-subscriptions/<sub_id>")
def remove_push_subscription(sub_id: str) -> Response:
    _mailing(app().subscriptions).unsubscribe(router.caller(), sub_id)
    return Response(status_code=204, content_type="application/json", body="")


@router.post("/players/me/devices")
def add_device() -> Response:
    who = router.caller()
    return reply(201, _mailing(app().subscriptions).add_device(who, router.body()))


@router.get("/push/key")
def push_key() -> Response:
    return reply(200, _mailing(app().subscriptions).key())
