"""A person against the computer players of a level, in the browser (issue 37): "Hemen oyna"
makes a 4-seat Harftet table of three computer players, and at Zor the hand leaves the
person turns to play — a word laid, then draws — where before Zor ended it before the
person's second or third turn."""

from __future__ import annotations

import re
from typing import Any

import pytest
from journey import look, switch_language
from test_web_client import (  # noqa: F401 (browser: the module's fixture)
    DESKTOP,
    PHONE,
    Tab,
    browser,
    expect,
    harftet_word,
    lay_something,
    pass_turn,
)

from harftet.texts import catalogue

pytestmark = pytest.mark.e2e


LEVELS = ("easy", "medium", "hard", "expert")


@pytest.fixture(scope="module")
def levels_stack(stack_factory: Any) -> str:
    """The module's own stack (quick play sits a person at any waiting table of the game)."""
    return str(stack_factory("levels").base_url)


def test_quick_play_at_zor_leaves_the_person_a_hand_to_play(
    levels_stack: str,
    browser: Any,  # noqa: F811 (the fixture imported above)
) -> None:
    # A stack of its own: quick play sits a person at a waiting table when there is one.
    tab = Tab(browser, levels_stack, PHONE)
    page = tab.page
    tab.sign_in("Selin")
    page.locator("#quick-game").select_option("harftet")
    # Rated ("Dereceli", the default) lets the matcher choose the opponents and their level: a
    # person who wants the computer players at Zor unticks it, and the level choice shows.
    page.locator("#quick-rated").uncheck()
    page.locator("#quick-level").select_option("hard")
    about = page.locator(".level-about li:visible")
    expect(about).to_have_text(re.compile(r"^Zor: .*en çok iki taş açar"))
    tab.shot("quick-play-zor")
    page.get_by_role("button", name="Hemen oyna").click()
    expect(page.locator("#table-h")).to_have_text("Harftet masası")
    expect(page.locator(".seat")).to_have_count(4)
    expect(page.locator(".seat.me")).to_contain_text("Selin")
    table = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
    levels = [s["level"] for s in table["seats"] if s and s.get("bot")]
    assert levels == ["hard"] * 3, table["seats"]

    # First turn: a word from the rack if there is one (else draws until one turns up).
    tab.wait_for_my_turn_or_end()
    assert not tab.ended(), "the computer players ended the hand before the person's turn"
    first = harftet_word(tab.rack_tiles(), max_tiles=4)
    if first is not None:
        lay_something(tab, "harftet")
        pass_turn(tab)
    played = 1 if first is not None else 0
    # Then draw, turn after turn: the person keeps getting turns while Zor plays.
    while played < 3 and not tab.ended():
        tab.wait_for_my_turn_or_end()
        if tab.ended():
            break
        version = tab.version()
        tab.button("Taş çek").click()
        tab.wait_for_version_after(version)
        played += 1
    assert played >= 2, f"the hand ended after the person's {played} turn(s)"
    expect(page.locator("#log")).to_contain_text("Selin taş çekti")
    tab.shot("quick-play-zor-turns")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_quick_play_against_each_level_from_the_first_screen_in_turkish_and_english(
    levels_stack: str,
    browser: Any,  # noqa: F811 (the fixture imported above)
    size: tuple[int, int],
) -> None:
    """Issue 36's journey "quick play against each level": from the sign-in, the quick-play
    card with its level chosen and described, a table of three computer players of that level
    (their badges say it), then up from the table (asked first) and back to the lobby for the
    next level; the last level again in English. Screens: levels-lobby, levels-<level>."""
    tab = Tab(browser, levels_stack, size)
    page = tab.page
    look(tab, "levels-first-screen")
    tab.sign_in("Selin")
    page.locator("#quick-game").select_option("harftet")
    page.locator("#quick-rated").uncheck()
    tr = catalogue("tr")
    for i, level in enumerate(LEVELS):
        page.locator("#quick-level").select_option(level)
        expect(page.locator(".level-about li:visible")).to_have_text(tr[f"level.{level}.about"])
        if i == 0:
            look(tab, "levels-lobby")
        page.get_by_role("button", name="Hemen oyna").click()
        expect(page.locator("#table-h")).to_have_text("Harftet masası")
        expect(page.locator(".seat .badge.bot")).to_have_text([tr[f"level.{level}"]] * 3)
        table = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
        assert [s["level"] for s in table["seats"] if s and s.get("bot")] == [level] * 3
        expect(tab.rack()).not_to_have_count(0)
        look(tab, f"levels-{level}", data=["Selin"])
        page.get_by_role("button", name="Masadan kalk").click()  # asked, and answered yes
        expect(page.locator("#lobby")).to_be_visible()
        # a practice table against the computer: no rating lost, said so before leaving
        assert tab.dialogs and tab.dialogs[-1] == tr["confirm.leave.practice"], tab.dialogs
    switch_language(tab, "en")
    en = catalogue("en")
    expect(page.get_by_role("button", name=en["quick.go"])).to_be_visible()
    expect(page.locator(".level-about li:visible")).to_have_text(en["level.expert.about"])
    look(tab, "levels-lobby", "en")
    page.get_by_role("button", name=en["quick.go"]).click()
    expect(page.locator(".seat .badge.bot")).to_have_text([en["level.expert"]] * 3)
    computers = ["Computer 2", "Computer 3", "Computer 4"]  # not the server's "Bilgisayar 2"
    expect(page.locator(".seat.bot .seat-name")).to_contain_text(computers)
    expect(tab.rack()).not_to_have_count(0)
    look(tab, "levels-expert", "en", data=["Selin"])
    switch_language(tab, "tr")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()
