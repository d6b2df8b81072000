"""Issue 36's journeys that were still missing, in Chromium on one local stack (the module's),
each played from the client's first screen as a person would, at 390×844 and 1280×800, in
Turkish and then in English on the header's switch: hints used down to zero, the break between
two hands, the word card of a laid word and a report, the leaderboards, the export of one's data
and the deletion of one's account. Every screen visited goes through `journey.look` (axe of any
impact, no sideways scroll, nothing under the dock, words of the catalogue only, a screenshot
`<journey>-<screen>-<phone|desktop>[-en].png`, in docs/screens/ with HARFTET_SCREENS=1)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from journey import look, switch_language
from test_web_client import (  # noqa: F401 (browser: the module's fixture)
    DESKTOP,
    PHONE,
    Tab,
    browser,
    expect,
    lay_something,
)

from harftet.localstack.launcher import RunningStack
from harftet.texts import catalogue

pytestmark = pytest.mark.e2e

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
TR, EN = catalogue("tr"), catalogue("en")


@pytest.fixture(scope="module")
def stack(stack_factory: Any) -> Iterator[RunningStack]:
    """The module's stack, shared by its journeys (each plays its own players and tables)."""
    yield stack_factory("journeys")


def base(stack: RunningStack) -> str:
    # localhost, not 127.0.0.1: the account dialog's passkeys need a registrable domain
    return stack.base_url.replace("127.0.0.1", "localhost")


def start_a_table(tab: Tab, hands: int = 1, seats: int = 2) -> None:
    """The new-table form as a person fills it: Harftet, computer players in the empty seats."""
    tab.create_table("harftet", seats=seats, hands=hands, bots=True, pace="Hızlı")
    tab.start()


@SIZES
def test_hints_used_down_to_zero_then_the_button_says_why_it_is_off(
    stack: RunningStack,
    browser: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    tab = Tab(browser, base(stack), size, seed=11)
    page = tab.page
    tab.sign_in("Deniz")
    start_a_table(tab)
    hint = page.locator("#btn-hint")
    for left in (2, 1, 0):
        tab.wait_for_my_turn_or_end()
        hint.click()
        expect(hint).to_have_text(TR["hints.left"].format(n=left))
        expect(page.locator("#notice-text")).to_contain_text("İpucu")
        if left == 2:
            look(tab, "hints-shown", data=["Deniz"])
        tab.button("Geri al").click()
        expect(page.locator("#draft-flag")).to_be_hidden()
    expect(hint).to_be_disabled()  # aria-disabled: off, and still tappable for its reason
    expect(hint).to_have_attribute("title", TR["notice.noHintsLeft"])  # on hover
    expect(hint).to_have_attribute("aria-description", TR["notice.noHintsLeft"])
    hint.click(force=True)  # a tap on a phone, where no title shows: the reason, said
    expect(page.locator("#notice-text")).to_have_text(TR["notice.noHintsLeft"])
    look(tab, "hints-none-left", data=["Deniz"])
    switch_language(tab, "en")
    expect(hint).to_have_text(EN["hints.left"].format(n=0))
    expect(hint).to_have_attribute("title", EN["notice.noHintsLeft"])
    hint.click(force=True)
    expect(page.locator("#notice-text")).to_have_text(EN["notice.noHintsLeft"])
    look(tab, "hints-none-left", "en", data=["Deniz"])
    switch_language(tab, "tr")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()
