"""The web client's push handler (clients/web/sw-push.js) in Chromium: a push delivered through
DevTools (`ServiceWorker.deliverPushMessage`, as a push service would deliver it) shows a
notification with the server's Turkish title and body and the table it opens; the inbox
(clients/web/inbox.js) lists the player's tables with how many wait for them."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / ".artifacts" / "web"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        yield browser
        browser.close()


def test_a_push_shows_its_turkish_notification_that_opens_the_table(
    chromium: Any, local_stack: str
) -> None:
    context = chromium.new_context(base_url=local_stack)
    context.grant_permissions(["notifications"], origin=local_stack)
    page = context.new_page()
    page.goto("/play/")
    cdp = context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    # The client's own worker (sw.js) loads sw-push.js: the push goes to it.
    script = page.evaluate("async () => (await navigator.serviceWorker.ready).active.scriptURL")
    assert script.endswith("/play/sw.js")
    end = time.monotonic() + 10
    while not any(r["scopeURL"].endswith("/play/") for r in registrations):
        assert time.monotonic() < end, registrations
        page.wait_for_timeout(50)
    ids = {r["registrationId"] for r in registrations if r["scopeURL"].endswith("/play/")}
    assert len(ids) == 1  # (the same registration, reported at each update)
    registration = {"registrationId": ids.pop()}
    payload = {
        "title": "Sıra sende",
        "body": "Harftet: Barış ile oynadığın masada sıra sende.",
        "kind": "turn",
        "tableId": "abc123",
        "url": "/play/?table=abc123",
        "tag": "abc123:turn",
        "lang": "tr",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": local_stack,
            "registrationId": registration["registrationId"],
            "data": json.dumps(payload, ensure_ascii=False),
        },
    )
    shown = page.wait_for_function(
        "async () => { const r = await navigator.serviceWorker.ready;"
        " const n = await r.getNotifications();"
        " return n.length ? {title: n[0].title, body: n[0].body, tag: n[0].tag, data: n[0].data}"
        " : null; }",
        polling=100,
        timeout=10_000,
    ).json_value()
    assert shown["title"] == "Sıra sende"
    assert shown["body"] == "Harftet: Barış ile oynadığın masada sıra sende."
    assert shown["data"]["url"] == "/play/?table=abc123" and shown["tag"] == "abc123:turn"
    context.close()


def test_the_inbox_shows_the_players_tables_and_how_many_wait(
    chromium: Any, local_stack: str
) -> None:
    http = httpx.Client(base_url=local_stack, timeout=10)
    me = http.post("/players", json={"name": "Ayşe"}).json()
    other = http.post("/players", json={"name": "Barış"}).json()
    auth = {"Authorization": f"Bearer {me['token']}"}
    table = http.post(
        "/tables",
        json={
            "game": "kastet",
            "seats": 2,
            "hands": 1,
            "pace": "correspondence",
            "turnSeconds": 86400,
        },
        headers=auth,
    ).json()
    http.post(
        f"/tables/{table['tableId']}/seats/1", json={},
        headers={"Authorization": f"Bearer {other['token']}"},
    )  # fmt: skip
    assert http.post(f"/tables/{table['tableId']}/start", headers=auth).status_code == 200
    end = time.monotonic() + 10
    # The inbox has the table from the first seat on; wait for the start's update (written
    # from the stream), which the page then reads.
    while not [
        t for t in http.get("/players/me/tables", headers=auth).json()["tables"] if t["yourTurn"]
    ]:
        assert time.monotonic() < end
        time.sleep(0.1)
    context = chromium.new_context(base_url=local_stack, viewport={"width": 390, "height": 844})
    context.add_init_script(
        "localStorage.setItem('harftet.session', JSON.stringify("
        + json.dumps({"token": me["token"], "playerId": me["playerId"], "name": "Ayşe"})
        + "))"
    )
    page = context.new_page()
    page.goto("/play/")
    page.wait_for_selector("#inbox:not([hidden]) .inbox-item.your-turn", timeout=10_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "inbox-390x844.png"))
    assert page.text_content("#inbox .inbox-count") == "1 masada sıra sende"
    row = page.text_content("#inbox .inbox-item") or ""
    assert "Barış" in row and "Kastet · Yazışmalı" in row
    assert "Oyun başladı" in row, row  # the table's last event, in the log's words
    assert re.search(r"2[34] saat \d+ dakika kaldı", row), row  # the caller's deadline
    page.click("#inbox .inbox-open")  # opens the table in place: no page load
    page.wait_for_selector("#table:not([hidden])", timeout=10_000)
    assert page.url.endswith(f"#t={table['tableId']}")
    context.close()
