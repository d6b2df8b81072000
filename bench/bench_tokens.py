"""The token check on the move path: a sign-in session's access token (harftet.accounts:
HS256 JWT with a session id, 15 minutes) against today's guest token (the same JWT without
it, 30 days), through `Tokens.verify` and `bearer` as functions/rest/app.py calls them.

Run: .venv/bin/python bench/bench_tokens.py
Both are stateless (no read: a session's revocation waits for its access token's short
life), so the goal is ≤ 1.1× (medians). Two rows: the signature check (a token the process
has not seen: distinct tokens, so the verified-token memo misses) and the usual request (a
token already verified by this process: the memo hits). Samples alternate in ABBA blocks.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import Result, median
from harftet.identity import ACCESS_SECONDS, Tokens, bearer

SECRET = "bench-only-secret-0123456789abcdefghijklmnop"
BLOCK = 50
BLOCKS = 40  # per kind: 2000 samples each
GOAL = 1.1


def _guest(tokens: Tokens, i: int) -> str:
    return tokens.issue(f"{i:032x}", "Ayşe")


def _session(tokens: Tokens, i: int) -> str:
    return tokens.issue(f"{i:032x}", "Ayşe", session=f"{i:012x}", lifetime=ACCESS_SECONDS)


def _time(tokens: Tokens, headers: list[str]) -> list[float]:
    out = []
    for header in headers:
        start = time.perf_counter_ns()
        tokens.verify(bearer(header))
        out.append((time.perf_counter_ns() - start) / 1000)
    return out


def measure(cached: bool) -> tuple[list[float], list[float]]:
    guest: list[float] = []
    session: list[float] = []
    tokens = Tokens(SECRET)
    n = 0
    for block in range(BLOCKS * 2):
        order = (_guest, _session) if block % 4 in (0, 3) else (_session, _guest)
        for make in order:
            if cached:
                headers = [f"Bearer {make(tokens, 7)}"] * BLOCK
                tokens.verify(bearer(headers[0]))
            else:
                headers = [f"Bearer {make(tokens, n + i)}" for i in range(BLOCK)]
                n += BLOCK
            (guest if make is _guest else session).extend(_time(tokens, headers))
    return guest, session


def run() -> list[Result]:
    measure(False)  # warm-up
    rows = []
    for cached, label in ((False, "signature check"), (True, "memo hit")):
        guest, session = measure(cached)
        rows.append(
            Result(
                name=f"token check, session access token ({label})",
                value=median(session),
                unit="µs",
                detail=f"n={len(session)}",
                baseline_name="today's guest token",
                baseline=median(guest),
                baseline_detail=f"n={len(guest)}",
                goal=GOAL,
            )
        )
    return rows


def main() -> None:
    for row in run():
        ratio = row.ratio or 0.0
        verdict = "PASS" if row.passed else "MISS"
        print(
            f"{row.name}: {row.value:.1f} {row.unit} vs {row.baseline_name} "
            f"{row.baseline:.1f} {row.unit}: {ratio:.2f}x (goal ≤ {GOAL}x) {verdict}"
        )


if __name__ == "__main__":
    main()
