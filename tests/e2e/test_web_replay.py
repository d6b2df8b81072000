"""Issue 36 §1–2 in Chromium on the local stack: a finished game that was dealt from a real,
unseeded 63-bit seed is verified ("doğrulandı"), and its replay is a screen of the app reached
from a profile ("Tekrar izle"): hands and moves stepped through, the deal check shown there,
back to the lobby, in Turkish and in English. Phone (390×844) and desktop (1280×800);
screenshots replay-<size>*.png in `.artifacts/web/` (docs/screens/ with HARFTET_SCREENS=1)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from test_web_client import DESKTOP, PHONE, Tab, browser, expect  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / ("docs/screens" if os.environ.get("HARFTET_SCREENS") == "1" else ".artifacts/web")


def finish_an_unseeded_game(ece: Tab, ali: Tab) -> str:
    """A rated Harftet game of one hand between two people, dealt from the server's own seed
    (no test seed), each drawing then passing until the pile is out (played over the API: the
    game's screens have their own journeys); its table id."""
    made = ece.api(
        "POST", "/tables", {"game": "harftet", "seats": 2, "hands": 1, "turnSeconds": 600}
    )["body"]
    table_id = made["tableId"]
    assert ali.api("POST", f"/tables/{table_id}/seats/1", {})["status"] == 200
    assert ece.api("POST", f"/tables/{table_id}/start")["status"] == 200
    deadline = time.monotonic() + 150
    moves = 0
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        view = ece.api("GET", f"/tables/{table_id}")["body"]
        if view["status"] == "finished":
            return table_id
        player = (ece, ali)[view["turn"]["seat"]]
        for kind in ("draw", "pass"):
            moves += 1
            body = {"type": kind, "version": view["version"], "moveId": f"m{moves}"}
            answer = player.api("POST", f"/tables/{table_id}/moves", body)
            if answer["status"] == 200:
                view = answer["body"]
            if view["status"] == "finished":
                return table_id


def no_sideways_scroll(tab: Tab) -> None:
    root = "document.documentElement"
    wide = tab.page.evaluate(f"{root}.scrollWidth - {root}.clientWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide}px"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_replay_from_a_profile_is_a_screen_that_verifies_an_unseeded_deal(
    local_stack: str,
    browser: Any,  # noqa: F811 (the fixture imported above)
    size: tuple[int, int],
) -> None:
    tab = Tab(browser, local_stack, size)
    page = tab.page
    tab.sign_in("Ece")
    ali = Tab(browser, local_stack, size)
    ali.sign_in("Ali")
    table_id = finish_an_unseeded_game(tab, ali)
    seed = tab.api("GET", f"/tables/{table_id}/replay")["body"]["seed"]
    assert isinstance(seed, str) and seed.isdigit()  # a string: JSON.parse keeps it exact
    page.locator(".people-open").click()
    people = page.locator("dialog.people")
    # on this week's board: a rated game
    people.get_by_role("button", name="Ece (Sen)").first.click()
    recent = people.get_by_role("button", name="Tekrar izle")
    expect(recent.first).to_be_visible()
    recent.first.click()
    screen = page.locator("#replay")
    expect(screen).to_be_visible()
    assert page.url.startswith(local_stack) and "/replay" not in page.url  # still the app
    check = screen.locator("#replay-check")
    expect(check).to_have_text("Dağıtım kontrolü: doğrulandı", timeout=20_000)
    expect(screen.locator("#replay-line")).to_have_text("Dağıtım: her oyuncunun 14 taşı")
    expect(screen.locator(".replay-racks li")).to_have_count(2)
    for _ in range(3):
        screen.get_by_role("button", name="İleri ▶").click()
    expect(screen.locator("#replay-move")).to_contain_text("Hamle 3 /")
    no_sideways_scroll(tab)
    tab.axe("replay screen")
    name = "phone" if size == PHONE else "desktop"
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"replay-{name}.png"), full_page=False)
    page.locator("#lang").click()  # English on the switch
    expect(screen.locator("#replay-check")).to_have_text("Deal check: verified")
    expect(screen.get_by_role("button", name="Forward ▶")).to_be_visible()
    page.screenshot(path=str(SCREENS / f"replay-{name}-en.png"), full_page=False)
    page.locator("#lang").click()
    screen.get_by_role("button", name="Salona dön").click()
    expect(page.locator("#lobby")).to_be_visible()
    # the game's own moves went over the API, the draw refused once the hand is full: not the page's
    assert [e for e in tab.unexpected_errors() if "status of 4" not in e] == [], tab.errors
    tab.close()
    ali.close()
