"""A tournament in Chromium on the local stack (issue 39; API.md v4 "Tournaments", RULES §8), at a
phone's and a desktop's size: an operator makes a tiny one through the operator API (the
stack's X-Operator-Key); a person signs up on the first screen, finds it under "Turnuvalar",
registers, waits on its page, is seated by the round's push (the page goes to her table by
itself), plays her table against the `hard` computer players to its end, goes back to the
tournament from the end of the game and reads the standings and the podium, then her podium
badge on her profile; last, a running tournament's page says when its next round (one with
a time of its own, `roundMinutes`) starts. What she reads is the catalogue's Turkish.
Touch targets, sideways scroll and axe are checked on the new screens. Screenshots:
tournament-<size>-*.png in `.artifacts/web/` (docs/screens/ with HARFTET_SCREENS=1)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_client import DESKTOP, PHONE, Tab, browser, expect, play_to_the_end  # noqa: F401

from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / ("docs/screens" if os.environ.get("HARFTET_SCREENS") == "1" else ".artifacts/web")
LEAD_S = 25  # from the operator's tournament to its start: the time to sign up and register
SEATED_MS = 60_000  # the start comes with the stack's schedule (a tick of seconds) and its push
MONTHS = "Ocak|Şubat|Mart|Nisan|Mayıs|Haziran|Temmuz|Ağustos|Eylül|Ekim|Kasım|Aralık"
TURKISH_DATE = re.compile(rf"^\d{{1,2}} ({MONTHS}) \d{{4}} \d{{2}}:\d{{2}}$")  # 6 Aralık 2026 17:00


def make_tournament(stack: RunningStack, name: str, **given: Any) -> dict[str, Any]:
    """A one-round, one-hand tournament of 4-seat Harftet tables starting in LEAD_S seconds."""
    body = {
        "name": name, "game": "harftet", "seats": 4, "hands": 1, "rounds": 1, "capacity": 4,
        "turnSeconds": 60, "startsAt": int(time.time()) + LEAD_S, **given,
    }  # fmt: skip
    made = httpx.post(
        f"{stack.base_url}/operator/tournaments",
        json=body,
        headers={"X-Operator-Key": stack.operator_key},
        timeout=20,
    )
    assert made.status_code == 201, made.text
    return dict(made.json())


def fits_the_screen(tab: Tab, where: str) -> None:
    """No sideways scroll; every button and link of the screen at least 44 px tall and wide."""
    page = tab.page
    wide = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"{where}: the page scrolls sideways by {wide}px"
    small = page.evaluate(
        """(sel) => [...document.querySelectorAll(`${sel} button, ${sel} a`)]
             .filter((e) => e.offsetParent)
             .map((e) => [e.textContent.trim(), e.getBoundingClientRect()])
             .filter(([, r]) => r.height < 44 || r.width < 44)
             .map(([text, r]) => `${text}: ${Math.round(r.width)}x${Math.round(r.height)}`)""",
        where,
    )
    assert small == [], f"{where}: touch targets under 44 px: {small}"


def shot(tab: Tab, size: tuple[int, int], name: str, full: bool = False) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    label = "phone" if size == PHONE else "desktop"
    tab.page.screenshot(path=str(SCREENS / f"tournament-{label}-{name}.png"), full_page=full)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_register_get_seated_by_the_push_play_and_see_the_podium_and_the_badge(
    browser: Any,  # noqa: F811 (the fixture imported above)
    local_stack: str,
    local_stack_info: RunningStack,
    size: tuple[int, int],
) -> None:
    cup = f"Gece Kupası {'telefon' if size == PHONE else 'masaüstü'} {int(time.time()) % 10000}"
    made = make_tournament(local_stack_info, cup)
    # Nobody enters this one: it starts now, its round 1 has no table, round 2 waits an hour.
    later = cup.replace("Gece Kupası", "Saatli Kupa")  # a name the cup's filter does not match
    now = int(time.time())  # registration opened before (the server's own "now" may be later)
    timed = make_tournament(
        local_stack_info, later, rounds=2, roundMinutes=60, startsAt=now, opensAt=now - 60
    )
    tab = Tab(browser, local_stack, size)
    page = tab.page
    tab.sign_in("Ayşe")  # the first screen
    page.locator("#lobby .tournaments-open").click()
    listing = page.locator("#tournaments")
    expect(listing.locator("#tournaments-h")).to_have_text("Turnuvalar")
    expect(listing.get_by_role("tab", name="Kayıt açık")).to_have_attribute("aria-selected", "true")
    item = listing.locator(".tourney-item").filter(has_text=cup)
    expect(item).to_contain_text("Harftet · 4 kişilik masalar · 1 el · 1 tur")
    expect(item).to_contain_text("0/4 oyuncu")
    fits_the_screen(tab, "#tournaments")
    tab.axe("tournament list")
    shot(tab, size, "list")
    item.get_by_role("button", name=f"{cup} turnuvasını aç").click()

    screen = page.locator("#tournament")
    expect(screen.locator("#tournament-h")).to_have_text(cup)
    expect(screen.locator(".tourney-status")).to_have_text("Kayıt açık")
    expect(screen.locator(".tourney-when")).to_have_text(TURKISH_DATE)
    screen.get_by_role("button", name="Kaydol").click()
    expect(screen.locator(".tourney-said")).to_have_text("Kaydın alındı.")
    expect(screen.locator(".tourney-entries")).to_have_text("1/4 oyuncu")
    expect(screen.get_by_role("button", name="Kaydımı sil")).to_be_visible()
    fits_the_screen(tab, "#tournament")
    tab.axe("tournament page, registered")
    shot(tab, size, "registered")

    # The start: the round's push seats her and the page goes to her table by itself.
    expect(page.locator("#table")).to_be_visible(timeout=SEATED_MS)
    assert made["tournamentId"] in tab.table_id()
    expect(page.locator("#ws-state")).to_have_text("canlı")
    expect(tab.rack()).to_have_count(14)
    shot(tab, size, "table")
    play_to_the_end(tab, budget_s=240)
    dialog = page.locator("#end-dialog")
    expect(dialog.locator("#end-h")).to_have_text("Oyun bitti")
    dialog.get_by_role("button", name="Turnuvaya dön").click()

    # The tournament is over (one round, one table): the standings, the podium, the proofs.
    expect(screen.locator(".tourney-status")).to_have_text("Bitti", timeout=30_000)
    mine = screen.locator(".tourney-standings tr.mine")
    expect(mine).to_contain_text("Ayşe (Sen)")
    expect(mine.locator("td").first).to_have_text("1.")  # computer players are never ranked
    expect(screen.locator(".podium li.p1")).to_contain_text("Birinci")
    expect(screen.locator(".podium li.p1")).to_contain_text("Ayşe (Sen)")
    expect(screen.locator(".tourney-tables li")).to_have_count(1)
    expect(screen.locator(".tourney-tables li")).to_contain_text("1. masa · bitti")
    expect(screen.locator(".tourney-proof .proof-listed")).to_contain_text("İlk dağıtımın kanıtı:")
    screen.get_by_role("button", name="Hepsini doğrula").click()
    expect(screen.locator(".tourney-proof .verdict")).to_have_text("Doğrulandı", timeout=20_000)
    fits_the_screen(tab, "#tournament")
    tab.axe("tournament page, finished")
    shot(tab, size, "podium", full=True)

    # Her badge on her profile (a name on the podium opens it).
    screen.locator(".podium li.p1").get_by_role("button", name="Ayşe (Sen)").click()
    profile = page.locator("dialog.people")
    badge = profile.locator(".podium-badges li").filter(has_text=cup)
    expect(badge).to_have_text(f"{cup} · Birinci")
    expect(badge.locator(".medal.p1")).to_be_visible()
    tab.axe("profile with a badge")
    shot(tab, size, "badge")
    profile.get_by_role("button", name="Kapat").click()
    page.locator("#lang").click()  # English on the switch
    expect(screen.locator(".podium li.p1")).to_contain_text("First")
    expect(screen.locator(".tourney-status")).to_have_text("Finished")
    expect(screen.get_by_role("button", name="Back to tournaments")).to_be_visible()

    # A running tournament whose next round has a time of its own: the page says when.
    screen.get_by_role("button", name="Back to tournaments").click()
    page.locator("#lang").click()  # Turkish again
    listing.get_by_role("tab", name="Sürüyor").click()
    listing.get_by_role("button", name=f"{timed['name']} turnuvasını aç").click()
    expect(screen.locator("#tournament-h")).to_have_text(timed["name"])
    expect(screen.locator(".tourney-status")).to_have_text("Tur 1/2")
    expect(screen.locator(".tourney-facts dt").last).to_have_text("Sonraki tur")
    expect(screen.locator(".tourney-next")).to_have_text(TURKISH_DATE)
    expect(screen.locator(".tourney-next-about")).to_have_text(
        "Bir tur, saati gelince ve önceki turun bütün masaları bitince başlar."
    )
    fits_the_screen(tab, "#tournament")
    tab.axe("tournament page, next round")
    shot(tab, size, "next-round")
    page.locator("#lang").click()
    expect(screen.locator(".tourney-facts dt").last).to_have_text("Next round")
    assert not tab.unexpected_errors(), tab.unexpected_errors()
    tab.close()
