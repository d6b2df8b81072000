"""The web client on phones and a desktop: a full rack, the table in view, plain refusals, motion.

Runs in Debian's Chromium under Playwright like test_web_client.py (same Tab helper, one
stack); a handful of screenshots of what is checked here is kept under docs/screens/
(`HARFTET_SCREENS=1` refreshes them).
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Any

import pytest
from test_web_client import (  # the browser fixture and the tab helper are shared
    DESKTOP,
    PHONE,
    ROOT,
    SHOTS,
    Tab,
    browser,
    check_steadily,
    expect,
    kastet_seed_with_two_melds,
    lay_something,
    pass_turn,
)

pytestmark = pytest.mark.e2e
__all__ = ["browser"]  # a fixture: imported so this module's tests get it

SMALL_PHONE = (360, 640)
# Notes every tile animation as it starts: the tile and the offset it starts from.
ANIMATIONS_SPY = r"""
(() => {
  window.__animated = [];
  const real = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    const m = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec((frames[0] || {}).transform || "");
    const [dx, dy] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
    // where the pile and the element (at its landing place, not yet moved) are in this frame
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return {x: r.x, y: r.y, width: r.width, height: r.height};
    };
    const pile = document.querySelector("#pile");
    window.__animated.push({id: this.dataset.id, dx, dy, pile: pile && box(pile), at: box(this)});
    return real.call(this, frames, options);
  };
})()
"""
SCREENS = ROOT / "docs" / "screens"


def keep(tab: Tab, name: str) -> None:
    """A small JPEG of the page: in docs/screens/ when HARFTET_SCREENS=1 (to refresh the ones
    kept in the repository), else beside the other screenshots in .artifacts/web/."""
    folder = SCREENS if os.environ.get("HARFTET_SCREENS") == "1" else SHOTS
    folder.mkdir(parents=True, exist_ok=True)
    tab.page.screenshot(path=str(folder / f"{name}.jpg"), type="jpeg", quality=60)


def rack_rows(tab: Tab) -> int:
    tops = tab.rack().evaluate_all("els => els.map(e => e.offsetTop)")  # layout, not motion
    return len(set(tops))


def check_the_table_keeps_the_screen(tab: Tab, where: str) -> None:
    """Two rack rows at most, the dock at most half the screen, the first meld in view."""
    page = tab.page
    width, height = tab.size
    assert rack_rows(tab) <= 2, f"{where}: the rack wraps to {rack_rows(tab)} rows"
    # Every tile a finger's target (issue 36 §6): at least 44×44 CSS px, a rack of 22 scrolls
    # sideways inside itself rather than shrink them; the page itself never scrolls sideways.
    sizes = tab.rack().evaluate_all("els => els.map(e => [e.offsetWidth, e.offsetHeight])")
    assert min(min(w, h) for w, h in sizes) >= 44, (where, sizes)
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), f"{where}: the page scrolls sideways"
    dock = page.locator("#dock").bounding_box()
    assert dock is not None
    assert dock["y"] >= height / 2, (
        f"{where}: the dock takes {height - dock['y']:.0f} of {height} px"
    )
    page.evaluate("window.scrollTo(0, 0)")
    first = page.locator("#series li.meld[data-mi]").first.bounding_box()
    assert first is not None, f"{where}: no meld on the table"
    assert first["y"] >= 0 and first["y"] + first["height"] <= dock["y"], (where, first, dock)
    brand = page.locator(".brand-name")
    box = brand.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (where, box)
    assert brand.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), f"{where}: the brand is cut"
    # The player's line (account, name, rating, sign-out) and the links share one row under
    # the brand: the table gets the rest. The account button keeps its word for screen readers.
    expect(page.get_by_role("button", name="Hesap")).to_be_visible()
    me, links = page.locator("#me").bounding_box(), page.locator(".top-links").bounding_box()
    assert me is not None and links is not None
    assert abs(me["y"] - links["y"]) < me["height"] / 2, (where, me, links)
    # Each computer opponent shows its level whole (on a phone in place of a name cut to
    # "Bilgisa…"), and its name is still there for a screen reader.
    bots = page.locator(".seat.bot:visible")
    assert bots.count() == 3, where
    for k in range(3):
        seat = bots.nth(k)
        level = seat.locator(".badge.bot")
        expect(level).to_be_visible()
        assert level.inner_text() in {"Kolay", "Orta", "Zor", "Usta"}, (where, level.inner_text())
        assert level.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), f"{where}: level cut"
        box = level.bounding_box()
        card = seat.bounding_box()
        assert box is not None and card is not None
        assert box["x"] + box["width"] <= card["x"] + card["width"], (where, box, card)
        name = seat.locator(".name")
        assert re.fullmatch(r"Bilgisayar \d", name.inner_text()), (where, name.inner_text())
    tab.shot(f"full-rack-{where}")


def draw_once(tab: Tab) -> int:
    """Waits for the turn, draws, and returns the drawn tile's id."""
    tab.wait_for_my_turn_or_end()
    assert not tab.ended()
    before = {i for i, _ in tab.rack_tiles()}
    tab.button("Taş çek").click()
    expect(tab.rack()).to_have_count(len(before) + 1)
    (drawn,) = {i for i, _ in tab.rack_tiles()} - before
    return drawn


def test_a_full_rack_of_22_keeps_the_table_in_view_on_phones_and_a_desktop(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack, SMALL_PHONE, seed=kastet_seed_with_two_melds())
    page = tab.page
    tab.sign_in("Deniz")
    tab.create_table("kastet", seats=4, bots=True, pace="Hızlı")
    expect(page.locator("#brand-sub")).to_have_text(re.compile("^Kastet masası"))
    expect(page.locator("#table-status")).to_have_text(re.compile("^Herkes oturdu"))
    tab.start()
    expect(page.locator("#table-status")).to_contain_text("ortada")
    lay_something(tab, "kastet")  # the table's first meld (the computers may add more)
    pass_turn(tab)

    # A drawn tile flies in from the pile (every animation started is noted, with where it
    # started from)...
    page.evaluate(ANIMATIONS_SPY)
    drawn = draw_once(tab)
    moved = page.evaluate("window.__animated")
    flights = [m for m in moved if m["id"] == str(drawn)]
    assert flights, moved
    # Where it lands and where the pile is, measured in the frame the flight starts: a render
    # after it (a push, a computer's move, the clock) may move both.
    pile, tile = flights[0]["pile"], flights[0]["at"]
    start_x = tile["x"] + tile["width"] / 2 + flights[0]["dx"]
    start_y = tile["y"] + tile["height"] / 2 + flights[0]["dy"]
    assert abs(start_x - (pile["x"] + pile["width"] / 2)) < 4, (flights, pile, tile)
    assert abs(start_y - (pile["y"] + pile["height"] / 2)) < 4, (flights, pile, tile)
    # ...and is simply there when the system asks for reduced motion.
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("window.__animated = []")
    drawn = draw_once(tab)
    assert [m for m in page.evaluate("window.__animated") if m["id"] == str(drawn)] == []
    page.emulate_media(reduced_motion="no-preference")
    while tab.rack().count() < 22:
        draw_once(tab)
    expect(tab.rack()).to_have_count(22)
    # Looked at on this player's turn: the computers wait, the table stays as it is.
    tab.wait_for_my_turn_or_end()
    assert not tab.ended()

    check_the_table_keeps_the_screen(tab, "360x640")
    keep(tab, "phone-360x640-22-tiles")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    check_the_table_keeps_the_screen(tab, "390x844")
    keep(tab, "phone-390x844-22-tiles")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    check_the_table_keeps_the_screen(tab, "1280x800")
    assert rack_rows(tab) == 1  # a desktop has room for the whole rack in one row
    # every seat card in view, the player's own too, none under the dock (issue 36 §8)
    page.evaluate("window.scrollTo(0, 0)")
    dock_top = page.locator("#dock").bounding_box()["y"]  # type: ignore[index]
    for card in page.locator(".seat:visible").all():
        box = card.bounding_box()
        assert box is not None and box["y"] + box["height"] <= dock_top, (box, dock_top)
    keep(tab, "desktop-1280x800-22-tiles")

    # Every colour has a second cue (a shape), for players who tell colours apart poorly.
    marks = tab.rack().evaluate_all(
        "els => els.filter(e => !e.classList.contains('joker'))"
        ".map(e => [e.className.match(/c-(\\w+)/)[1], e.querySelector('.mark').textContent])"
    )
    shapes: dict[str, set[str]] = {}
    for color, mark in marks:
        shapes.setdefault(color, set()).add(mark)
    assert all(len(m) == 1 for m in shapes.values()), shapes
    assert len({next(iter(m)) for m in shapes.values()}) == len(shapes)  # one shape per colour
    tab.axe("table with a full rack")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def notice_covers_nothing(tab: Tab) -> None:
    """The notice sits in the page's flow: no button, field or tile under it."""
    covered = tab.page.locator("#notice").evaluate(
        """n => {
             const b = n.getBoundingClientRect();
             return [...document.querySelectorAll('button, .tile, input, select')]
               .filter(e => e.offsetParent && !n.contains(e))
               .map(e => e.getBoundingClientRect())
               .filter(r => r.width && r.left < b.right && r.right > b.left
                            && r.top < b.bottom && r.bottom > b.top).length;
           }"""
    )
    assert covered == 0


def test_every_refusal_says_why_in_plain_turkish_and_goes_away_on_the_next_success(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack, PHONE)
    page = tab.page
    notice = page.locator("#notice-text")
    long_name = "Ayşegül Nazlıcan Karaosmanoğ"  # 28 visible characters; the server takes 24
    field = page.get_by_label("Adın")
    field.fill(long_name)
    assert field.input_value() == long_name[:24]  # typing stops where the server's bound is
    # A longer name that still gets in (set by a script, an autofill) is refused in words.
    field.evaluate("(e, name) => { e.value = name; }", long_name)
    page.get_by_role("button", name="Misafir olarak oyna").click()
    expect(notice).to_have_text("Adın en çok 24 karakter olabilir; şu an 28 karakter.")
    notice_covers_nothing(tab)
    tab.sign_in("Ayşegül")
    expect(page.locator("#notice")).to_be_hidden()  # the next success clears it
    expect(page.locator("#me")).to_contain_text("Derece")  # the rating, never "Puan"

    # Partners with two seats: the client's own sentence, not a generic refusal.
    page.get_by_label("Oyuncu sayısı").select_option("2")
    check_steadily(page.get_by_label("Eşli (4 oyuncu)"))
    page.get_by_role("button", name="Masayı kur ve otur").click()
    expect(notice).to_have_text(
        "Eşli oyun 4 oyuncuyla oynanır: oyuncu sayısını 4 yap ya da eşliyi kaldır."
    )
    notice_covers_nothing(tab)
    page.get_by_label("Eşli (4 oyuncu)").uncheck()

    # A value only the server refuses (an old form, a changed limit): its field, in Turkish.
    def five_seats(route: Any) -> None:
        body = {**json.loads(route.request.post_data or "{}"), "seats": 5}
        route.continue_(post_data=json.dumps(body))

    page.route(re.compile(r"/tables$"), five_seats)
    page.get_by_role("button", name="Masayı kur ve otur").click()
    expect(notice).to_have_text("Oyuncu sayısı değeri kabul edilmedi: 2 ile 4 arasında olmalı.")
    page.unroute(re.compile(r"/tables$"))
    assert "İstek geçersiz" not in page.content()
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_table_texts_stay_true_an_invitation_opens_in_an_open_tab_and_dialogs_follow_the_language(
    local_stack: str, browser: Any
) -> None:
    host = Tab(browser, local_stack, PHONE)
    host.sign_in("Ece")
    check_steadily(host.page.get_by_label("Özel masa (yalnız davetle)"))
    host.create_table("kastet", seats=2)
    table_id = host.table_id()

    guest = Tab(browser, local_stack, PHONE)
    guest.sign_in("Mert")
    # The invitation link pasted into the open tab: only the hash changes, the table opens.
    guest.page.evaluate(f"location.hash = '#t={table_id}'")
    expect(guest.page.locator("#table")).to_be_visible()
    guest.page.get_by_role("button", name="Otur", exact=True).click()
    expect(host.page.locator("#table-status")).to_have_text(re.compile("^Herkes oturdu"))
    host.start()
    log = guest.page.locator("#log")
    expect(log).to_contain_text("Oyun başladı")
    assert "bağlantı koptu" not in log.inner_text() and "geri döndü" not in log.inner_text()

    # The guest leaves a rated game: the warning names the cost. A practice table names none.
    guest.page.get_by_role("button", name="Masadan kalk").click()
    expect(guest.page.locator("#lobby")).to_be_visible()
    assert "derecenden 2 düşürür" in guest.dialogs[-1]  # the cost, in rating points
    expect(host.page.locator("#table-status")).to_contain_text("Oyun durdu: boş koltuk var")

    # A substitute sits: the header stops asking for one.
    sub = Tab(browser, local_stack, PHONE, path=f"#t={table_id}")
    sub.sign_in("Can", screen="#table")
    sub.page.get_by_role("button", name="Yedek olarak otur").click()
    expect(host.page.locator("#table-status")).to_contain_text("yedek oturdu")
    expect(sub.page.locator("#table-status")).to_contain_text("yedek oturdu")

    # Settings open; the language switched inside: the open dialog is written again.
    page = host.page
    page.get_by_role("button", name="Ayarlar").click()
    dialog = page.locator("#settings-dialog")
    expect(dialog.locator("h2")).to_have_text("Ayarlar")
    dialog.get_by_label("Dil").select_option("en")
    expect(dialog.locator("h2")).to_have_text("Settings")
    expect(dialog.get_by_label("Sound")).to_be_visible()
    host.axe("settings dialog, in English")
    dialog.get_by_label("Language").select_option("tr")
    expect(dialog.locator("h2")).to_have_text("Ayarlar")
    dialog.get_by_label("Ses", exact=True).uncheck()
    dialog.get_by_role("button", name="Kapat").click()
    expect(page.get_by_role("button", name="Sesi aç")).to_be_visible()
    assert json.loads(page.evaluate("localStorage.getItem('harftet.settings')"))["sound"] is False
    for tab in (host, guest, sub):
        assert tab.unexpected_errors() == [], tab.errors
        tab.close()


def test_the_english_rules_are_a_page_not_markdown(local_stack: str, browser: Any) -> None:
    tab = Tab(browser, local_stack, DESKTOP)
    page = tab.page
    page.get_by_role("button", name="English").click()
    link = page.get_by_role("link", name="Rules")
    page.goto(f"{local_stack}/play/{link.get_attribute('href')}")
    expect(page.locator("#rules h1").first).to_be_visible()
    assert "# " not in page.locator("#rules").inner_text()[:200]
    expect(page.locator("html")).to_have_attribute("lang", "en")
    tab.close()


def test_the_installed_app_opens_offline_and_says_there_is_no_connection(
    local_stack: str, browser: Any
) -> None:
    context = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]}, locale="tr-TR", service_workers="allow"
    )
    page = context.new_page()
    page.goto(f"{local_stack}/play/")
    page.evaluate(
        "navigator.serviceWorker.ready.then(() => true)"
    )  # installed: the shell is cached
    page.reload()
    page.wait_for_function("!!navigator.serviceWorker.controller")
    manifest = page.evaluate("fetch('manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"]
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("Bağlantı yok")
    expect(page.get_by_role("button", name="Misafir olarak oyna")).to_be_visible()
    context.set_offline(False)
    context.close()


def touch_drag(tab: Tab, source: Any, target: Any) -> None:
    """A finger drag (DevTools touch events, as a phone's screen sends them)."""
    s, d = source.bounding_box(), target.bounding_box()
    assert s is not None and d is not None
    x0, y0 = s["x"] + s["width"] / 2, s["y"] + s["height"] / 2
    x1, y1 = d["x"] + d["width"] / 2, d["y"] + d["height"] / 2
    cdp = tab.context.new_cdp_session(tab.page)
    start = {"x": x0, "y": y0}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [start]})
    for i in range(1, 11):
        point = {"x": x0 + (x1 - x0) * i / 10, "y": y0 + (y1 - y0) * i / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_table_tile_is_dragged_with_a_finger(local_stack: str, browser: Any) -> None:
    context = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        locale="tr-TR",
        has_touch=True,
        is_mobile=True,
        service_workers="block",
    )
    tab = Tab(
        browser, local_stack, PHONE, seed=kastet_seed_with_two_melds(), context=context, clock=True
    )
    page = tab.page
    tab.sign_in("Parmak")
    tab.create_table("kastet", seats=2, bots=True)
    tab.start()
    lay_something(tab, "kastet")
    pass_turn(tab)
    tab.wait_for_my_turn_or_end()
    melds = page.locator("#series li.meld[data-mi]")
    before = melds.count()
    assert before >= 1, "no meld on the table to drag from"
    # The page's timers stop here: a drag's guard against its own click must not depend on a
    # timer firing in time (a loaded machine once ate the next tap on another button with it).
    page.clock.pause_at(time.time() + 5)
    touch_drag(tab, melds.first.locator(".tile").first, page.locator("#series .new-meld button"))
    expect(melds).to_have_count(before + 1)  # the tile now starts a new series of the draft
    expect(page.locator("#draft-flag")).to_be_visible()
    # A practice table (a computer at it): leaving threatens no charge, because none is made.
    page.get_by_role("button", name="Masadan kalk").click()
    expect(page.locator("#lobby")).to_be_visible(timeout=15_000)  # a computer takes the seat
    page.clock.resume()
    assert tab.dialogs[-1].startswith("Alıştırma masasından kalkıyorsun: derecen değişmez")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def summary(i: int) -> dict[str, Any]:
    """A lobby entry as GET /tables lists it (API.md, Tables)."""
    return {
        "tableId": f"t{i:03d}",
        "game": "kastet",
        "status": "waiting",
        "seats": 4,
        "hands": 11,
        "partners": False,
        "turnSeconds": 45,
        "manager": f"p{i}",
        "players": [f"Oyuncu {i}", None, None, None],
        "vacant": [],
        "createdAt": 1_700_000_000 + i,
    }


def test_the_lobby_puts_quick_play_first_and_pages_a_long_list(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack, PHONE)
    page = tab.page
    asked: list[str] = []

    def lobby(route: Any) -> None:
        url = route.request.url
        asked.append(url)
        if "cursor=page2" in url:
            body = {"tables": [summary(i) for i in range(10, 13)], "cursor": None}
        else:
            body = {"tables": [summary(i) for i in range(10)], "cursor": "page2"}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(re.compile(r"/tables\?status=waiting"), lobby)
    tab.sign_in("Sayfa")
    items = page.locator("#lobby-list > li")
    expect(items).to_have_count(10)
    assert "limit=10" in asked[-1]
    quick = page.get_by_role("button", name="Hemen oyna").bounding_box()
    first = items.first.bounding_box()
    assert quick is not None and first is not None and quick["y"] < first["y"]
    assert quick["y"] + quick["height"] <= PHONE[1]  # on the first screen
    page.get_by_role("button", name="Sonraki").click()
    expect(items).to_have_count(3)
    expect(items.first).to_contain_text("Oyuncu 10")
    expect(page.get_by_role("button", name="Sonraki")).to_be_hidden()
    page.get_by_role("button", name="Önceki").click()
    expect(items).to_have_count(10)
    expect(items.first).to_contain_text("Oyuncu 0")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()
