"""The web client's words and bounds come from the server (GET /texts) in Chromium: the name
field takes as many characters as the server does, the catalogue is fetched once and then
revalidated by its ETag, no label is ever seen as its key, and English is fetched on the switch."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_client import (  # noqa: F401 (browser: the module's fixture)
    DESKTOP,
    PHONE,
    Tab,
    browser,
    expect,
)

from harftet.bounds import NAME_MAX
from harftet.texts import catalogue

pytestmark = pytest.mark.e2e

# Notes every key-like word the page ever shows ("login.go", "btn.draw"), from the first paint on.
KEYS_SPY = r"""
(() => {
  window.__keysSeen = [];
  const look = () => {
    const text = document.body ? document.body.innerText : "";
    for (const m of text.matchAll(/\b[a-z]+(?:\.[a-zA-Z]+)+\b/g)) window.__keysSeen.push(m[0]);
  };
  const all = { childList: true, subtree: true, characterData: true, attributes: true };
  new MutationObserver(look).observe(document, all);
})();
"""


def test_the_name_field_takes_as_many_characters_as_the_server(
    local_stack: str,
    browser: Any,  # noqa: F811 (the fixture imported above)
) -> None:
    tab = Tab(browser, local_stack, PHONE)
    field = tab.page.get_by_label("Adın")
    expect(field).to_have_attribute("maxlength", str(NAME_MAX))
    field.fill("Ş" * (NAME_MAX + 5))
    assert field.input_value() == "Ş" * NAME_MAX
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_the_catalogue_is_fetched_once_revalidated_by_its_etag_and_no_key_is_ever_shown(
    local_stack: str,
    browser: Any,  # noqa: F811
) -> None:
    context = browser.new_context(
        viewport={"width": DESKTOP[0], "height": DESKTOP[1]},
        locale="tr-TR",
        service_workers="block",
    )
    context.add_init_script(KEYS_SPY)
    asked: list[tuple[str, str | None, int]] = []
    context.on(
        "response",
        lambda r: (
            "/texts?" in r.url
            and asked.append(
                (r.url.split("?")[1], r.request.headers.get("if-none-match"), r.status)
            )
        ),
    )
    tab = Tab(browser, local_stack, DESKTOP, context=context)
    page = tab.page
    shown_as_keys = "() => window.__keysSeen.filter(k => KEYS.includes(k))".replace(
        "KEYS", repr(sorted(catalogue("tr")))
    )
    # A first visit: the login is drawn from the shell's copy (texts.tr.json), which the whole
    # client then checks with the API once: a 304, the catalogue never downloaded twice.
    expect(page.get_by_role("button", name="Misafir olarak oyna")).to_be_visible()
    for _ in range(300):  # the whole client loads after the first screen (at most 30 s)
        if asked:
            break
        page.wait_for_timeout(100)
    assert [(query, status) for query, _, status in asked] == [("lang=tr", 304)]
    assert asked[0][1]  # asked with the shell copy's ETag
    assert page.evaluate(shown_as_keys) == []

    # The kept catalogue shows at once; the server is asked whether it is still current.
    with page.expect_response(lambda r: "/texts?" in r.url) as revalidated:
        page.reload()
    expect(page.get_by_role("button", name="Misafir olarak oyna")).to_be_visible()
    assert revalidated.value.status == 304
    assert revalidated.value.request.all_headers().get("if-none-match")
    assert page.evaluate(shown_as_keys) == []

    tab.sign_in("Ayşe")  # the lobby: its labels are the catalogue's
    expect(page.get_by_role("button", name=catalogue("tr")["quick.go"])).to_be_visible()
    page.get_by_role("button", name="English").click()  # the other language, fetched on the switch
    expect(page.get_by_role("button", name=catalogue("en")["quick.go"])).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert ("lang=en", None, 200) in asked
    assert page.evaluate(shown_as_keys) == []
    assert not re.search(r"\b(?:login|lobby|btn|create)\.\w+", page.locator("body").inner_text())
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()
