""" "Hemen oyna" for a rated game in Chromium, at a phone's and a desktop's size: the lobby says
"Rakip aranıyor…" with the time waited and a cancel; once three more players look for the
same game the matcher seats all four and the table opens by itself. Screenshots:
search-<size>.png (see SCREENS)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from e2e_client import Player
from test_web_client import DESKTOP, PHONE, Tab, browser, expect  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / ("docs/screens" if os.environ.get("HARFTET_SCREENS") == "1" else ".artifacts/web")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_quick_play_looks_for_opponents_shows_the_wait_and_opens_the_table(
    browser,  # noqa: F811
    local_stack,
    size,
):
    tab = Tab(browser, local_stack, size=size)
    tab.sign_in("Arayan")
    page = tab.page
    expect(page.locator("#quick-rated")).to_be_checked()  # rated by default: matchmaking
    expect(page.locator("#quick-level")).to_be_hidden()  # the matcher picks the level
    page.locator("#quick-game").select_option("harftet")
    page.get_by_role("button", name="Hemen oyna").click()
    searching = page.locator("#quick-search")
    expect(searching).to_contain_text("Rakip aranıyor…")
    expect(page.locator("#quick-waited")).to_have_text(re.compile(r"^0:0[1-9] bekledin$"))
    expect(page.get_by_role("button", name="Hemen oyna")).to_be_hidden()
    tab.axe("lobby while looking for opponents")
    SCREENS.mkdir(parents=True, exist_ok=True)
    name = "phone" if size == PHONE else "desktop"
    page.locator("#quick").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / f"search-{name}.png"), full_page=False)
    page.locator("#lang").click()  # English on the switch
    expect(searching).to_contain_text("Looking for opponents…")
    expect(page.locator("#quick-waited")).to_contain_text("waited 0:")
    page.get_by_role("button", name="Stop looking").click()
    expect(searching).to_be_hidden()
    page.locator("#lang").click()
    page.get_by_role("button", name="Hemen oyna").click()  # again, and three more come
    expect(searching).to_be_visible()
    others = [Player(local_stack, f"Rakip{i}") for i in range(3)]
    for other in others:
        reply = other.http.post("/matchmaking", json={"game": "harftet", "seats": 4})
        assert reply.status_code == 202, reply.text
    expect(page.locator("#table")).to_be_visible(timeout=20_000)
    tab.shot(f"matched-{name}")
    assert not tab.unexpected_errors()
    for other in others:
        other.close()
    tab.close()
