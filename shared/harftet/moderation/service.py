"""Player reports and the operator's actions (API.md v3 "People", RULES §7): a seated player
reports another seat; operators (IAM-only in AWS) list a day's reports, ban or unban a player,
and close a table (through the tables' own use case)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from harftet.engine.state import Table
from harftet.errors import BadRequestError, NotFoundError
from harftet.store.ports import ProfileStorePort, TableStorePort

REPORT_KINDS = ("insult", "cheating", "other")
REPORTS_LIMIT = 100


def day_of(now: float) -> str:
    """The UTC day of ``now`` (reports are listed by day)."""
    return datetime.fromtimestamp(now, UTC).date().isoformat()


def report_json(item: dict[str, Any]) -> dict[str, Any]:
    keys = ("reportId", "tableId", "version", "seat", "kind", "reported", "reporter", "at")
    return {k: (int(item[k]) if k in ("version", "seat", "at") else item[k]) for k in keys}


def new_report(
    table: Table, version: int, reporter: str, seat: int, kind: str, now: float
) -> dict[str, Any]:
    """A report on ``seat`` of ``table`` at ``version`` (checked: a player, not the reporter)."""
    if kind not in REPORT_KINDS:
        raise BadRequestError(f"kind must be one of {', '.join(REPORT_KINDS)}", field="kind")
    if not 0 <= seat < len(table.seats):
        raise BadRequestError(f"seat must be between 0 and {len(table.seats) - 1}", field="seat")
    chair = table.seats[seat]
    reported = chair.occupant or chair.original
    if reported is None or reported.bot:
        raise BadRequestError(f"seat {seat} holds no player to report", field="seat")
    if reported.player_id == reporter:
        raise BadRequestError("you cannot report yourself", field="seat")
    return {
        "reportId": f"{int(now)}-{secrets.token_hex(4)}",
        "tableId": table.table_id,
        "version": version,
        "seat": seat,
        "kind": kind,
        "reported": reported.player_id,
        "reporter": reporter,
        "at": int(now),
    }


@dataclass(eq=False)
class Moderation:
    """Reports, bans and closing tables; ``close_table(table_id)`` is the tables' use case."""

    profiles: ProfileStorePort
    tables: TableStorePort
    clock: Callable[[], float]
    close_table: Callable[[str], dict[str, Any]]

    def report(self, reporter: str, table_id: str, seat: int, kind: str) -> dict[str, Any]:
        """Keep a report on a seat of a table for review."""
        stored = self.tables.get(table_id)  # 404 for an unknown table
        now = self.clock()
        report = new_report(stored.table, stored.version, reporter, seat, kind, now)
        key = f"report#{table_id}#{report['reportId']}"
        self.profiles.add_report(report, key, day_of(now), int(now))
        return {"reportId": report["reportId"], "tableId": table_id, "version": stored.version}

    def reports(self, day: str | None, limit: int) -> dict[str, Any]:
        """A day's reports, newest first (today's without ``day``)."""
        if day is None:
            day = day_of(self.clock())
        try:
            datetime.strptime(day, "%Y-%m-%d")
        except ValueError as error:
            raise BadRequestError("day must be a date, YYYY-MM-DD", field="day") from error
        if not 1 <= limit <= REPORTS_LIMIT:
            raise BadRequestError(f"limit must be between 1 and {REPORTS_LIMIT}", field="limit")
        return {"day": day, "reports": [report_json(i) for i in self.profiles.reports(day, limit)]}

    def ban(self, player_id: str, banned: bool) -> dict[str, Any]:
        """Ban or unban a player (no sitting down, no new tables while banned)."""
        if not 0 < len(player_id) <= 64 or "#" in player_id:
            raise NotFoundError(f"no player {player_id[:64]}")
        self.profiles.set_ban(player_id, banned, self.clock())
        return {"playerId": player_id, "banned": banned}
