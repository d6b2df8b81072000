"""The operators' routes (IAM-only in AWS: the OperatorApi): reports, bans, closing a
table."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response

from harftet.errors import ForbiddenError

from .common import Routes, app, count, reply

router = Routes()


def _moderation() -> Any:
    """Moderation, for a signed operator only: API Gateway names the IAM caller (in AWS a
    SigV4 signature; on the local stack the X-Operator-Key header, API.md v4). Test mode lets
    nobody else through: a web page's cross-site POST to a developer's stack carries neither."""
    current = app()
    identity = router.current_event.request_context.identity
    if not identity.user_arn:
        raise ForbiddenError(
            "operator routes need IAM authorisation (on the local stack: the X-Operator-Key "
            "header with the contents of the data folder's operator-key file)"
        )
    return current.moderation


@router.get("/operator/reports")
def operator_reports() -> Response:
    moderation = _moderation()
    query = router.current_event.get_query_string_value
    return reply(200, moderation.reports(query("day", None), count("limit", query("limit", "50"))))


@router.post("/operator/players/<player_id>/ban")
def operator_ban(player_id: str) -> Response:
    return reply(200, _moderation().ban(player_id, True))


@router.delete("/operator/players/<player_id>/ban")
def operator_unban(player_id: str) -> Response:
    return reply(200, _moderation().ban(player_id, False))


@router.post("/operator/tables/<table_id>/close")
def operator_close(table_id: str) -> Response:
    return reply(200, _moderation().close_table(table_id))
