"""Issue 36 §3 in Chromium on the local stack: a correspondence table is chosen in the
new-table form (its turn in hours and days, never seconds), its clock reads in days and hours,
"Salona dön (yerin kalır)" goes back to the lobby keeping the seat, and the inbox brings the
player back to it; left for good ("Masadan kalk") by its only person, the game ends (nobody is
left to play it for) and the inbox and the table say why. Phone
(390×844) and desktop (1280×800); screenshots correspondence-<size>*.png in `.artifacts/web/`
(docs/screens/ with HARFTET_SCREENS=1)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from test_web_client import DESKTOP, PHONE, Tab, browser, check_steadily, expect  # noqa: F401

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / ("docs/screens" if os.environ.get("HARFTET_SCREENS") == "1" else ".artifacts/web")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_correspondence_game_from_the_form_left_to_the_lobby_and_resumed_from_the_inbox(
    local_stack: str,
    browser: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    tab = Tab(browser, local_stack, size)
    page = tab.page
    tab.sign_in("Selin")
    check_steadily(page.get_by_label("Harftet (harf taşları)"))
    page.get_by_label("Oyuncu sayısı").select_option("2")
    page.get_by_label("El sayısı").fill("3")
    page.get_by_label("Oyun türü").select_option(label="Yazışmalı (günlerce)")
    turn = page.locator("#c-days")
    expect(turn).to_be_visible()
    expect(page.locator("#c-turn")).to_be_hidden()  # no seconds for a game of days
    assert turn.locator("option").all_inner_texts() == ["1 sa", "12 sa", "1 gün", "3 gün"]
    turn.select_option(label="3 gün")
    check_steadily(page.get_by_label("Boş koltuklara bilgisayar"))
    page.get_by_role("button", name="Masayı kur ve otur").click()
    expect(page.locator("#table")).to_be_visible()
    view = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
    assert view["pace"] == "correspondence" and view["turnSeconds"] == 259200
    page.get_by_role("button", name="Başlat").click()
    expect(tab.rack()).to_have_count(14)
    tab.wait_for_my_turn_or_end()
    expect(page.locator("#timer")).to_have_text(re.compile(r"^(3 gün|2 gün 23 sa)$"))
    away = page.get_by_role("button", name="Salona dön (yerin kalır)")
    expect(away).to_be_visible()
    expect(page.get_by_role("button", name="Masadan kalk")).to_be_visible()  # the other way out
    name = "phone" if size == PHONE else "desktop"
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"correspondence-{name}-table.png"), full_page=False)
    table_id = tab.table_id()
    away.click()
    expect(page.locator("#lobby")).to_be_visible()
    assert not tab.dialogs, tab.dialogs  # no "leave?" question: nothing is given up
    seat = tab.api("GET", f"/tables/{table_id}")["body"]["seat"]
    assert seat == 0  # still seated
    item = page.locator(f'#inbox .inbox-item[data-table="{table_id}"]')
    expect(item).to_be_visible()
    expect(item).to_contain_text("Yazışmalı")
    # the inbox's copy of the table follows the table's stream (a moment later): coming back
    # later, as a correspondence player does, it says whose turn it is
    page.wait_for_timeout(1500)
    page.reload()
    expect(page.locator("#lobby")).to_be_visible()
    expect(item).to_contain_text("Sıra sende")
    tab.axe("lobby with a correspondence game in the inbox")
    page.screenshot(path=str(SCREENS / f"correspondence-{name}-inbox.png"), full_page=False)
    item.locator(".inbox-open").click()
    expect(page.locator("#table")).to_be_visible()
    expect(tab.rack()).to_have_count(14)  # the same seat and rack
    page.locator("#lang").click()
    expect(page.get_by_role("button", name="Back to the lobby (keep your seat)")).to_be_visible()
    expect(page.locator("#timer")).to_have_text(re.compile(r"^(3 d|2 d 23 h)$"))
    page.locator("#lang").click()
    # Given up for good ("Masadan kalk", asked first) by the only person at the table: no
    # computer player plays on for nobody (docs/RULES.en.md "A table nobody is left at"), the
    # game ends at once and the inbox says why, not whose turn it is
    page.get_by_role("button", name="Masadan kalk").click()
    expect(page.locator("#lobby")).to_be_visible()
    assert tab.dialogs and tab.dialogs[-1], tab.dialogs
    ended = tab.api("GET", f"/tables/{table_id}")["body"]
    assert ended["status"] == "finished" and ended["closed"] == "abandoned"
    page.wait_for_timeout(1500)  # the inbox follows the table's stream
    page.reload()
    expect(page.locator("#lobby")).to_be_visible()
    expect(item.locator(".inbox-state")).to_have_text("Kimse kalmadı, bitti")
    expect(item.locator(".inbox-last")).to_have_text("Oyun bitti: masada kimse kalmadı")
    expect(item).not_to_contain_text("Sıra")
    tab.axe("lobby with a table everybody left in the inbox")
    page.screenshot(path=str(SCREENS / f"correspondence-{name}-left.png"), full_page=False)
    page.locator("#lang").click()
    expect(item.locator(".inbox-state")).to_have_text("Nobody left, ended")
    page.locator("#lang").click()
    # the table itself, opened from the inbox: over, and why; nobody's rating changed
    item.locator(".inbox-open").click()
    expect(page.locator("#table")).to_be_visible()
    dialog = page.locator("#end-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".rating-note")).to_have_text(
        "Masada oynayan kimse kalmadığı için oyun bitirildi: kimsenin derecesi ve sicili değişmedi."
    )
    tab.axe("a table everybody left, its end")
    page.screenshot(path=str(SCREENS / f"correspondence-{name}-abandoned.png"), full_page=False)
    page.keyboard.press("Escape")  # the dialog closes; the table stays on screen
    expect(dialog).to_be_hidden()
    expect(page.locator("#table-status")).to_have_text(
        "Oyun bitti: masada kimse kalmadı. Kimsenin derecesi değişmedi."
    )
    # the game is over: its emptied seat is offered to nobody
    expect(page.get_by_role("button", name="Yedek olarak otur")).to_have_count(0)
    page.screenshot(
        path=str(SCREENS / f"correspondence-{name}-abandoned-table.png"), full_page=False
    )
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()
