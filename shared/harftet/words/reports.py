"""Players' reports on words (`POST /words/{word}/reports`), kept for operators.

One item per word in the players table (`word#<WORD>`: a count per kind, ``wrong`` and
``missing``, and the total), added to atomically. A player counts once per word and kind: the
same transaction writes a marker (`wordreport#<WORD>#<kind>#<hash of the player id>`, gone
after a year: TTL), so a retried request or a second tap is answered 202 and counted once; the
marker holds no player id, only its SHA-256.

A player may send 10 reports an hour (429 `rate_limited` with Retry-After beyond), counted as
the other budgets are (harftet.limits, fixed windows in the connections table); unlike them
this budget is always on: reports are read by people.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harftet.limits import Budget, Limits
from harftet.store.ports import WordReportStorePort
from harftet.words.info import normalise_word

__all__ = ["KINDS", "REPORT_BUDGET", "WordReports"]

KINDS = ("wrong", "missing")
REPORT_BUDGET = Budget(10, 3600)


@dataclass(eq=False)
class WordReports:
    """Players' reports on words, at most ``REPORT_BUDGET`` a player."""

    store: WordReportStorePort
    limits: Limits
    clock: Callable[[], float]

    def report(self, player_id: str, raw_word: str, kind: str) -> dict[str, Any]:
        """Count ``player_id``'s report; `WordInputError`/ValueError on bad input (nothing
        stored), `RateLimitedError` past the budget."""
        word = normalise_word(raw_word)
        if kind not in KINDS:
            raise ValueError(f"kind: one of {', '.join(KINDS)}")
        now = self.clock()
        self.limits.check("wordReport", player_id, now)
        self.store.add(word, kind, hashlib.sha256(player_id.encode("utf-8")).hexdigest(), now)
        return {"word": word, "kind": kind}

    def counts(self, raw_word: str) -> dict[str, int]:
        """For operators: ``{"wrong": n, "missing": n, "reports": n}`` of a word."""
        return self.store.counts(normalise_word(raw_word))
