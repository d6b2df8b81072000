"""Notifications end to end over the local stack: a correspondence game between two players,
each with browsers subscribed to the stack's own push receiver (RFC 8030: the VAPID signature
checked, the payload decrypted). What arrives is what a player would see: Turkish, once per
turn, nothing in quiet hours, and a subscription answered 410 is forgotten."""

from __future__ import annotations

import datetime
import time
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e


def _wait(check, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > end:
            return found
        time.sleep(0.1)


class Browser:
    """A browser's push subscription at the stack's receiver."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.subscription = http.post("/push-receiver/subscriptions").json()
        self.path = "/push-receiver/" + self.subscription["endpoint"].rsplit("/", 1)[1]

    def received(self) -> dict[str, Any]:
        return self.http.get(self.path).json()

    def messages(self) -> list[dict[str, Any]]:
        return self.received()["messages"]

    def answer(self, status: int) -> None:
        self.http.put(self.path + "/status", json={"status": status})


def _player(http: httpx.Client, name: str) -> dict[str, str]:
    made = http.post("/players", json={"name": name}).json()
    return {"Authorization": f"Bearer {made['token']}", "id": made["playerId"]}


def _auth(p: dict[str, str]) -> dict[str, str]:
    return {"Authorization": p["Authorization"]}


def _quiet_now() -> dict[str, str]:
    """Quiet hours around the present moment (Istanbul time)."""
    now = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=3)
    start = (now - datetime.timedelta(hours=1)).strftime("%H:%M")
    end = (now + datetime.timedelta(hours=2)).strftime("%H:%M")
    return {"start": start, "end": end}


def _move(http, p, table_id) -> dict[str, Any]:
    view = http.get(f"/tables/{table_id}", headers=_auth(p)).json()
    kind = "pass" if len(view["hand"]) >= 22 or view["pile"] == 0 else "draw"
    body = {"version": view["version"], "moveId": f"m{view['version']}", "type": kind}
    answer = http.post(f"/tables/{table_id}/moves", json=body, headers=_auth(p))
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_correspondence_game_notifies_each_turn_once_in_turkish(local_stack: str) -> None:
    http = httpx.Client(base_url=local_stack, timeout=10)
    a, b = _player(http, "Ayşe"), _player(http, "Barış")
    a1, a2, b1 = Browser(http), Browser(http), Browser(http)
    key = http.get("/push/key").json()["publicKey"]
    assert key and len(key) == 87
    ids = {}
    for who, browser, quiet in ((a, a1, None), (a, a2, None), (b, b1, _quiet_now())):
        body = {**browser.subscription, "quietHours": quiet}
        made = http.post("/players/me/push-subscriptions", json=body, headers=_auth(who))
        assert made.status_code == 201, made.text
        ids[id(browser)] = made.json()["id"]
    # A URL the server would call on a private address is refused, and says why.
    refused = http.post(
        "/players/me/push-subscriptions",
        json={**a1.subscription, "endpoint": "https://169.254.169.254/latest/meta-data"},
        headers=_auth(a),
    )
    assert refused.status_code == 400 and "public" in refused.json()["error"]["message"]

    table = http.post(
        "/tables",
        json={"game": "kastet", "seats": 2, "hands": 1, "pace": "correspondence",
              "turnSeconds": 3600, "seed": 4242},
        headers=_auth(a),
    ).json()  # fmt: skip
    table_id = table["tableId"]
    assert table["pace"] == "correspondence"
    assert http.post(f"/tables/{table_id}/seats/1", json={}, headers=_auth(b)).status_code == 200
    assert http.post(f"/tables/{table_id}/start", headers=_auth(a)).status_code == 200

    # Ayşe's turn: both her browsers hear of it, in Turkish, with the table to open.
    for browser in (a1, a2):
        [first] = _wait(browser.messages)
        assert first["title"] == "Sıra sende"
        assert first["body"] == "Kastet: Barış ile oynadığın masada sıra sende."
        assert first["url"] == f"/play/?table={table_id}" and first["kind"] == "turn"
    inbox = http.get("/players/me/tables", headers=_auth(a)).json()
    assert inbox["tables"][0]["tableId"] == table_id and inbox["tables"][0]["yourTurn"]
    # Two rounds: after each of Barış's moves, Ayşe's turn is notified once.
    for round_ in range(2):
        _move(http, a, table_id)
        _move(http, b, table_id)
        for browser in (a1, a2):
            got = _wait(lambda n=round_ + 2, w=browser: len(w.messages()) >= n and w.messages())
            assert len(got) == round_ + 2
    # One of Ayşe's browsers is gone (410): it is answered once, then forgotten.
    a2.answer(410)
    _move(http, a, table_id)
    _move(http, b, table_id)
    assert _wait(lambda: len(a1.messages()) >= 4)
    assert _wait(lambda: a2.received()["answered"] == [410])
    a2.answer(201)
    _move(http, a, table_id)
    _move(http, b, table_id)
    assert _wait(lambda: len(a1.messages()) >= 5)
    time.sleep(1.0)
    assert len(a2.messages()) == 3 and a2.received()["answered"] == [410]
    gone = http.delete(f"/players/me/push-subscriptions/{ids[id(a2)]}", headers=_auth(a))
    assert gone.status_code == 404  # the server had removed it already
    # Barış is in his quiet hours: none of his turns reached him.
    assert b1.messages() == []
    # Play to the end quickly; then the game's end reaches Ayşe.
    while http.get(f"/tables/{table_id}", headers=_auth(a)).json()["status"] != "finished":
        view = http.get(f"/tables/{table_id}", headers=_auth(a)).json()
        _move(http, a if view["turn"]["seat"] == 0 else b, table_id)
    end = _wait(lambda: [m for m in a1.messages() if m["kind"] == "gameEnd"])
    assert len(end) == 1 and end[0]["title"] == "Oyun bitti"
    assert end[0]["body"].startswith("Kastet: Barış ile oynadığın oyun bitti. Puanın: ")
    turns = [m for m in a1.messages() if m["kind"] == "turn"]
    assert len(turns) == len({m["body"] + str(m["at"]) for m in turns})
    assert b1.messages() == [] and a1.received()["refused"] == 0


class Phone:
    """A phone's app registered for mobile push (SNS platform endpoints in the stack's moto)."""

    def __init__(self, http: httpx.Client, platform: str, token: str) -> None:
        self.http, self.platform, self.token = http, platform, token
        self.path = f"/push-receiver/devices/{token}"

    def messages(self) -> list[dict[str, Any]]:
        return self.http.get(self.path).json()["messages"]

    def uninstall(self, gone: bool = True) -> None:
        """SNS disables an endpoint when FCM or APNs says the app is gone."""
        self.http.put(self.path + "/status", json={"enabled": not gone})


def test_phones_register_and_hear_of_their_turn_on_the_local_stack(local_stack: str) -> None:
    """Issue 35: mobile push works locally as in AWS: the stack creates the SNS platform
    applications, a phone registers, the notifier publishes to its endpoint in Turkish,
    and a phone whose app is gone is forgotten."""
    http = httpx.Client(base_url=local_stack, timeout=10)
    a, b = _player(http, "Ayşe"), _player(http, "Barış")
    android = Phone(http, "fcm", "fcm-local:" + "A1b2" * 10)
    iphone = Phone(http, "apns", "ab12" * 16)
    for phone in (android, iphone):
        # no quiet hours (by default 23:00-08:00 Istanbul): she hears at any hour the test runs
        body = {"platform": phone.platform, "token": phone.token, "quietHours": None}
        made = http.post("/players/me/devices", json=body, headers=_auth(a))
        assert made.status_code == 201, made.text
        again = http.post("/players/me/devices", json=body, headers=_auth(a))
        assert again.status_code == 201 and again.json()["id"] == made.json()["id"]
        assert phone.messages() == []
    table = http.post(
        "/tables",
        json={"game": "kastet", "seats": 2, "hands": 1, "pace": "correspondence",
              "turnSeconds": 3600, "seed": 4243},
        headers=_auth(a),
    ).json()  # fmt: skip
    table_id = table["tableId"]
    assert http.post(f"/tables/{table_id}/seats/1", json={}, headers=_auth(b)).status_code == 200
    assert http.post(f"/tables/{table_id}/start", headers=_auth(a)).status_code == 200
    for phone in (android, iphone):
        [first] = _wait(phone.messages)
        assert first["notification"] == {
            "title": "Sıra sende",
            "body": "Kastet: Barış ile oynadığın masada sıra sende.",
        }
        assert first["kind"] == "turn" and first["url"] == f"/play/?table={table_id}"
    # The Android app is uninstalled: the next delivery finds the endpoint disabled and the
    # device is forgotten; the iPhone goes on hearing of each turn.
    android.uninstall()
    _move(http, a, table_id)
    _move(http, b, table_id)
    assert _wait(lambda: len(iphone.messages()) >= 2)
    android.uninstall(gone=False)  # an endpoint the server forgot is never published to again
    _move(http, a, table_id)
    _move(http, b, table_id)
    assert _wait(lambda: len(iphone.messages()) >= 3)
    time.sleep(1.0)
    assert len(android.messages()) == 1 and len(iphone.messages()) == 3
