"""Encoded size and speed of the table codec on a worst-case table (stdlib only).

Run: .venv/bin/python bench/bench_codec.py
The worst case is the largest table the rules allow, made larger still where it is cheap
to: all 106 tile ids placed (4 full racks of 22, the other 18 in 5 series melds, 1 pair and
the pile), every seat taken over by a substitute (8 distinct people with 36-character ids
and 20-letter Turkish names), 21 hand results each with every rack full at its end
(4 × 22 tiles left, the most a blocked hand can leave) and the penalties they give, a
final result, the 8 people a table remembers as having left (the 4 originals and 4 more),
and a latest change that holds a lay of 22 hand tiles and a new pair followed by a
timeout, the pass, the hand's and the game's end.
"""

from __future__ import annotations

import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from harftet.engine import table as life
from harftet.engine.codec import decode, encode
from harftet.engine.effects import placed_json
from harftet.engine.state import HandResult, Occupant, Placed, Seat, Table
from harftet.engine.tiles import hand_value, tiles_for

LIMIT = 2048
LEAVERS = 16  # people who left a seat during the worst-case game (all remembered)


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
    rest = ids[88:]
    series = [[Placed(t) for t in rest[i * 3 : i * 3 + 3]] for i in range(5)]
    series[0][1] = Placed(series[0][1].id, "Ş")
    series[1][0] = Placed(series[1][0].id, "Ğ")
    pairs = [[Placed(t) for t in rest[15:17]]]
    tiles = tiles_for("harftet")
    results = []
    for h in range(1, 22):
        rack = list(range(106))
        rng.shuffle(rack)
        left = {s: sorted(rack[s * 22 : (s + 1) * 22]) for s in range(4)}
        if h == 21:  # the game's last hand: the racks still stand
            left = {s: sorted(ids[s * 22 : (s + 1) * 22]) for s in range(4)}
        penalties = [sum(hand_value(tiles[t]) for t in left[s]) for s in range(4)]
        results.append(HandResult(h, None, penalties, left))
    ratings = {s.occupant.player_id: 42 for s in seats if s.occupant}
    ratings |= {s.original.player_id: -42 for s in seats if s.original}
    table = Table(
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
        pile=rest[17:],
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
        hints=False,
        private=True,
        bot_seconds=5,
        held=True,
        seq=99_999,
    )
    # Everyone who left is remembered for the whole game, by a six-character tag: the worst
    # case lets as many people come and go as the original four seats and twenty more.
    people = [s.original.player_id for s in seats if s.original]
    people += [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(LEAVERS - len(people))]
    table.former = {life.tag(table, p): i % 4 for i, p in enumerate(people)}
    table.paid = [life.tag(table, p) for p in people]
    at = 1_754_012_345.678901
    last = results[-1]
    recent: list[dict[str, object]] = [
        {"type": "lay", "seat": 3, "tiles": sorted(ids[:22]),
         "series": [[placed_json(p) for p in m] for m in series],
         "pairs": [[placed_json(p) for p in m] for m in pairs]},
        {"type": "timeout", "seat": 3},
        {"type": "pass", "seat": 3},
        {"type": "handEnd", "seat": None, "finisher": None, "penalties": last.penalties,
         "left": {str(s): v for s, v in last.left.items()}},
        {"type": "gameEnd", "seat": None, "penalties": [1, 2, 3, 4],
         "points": [42, 20, -20, -42]},
    ]  # fmt: skip
    first = table.seq - len(recent) + 1
    table.recent = [{"seq": first + i, "at": at, "hand": 21, **e} for i, e in enumerate(recent)]
    return table


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
