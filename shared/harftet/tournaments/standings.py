"""Tournament points and standings (RULES §8 "Tournaments"), pure and stdlib only.

A finished table's places give tournament points: 4 seats 3, 2, 1, 0; 2 seats 2, 0; seats
tied on penalty share their places' points (the mean, always a whole number of halves, so
points are kept as ``halves``). Computer players take places like anyone but are never
ranked. Standings order people by points, then lower total penalty, then the earlier finish
(the end of their latest table), then player id (a stable order for the rest)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

PLACE_POINTS = {4: (3, 2, 1, 0), 2: (2, 0)}
BOT = ""  # a computer player's seat in a result (never ranked)


def place_halves(penalties: Sequence[int]) -> list[int]:
    """Each seat's tournament points ×2 from the seats' total penalties (lowest first)."""
    scale = PLACE_POINTS.get(len(penalties))
    if scale is None:
        raise ValueError(f"a tournament table has 2 or 4 seats, not {len(penalties)}")
    order = sorted(range(len(penalties)), key=lambda i: penalties[i])
    halves = [0] * len(penalties)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and penalties[order[end + 1]] == penalties[order[start]]:
            end += 1
        span = scale[start : end + 1]
        share = 2 * sum(span) // len(span)  # the mean of k consecutive places: whole halves
        for k in range(start, end + 1):
            halves[order[k]] = share
        start = end + 1
    return halves


@dataclass(frozen=True, slots=True)
class Result:
    """One finished table: who sat where (``BOT`` for a computer player), each seat's total
    penalty, when it ended (epoch ms) and who left it (out of the tournament)."""

    round: int
    index: int
    players: tuple[str, ...]
    penalties: tuple[int, ...]
    ended_ms: int
    left: frozenset[str] = frozenset()


@dataclass(slots=True)
class Row:
    """One person's standing: points ×2, total penalty, tables played, latest end (ms)."""

    player_id: str
    halves: int = 0
    penalty: int = 0
    tables: int = 0
    last_ms: int = 0
    out: bool = False
    groups: list[frozenset[str]] = field(default_factory=list)

    @property
    def points(self) -> float | int:
        return self.halves // 2 if self.halves % 2 == 0 else self.halves / 2

    def key(self) -> tuple[int, int, int, str]:
        return (-self.halves, self.penalty, self.last_ms, self.player_id)


def retired(entrants: Mapping[str, Any]) -> frozenset[str]:
    """The entrants whose entry says they are out (a player deleted while the tournament
    was to come or under way: never seated again, not listed)."""
    return frozenset(p for p, e in entrants.items() if isinstance(e, Mapping) and e.get("out"))


def standings(
    entrants: Iterable[str], results: Iterable[Result], out: Iterable[str] = ()
) -> list[Row]:
    """Every entrant still in the tournament, best first (one who left a table, or is
    ``out``, is not listed; a computer player is never listed)."""
    rows = {pid: Row(pid) for pid in entrants}
    for pid in out:
        if pid in rows:
            rows[pid].out = True
    for result in sorted(results, key=lambda r: (r.round, r.index)):
        halves = place_halves(result.penalties)
        people = frozenset(p for p in result.players if p != BOT)
        for seat, pid in enumerate(result.players):
            row = rows.get(pid)
            if pid == BOT or row is None:
                continue
            row.halves += halves[seat]
            row.penalty += result.penalties[seat]
            row.tables += 1
            row.last_ms = max(row.last_ms, result.ended_ms)
            row.groups.append(people)
            if pid in result.left:
                row.out = True
    return sorted((r for r in rows.values() if not r.out), key=Row.key)


def shown(rows: Sequence[Row], names: dict[str, str]) -> list[dict[str, object]]:
    """Standings as the API shows them: ``rank`` (1-based; equal keys but the id share a
    rank), ``playerId``, ``name``, ``points``, ``penalty``, ``tables``."""
    found: list[dict[str, object]] = []
    before: tuple[int, int, int] | None = None
    rank = 0
    for i, row in enumerate(rows, 1):
        key = row.key()[:3]
        if key != before:
            rank, before = i, key
        found.append({
            "rank": rank, "playerId": row.player_id, "name": names.get(row.player_id, ""),
            "points": row.points, "penalty": row.penalty, "tables": row.tables,
        })  # fmt: skip
    return found


def podium(rows: Sequence[Row]) -> list[tuple[str, int]]:
    """The podium of final standings: (player id, place 1–3) of everyone ranked 1–3 — ties
    share a place, so a player tied with the third has the third place too."""
    found = []
    for r in shown(rows, {}):
        if int(str(r["rank"])) > 3:
            break
        found.append((str(r["playerId"]), int(str(r["rank"]))))
    return found
