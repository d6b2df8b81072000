"""RULES §6 over the local stack's HTTP API: a player holding 19 running correspondence tables
sends a burst of joins and creates at once; exactly one gets through, the others are answered
409 ``too_many_tables`` (reason ``too_many_correspondence``) and leave their tables as they were.
"""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

HELD = 20


class _Player:
    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        made = self.http.post("/players", json={"name": name})
        assert made.status_code == 201, made.text
        self.id = made.json()["playerId"]
        self.http.headers["Authorization"] = f"Bearer {made.json()['token']}"

    def corr_table(self) -> httpx.Response:
        body = {"game": "kastet", "seats": 2, "hands": 1, "pace": "correspondence",
                "turnSeconds": 3600}  # fmt: skip
        return self.http.post("/tables", json=body)


def test_a_burst_at_19_correspondence_tables_lets_exactly_one_through(local_stack: str) -> None:
    me = _Player(local_stack, "Yoğun")
    others: list[_Player] = []
    try:
        held = []
        for i in range(HELD - 1):
            host = _Player(local_stack, f"Ev{i}")
            others.append(host)
            made = host.corr_table()
            assert made.status_code == 201, made.text
            table_id = made.json()["tableId"]
            joined = me.http.post(f"/tables/{table_id}/seats/1", json={})
            assert joined.status_code == 200, joined.text
            held.append(table_id)
        targets = []
        for i in range(4):
            host = _Player(local_stack, f"Misafir{i}")
            others.append(host)
            targets.append(host.corr_table().json()["tableId"])
        before = {t: others[0].http.get(f"/tables/{t}").json() for t in targets}

        barrier = threading.Barrier(len(targets) + 2)
        answers: list[tuple[str, httpx.Response]] = []
        lock = threading.Lock()

        def send(what: str, call: Any) -> None:
            client = httpx.Client(base_url=local_stack, timeout=60, headers=me.http.headers)
            try:
                barrier.wait()
                answer = call(client)
                with lock:
                    answers.append((what, answer))
            finally:
                client.close()

        calls: list[tuple[str, Any]] = [
            (t, lambda c, t=t: c.post(f"/tables/{t}/seats/1", json={})) for t in targets
        ]
        body = {"game": "kastet", "seats": 2, "hands": 1, "pace": "correspondence",
                "turnSeconds": 3600}  # fmt: skip
        calls += [(f"new{i}", lambda c: c.post("/tables", json=body)) for i in range(2)]
        threads = [threading.Thread(target=send, args=call) for call in calls]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert len(answers) == len(calls)
        won = [(what, a) for what, a in answers if a.status_code in (200, 201)]
        refused = [a for _, a in answers if a.status_code not in (200, 201)]
        assert len(won) == 1, [(w, a.status_code, a.text) for w, a in answers]
        for answer in refused:
            assert answer.status_code == 409, answer.text
            error = answer.json()["error"]
            assert error["code"] == "too_many_tables"
            assert error["reason"] == "too_many_correspondence" and error["max"] == HELD
            assert "at most 20" in error["message"]
        for table_id in targets:
            if table_id != won[0][0]:
                assert others[0].http.get(f"/tables/{table_id}").json() == before[table_id]
        # Turkish, for a Turkish client.
        again = me.http.post("/tables", json=body, headers={"Accept-Language": "tr"})
        assert again.status_code == 409
        assert again.json()["error"]["message"].startswith("Aynı anda en çok 20 yazışmalı")
        # Standing up from one of the 20 makes room for exactly one.
        assert me.http.delete(f"/tables/{held[0]}/seats/1").status_code == 200
        others.append(_Player(local_stack, "Son"))
        last = others[-1].corr_table()
        assert last.status_code == 201, last.text
        joined = me.http.post(f"/tables/{last.json()['tableId']}/seats/1", json={})
        assert joined.status_code == 200, joined.text
        spare = next(t for t in targets if t != won[0][0])  # back at 20: refused again
        refused_again = me.http.post(f"/tables/{spare}/seats/1", json={})
        assert refused_again.status_code == 409, refused_again.text
    finally:
        for p in (me, *others):
            p.http.close()
