"""The web client's "Aç ve pas" in Chromium on the local stack (issue 40, API.md ``"pass":
true``): with tiles of the rack placed, Pas becomes "Aç ve pas" and ends the turn with the
lay in ONE move — one stored change (the log's lay and pass share its version). Phone
(390×844) and desktop (1280×800)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_web_client import (  # noqa: F401 (browser: the module's fixture)
    DESKTOP,
    PHONE,
    Tab,
    browser,
    build_by_taps,
    expect,
    kastet_meld,
    kastet_seed_with_two_melds,
)

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_pas_with_tiles_placed_lays_them_and_ends_the_turn_in_one_move(
    local_stack: str,
    browser: Any,  # noqa: F811 (the fixture imported above)
    size: tuple[int, int],
) -> None:
    tab = Tab(browser, local_stack, size, seed=kastet_seed_with_two_melds())
    page = tab.page
    sent: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda frame: sent.append(
                json.loads(frame if isinstance(frame, str) else frame["payload"])
            ),
        ),
    )
    tab.sign_in("Ece")
    tab.create_table("kastet", seats=2, bots=True, turn_seconds=600)
    tab.start()
    tab.wait_for_my_turn_or_end()
    expect(tab.button("Pas")).to_be_disabled()  # nothing placed: draw or lay first
    ids = kastet_meld(tab.rack_tiles())
    assert ids, "the seed deals a meld"
    build_by_taps(tab, ids)
    button = tab.button("Aç ve pas")
    expect(button).to_be_enabled()
    tab.shot("lay-and-pass")
    version = tab.version()
    button.click()
    tab.wait_for_version_after(version)
    expect(page.locator("#draft-flag")).to_be_hidden()  # laid, not a draft any more
    expect(tab.rack()).to_have_count(14 - len(ids))
    for tile_id in ids:
        expect(page.locator(f'#series .tile[data-id="{tile_id}"]')).to_have_count(1)
    events = tab.api("GET", f"/tables/{tab.table_id()}/log?after=0")["body"]["events"]
    mine = [e for e in events if e["seat"] == 0 and e["type"] in ("lay", "pass")]
    assert [e["type"] for e in mine[:2]] == ["lay", "pass"]
    assert mine[0]["version"] == mine[1]["version"]  # one stored change
    moves = [m for m in sent if m.get("action") == "move" and not m.get("dryRun")]
    # sent on the table's socket: one move, the lay with its pass
    assert [(m["type"], m.get("pass")) for m in moves] == [("lay", True)]
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()
