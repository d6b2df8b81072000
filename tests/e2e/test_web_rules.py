"""The web client and issue 15's rules in Chromium on the local stack: a hint lays out one meld
and the count of hints goes down (RULES §4a); a finished game's deals are verified in the
browser, "Dağıtımı doğrula" (RULES §5a). Phone (390×844) and desktop (1280×800); screenshots
in `.artifacts/web/`. The break between hands is played in test_web_client.py's
`test_the_end_of_a_hand_shows_every_rack_then_the_next_hand`."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_web_client import (  # noqa: F401 (browser: the module's fixture)
    DESKTOP,
    PHONE,
    SHOTS,
    Tab,
    browser,
    expect,
    kastet_seed_with_two_melds,
)

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_hint_lays_out_one_meld_and_the_count_goes_down(
    local_stack: str,
    browser: Any,  # noqa: F811 (the fixture imported above)
    size: tuple[int, int],
) -> None:
    tab = Tab(browser, local_stack, size, seed=kastet_seed_with_two_melds())
    page = tab.page
    tab.sign_in("Deniz")
    tab.create_table("kastet", seats=2, bots=True)
    tab.start()
    tab.wait_for_my_turn_or_end()
    hint = page.locator("#btn-hint")
    expect(hint).to_have_text("İpucu (3)")
    in_rack = tab.rack().count()
    hint.click()
    expect(hint).to_have_text("İpucu (2)")
    expect(page.locator("#notice")).to_contain_text("İpucu: bir seri taslak olarak yerde")
    expect(page.locator("#draft-flag")).to_be_visible()
    drafted = in_rack - tab.rack().count()
    assert drafted >= 3, "one meld of at least three tiles left the rack for the draft"
    # Exactly one meld of the draft is new, and it holds the tiles that left the rack.
    expect(page.locator("#series li.meld.changed")).to_have_count(1)
    expect(page.locator("#series li.meld.changed .tile")).to_have_count(drafted)
    view = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
    assert view["hintsLeft"] == 2
    tab.shot("hint-one-meld")
    hint.click()  # the next meld, laid out beside the first: another hint spent
    expect(hint).to_have_text("İpucu (1)")
    expect(page.locator("#series li.meld.changed")).to_have_count(2)
    assert in_rack - tab.rack().count() >= drafted + 3
    tab.shot("hint-two-melds")
    tab.button("Geri al").click()
    expect(tab.rack()).to_have_count(in_rack)
    hint.click()  # a meld already revealed comes again: nothing spent
    expect(page.locator("#series li.meld.changed")).to_have_count(1)
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_the_verify_page_says_verified_for_a_finished_game(
    local_stack: str,
    browser: Any,  # noqa: F811 (the fixture imported above)
) -> None:
    tab = Tab(browser, local_stack, PHONE)
    page = tab.page
    tab.sign_in("Ece")
    made = tab.api(
        "POST", "/tables",
        {"game": "harftet", "seats": 2, "hands": 1, "botSeconds": 0, "turnSeconds": 600,
         "seed": 4},
    )["body"]  # fmt: skip
    table_id = made["tableId"]
    assert (
        tab.api("POST", f"/tables/{table_id}/seats/1", {"bot": True, "level": "hard"})["status"]
        == 200
    )
    page.goto(f"{local_stack}/play/#t={table_id}")  # the page sees the deal proofs in play
    page.reload()  # (a new hash alone does not reload the page)
    expect(page.locator("#table")).to_be_visible()
    page.get_by_role("button", name="Başlat").click()
    deadline = time.monotonic() + 120
    while not tab.ended():  # the human draws (or passes) until the computer finishes
        assert time.monotonic() < deadline, "the game did not end in time"
        tab.wait_for_my_turn_or_end()
        if tab.ended():
            break
        version = tab.version()
        draw = tab.button("Taş çek")
        (draw if draw.is_enabled() else tab.button("Pas")).click()
        tab.wait_for_version_after(version)
    proofs = page.evaluate(f"localStorage.getItem('harftet.proofs.{table_id}')")
    assert proofs and '"1"' in proofs, "the page kept the deal proof it saw"
    link = page.locator("#verify-link")
    expect(link).to_have_text("Dağıtımı doğrula")
    with tab.context.expect_page() as opened:
        link.click()
    verify = opened.value
    expect(verify.locator("#verdict")).to_have_text("doğrulandı", timeout=20_000)
    expect(verify.locator("#hands li")).to_have_count(1)
    expect(verify.locator("#hands li")).to_contain_text("oyunda gördüğün özetle aynı")
    tab.shot("game-end-verify-link")
    verify.screenshot(path=str(SHOTS / "verify-page-390x844.png"))
    verify.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    expect(verify.locator("#verdict")).to_have_text("doğrulandı")
    verify.screenshot(path=str(SHOTS / "verify-page-1280x800.png"))
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()
