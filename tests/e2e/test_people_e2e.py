"""Profiles, leaderboards, reports and the operator routes on the local stack (harftet.people):
the board index is created from template.yaml, the routes come from it, test mode lets the
operator routes through locally."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.e2e


def test_profile_board_report_and_ban_on_the_local_stack(local_stack: str) -> None:
    with httpx.Client(base_url=local_stack, timeout=10) as client:
        made = [client.post("/players", json={"name": n}).json() for n in ("Ayşe", "Mehmet")]
        auth = [{"Authorization": f"Bearer {m['token']}"} for m in made]
        table = client.post(
            "/tables", json={"game": "kastet", "seats": 2, "hands": 1}, headers=auth[0]
        ).json()
        assert client.post(f"/tables/{table['tableId']}/seats/1", json={}, headers=auth[1])
        profile = client.get(f"/players/{made[1]['playerId']}/profile", headers=auth[0])
        assert profile.status_code == 200 and profile.json()["name"] == "Mehmet"
        board = client.get("/leaderboards/harftet?period=week", headers=auth[0])
        assert board.status_code == 200 and set(board.json()) == {"entries", "me", "cursor"}
        report = client.post(
            f"/tables/{table['tableId']}/reports",
            json={"seat": 1, "kind": "insult"},
            headers=auth[0],
        )
        assert report.status_code == 202, report.text
        listed = client.get("/operator/reports")  # the local stack runs in test mode
        assert listed.status_code == 200, listed.text
        assert made[1]["playerId"] in {r["reported"] for r in listed.json()["reports"]}
        assert client.post(f"/operator/players/{made[1]['playerId']}/ban").status_code == 200
        other = client.post(
            "/tables",
            json={"game": "kastet", "seats": 2, "hands": 1},
            headers={**auth[1], "Accept-Language": "tr"},
        )
        assert other.status_code == 403 and other.json()["error"]["code"] == "banned"
        assert "engellendi" in other.json()["error"]["message"]
