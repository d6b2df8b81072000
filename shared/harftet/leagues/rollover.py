"""The weekly roll-over (RULES §8), run by a schedule on Mondays from 00:00 Europe/Istanbul:
for each division of the week that ended, the tier of each member who moves (the top 5 up,
the bottom 5 down; one who stays keeps the tier their place names), then the division marked
rolled, then the week marked done.

Exactly once however often it runs, and resumable: a tier earned is written only while the
player's place is still that week's (one who already played the new week had it worked out
the same way by their game's end); a division is marked only if nobody changed it since it
was read (else it is rolled again from a fresh read); a run that finds the week done reads
one item and stops, and one that stopped half-way (a crash, its time budget) skips the
divisions already marked. Every read is a GetItem on a key made for it: the tiers' counts
name every division (no Scan)."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from harftet.store.ports import LeagueStorePort

from .standings import TIERS, division_id, results
from .weeks import end_of, previous, week_of

GAMES = ("harftet", "kastet")
GRACE = 30.0  # seconds after the week's end before it is rolled (games ending at 23:59:59)


@dataclass
class RollOver:
    """``roll_over(week=None)``: roll the week that ended last (or ``week``) over."""

    store: LeagueStorePort
    clock: Callable[[], float]
    workers: int = 8
    budget: float = 780.0  # seconds of one run (a Lambda has 900): the next run goes on

    def __call__(self, week: str | None = None) -> dict[str, Any]:
        now = self.clock()
        week = week or previous(week_of(now))
        if now < end_of(week) + GRACE:
            return {"week": week, "status": "early", "divisions": 0, "players": 0}
        stop = time.monotonic() + self.budget
        rolled = players = 0
        for game in GAMES:
            if self.store.week_done(game, week):
                continue
            for ids in self._division_ids(game, week):
                todo = [d for d in self.store.divisions(game, week, ids) if not d.get("rolled")]
                with ThreadPoolExecutor(self.workers) as pool:
                    players += sum(
                        pool.map(self._division, [game] * len(todo), [week] * len(todo), todo)
                    )
                rolled += len(todo)
                if time.monotonic() > stop:
                    return {"week": week, "status": "more", "divisions": rolled,
                            "players": players}  # fmt: skip
            self.store.mark_done(game, week, int(now))
        return {"week": week, "status": "done", "divisions": rolled, "players": players}

    def _division_ids(self, game: str, week: str) -> list[list[str]]:
        """Every division of the week, 100 at a time (from the tiers' counts)."""
        ids: list[str] = []
        for tier in TIERS:
            opened = self.store.opened(game, week, tier)
            if opened is not None:
                ids += [division_id(tier, n) for n in range(1, opened[0] + 1)]
        return [ids[i : i + 100] for i in range(0, len(ids), 100)]

    def _division(self, game: str, week: str, item: dict[str, Any]) -> int:
        """Write each member's earned tier, then mark the division; again from a fresh read
        if it changed meanwhile. Returns the members."""
        division = str(item["division"])
        for _ in range(5):
            for pid, (_, move, tier) in sorted(results(item).items()):
                if move != "stay":  # one who stays needs no write: their place says it
                    self.store.earned(game, pid, week, tier)
            if self.store.mark_rolled(game, week, division, int(item["v"])):
                return len(item.get("m") or {})
            fresh = self.store.division(game, week, division)
            if fresh is None or fresh.get("rolled"):
                return 0
            item = {**fresh, "division": division}
        raise RuntimeError(f"division {division} of {week} keeps changing")
