"""The friends screen of the web client (clients/web/friends.js) in Chromium, at a phone's and a
desktop's size: two players become friends by code, one sees the other's presence change
live, one invites the other to a table and the other sees the invitation. Screenshots:
friends-<size>*.png (see SCREENS)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_web_client import DESKTOP, PHONE, Tab, browser, expect  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
# In docs/screens/ when HARFTET_SCREENS=1 (to refresh the committed ones), else .artifacts/web/.
SCREENS = ROOT / ("docs/screens" if os.environ.get("HARFTET_SCREENS") == "1" else ".artifacts/web")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_two_friends_see_presence_and_an_invitation(browser, local_stack, size):  # noqa: F811
    ayse, ali = Tab(browser, local_stack, size=size), Tab(browser, local_stack, size=size)
    ayse.sign_in("Ayşe")
    ali.sign_in("Ali")
    code = ali.page.locator("#my-friend-code").inner_text()
    ayse.page.locator("#friend-code").fill(code)
    ayse.page.get_by_role("button", name="İstek gönder").click()
    expect(ayse.page.locator("#friends")).to_contain_text("Gönderilen istekler")
    ali.page.reload()
    ali.page.locator("#friends").get_by_role("button", name="Kabul et").click()
    friend_of_ayse = ayse.page.locator("#friends .friend", has_text="Ali")
    expect(friend_of_ayse.locator(".presence")).to_have_text("Çevrimiçi")  # pushed at once
    ali.page.close()  # Ali goes: his lobby connection closes
    expect(friend_of_ayse.locator(".presence")).to_have_text("Uzakta")
    ali = Tab(browser, local_stack, size=size, context=ali.context)
    expect(ali.page.locator("#lobby")).to_be_visible()
    expect(friend_of_ayse.locator(".presence")).to_have_text("Çevrimiçi")
    friend_of_ayse.get_by_role("button", name="Masaya çağır").click()
    expect(friend_of_ayse.get_by_role("button", name="Çağrıldı")).to_be_visible()
    invitation = ali.page.locator("#friends .invitation")
    expect(invitation).to_contain_text("Ayşe seni masasına çağırıyor")
    ali.axe("friends screen with an invitation")  # no serious or critical violation
    ayse.axe("friends screen with a friend")
    SCREENS.mkdir(parents=True, exist_ok=True)
    name = "phone" if size == PHONE else "desktop"
    ali.page.locator("#friends").scroll_into_view_if_needed()
    ali.page.screenshot(path=str(SCREENS / f"friends-{name}.png"), full_page=False)
    ayse.page.locator("#friends").scroll_into_view_if_needed()
    ayse.page.screenshot(path=str(SCREENS / f"friends-{name}-presence.png"), full_page=False)
    ayse.page.locator("#lang").click()  # English on the switch
    expect(ayse.page.locator("#friends h2")).to_have_text("Friends")
    expect(ayse.page.locator(".people-open")).to_have_text("Leaderboard")
    expect(friend_of_ayse.locator(".presence")).to_have_text("Online")
    expect(friend_of_ayse.get_by_role("button", name="Invited")).to_be_visible()
    ayse.page.locator("#friends").scroll_into_view_if_needed()
    ayse.page.screenshot(path=str(SCREENS / f"friends-{name}-en.png"), full_page=False)
    invitation.get_by_role("button", name="Katıl").click()
    expect(ali.page.locator("#table")).to_be_visible()
    assert not ayse.unexpected_errors() and not ali.unexpected_errors()
