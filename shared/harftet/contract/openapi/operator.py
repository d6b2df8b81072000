"""The operator API (harftet.moderation): a day's reports, bans, closing a table. It takes AWS_IAM
signatures, never a player's token."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from harftet.contract.openapi.people import ReportAccepted
from harftet.contract.openapi.route import Route


class ReportView(ReportAccepted):
    seat: int
    kind: Literal["insult", "cheating", "other"]
    reported: str
    reporter: str
    at: int


class Reports(BaseModel):
    day: str
    reports: list[ReportView]


class BanView(BaseModel):
    playerId: str
    banned: bool


class ClosedTable(BaseModel):
    tableId: str
    status: str


REPORTS_QUERY = (
    {"name": "day", "in": "query", "schema": {"type": "string", "format": "date"}},
    {
        "name": "limit",
        "in": "query",
        "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 50},
    },
)
IAM = " (operator API: AWS_IAM, never a player token)"


def routes() -> list[Route]:
    """The operator API's routes."""
    return [
        Route("get", "/operator/reports", "Reports of a day" + IAM, None, "200", Reports, False,
              REPORTS_QUERY),
        Route("post", "/operator/players/{playerId}/ban", "Ban a player" + IAM, None, "200",
              BanView, False),
        Route("delete", "/operator/players/{playerId}/ban", "Unban a player" + IAM, None, "200",
              BanView, False),
        Route("post", "/operator/tables/{tableId}/close", "Close a table" + IAM, None, "200",
              ClosedTable, False),
    ]  # fmt: skip
