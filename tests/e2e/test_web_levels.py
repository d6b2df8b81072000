"""A person against the computer players of a level, in the browser (issue 37): "Hemen oyna"
makes a 4-seat Harftet table of three computer players, and at Zor the hand leaves the
person turns to play — a word laid, then draws — where before Zor ended it before the
person's second or third turn."""

from __future__ import annotations

import re
from typing import Any

from test_web_client import (  # noqa: F401 (browser: the module's fixture)
    PHONE,
    Tab,
    browser,
    expect,
    harftet_word,
    lay_something,
    pass_turn,
)


def test_quick_play_at_zor_leaves_the_person_a_hand_to_play(
    stack_factory: Any,
    browser: Any,  # noqa: F811 (the fixture imported above)
) -> None:
    # A stack of its own: quick play sits a person at a waiting table when there is one.
    base = stack_factory("levels").base_url
    tab = Tab(browser, base, PHONE)
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
