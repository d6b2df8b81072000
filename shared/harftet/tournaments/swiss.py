"""Who sits with whom in a tournament round (RULES §8 "Tournaments"), pure and stdlib only.

Round 1 is a random draw; later rounds are Swiss: people in standings order, the top ones
together, and so on. The same group of people (two or more) never sits together twice where
it can be avoided: a bounded search keeps the standings order as far as it can and changes
it only to avoid a group met before (it gives up after ``BUDGET`` steps and then accepts the
fewest repeats the plain order has). Seats nobody fills take ``hard`` computer players: the
tables are as even as can be (5 people at 4-seat tables: 3 and 2, never 4 and 1).

The draw's randomness comes from the tournament's own secret (``draw``), never a table's
seed, and is shown to nobody: ``rng_for`` makes the same generator for the same round, so a
round-starter that died half-way seats the same tables again."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Collection, Sequence
from itertools import combinations, product

BUDGET = 20_000  # search steps before the plain standings order is taken
Group = frozenset[str]


def rng_for(draw: str, tournament_id: str, round_number: int) -> random.Random:
    """The round's generator, from the tournament's secret draw (HMAC: nothing of the
    secret can be read back from the seating)."""
    digest = hmac.new(draw.encode(), f"{tournament_id}:{round_number}".encode(), hashlib.sha256)
    return random.Random(int.from_bytes(digest.digest()[:16], "big"))


def table_sizes(people: int, seats: int) -> list[int]:
    """How many people sit at each table: as few tables as fit everyone, as even as can be
    (larger ones first)."""
    if people <= 0:
        return []
    tables = -(-people // seats)
    return [people // tables + (1 if i < people % tables else 0) for i in range(tables)]


def first_round(people: Sequence[str], seats: int, rng: random.Random) -> list[list[str]]:
    """A random draw: each table's people."""
    order = list(people)
    rng.shuffle(order)
    return _chunks(order, table_sizes(len(order), seats))


def swiss_round(
    ranked: Sequence[str], seats: int, met: Collection[Group], budget: int = BUDGET
) -> list[list[str]]:
    """Tables of the people in standings order (best first), no group of ``met`` again
    where the search finds a way."""
    sizes = table_sizes(len(ranked), seats)
    found = _search(list(ranked), sizes, set(met), budget)
    return found if found is not None else _chunks(list(ranked), sizes)


def _chunks(order: list[str], sizes: list[int]) -> list[list[str]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def _search(
    order: list[str], sizes: list[int], met: set[Group], budget: int
) -> list[list[str]] | None:
    """Table by table, the best person left with the next best who make no group met
    before (combinations in standings order); then a repair pass swaps members between a
    table still repeating and another, nearest first. None: repeats remain."""
    tables: list[list[str]] = []
    left = list(order)
    steps = budget
    for size in sizes:
        first, rest = left[0], left[1:]
        chosen: list[str] | None = None
        for others in combinations(rest, size - 1):
            steps -= 1
            if size == 1 or frozenset((first, *others)) not in met:
                chosen = [first, *others]
                break
            if steps <= 0:
                break
        if chosen is None:
            chosen = [first, *rest[: size - 1]]
        tables.append(chosen)
        taken = set(chosen)
        left = [p for p in left if p not in taken]
    return tables if _repair(tables, met, steps) else None


def _repeats(table: list[str], met: set[Group]) -> bool:
    return len(table) > 1 and frozenset(table) in met


def _repair(tables: list[list[str]], met: set[Group], steps: int) -> bool:
    """Swap one member of each repeating table with one of another table (nearest in
    standings first) where neither then repeats; whether no table repeats at the end."""
    for i, table in enumerate(tables):
        if not _repeats(table, met):
            continue
        others = sorted(range(len(tables)), key=lambda j: (abs(j - i), j))
        fixed = False
        for j in others[1:]:
            for a, b in product(range(len(table)), range(len(tables[j]))):
                steps -= 1
                if steps <= 0:
                    return False
                mine, theirs = list(table), list(tables[j])
                mine[a], theirs[b] = theirs[b], mine[a]
                if not _repeats(mine, met) and not _repeats(theirs, met):
                    tables[i], tables[j] = mine, theirs
                    fixed = True
                    break
            if fixed:
                break
        if not fixed:
            return False
    return True


def groups_of(tables: Sequence[Sequence[str]]) -> list[Group]:
    """The groups of two or more people a round made."""
    return [frozenset(t) for t in tables if len(t) > 1]
