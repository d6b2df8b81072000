"""Encoded size and speed of the table codec on a worst-case table (stdlib only).

Run: .venv/bin/python bench/bench_codec.py
The worst case is a deliberate over-estimate: more tile ids than one table can hold
(4 hands of 22, 26 series melds of 3, 6 pairs and a pile), every seat taken over by a
substitute (8 distinct people with 36-character ids and 20-letter Turkish names),
21 hand results with 3-digit penalties and a final result.
"""

from __future__ import annotations

import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from harftet.engine.codec import decode, encode
from harftet.engine.state import HandResult, Occupant, Placed, Seat, Table

LIMIT = 2048


def worst_case_table(seed: int = 7) -> Table:
    """A table larger than any real one (see the module docstring)."""
    rng = random.Random(seed)
    ids = list(range(106))
    rng.shuffle(ids)

    def person(i: int) -> Occupant:
        pid = str(uuid.UUID(int=rng.getrandbits(128)))
        return Occupant(pid, f"Çağrı Şükrü Öztürk{i:02d}", False, 2999 + i)

    seats = [
        Seat(
            occupant=person(i),
            original=person(10 + i),
            original_fate="dropped" if i % 2 else "left",
            hand=ids[i * 22 : (i + 1) * 22],
            penalty=-rng.randrange(100, 999),
            connected=bool(i % 2),
            timeouts=2,
            disconnected_at=1_754_000_000.123456 + i,
            vacant_since=1_754_000_120.654321 + i,
        )
        for i in range(4)
    ]
    series = [[Placed(rng.randrange(104)) for _ in range(3)] for _ in range(26)]
    series[0][1] = Placed(104, "Ş")
    series[1][0] = Placed(105, "Ğ")
    pairs = [[Placed(rng.randrange(104)), Placed(rng.randrange(104))] for _ in range(6)]
    results = [
        HandResult(h, None if h % 5 == 0 else h % 4, [rng.randrange(100, 999) for _ in range(4)])
        for h in range(1, 22)
    ]
    ratings = {s.occupant.player_id: 42 for s in seats if s.occupant}
    ratings |= {s.original.player_id: -42 for s in seats if s.original}
    return Table(
        table_id=str(uuid.UUID(int=rng.getrandbits(128))),
        game="harftet",
        seed=rng.getrandbits(63),
        manager=seats[0].occupant.player_id if seats[0].occupant else None,
        hands=21,
        partners=False,
        turn_seconds=600,
        status="finished",
        created_at=1_754_000_000.987654,
        seats=seats,
        pile=ids[88:],
        series=series,
        pairs=pairs,
        hand_number=21,
        first_seat=0,
        turn_seat=3,
        laid=True,
        passes=3,
        deadline=1_754_000_045.5,
        hand_results=results,
        result={"penalties": [1, 2, 3, 4], "points": [42, 20, -20, -42], "ratings": ratings},
    )


def main() -> None:
    """Print the worst case's encoded size and encode/decode times."""
    table = worst_case_table()
    data = encode(table)
    assert decode(data) == table
    rounds = 2000
    t0 = time.perf_counter()
    for _ in range(rounds):
        encode(table)
    t1 = time.perf_counter()
    for _ in range(rounds):
        decode(data)
    t2 = time.perf_counter()
    print(f"worst-case encoded size: {len(data)} bytes (limit {LIMIT})")
    print(f"encode: {(t1 - t0) / rounds * 1e6:.0f} µs, decode: {(t2 - t1) / rounds * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
