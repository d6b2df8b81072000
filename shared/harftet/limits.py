"""Per-player budgets (API.md "Errors": 429 ``rate_limited``): moves, dry runs, hints and
table creation per player, guest creation per source IP.

A fixed window per (kind, who): ``limit`` requests in each ``window`` seconds, counted in
DynamoDB (`harftet.store.limits`), so every Lambda instance and the local stack share the
same counts and one player's burst never spends another player's budget. Limits are an
operator setting: ``LIMITS=on`` turns them on (the template's default), anything else leaves
them off (the local stack's and the test suites' default). ``LIMIT_BUDGETS`` overrides the
budgets, e.g. ``move=20/10,hint=10/60``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from harftet.errors import RateLimitedError


@dataclass(frozen=True)
class Budget:
    limit: int  # requests
    window: int  # seconds


# Generous: a player never meets them in normal play (a move takes a human seconds).
DEFAULT_BUDGETS: dict[str, Budget] = {
    "move": Budget(20, 10),  # real moves, rejected ones included
    "dryRun": Budget(60, 60),
    "hint": Budget(10, 60),
    "table": Budget(10, 60),  # POST /tables
    "guest": Budget(20, 60),  # POST /players, per source IP
    "report": Budget(5, 600),  # POST /tables/{id}/reports (harftet.moderation)
    "invitation": Budget(30, 3600),  # POST /tables/{id}/invitations (API.md v4)
    "friendRequest": Budget(20, 3600),  # POST /players/me/friends {"code"} (API.md v4)
}


class Counter(Protocol):
    def hit(self, key: str, limit: int, expires_at: int) -> bool: ...

    def forget(self, key: str) -> None: ...


class Limits:
    """``check(kind, who, now)`` raises `RateLimitedError` when ``who`` is over budget."""

    def __init__(
        self, counter: Counter | None, budgets: Mapping[str, Budget] | None = None
    ) -> None:
        self.counter = counter  # None: limits off
        self.budgets = dict(DEFAULT_BUDGETS if budgets is None else budgets)

    @property
    def enabled(self) -> bool:
        return self.counter is not None

    def check(self, kind: str, who: str, now: float) -> None:
        budget = self.budgets.get(kind)
        if self.counter is None or budget is None:
            return
        start = int(now // budget.window) * budget.window
        end = start + budget.window
        if not self.counter.hit(f"{kind}#{who}#{start}", budget.limit, end + 60):
            raise RateLimitedError(kind, max(1, math.ceil(end - now)))

    def forget(self, who: str, now: float) -> None:
        """Delete ``who``'s counters that may still exist (this window's and the last one's,
        kept 60 s past its end): a deleted player's id stays in none of them."""
        if self.counter is None:
            return
        for kind, budget in self.budgets.items():
            start = int(now // budget.window) * budget.window
            for window in (start, start - budget.window):
                self.counter.forget(f"{kind}#{who}#{window}")


def parse_budgets(text: str) -> dict[str, Budget]:
    """``"move=20/10,hint=10/60"`` over the defaults; ValueError for anything else."""
    budgets = dict(DEFAULT_BUDGETS)
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, _, value = part.partition("=")
        limit, _, window = value.partition("/")
        if kind not in DEFAULT_BUDGETS or int(limit) < 1 or int(window) < 1:
            raise ValueError(
                f"bad budget '{part}': KIND=LIMIT/SECONDS, KIND one of {sorted(DEFAULT_BUDGETS)}"
            )
        budgets[kind] = Budget(int(limit), int(window))
    return budgets


def limits_from_env(counter: Callable[[], Counter], env: Mapping[str, str]) -> Limits:
    """Limits as LIMITS and LIMIT_BUDGETS say (``counter`` gives the store that counts,
    asked only when limits are on)."""
    budgets = parse_budgets(env.get("LIMIT_BUDGETS", ""))
    if env.get("LIMITS", "").lower() not in ("on", "1", "true", "yes"):
        return Limits(None, budgets)
    return Limits(counter(), budgets)
