"""When a tournament's rounds may start (RULES §8: "a round starts when every table of the
last one has ended, or at its scheduled time, whichever is later"). Round 1 is at
``startsAt``; with ``roundMinutes`` (an operator's setting) round n is scheduled
``(n − 1) · roundMinutes`` minutes after it, and without it a later round has no time of its
own (it starts as soon as the last table of the round before ends)."""

from __future__ import annotations

from typing import Any


def round_at(t: dict[str, Any], round_number: int) -> int | None:
    """The scheduled start of ``round_number`` (epoch s); None: it has no time of its own."""
    starts = int(float(t["startsAt"]))
    if round_number <= 1:
        return starts
    minutes = int(t.get("roundMinutes") or 0)
    return starts + (round_number - 1) * minutes * 60 if minutes > 0 else None


def is_due(t: dict[str, Any], round_number: int, now: float) -> bool:
    """Whether ``round_number``'s scheduled time (if it has one) has come."""
    at = round_at(t, round_number)
    return at is None or now >= at


def next_round_at(t: dict[str, Any], now: float) -> int | None:
    """When the round after the one now (round 1 while registering) is scheduled to start;
    None when there is none to come, it has no time of its own, or its time has passed
    (then it starts as soon as the last table of the round now ends)."""
    status = t.get("status")
    if status == "finished":
        return None
    if status == "registering":
        return round_at(t, 1)
    coming = int(t.get("round") or 0) + 1
    at = round_at(t, coming) if coming <= int(t["rounds"]) else None
    return at if at is not None and at > now else None
