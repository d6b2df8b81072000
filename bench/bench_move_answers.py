"""The cost of keeping each move's first answer (API.md v4 "Retries", harftet.store.answers):
the compressed size of the answers a move gives (one PutItem after the commit: write units
are ceil(size / 1 KB)), over the first 30 moves of 4-seat Harftet and Kastet tables.

Run: .venv/bin/python bench/bench_move_answers.py
Goal: the median answer item ≤ 1 KB (one write unit per move more).
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "tests")]
os.environ.setdefault("TOKEN_SECRET", "bench-only-secret-0123456789abcdefghijklmnop")

from fakes import fake_app  # noqa: E402
from service_helpers import full_table  # noqa: E402
from testkit import Clock, Outbox  # noqa: E402

from harftet.engine.moves import Draw, Pass  # noqa: E402

OVERHEAD = 100  # the item's keys and expiresAt, bytes


def sizes(game: str, seats: int, moves: int = 30) -> list[int]:
    app = fake_app(Clock(), Outbox(), log=False, mail=True)
    table_id, callers = full_table(app, game=game, seats=seats)
    found = []
    for i in range(moves):
        table = app.stores.tables.get(table_id)
        if table.table.status != "playing" or table.table.turn_seat is None:
            break
        caller = callers[table.table.turn_seat]
        view = app.tables.view(caller, table_id)
        move = Draw() if view["pile"] and len(view["hand"]) < 22 else Pass()
        answer = app.tables.move(caller, table_id, view["version"], f"m{i}", move)
        raw = json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()
        found.append(len(zlib.compress(raw, 6)) + OVERHEAD)
    return found


def main() -> int:
    ok = True
    for game in ("harftet", "kastet"):
        found = sizes(game, 4)
        median = statistics.median(found)
        units = math.ceil(median / 1024)
        passed = units <= 1
        ok &= passed
        print(
            f"| move answer kept ({game}, 4 seats) | median {median:.0f} B, max {max(found)} B "
            f"→ {units} WCU per move | ≤ 1 KB | {'PASS' if passed else 'MISS'} |"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
