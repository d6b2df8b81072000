"""League weeks (RULES §8): ISO weeks of the Europe/Istanbul calendar, ``"2026-W49"``, each
from Monday 00:00 to the next Monday 00:00 Istanbul time."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

ISTANBUL = ZoneInfo("Europe/Istanbul")
WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


def week_of(now: float) -> str:
    """The league week ``now`` (epoch seconds) falls in."""
    year, number, _ = datetime.fromtimestamp(now, ISTANBUL).isocalendar()
    return f"{year}-W{number:02d}"


def monday(week: str) -> date:
    """The Monday that starts ``week``; ValueError for a string that is no ISO week."""
    found = WEEK.match(week)
    if not found:
        raise ValueError(f"not an ISO week: {week!r}")
    return date.fromisocalendar(int(found[1]), int(found[2]), 1)


def start_of(week: str) -> float:
    day = monday(week)
    return datetime(day.year, day.month, day.day, tzinfo=ISTANBUL).timestamp()


def end_of(week: str) -> float:
    """When ``week`` ends: the next Monday 00:00 Istanbul (epoch seconds)."""
    day = monday(week) + timedelta(days=7)
    return datetime(day.year, day.month, day.day, tzinfo=ISTANBUL).timestamp()


def previous(week: str) -> str:
    year, number, _ = (monday(week) - timedelta(days=7)).isocalendar()
    return f"{year}-W{number:02d}"


ROLL_SCHEDULE = "cron(0/10 0-3 ? * MON *)"
"""When the roll-over runs, Europe/Istanbul (template.yaml's LeaguesFunction; the local stack
runs it by `roll_due`): every 10 minutes of Monday 00:00–03:50."""


def roll_due(after: float, until: float) -> bool:
    """Whether a run of ``ROLL_SCHEDULE`` falls in (``after``, ``until``] (epoch seconds)."""
    slot = (int(after) // 600 + 1) * 600  # Istanbul is a whole number of hours from UTC
    while slot <= until:
        local = datetime.fromtimestamp(slot, ISTANBUL)
        if local.weekday() == 0 and local.hour < 4:
            return True
        slot += 600
        if slot - after > 8 * 24 * 3600:
            return False
    return False
