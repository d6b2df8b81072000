"""The web client's service worker in Chromium, as a player meets it: a return visit starts from
the worker's cache (no file of the shell from the network) and opens with no network at all,
in Turkish, saying so; and a push the server sent for the player's turn, received by the
worker, shows the catalogue's Turkish sentence with the names filled in.

Headless Chromium has no push service to subscribe at: the stack's own receiver
(harftet.localstack.push_receiver, RFC 8030 with the VAPID signature checked and the payload
decrypted) stands in for it, registered for the player as the client registers a browser's
subscription; what it received is delivered to the page's worker through DevTools
(`ServiceWorker.deliverPushMessage`), as a push service would deliver it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / ".artifacts" / "web"
TR = json.loads((ROOT / "shared" / "harftet" / "texts" / "tr.json").read_text(encoding="utf-8"))
PHONE = {"width": 390, "height": 844}


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


def _controlled(page: Any) -> None:
    """Waits until the page's worker has installed the shell and controls the page."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=20_000)


def test_a_return_visit_starts_from_the_workers_cache_and_opens_offline(
    chromium: Any, local_stack: str
) -> None:
    from playwright.sync_api import expect

    context = chromium.new_context(base_url=local_stack, viewport=PHONE)
    page = context.new_page()
    page.goto("/play/")
    expect(page.locator("#login-h")).to_have_text(TR["login.h"])
    _controlled(page)

    # Each answer carries the Date it was made at: the shell's are from before the return visit
    # (kept when the worker installed), config.json's (where the APIs are) from the network.
    page.wait_for_load_state("networkidle")  # the first visit's answers all in, before the listener
    page.wait_for_timeout(2500)
    returned = time.time()
    served: dict[str, tuple[bool, float]] = {}
    page.on(
        "response",
        lambda r: served.setdefault(
            r.url.split("/play/")[-1],
            (r.from_service_worker, parsedate_to_datetime(r.headers["date"]).timestamp()),
        ),
    )
    page.reload()
    expect(page.locator("#login-name")).to_be_visible()
    page.wait_for_load_state("networkidle")
    shell = ["", "boot.js", "texts.js", "catalogue.js", "session.js", "texts.tr.json", "style.css"]
    shell += ["app.js", "state.js", "login.js", "chrome.js", "updates.js"]
    kept = {f: served[f][0] and served[f][1] < returned - 1 for f in shell if f in served}
    assert kept == dict.fromkeys(shell, True), served
    # From the network: dated after the shell was kept (2.5 s and more before the return visit;
    # a Date has whole seconds, and the client may have asked a moment before the reload).
    fresh = returned - 2
    assert served["config.json"][1] > fresh, served  # network first
    # The catalogue is still asked of the API (a 304 while it is current): never from the cache.
    texts = [u for u in served if u.endswith("/texts?lang=tr")]
    assert texts and all(served[u][1] > fresh for u in texts), served

    context.set_offline(True)
    page.reload()
    expect(page.locator("#login-h")).to_have_text(TR["login.h"])
    expect(page.locator("#login-name")).to_be_visible()
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_have_text(TR["offline"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "offline-return-390x844.png"))
    context.close()


def _registration(context: Any, page: Any) -> tuple[Any, str]:
    """DevTools and the id of the page's worker registration (scope /play/)."""
    cdp = context.new_cdp_session(page)
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    end = time.monotonic() + 10
    while not [r for r in found if r["scopeURL"].endswith("/play/") and not r["isDeleted"]]:
        assert time.monotonic() < end, found
        page.wait_for_timeout(50)
    ids = {r["registrationId"] for r in found if r["scopeURL"].endswith("/play/")}
    assert len(ids) == 1
    return cdp, ids.pop()


def _wait(check: Any, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < end, "never came"
        time.sleep(0.1)
    return found


def test_a_push_received_by_the_worker_shows_the_turn_in_the_catalogues_turkish(
    chromium: Any, local_stack: str
) -> None:
    from playwright.sync_api import expect

    context = chromium.new_context(base_url=local_stack, viewport=PHONE)
    context.grant_permissions(["notifications"], origin=local_stack)
    page = context.new_page()
    page.goto("/play/")
    page.locator("#login-name").fill("Ayşe")
    page.locator("#login-form button[type=submit]").click()
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#me-name")).to_have_text("Ayşe")
    _controlled(page)
    cdp, registration = _registration(context, page)
    token = page.evaluate("JSON.parse(localStorage['harftet.session']).token")
    ayse = {"Authorization": f"Bearer {token}"}

    http = httpx.Client(base_url=local_stack, timeout=10)
    subscription = http.post("/push-receiver/subscriptions").json()  # the browser's, see above
    receiver = "/push-receiver/" + subscription["endpoint"].rsplit("/", 1)[1]
    # no quiet hours: the push comes at any hour this test runs (23:00-08:00 Istanbul by default)
    settings = {**subscription, "quietHours": None}
    made = http.post("/players/me/push-subscriptions", json=settings, headers=ayse)
    assert made.status_code == 201, made.text
    baris = http.post("/players", json={"name": "Barış"}).json()
    table = http.post(
        "/tables",
        json={"game": "kastet", "seats": 2, "hands": 1, "pace": "correspondence",
              "turnSeconds": 3600},
        headers=ayse,
    ).json()  # fmt: skip
    table_id = table["tableId"]
    sat = http.post(
        f"/tables/{table_id}/seats/1", json={},
        headers={"Authorization": f"Bearer {baris['token']}"},
    )  # fmt: skip
    assert sat.status_code == 200, sat.text
    assert http.post(f"/tables/{table_id}/start", headers=ayse).status_code == 200

    [pushed] = _wait(lambda: http.get(receiver).json()["messages"])  # the server's, decrypted
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": local_stack,
            "registrationId": registration,
            "data": json.dumps(pushed, ensure_ascii=False),
        },
    )
    shown = page.wait_for_function(
        "async () => { const r = await navigator.serviceWorker.ready;"
        " const n = await r.getNotifications();"
        " return n.length ? {title: n[0].title, body: n[0].body, lang: n[0].lang,"
        " data: n[0].data} : null; }",
        polling=100,
        timeout=10_000,
    ).json_value()
    body = TR["notify.turn.body"].replace("{game}", TR["game.kastet"]).replace("{others}", "Barış")
    assert shown["title"] == TR["notify.turn.title"] == "Sıra sende"
    assert shown["body"] == body == "Kastet: Barış ile oynadığın masada sıra sende."
    assert shown["lang"] == "tr"
    assert shown["data"]["url"] == f"/play/?table={table_id}"
    assert shown["data"]["tableId"] == table_id
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "push-received-390x844.png"))
    context.close()
