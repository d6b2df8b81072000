"""The web client at /play/, driven in Debian's Chromium by Playwright against the local stack.

Needs `/usr/bin/chromium` (`apt-get update && apt-get install -y chromium`) and the `playwright`
package (`pip install playwright`; never `playwright install`: it downloads a browser). Either one
missing fails these tests with that instruction rather than skipping them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOT = "/tmp/harftet-play.png"
TR_ALPHABET = "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ"
TURN_WAIT_MS = 20_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright; fails (never skips) when either is missing."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run `apt-get update && "
            "DEBIAN_FRONTEND=noninteractive apt-get install -y chromium`",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(
            "the playwright package is missing: run `.venv/bin/pip install playwright` "
            "(no `playwright install`: the tests use /usr/bin/chromium)",
            pytrace=False,
        )
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


class Tab:
    """One browser tab (its own sessionStorage, so its own player) and the errors it logged."""

    def __init__(self, browser: Any, base_url: str, width: int = 1280, height: int = 800):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        self.page.goto(f"{base_url}/play/")

    def sign_in(self, name: str) -> None:
        page = self.page
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Play as guest").click()
        expect(page.locator("#lobby")).to_be_visible()
        expect(page.locator("#me-name")).to_have_text(name)
        expect(page.locator("#me-rating")).to_have_text(re.compile(r"^\d+$"))

    def create_table(self, game: str, seats: int, hands: int, turn_seconds: int = 120) -> None:
        page = self.page
        page.get_by_label("Kastet (okey)" if game == "kastet" else "Harftet (letters)").check()
        page.get_by_label("Seats", exact=True).select_option(str(seats))
        page.get_by_label("Hands", exact=True).fill(str(hands))
        page.get_by_label("Turn seconds", exact=True).fill(str(turn_seconds))
        page.get_by_role("button", name="Create and sit").click()
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#ws-state")).to_have_text(re.compile("live"))

    def seat(self, i: int) -> Any:
        return self.page.locator(f'.seat[data-seat="{i}"]')

    def hand(self) -> Any:
        return self.page.locator("#hand .tile")

    def hand_labels(self) -> list[tuple[int, str]]:
        pairs = self.hand().evaluate_all(
            "els => els.map(e => [Number(e.dataset.id), e.getAttribute('aria-label')])"
        )
        return [(int(i), str(label)) for i, label in pairs]

    def wait_for_my_turn(self) -> None:
        expect(self.page.get_by_role("button", name="Draw")).to_be_enabled(timeout=TURN_WAIT_MS)

    def close(self) -> None:
        self.context.close()


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def kastet_meld(labels: list[tuple[int, str]]) -> list[int] | None:
    """Tile ids of a run or set of three in a Kastet hand (labels like "blue 7"), if any."""
    tiles: dict[tuple[str, int], int] = {}
    for tile_id, label in labels:
        m = re.fullmatch(r"(red|yellow|blue|black) (\d+)", label)
        if m:
            tiles.setdefault((m[1], int(m[2])), tile_id)
    for color, n in sorted(tiles):
        if (color, n + 1) in tiles and (color, n + 2) in tiles:
            return [tiles[(color, n)], tiles[(color, n + 1)], tiles[(color, n + 2)]]
    for n in range(1, 14):
        ids = [tiles[(c, n)] for c in ("red", "yellow", "blue", "black") if (c, n) in tiles]
        if len(ids) >= 3:
            return ids[:3]
    return None


def test_a_player_starts_a_kastet_game_against_the_computer_and_draws(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack)
    page = tab.page
    tab.sign_in("Ayşe")
    tab.create_table("kastet", seats=2, hands=1)
    expect(tab.seat(0)).to_contain_text("manager")

    tab.seat(1).get_by_role("button", name="Add computer").click()
    expect(tab.seat(1).locator(".badge.bot")).to_be_visible()
    page.get_by_role("button", name="Start").click()

    expect(tab.hand()).to_have_count(14)
    expect(tab.seat(1).locator(".tiles")).to_have_text(re.compile(r"^\d+$"))
    expect(tab.seat(0).locator(".tiles")).to_have_text("14")
    expect(page.locator("#table-status")).to_contain_text("Hand 1 of 1")

    tab.wait_for_my_turn()
    expect(page.locator(".seat.turn .timer")).to_have_text(re.compile(r"^\d+ s left$"))
    page.get_by_role("button", name="Draw").click()
    expect(tab.hand()).to_have_count(15)
    expect(tab.seat(0).locator(".tiles")).to_have_text("15")
    expect(page.locator("#hand .tile.fresh")).to_have_count(1)

    page.screenshot(path=SCREENSHOT, full_page=True)
    assert tab.errors == [], f"console errors: {tab.errors}"
    tab.close()


def test_the_lay_editor_reports_an_illegal_meld_and_lays_a_legal_one(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack)
    page = tab.page
    tab.sign_in("Mehmet")
    tab.create_table("kastet", seats=2, hands=1)
    tab.seat(1).get_by_role("button", name="Add computer").click()
    page.get_by_role("button", name="Start").click()
    tab.wait_for_my_turn()

    # One tile alone is no meld: the server says which meld, and the client highlights it.
    series_before = page.locator("#series li.meld:not(.new-meld)").count()
    tab.hand().first.click()
    page.get_by_role("button", name="+ New meld").click()
    expect(tab.hand()).to_have_count(13)
    page.get_by_role("button", name="Lay").click()
    expect(page.locator("#notice")).to_contain_text("illegal_move")
    expect(page.locator("#series li.meld.bad")).to_have_count(1)
    page.get_by_role("button", name="Reset").click()
    expect(tab.hand()).to_have_count(14)
    expect(page.locator("#series li.meld:not(.new-meld)")).to_have_count(series_before)

    # Draw until the hand holds a run or set of three, then lay it tile by tile and pass.
    meld = kastet_meld(tab.hand_labels())
    for _ in range(8):
        if meld:
            break
        page.get_by_role("button", name="Draw").click()
        tab.wait_for_my_turn()
        meld = kastet_meld(tab.hand_labels())
    assert meld, f"no run or set of three turned up in {tab.hand_labels()}"
    in_hand = tab.hand().count()
    melds = page.locator("#series li.meld:not(.new-meld)").count()
    page.locator(f'#hand .tile[data-id="{meld[0]}"]').click()
    page.get_by_role("button", name="+ New meld").click()
    end_of_meld = f"Put the selected tile at the end of meld {melds + 1}"
    meld_end = page.get_by_role("button", name=end_of_meld)
    for tile_id in meld[1:]:
        page.locator(f'#hand .tile[data-id="{tile_id}"]').click()
        meld_end.click()
    expect(page.locator("#series li.meld").nth(melds).locator(".tile.placed")).to_have_count(3)
    page.get_by_role("button", name="Lay").click()
    expect(tab.hand()).to_have_count(in_hand - 3)
    expect(page.locator("#hand-count")).to_have_text(f"{in_hand - 3} tiles")
    expect(page.get_by_role("button", name="Pass")).to_be_enabled()
    expect(page.get_by_role("button", name="Draw")).to_be_disabled()
    for tile_id in meld:
        expect(page.locator(f'#series .tile[data-id="{tile_id}"]')).to_have_count(1)
    page.get_by_role("button", name="Pass").click()
    expect(page.get_by_role("button", name="Pass")).to_be_disabled()

    unexpected = [e for e in tab.errors if "status of 422" not in e]
    assert unexpected == [], f"console errors: {unexpected}"
    tab.close()


def test_a_second_tab_joins_from_the_lobby_and_follows_live_on_a_phone(
    local_stack: str, browser: Any
) -> None:
    host = Tab(browser, local_stack)
    host.sign_in("Zeynep")
    host.create_table("harftet", seats=2, hands=1)
    guest = Tab(browser, local_stack, width=390, height=844)
    guest.sign_in("Çağrı")

    guest.page.get_by_role("button", name="Refresh").click()
    table = guest.page.locator(".lobby-item").filter(has_text="Zeynep")
    table.get_by_role("button", name="Sit in seat 2").click()
    expect(guest.page.locator("#table")).to_be_visible()
    expect(host.seat(1)).to_contain_text("Çağrı")  # pushed over the WebSocket, no refresh

    host.page.get_by_role("button", name="Start").click()
    expect(guest.hand()).to_have_count(14)  # the guest learns of the start by push too
    expect(guest.seat(0).locator(".tiles")).to_have_text("14")
    letters = [label.split(",")[0] for _, label in guest.hand_labels() if "joker" not in label]
    keys = ["".join(chr(65 + TR_ALPHABET.index(c)) for c in word) for word in letters]
    assert keys == sorted(keys), f"hand not in Turkish alphabetical order: {letters}"
    expect(guest.page.locator("#hand .tile .value").first).to_have_text(re.compile(r"^\d+$"))

    width = guest.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone layout scrolls sideways ({width}px)"
    assert host.errors == [] and guest.errors == [], f"{host.errors} {guest.errors}"
    host.close()
    guest.close()


def test_a_client_that_missed_pushes_catches_up_from_the_409_view(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack)
    page = tab.page
    muted = {"on": False}

    def drop_pushes_while_muted(ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: None if muted["on"] else ws.send(message))

    page.route_web_socket(re.compile(r"/ws\?"), drop_pushes_while_muted)
    tab.sign_in("Deniz")
    tab.create_table("kastet", seats=2, hands=1)
    tab.seat(1).get_by_role("button", name="Add computer").click()
    page.get_by_role("button", name="Start").click()
    tab.wait_for_my_turn()
    expect(tab.seat(0).locator(".tiles")).to_have_text("14")

    # The same player draws from elsewhere (another device) while this tab hears nothing.
    muted["on"] = True
    status = page.evaluate(
        """async () => {
          const {token} = JSON.parse(sessionStorage.getItem("harftet.session"));
          const headers = {Authorization: `Bearer ${token}`, "Content-Type": "application/json"};
          const id = sessionStorage.getItem("harftet.table");
          const view = await (await fetch(`/tables/${id}`, {headers})).json();
          const body = JSON.stringify({version: view.version, moveId: "elsewhere-1", type: "draw"});
          return (await fetch(`/tables/${id}/moves`, {method: "POST", headers, body})).status;
        }"""
    )
    assert status == 200
    expect(tab.seat(0).locator(".tiles")).to_have_text("14")  # still the old view

    page.get_by_role("button", name="Draw").click()
    expect(page.locator("#notice")).to_contain_text("moved on")
    expect(tab.seat(0).locator(".tiles")).to_have_text("15")
    expect(tab.hand()).to_have_count(15)

    unexpected = [e for e in tab.errors if "status of 409" not in e]
    assert unexpected == [], f"console errors: {unexpected}"
    tab.close()
