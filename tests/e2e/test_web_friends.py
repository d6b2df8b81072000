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
    """Issue 36 §5: a request arrives live (no reload) at the lobby's top with a count in the
    header; "Masaya çağır" takes the inviter to the table; the invitation shows at the top of
    the friend's lobby and "Katıl" seats them there; "Engelle" asks first."""
    ayse, ali = Tab(browser, local_stack, size=size), Tab(browser, local_stack, size=size)
    ayse.sign_in("Ayşe")
    ali.sign_in("Ali")
    code = ali.page.locator("#my-friend-code").inner_text()
    ayse.page.locator("#friend-code").fill(code)
    ayse.page.get_by_role("button", name="İstek gönder").click()
    expect(ayse.page.locator("#friends")).to_contain_text("Gönderilen istekler")
    request = ali.page.locator("#friend-alerts .invitation")  # pushed: no reload
    expect(request).to_contain_text("Ayşe arkadaşın olmak istiyor")
    expect(ali.page.locator("#friends-badge")).to_have_text("Bekleyen: 1")
    top = request.bounding_box()
    assert top is not None and top["y"] < size[1], top  # where a player looks, not under the form
    request.get_by_role("button", name="Kabul et").click()
    expect(ali.page.locator("#friends-badge")).to_be_hidden()
    friend_of_ayse = ayse.page.locator("#friends .friend", has_text="Ali")
    expect(friend_of_ayse.locator(".presence")).to_have_text("Çevrimiçi")  # pushed at once
    ali.page.close()  # Ali goes: his lobby connection closes
    expect(friend_of_ayse.locator(".presence")).to_have_text("Uzakta")
    ali = Tab(browser, local_stack, size=size, context=ali.context)
    expect(ali.page.locator("#lobby")).to_be_visible()
    expect(friend_of_ayse.locator(".presence")).to_have_text("Çevrimiçi")
    ayse.axe("friends screen with a friend")
    SCREENS.mkdir(parents=True, exist_ok=True)
    name = "phone" if size == PHONE else "desktop"
    ayse.page.locator("#friends").scroll_into_view_if_needed()
    ayse.page.screenshot(path=str(SCREENS / f"friends-{name}-presence.png"), full_page=False)
    ayse.page.locator("#lang").click()  # English on the switch
    expect(ayse.page.locator("#friends h2")).to_have_text("Friends")
    expect(ayse.page.locator(".people-open")).to_have_text("Leaderboard")
    expect(friend_of_ayse.locator(".presence")).to_have_text("Online")
    ayse.page.locator("#friends").scroll_into_view_if_needed()
    ayse.page.screenshot(path=str(SCREENS / f"friends-{name}-en.png"), full_page=False)
    ayse.page.locator("#lang").click()
    expect(ayse.page.locator("#friends h2")).to_have_text("Arkadaşlar")
    friend_of_ayse.get_by_role("button", name="Masaya çağır").click()
    expect(ayse.page.locator("#table")).to_be_visible()  # the inviter lands at the table
    invitation = ali.page.locator("#friend-alerts .invitation")
    expect(invitation).to_contain_text("Ayşe seni masasına çağırıyor")
    expect(ali.page.locator("#friends-badge")).to_have_text("Bekleyen: 1")
    ali.axe("friends screen with an invitation")  # no serious or critical violation
    ali.page.screenshot(path=str(SCREENS / f"friends-{name}.png"), full_page=False)
    invitation.get_by_role("button", name="Katıl").click()
    expect(ali.page.locator("#table")).to_be_visible()
    expect(ali.page.locator("#seats")).to_contain_text("Ayşe")  # the same table
    # Tab answers the page's dialogs (answer_dialogs): yes to leaving the table, then no to the
    # first "Engelle" and yes to the second. (A second dialog handler of the test's own raced
    # Tab's: the first "Engelle" was accepted, and under load the button was gone at the second.)
    blocks: list[str] = []

    def blocking(request) -> None:
        if request.method == "POST" and "/players/me/blocks/" in request.url:
            blocks.append(request.url)

    def asked() -> list[str]:
        return [m for m in ali.dialogs if "engellensin" in m]

    ali.page.on("request", blocking)
    ali.page.locator("#btn-leave").click()
    expect(ali.page.locator("#lobby")).to_be_visible()
    friend_of_ali = ali.page.locator("#friends .friend", has_text="Ayşe")
    ali.answer_dialogs = False
    friend_of_ali.get_by_role("button", name="Engelle").click()
    for _ in range(100):  # the question asked and answered no
        if asked():
            break
        ali.page.wait_for_timeout(100)
    assert asked() and asked()[0].startswith("Ayşe engellensin mi?"), ali.dialogs
    ali.page.wait_for_timeout(300)  # time for a block request, were one sent
    assert blocks == [], blocks  # a "no" changes nothing
    expect(friend_of_ali).to_be_visible()
    ali.answer_dialogs = True
    friend_of_ali.get_by_role("button", name="Engelle").click()
    expect(ali.page.locator("#friends")).to_contain_text("Engellediklerin")
    assert len(asked()) == 2 and len(blocks) == 1, (ali.dialogs, blocks)
    assert not ayse.unexpected_errors() and not ali.unexpected_errors()
