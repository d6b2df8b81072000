"""The web client at /play/, played in Turkish in Debian's Chromium (Playwright) on the local stack.

Needs `/usr/bin/chromium` (`apt-get update && apt-get install -y chromium`) and the `playwright`
package (`pip install playwright`; never `playwright install`: it downloads a browser). Either one
missing fails these tests with that instruction rather than skipping them. The accessibility
check injects axe-core from node_modules (`npm install`, package.json).

Screenshots are saved under `.artifacts/web/` (gitignored); on the phone every one of them
also checks that the rack, the action buttons and the turn timer are inside the viewport.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harftet.engine.hand import shuffled
from harftet.engine.tiles import JOKER_IDS, tiles_for
from harftet.engine.words import default_words
from harftet.engine.words.search import find_words

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / ".artifacts" / "web"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]
PHONE = (390, 844)
DESKTOP = (1280, 800)
TURN_WAIT_MS = 20_000
IDS = "els => els.map(e => e.dataset.id)"
COLORS_TR = {"kırmızı": "red", "sarı": "yellow", "mavi": "blue", "siyah": "black"}
# Statuses the client meets on purpose (a refused lay, a stale version, a probe for a feature).
EXPECTED_STATUS = re.compile(r"status of (400|404|409|422)")
TURN_CHIME = 880  # Hz: the second note of sound.js's "your turn", played by no other sound
PACE = {"botSeconds": 0}  # the computer players move at once: the tests need no pauses
# Counts the notes the page plays (every oscillator started) and lets a test hide the page
# (document.hidden), as a tab in the background is, before the page's own scripts run.
SPIES = """
(() => {
  window.__sounds = 0;
  window.__notes = [];
  window.__hidden = false;
  const Real = window.AudioContext;
  if (Real) {
    window.AudioContext = class extends Real {
      createOscillator() {
        const osc = super.createOscillator();
        const start = osc.start.bind(osc);
        osc.start = (...args) => {
          window.__sounds += 1;
          window.__notes.push(osc.frequency.value);
          return start(...args);
        };
        return osc;
      }
    };
  }
  Object.defineProperty(Document.prototype, "hidden", { get: () => window.__hidden });
  Object.defineProperty(Document.prototype, "visibilityState", {
    get: () => (window.__hidden ? "hidden" : "visible"),
  });
})();
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright; fails (never skips) when either is missing."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run `apt-get update && "
            "DEBIAN_FRONTEND=noninteractive apt-get install -y chromium`",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(
            "the playwright package is missing: run `.venv/bin/pip install playwright` "
            "(no `playwright install`: the tests use /usr/bin/chromium)",
            pytrace=False,
        )
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def check_steadily(box: Any) -> None:
    """Check a checkbox or radio of the lobby's form, which moves while the table list above
    it loads (a click may land where the box was a moment before): up to three tries."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(3):
        try:
            box.check(timeout=5000)
            break
        except PlaywrightError:
            continue
    expect(box).to_be_checked()


class Tab:
    """One browser context (its own localStorage, so its own player) and the errors it logged."""

    def __init__(
        self,
        browser: Any,
        base_url: str,
        size: tuple[int, int] = DESKTOP,
        seed: int | None = None,
        context: Any = None,
        path: str = "",
        clock: bool = False,
    ):
        self.base_url = base_url
        self.context = context or browser.new_context(
            viewport={"width": size[0], "height": size[1]},
            locale="tr-TR",
            service_workers="block",  # page.route must see every request (sw.js has its own test)
        )
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.page.add_init_script(SPIES)
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        self.dialogs: list[str] = []
        self.dry_runs = 0
        self.page.on("request", self._count_dry_runs)
        self.answer_dialogs = True
        self.page.on("dialog", self._dialog)
        options: dict[str, Any] = {**PACE, **({"seed": seed} if seed is not None else {})}
        if options:
            # The test's own deal and pace: the create body gains a seed (test mode) and no
            # pause between computer moves, as a test harness would set them.
            def create(route: Any) -> None:
                if route.request.method != "POST":
                    return route.continue_()
                body = {**json.loads(route.request.post_data or "{}"), **options}
                return route.continue_(post_data=json.dumps(body))

            self.page.route(re.compile(r"/tables$"), create)
        if clock:  # the page's timers run on Playwright's clock: a test may pause and step it
            self.page.clock.install()
        self.page.goto(f"{base_url}/play/{path}")

    def _count_dry_runs(self, request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/moves"):
            self.dry_runs += json.loads(request.post_data or "{}").get("dryRun") is True

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        if self.answer_dialogs:
            dialog.accept()
        else:
            dialog.dismiss()

    @property
    def size(self) -> tuple[int, int]:
        vp = self.page.viewport_size
        return vp["width"], vp["height"]

    def sign_in(self, name: str, screen: str = "#lobby") -> None:
        page = self.page
        page.get_by_label("Adın").fill(name)
        page.get_by_role("button", name="Misafir olarak oyna").click()
        expect(page.locator(screen)).to_be_visible()
        expect(page.locator("#me-name")).to_have_text(name)
        expect(page.locator("#me-rating")).to_have_text(re.compile(r"^\d+$"))

    def create_table(
        self,
        game: str,
        seats: int,
        hands: int = 1,
        bots: bool = False,
        turn_seconds: int = 120,
        pace: str | None = None,
    ) -> None:
        """Fill in and send the new-table form; ``pace`` picks the computer players' pace by its
        label ("Hızlı": no pause between their moves, for whole hands played in a test)."""
        page = self.page
        label = "Kastet (okey taşları)" if game == "kastet" else "Harftet (harf taşları)"
        check_steadily(page.get_by_label(label))
        page.get_by_label("Oyuncu sayısı").select_option(str(seats))
        page.get_by_label("El sayısı").fill(str(hands))
        page.get_by_label("Hamle süresi (sn)").fill(str(turn_seconds))
        if pace is not None:
            page.get_by_label("Bilgisayarın hızı").select_option(label=pace)
        if bots:
            check_steadily(page.get_by_label("Boş koltuklara bilgisayar"))
        page.get_by_role("button", name="Masayı kur ve otur").click()
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#ws-state")).to_have_text("canlı")

    def start(self) -> None:
        self.page.get_by_role("button", name="Başlat").click()
        expect(self.rack()).to_have_count(14)

    def seat(self, i: int) -> Any:
        return self.page.locator(f'.seat[data-seat="{i}"]')

    def rack(self) -> Any:
        return self.page.locator("#rack .tile")

    def rack_tiles(self) -> list[tuple[int, str]]:
        pairs = self.rack().evaluate_all(
            "els => els.map(e => [Number(e.dataset.id), e.getAttribute('aria-label')])"
        )
        return [(int(i), str(label)) for i, label in pairs]

    def tap_rack(self, tile_id: int) -> None:
        self.page.locator(f'#rack .tile[data-id="{tile_id}"]').click()

    def button(self, name: str) -> Any:
        return self.page.locator("#dock").get_by_role("button", name=name, exact=True)

    def my_turn(self) -> bool:
        return bool(self.page.locator("#turn-line.mine").count())

    def wait_for_my_turn_or_end(self) -> None:
        """Until this player may act (Draw or Pass enabled) or the end screen is up."""
        self.page.wait_for_function(
            "() => document.querySelector('#end-dialog[open]') || "
            "(document.querySelector('#turn-line.mine') && "
            "(!document.querySelector('#btn-draw').disabled || "
            "!document.querySelector('#btn-pass').disabled))",
            timeout=TURN_WAIT_MS,
        )

    def version(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-version") or -1)

    def wait_for_version_after(self, version: int) -> None:
        self.page.wait_for_function(
            f"() => Number(document.querySelector('#table').dataset.version) > {version}"
        )

    def ended(self) -> bool:
        return bool(self.page.locator("#end-dialog[open]").count())

    def series_words(self) -> list[str]:
        labels = self.page.locator("#series li.meld[data-mi]").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        return [str(label).split(": ", 1)[1].split(" · ")[0] for label in labels if ": " in label]

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """A REST call as this tab's player (for probes and for what "another device" does)."""
        return self.page.evaluate(
            """async ([method, path, body]) => {
              const {token} = JSON.parse(localStorage.getItem("harftet.session"));
              const headers = {Authorization: `Bearer ${token}`,
                               "Content-Type": "application/json"};
              const payload = body == null ? undefined : JSON.stringify(body);
              const res = await fetch(path, {method, headers, body: payload});
              return {status: res.status, body: await res.json().catch(() => null)};
            }""",
            [method, path, body],
        )

    def table_id(self) -> str:
        return str(self.page.evaluate("localStorage.getItem('harftet.table')"))

    def shot(self, name: str) -> Path:
        """Save a screenshot; on a phone, check the rack, buttons and timer are on screen."""
        path = SHOTS / f"{name}-{self.size[0]}x{self.size[1]}.png"
        self.page.screenshot(path=str(path))
        if self.page.locator("#actions").is_visible():  # a hand is being played
            width, height = self.size
            for part in ("#rack", "#actions", "#timer"):
                box = self.page.locator(part).bounding_box()
                assert box is not None, f"{part} is not shown in {name}"
                assert box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (
                    f"{part} is outside the {width}x{height} viewport in {name}: {box}"
                )
                assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (part, box)
        return path

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not EXPECTED_STATUS.search(e)]

    def axe(self, where: str) -> None:
        """No axe-core violation of any impact on the page as it is now (issue 36: 0
        violations on every journey's screens, `heading-order` and the best practices too)."""
        assert AXE.exists(), f"{AXE} is missing: run `npm install`"
        self.page.add_script_tag(path=str(AXE))
        found = self.page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
                 .map(v => `${v.id} (${v.impact}): ${v.help} `
                           + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "))"""
        )
        assert found == [], f"axe on the {where}: {found}"

    def close(self) -> None:
        self.context.close()


def letters_of(tiles: list[tuple[int, str]]) -> list[tuple[int, str | None]]:
    """(id, letter) for a Harftet rack, None for a joker (labels like "ER, 2 puan")."""
    return [(i, None if label.startswith("joker") else label.split(",")[0]) for i, label in tiles]


def harftet_words(tiles: list[tuple[int, str]], max_tiles: int = 8) -> dict[str, list[int]]:
    """Dictionary words a rack spells, jokers left out: each word's tile ids (one spelling)."""
    plain = [(i, letter) for i, letter in letters_of(tiles) if letter is not None]
    spelled: dict[str, list[int]] = {}
    for text, ids in find_words(default_words(), plain, max_results=200):
        if len(ids) <= max_tiles:
            spelled.setdefault(text, [i for i, _ in ids])
    return spelled


def harftet_word(tiles: list[tuple[int, str]], max_tiles: int = 8) -> list[int] | None:
    """Tile ids that spell the longest dictionary word from a rack, jokers left out."""
    spelled = harftet_words(tiles, max_tiles).values()
    return max(spelled, key=len) if spelled else None


def harftet_non_word(tiles: list[tuple[int, str]]) -> list[int]:
    """Three rack tiles, in an order that spells no word."""
    words = default_words()
    plain = [(i, letter) for i, letter in letters_of(tiles) if letter is not None]
    for a in range(len(plain)):
        for b in range(a + 1, len(plain)):
            for c in range(b + 1, len(plain)):
                text = plain[a][1] + plain[b][1] + plain[c][1]  # type: ignore[operator]
                if text not in words:
                    return [plain[a][0], plain[b][0], plain[c][0]]
    raise AssertionError("every three tiles spell a word")


def kastet_meld(tiles: list[tuple[int, str]]) -> list[int] | None:
    """Tile ids of a run or set of three in a Kastet rack (labels like "mavi 7"), if any."""
    by_face: dict[tuple[str, int], int] = {}
    for tile_id, label in tiles:
        m = re.fullmatch(r"(kırmızı|sarı|mavi|siyah) (\d+)", label)
        if m:
            by_face.setdefault((COLORS_TR[m[1]], int(m[2])), tile_id)
    for color, n in sorted(by_face):
        if (color, n + 1) in by_face and (color, n + 2) in by_face:
            return [by_face[(color, n)], by_face[(color, n + 1)], by_face[(color, n + 2)]]
    for n in range(1, 14):
        ids = [by_face[(c, n)] for c in ("red", "yellow", "blue", "black") if (c, n) in by_face]
        if len(ids) >= 3:
            return ids[:3]
    return None


def build_by_taps(tab: Tab, ids: list[int]) -> int:
    """Build a new series from rack tiles: one tap on "+ Yeni seri", one per tile. Taps made."""
    tab.page.get_by_role("button", name="+ Yeni seri").click()
    for tile_id in ids:
        tab.tap_rack(tile_id)
    return 1 + len(ids)


def lay_something(tab: Tab, game: str, draws: int = 6) -> list[int]:
    """On my turns: lay a word (or run/set) built by taps, drawing until one turns up.

    Returns the ids laid, with the turn still open (lay more, then `pass_turn`)."""
    page = tab.page
    for _ in range(draws):
        tab.wait_for_my_turn_or_end()
        assert not tab.ended(), "the hand ended before anything could be laid"
        tiles = tab.rack_tiles()
        ids = harftet_word(tiles) if game == "harftet" else kastet_meld(tiles)
        if ids:
            melds = page.locator("#series li.meld[data-mi]").count()
            taps = build_by_taps(tab, ids)
            assert taps == len(ids) + 1
            expect(page.locator("#series li.meld.active .tile.placed")).to_have_count(len(ids))
            expect(page.locator("#series li.meld.valid")).to_have_count(1)  # dry run: legal
            tab.shot(f"{game}-built")
            tab.button("İşle" if melds else "Yere aç").click()
            expect(page.locator("#rack-count")).to_have_text(f"{len(tiles) - len(ids)} taş")
            for tile_id in ids:
                expect(page.locator(f'#series .tile[data-id="{tile_id}"]')).to_have_count(1)
            expect(tab.button("Pas")).to_be_enabled()
            expect(tab.button("Taş çek")).to_be_disabled()
            return ids
        version = tab.version()
        tab.button("Taş çek").click()
        tab.wait_for_version_after(version)
    raise AssertionError(f"nothing to lay turned up in {draws} draws")


def pass_turn(tab: Tab) -> None:
    version = tab.version()
    tab.button("Pas").click()
    tab.wait_for_version_after(version)


def accept_a_hint(tab: Tab) -> None:
    """İpucu lays one meld of the best lay out as a draft and the count of hints goes down
    (RULES §4a); the draft is then put back (the rest of the lay is the player's to find)."""
    page = tab.page
    in_rack = tab.rack().count()
    hint = page.locator("#btn-hint")
    expect(hint).to_have_text("İpucu (3)")
    hint.click()
    expect(page.locator("#notice")).to_contain_text("İpucu: bir seri taslak olarak yerde")
    expect(hint).to_have_text("İpucu (2)")
    expect(page.locator("#draft-flag")).to_be_visible()
    shown = tab.rack().count()
    assert shown < in_rack, "the hint uses no tile from the rack"
    tab.shot("hint")
    tab.button("Geri al").click()
    expect(page.locator("#draft-flag")).to_be_hidden()
    expect(tab.rack()).to_have_count(in_rack)


def play_to_the_end(tab: Tab, budget_s: float = 180) -> None:
    """Draw, or pass when drawing is closed, until the end-of-game screen opens (the budget
    is a hang guard: a Kastet hand is ~200 moves, slow on a loaded machine)."""
    deadline = time.monotonic() + budget_s
    while not tab.ended():
        assert time.monotonic() < deadline, "the hand did not end in time"
        tab.wait_for_my_turn_or_end()
        if tab.ended():
            break
        version = tab.version()
        if tab.button("Taş çek").is_enabled():
            tab.button("Taş çek").click()
        elif tab.button("Pas").is_enabled():
            tab.button("Pas").click()
        tab.wait_for_version_after(version)


def check_end_of_game(tab: Tab, game: str) -> None:
    page = tab.page
    dialog = page.locator("#end-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#end-h")).to_have_text("Oyun bitti")
    expect(dialog.locator(".places li")).to_have_count(4)
    expect(dialog.locator(".left-list li")).to_have_count(4)
    expect(dialog.locator(".scores")).to_contain_text("Toplam")
    expect(dialog.get_by_role("button", name="Rövanş")).to_be_visible()
    expect(dialog.get_by_role("button", name="Yeni masa")).to_be_visible()
    if tab.size == PHONE:
        check_the_scores_fit(tab)
    view = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
    if "left" in view["handResults"][-1]:
        # Every seat's leftover tiles are turned over, as many as the server says.
        left = view["handResults"][-1]["left"]
        shown = dialog.locator(".left-tiles .tile").count()
        assert shown == sum(len(v) for v in left.values())
    tab.shot(f"{game}-end")
    # The language switched (in another tab of the same browser): the open dialog follows.
    other = tab.context.new_page()
    other.goto(f"{tab.base_url}/play/rules.html")
    other.evaluate("localStorage.setItem('harftet.lang', 'en')")
    expect(dialog.locator("#end-h")).to_have_text("The game is over")
    expect(dialog.get_by_role("button", name="Rematch")).to_be_visible()
    other.evaluate("localStorage.setItem('harftet.lang', 'tr')")
    expect(dialog.locator("#end-h")).to_have_text("Oyun bitti")
    other.close()


def check_the_scores_fit(tab: Tab) -> None:
    """The score table is inside the viewport and fits its panel (a game of many hands would
    scroll inside the panel instead); no seat's name is cut short."""
    width, _ = tab.size
    box = tab.page.locator("#end-dialog .scores-box")
    box.scroll_into_view_if_needed()
    m = box.evaluate(
        """el => ({rect: el.getBoundingClientRect().toJSON(), client: el.clientWidth,
                  scroll: el.scrollWidth, overflow: getComputedStyle(el).overflowX,
                  cut: [...el.querySelectorAll("th")].filter(c => c.scrollWidth > c.clientWidth + 1)
                        .map(c => c.textContent)})"""
    )
    assert m["rect"]["left"] >= 0 and m["rect"]["right"] <= width, m
    assert m["scroll"] <= m["client"], f"the score table does not fit its panel at {width}px: {m}"
    assert m["overflow"] in ("auto", "scroll"), m  # more hands than fit: it scrolls inside
    assert m["cut"] == [], m
    expect(box.locator("tbody tr")).to_have_count(4)


def rearrange_a_table_word(tab: Tab) -> None:
    """Move a table word's first tile onto the right half of its last: it lands last."""
    page = tab.page
    melds = page.locator("#series li.meld[data-mi]")
    for i in range(melds.count()):
        tiles = melds.nth(i).locator(".tile")
        if tiles.count() >= 3:
            break
    else:
        raise AssertionError("no table word of three tiles or more to rearrange")
    meld = melds.nth(i)
    before = [str(x) for x in tiles.evaluate_all(IDS)]
    tiles.first.click()
    last = tiles.last
    box = last.bounding_box()
    assert box is not None
    last.click(position={"x": box["width"] * 0.8, "y": box["height"] / 2})
    after = [str(x) for x in meld.locator(".tile").evaluate_all(IDS)]
    assert after == before[1:] + before[:1], (before, after)
    expect(page.locator("#draft-flag")).to_be_visible()
    tab.shot("rearranged")
    tab.button("Geri al").click()
    now = [str(x) for x in meld.locator(".tile").evaluate_all(IDS)]
    assert now == before


def test_a_harftet_hand_against_three_computers_on_a_phone(local_stack: str, browser: Any) -> None:
    tab = Tab(browser, local_stack, PHONE, seed=11)
    page = tab.page
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    tab.sign_in("Ayşe")
    tab.axe("lobby")
    tab.shot("lobby")
    # The longest turn (600 s): this first turn does a great deal (axe, screenshots, drafts, a
    # hint). On a loaded machine it can outlast 120 s: the server then moves for the seat and
    # the next tap is refused (403 not_your_turn), an error here (seen with two CPU burners).
    tab.create_table("harftet", seats=4, bots=True, turn_seconds=600)
    expect(page.locator(".seat")).to_have_count(4)
    expect(tab.seat(0)).to_contain_text("Masa yöneticisi")
    expect(tab.seat(3)).to_contain_text("Bilgisayar 4")
    tab.start()
    expect(tab.seat(1).locator(".tiles")).to_have_text("14")
    expect(page.locator("#timer")).to_have_text(re.compile(r"^\d+ sn$"))
    tab.axe("table")
    tab.shot("harftet-start")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the phone layout scrolls sideways ({width}px)"
    # Buttons are 44 px to tap; tiles shrink so that 22 fit two rows on a phone, and stay above
    # WCAG 2.2's 24 px minimum target (2.5.8), as on okey sites' phone tables.
    small = page.locator("#dock button:visible:not(.tile), #series button.slot").evaluate_all(
        """els => els.map(e => e.getBoundingClientRect())
                     .filter(r => r.width < 44 || r.height < 44).length"""
    )
    assert small == 0, f"{small} buttons are smaller than 44 px to tap"
    tiny = page.locator("#rack .tile, #series button.tile").evaluate_all(
        """els => els.map(e => e.getBoundingClientRect())
                     .filter(r => r.width < 24 || r.height < 24).length"""
    )
    assert tiny == 0, f"{tiny} tiles are smaller than 24 px to tap"

    # Sort buttons: by letter is the Turkish alphabet; by value puts the costliest first.
    tab.button("Değere göre").click()
    tiles = [label for _, label in tab.rack_tiles() if "joker" not in label]
    values = [int(label.split(", ")[1].split()[0]) for label in tiles]
    assert values == sorted(values, reverse=True)
    tab.button("Harfe göre").click()

    # An invalid draft is tinted before Lay (dry runs), and the notice is in Turkish.
    tab.wait_for_my_turn_or_end()
    non_word = harftet_non_word(tab.rack_tiles())
    taps = build_by_taps(tab, non_word)
    expect(page.locator("#series li.meld.invalid")).to_have_count(1)
    expect(page.locator("#series li.meld.invalid")).to_have_attribute(
        "aria-label", re.compile(r"geçersiz$")
    )
    # A second meld beside it is tinted on its own: every draft meld, not only the first bad one.
    word = harftet_word(tab.rack_tiles())
    assert word, "no word in the rest of the rack"
    taps += build_by_taps(tab, word)
    expect(page.locator("#series li.meld.valid")).to_have_count(1)
    expect(page.locator("#series li.meld.invalid")).to_have_count(1)
    tab.shot("harftet-invalid")
    # Without flooding the server: dry runs only for melds long enough to be words, debounced.
    asked = tab.dry_runs
    assert 1 <= asked < taps, (asked, taps)
    tab.button("Geri al").click()
    build_by_taps(tab, non_word)  # the same letters again: the server's verdict is remembered
    expect(page.locator("#series li.meld.invalid")).to_have_count(1)
    page.wait_for_timeout(500)  # longer than the debounce
    assert tab.dry_runs == asked
    tab.button("Geri al").click()

    # All in the first turn (the deal is the seed's; no computer has moved yet): a word built
    # by taps and laid, a table word rearranged in the draft, a hint accepted and laid.
    laid = lay_something(tab, "harftet")
    assert len(laid) >= 3
    rearrange_a_table_word(tab)
    accept_a_hint(tab)
    pass_turn(tab)
    expect(page.locator("#log")).to_contain_text("Ayşe: ")
    expect(page.locator("#log")).to_contain_text("açtı")
    expect(page.locator("#log")).to_contain_text("Ayşe pas geçti")
    play_to_the_end(tab)
    check_end_of_game(tab, "harftet")
    tab.page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    tab.shot("harftet-end")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_a_dry_run_never_outlives_its_draft_or_the_turn(local_stack: str, browser: Any) -> None:
    """A draft's dry run waits 300 ms for more taps. Put back (Geri al) or followed by a move
    within that wait, it is never sent: the server could only refuse it (403 not_your_turn, as
    a loaded machine showed when a pass came within the wait). The page's clock is stepped by
    hand, so the wait is exactly the test's."""
    tab = Tab(browser, local_stack, DESKTOP, seed=11, clock=True)
    page = tab.page
    tab.sign_in("Deniz")
    tab.create_table("harftet", seats=4, bots=True, turn_seconds=600)
    tab.start()
    tab.wait_for_my_turn_or_end()
    spelled = [ids for ids in harftet_words(tab.rack_tiles()).values() if len(ids) >= 3]
    first, second = spelled[:2]
    page.clock.pause_at(time.time() + 5)  # from here on, the page's timers fire only when stepped

    build_by_taps(tab, first)
    tab.button("Geri al").click()
    page.clock.run_for(2000)
    page.wait_for_timeout(300)  # (real time) for a request the step would have sent
    assert tab.dry_runs == 0, "a put-back draft was still sent for a dry run"

    build_by_taps(tab, first)  # the control: the same draft, left alone past its wait, is asked
    page.clock.run_for(2000)
    expect(page.locator("#series li.meld.valid, #series li.meld.invalid")).to_have_count(1)
    assert tab.dry_runs == 1
    tab.button("Geri al").click()

    build_by_taps(tab, second)  # then a draw ends the turn within the wait (the draft is given up)
    version = tab.version()
    tab.button("Taş çek").click()
    tab.wait_for_version_after(version)
    page.clock.run_for(2000)
    page.wait_for_timeout(300)
    assert tab.dry_runs == 1, "a dry run was sent after the turn's move"
    page.clock.resume()
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_the_end_of_a_hand_shows_every_rack_then_the_next_hand(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack, PHONE, seed=11)
    page = tab.page
    tab.sign_in("Berk")
    tab.create_table("harftet", seats=4, hands=2, bots=True, pace="Hızlı")
    tab.start()
    dialog = page.locator("#end-dialog")
    deadline = time.monotonic() + 60
    while not tab.ended():
        assert time.monotonic() < deadline, "the first hand did not end in time"
        tab.wait_for_my_turn_or_end()
        if tab.ended():
            break
        version = tab.version()
        tab.button("Taş çek" if tab.button("Taş çek").is_enabled() else "Pas").click()
        tab.wait_for_version_after(version)
    expect(dialog.locator("#end-h")).to_have_text("1. el bitti")
    expect(dialog.locator(".finisher-line, p")).not_to_have_count(0)
    expect(dialog.locator(".left-list li")).to_have_count(4)
    view = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
    left = view["handResults"][0]["left"]
    assert dialog.locator(".left-tiles .tile").count() == sum(len(v) for v in left.values())
    expect(dialog.locator(".scores thead th")).to_have_text(["Oyuncu", "1. el", "Toplam"])
    check_the_scores_fit(tab)  # a row per seat: all four on the phone
    tab.shot("hand-end")
    held = tab.api("GET", f"/tables/{tab.table_id()}")["body"]  # the break holds the next hand
    assert held["handNumber"] == 1 and held["turn"] is None and held["break"]["ready"] == []
    expect(dialog.locator("#end-break")).to_contain_text("Sonraki el")
    dialog.get_by_role("button", name="Sonraki el").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#table-status")).to_contain_text("El 2/2")
    expect(tab.rack()).not_to_have_count(0)
    tab.shot("next-hand")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def kastet_seed_with_two_melds() -> int:
    """A seed whose first deal gives seat 0 (who moves first) two runs or sets of three that
    share no tile: one to build by taps, and one left for the hint to find."""
    tiles = tiles_for("kastet")
    names = {v: k for k, v in COLORS_TR.items()}
    for seed in range(1, 2000):
        hand = [tiles[i] for i in shuffled(seed, 1)[:14]]
        labels = [(t.id, f"{names[t.color]} {t.number}") for t in hand if not t.joker]
        first = kastet_meld(labels)
        if first and kastet_meld([x for x in labels if x[0] not in first]):
            return seed
    raise AssertionError("no seed deals two melds")


def test_a_kastet_hand_against_three_computers_on_a_desktop(local_stack: str, browser: Any) -> None:
    tab = Tab(browser, local_stack, DESKTOP, seed=kastet_seed_with_two_melds())
    page = tab.page
    tab.sign_in("Mehmet")
    # The longest turn, as in the Harftet hand above: the first turn does a great deal.
    tab.create_table("kastet", seats=4, bots=True, pace="Hızlı", turn_seconds=600)
    assert tab.api("GET", f"/tables/{tab.table_id()}")["body"]["botSeconds"] == 0
    tab.start()
    tab.shot("kastet-start")

    tab.button("Çift diz").click()
    numbers = [int(label.split()[-1]) for _, label in tab.rack_tiles() if "joker" not in label]
    assert numbers == sorted(numbers)
    tab.button("Seri diz").click()

    # One tile alone is no meld: refused, in Turkish, the meld tinted, nothing changed.
    tab.wait_for_my_turn_or_end()
    first = tab.rack_tiles()[0][0]
    build_by_taps(tab, [first])
    tab.button("Yere aç").click()
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("#notice")).to_have_text(re.compile(r"1\. seri: Seride en az 3 taş olmalı"))
    expect(page.locator("#series li.meld.invalid")).to_have_count(1)
    tab.shot("kastet-refused")
    tab.button("Geri al").click()
    expect(tab.rack()).to_have_count(14)

    lay_something(tab, "kastet", draws=1)  # the seed's first meld, built by taps
    rearrange_a_table_word(tab)
    accept_a_hint(tab)  # the second meld is still in the rack: the hint finds a lay
    pass_turn(tab)
    play_to_the_end(tab)
    check_end_of_game(tab, "kastet")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    check_the_scores_fit(tab)
    tab.shot("kastet-end")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_two_people_at_one_table_each_see_only_their_own_rack(
    local_stack: str, browser: Any
) -> None:
    host = Tab(browser, local_stack, DESKTOP)
    host.sign_in("Zeynep")
    host.create_table("harftet", seats=2)
    guest = Tab(browser, local_stack, PHONE)
    guest.sign_in("Çağrı")

    guest.page.get_by_role("button", name="Yenile").click()
    table = guest.page.locator(".lobby-item").filter(has_text="Zeynep")
    table.get_by_role("button", name="2. koltuğa otur").click()
    expect(guest.page.locator("#table")).to_be_visible()
    expect(host.seat(1)).to_contain_text("Çağrı")  # pushed over the WebSocket, no refresh
    expect(host.page.locator("#log")).to_contain_text("Çağrı oturdu")

    host.start()
    expect(guest.rack()).to_have_count(14)  # the guest learns of the start by push too
    expect(guest.seat(0).locator(".tiles")).to_have_text("14")
    mine = {i for i, _ in host.rack_tiles()}
    theirs = {i for i, _ in guest.rack_tiles()}
    assert len(mine) == len(theirs) == 14 and not mine & theirs
    for tab, other in ((host, theirs), (guest, mine)):
        shown = {int(x) for x in tab.page.locator("[data-id]").evaluate_all(IDS)}
        assert not shown & other, "a tab shows tiles of the other player's hand"
    guest.shot("guest")
    host.shot("host")

    # The rules open from the top bar: docs/KURALLAR.tr.md, rendered.
    with host.page.context.expect_page() as opened:
        host.page.get_by_role("link", name="Kurallar").click()
    rules = opened.value
    expect(rules.locator("#rules h1")).to_have_text("Kastet ve Harftet — nasıl oynanır")
    expect(rules.locator("#rules table").first).to_be_visible()
    rules.close()

    # English is one switch away, and the switch is remembered.
    guest.page.get_by_role("button", name="English").click()
    expect(guest.button("Draw")).to_be_visible()
    expect(guest.page.locator("html")).to_have_attribute("lang", "en")
    guest.page.reload()
    expect(guest.button("Draw")).to_be_visible()
    guest.page.get_by_role("button", name="Türkçe").click()
    expect(guest.button("Taş çek")).to_be_visible()

    # A third person follows the game from the table's link: seats and table, no rack at all.
    watcher = Tab(browser, local_stack, PHONE, path=f"#t={host.table_id()}")
    watcher.sign_in("İzleyici", screen="#table")
    expect(watcher.seat(0)).to_contain_text("Zeynep")
    expect(watcher.seat(1).locator(".tiles")).to_have_text("14")
    expect(watcher.page.locator("#dock")).to_be_hidden()
    shown = watcher.page.locator("[data-id]").evaluate_all(IDS)
    assert not {int(x) for x in shown} & (mine | theirs)
    watcher.shot("watcher")
    for tab in (host, guest, watcher):
        assert tab.unexpected_errors() == [], tab.errors
        tab.close()


def test_a_private_table_by_invitation_and_a_running_one_to_watch_from_the_lobby(
    local_stack: str, browser: Any
) -> None:
    host = Tab(browser, local_stack, DESKTOP)
    host.sign_in("Gizem")
    check_steadily(host.page.get_by_label("Özel masa (yalnız davetle)"))
    host.create_table("harftet", seats=2)
    host.page.get_by_role("button", name="Davet bağlantısı").click()
    table_id = host.table_id()
    expect(host.page.locator("#notice")).to_contain_text(f"#t={table_id}")

    guest = Tab(browser, local_stack, PHONE)
    guest.sign_in("Hakan")
    expect(guest.page.locator(".lobby-item").filter(has_text="Gizem")).to_have_count(0)
    guest.page.goto(f"{local_stack}/play/#t={table_id}")
    guest.page.reload()
    guest.seat(1).get_by_role("button", name="Otur").click()
    expect(host.seat(1)).to_contain_text("Hakan")

    # A public game with computer players, found under "Oynanan" and watched.
    player = Tab(browser, local_stack, DESKTOP)
    player.sign_in("Oya")
    player.create_table("kastet", seats=2, bots=True)
    player.start()
    watcher = Tab(browser, local_stack, PHONE)
    watcher.sign_in("Nur")
    watcher.page.get_by_role("tab", name="Oynanan").click()
    game = watcher.page.locator(".lobby-item").filter(has_text="Oya")
    game.get_by_role("button", name="İzle").click()
    expect(watcher.seat(0)).to_contain_text("Oya")
    expect(watcher.page.locator("#dock")).to_be_hidden()
    watcher.shot("watching")
    watcher.page.get_by_role("button", name="Salona dön").click()
    watcher.page.get_by_role("tab", name="Yedek aranan").click()
    expect(watcher.page.locator("#lobby-empty, .lobby-item").first).to_be_visible()
    for tab in (host, guest, player, watcher):
        assert tab.unexpected_errors() == [], tab.errors
        tab.close()


def wait_for_the_title_to_blink(tab: Tab) -> None:
    tab.page.wait_for_function("() => document.title === '● Sıra sende!'", timeout=TURN_WAIT_MS)


def test_drawing_asks_before_it_throws_a_draft_away_and_the_next_turn_is_announced(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack, PHONE)
    page = tab.page
    tab.sign_in("Selin")
    tab.create_table("kastet", seats=2, bots=True)
    tab.start()
    tab.wait_for_my_turn_or_end()
    title = page.title()
    build_by_taps(tab, [tab.rack_tiles()[0][0]])
    tab.answer_dialogs = False
    tab.button("Taş çek").click()
    assert tab.dialogs == ["Taslağın silinecek. Yine de taş çekilsin mi?"]
    expect(tab.rack()).to_have_count(13)  # nothing drawn, the draft is still there
    expect(page.locator("#draft-flag")).to_be_visible()
    tab.answer_dialogs = True
    page.evaluate(
        "() => { window.__hidden = true; window.__sounds = 0; window.__notes = []; }"
    )  # another tab is in front
    tab.button("Taş çek").click()
    expect(tab.rack()).to_have_count(15)
    expect(page.locator("#draft-flag")).to_be_hidden()
    expect(page.locator("#rack .tile.fresh")).to_have_count(1)

    # The computer moves; the turn comes back: a note sounds and the tab's title blinks,
    # until the player looks at the tab again.
    wait_for_the_title_to_blink(tab)
    assert page.evaluate(f"window.__notes.filter(f => f === {TURN_CHIME}).length") == 1
    page.evaluate(
        "() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }"
    )
    expect(page).to_have_title(title)
    page.wait_for_timeout(1000)  # longer than a blink
    expect(page).to_have_title(title)

    # Muted (the choice is kept): the title still blinks, no sound.
    page.get_by_role("button", name="Sesi kapat").click()
    expect(page.get_by_role("button", name="Sesi aç")).to_be_visible()
    tab.wait_for_my_turn_or_end()
    page.evaluate("() => { window.__hidden = true; window.__sounds = 0; }")
    tab.button("Taş çek").click()
    wait_for_the_title_to_blink(tab)
    assert page.evaluate("window.__sounds") == 0
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def drag(tab: Tab, source: Any, target: Any, fraction: float) -> None:
    """Drag `source` with the pointer and drop it at `fraction` of `target`'s width."""
    a, b = source.bounding_box(), target.bounding_box()
    assert a is not None and b is not None
    mouse = tab.page.mouse
    mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    mouse.down()
    x, y = b["x"] + b["width"] * fraction, b["y"] + b["height"] / 2
    mouse.move(x, y, steps=8)
    mouse.up()


def test_quick_play_seats_you_at_a_kastet_table(local_stack: str, browser: Any) -> None:
    tab = Tab(browser, local_stack, PHONE)
    tab.sign_in("Kemal")
    tab.page.get_by_label("Oyun").first.select_option("kastet")
    tab.page.locator("#quick-rated").uncheck()  # not rated: no search for opponents
    expect(tab.page.locator("#quick-level")).to_be_visible()
    tab.page.get_by_role("button", name="Hemen oyna").click()
    expect(tab.page.locator("#table")).to_be_visible()
    # A seat at a waiting Kastet table if there is one, else a game against the computer.
    expect(tab.page.locator(".seat.me")).to_contain_text("Kemal")
    expect(tab.page.locator("#table-h")).to_have_text("Kastet masası")
    tab.shot("quick-play")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_a_closed_tab_comes_back_to_its_seat(local_stack: str, browser: Any) -> None:
    tab = Tab(browser, local_stack, PHONE)
    tab.sign_in("Deniz")
    tab.create_table("kastet", seats=2, bots=True)
    tab.start()
    # Drag the first rack tile onto the right half of the last: it becomes the last.
    before = [i for i, _ in tab.rack_tiles()]
    drag(tab, tab.rack().first, tab.rack().last, 0.8)
    after = [i for i, _ in tab.rack_tiles()]
    assert after == before[1:] + before[:1], (before, after)
    # And back onto the left half of the (new) first: it is first again.
    drag(tab, tab.rack().last, tab.rack().first, 0.2)
    assert [i for i, _ in tab.rack_tiles()] == before
    rack = sorted(before)
    context = tab.context
    tab.page.close()

    again = Tab(browser, local_stack, PHONE, context=context)
    expect(again.page.locator("#table")).to_be_visible()
    expect(again.seat(0)).to_contain_text("Deniz")
    expect(again.seat(0)).to_contain_text("sen")
    expect(again.rack()).not_to_have_count(0)
    back = sorted(i for i, _ in again.rack_tiles())
    assert back == rack
    expect(again.page.locator("#ws-state")).to_have_text("canlı")
    again.shot("reopened")
    assert again.unexpected_errors() == []
    again.close()


def test_a_move_goes_out_on_the_tables_socket_and_its_answer_shows_it(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack, DESKTOP)
    page = tab.page
    sent: list[dict[str, Any]] = []
    answers: list[dict[str, Any]] = []
    posted: list[str] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: answers.append(json.loads(payload)))

    page.on("websocket", watch)
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    tab.sign_in("Deniz")
    tab.create_table("kastet", seats=2, bots=True)
    tab.start()
    tab.wait_for_my_turn_or_end()
    expect(tab.seat(0).locator(".tiles")).to_have_text("14")
    tab.button("Taş çek").click()
    expect(tab.seat(0).locator(".tiles")).to_have_text("15")
    expect(tab.rack()).to_have_count(15)
    [move] = [m for m in sent if m.get("action") == "move"]
    assert move["type"] == "draw" and move["tableId"] == tab.table_id() and move["lang"] == "tr"
    assert not [url for url in posted if url.endswith("/moves")]  # no REST move at all
    [answer] = [a for a in answers if a.get("moveId") == move["moveId"]]
    assert answer["type"] == "delta" and answer["from"] == move["version"]
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_a_client_that_missed_pushes_catches_up_from_the_409_view(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack, DESKTOP)
    page = tab.page
    muted = {"on": False}

    def drop_pushes_while_muted(ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: None if muted["on"] else ws.send(message))

    page.route_web_socket(re.compile(r"/ws\?"), drop_pushes_while_muted)
    tab.sign_in("Emre")
    tab.create_table("kastet", seats=2, bots=True)
    tab.start()
    tab.wait_for_my_turn_or_end()
    expect(tab.seat(0).locator(".tiles")).to_have_text("14")

    # The same player draws from elsewhere (another device) while this tab hears nothing.
    muted["on"] = True
    view = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
    moved = tab.api(
        "POST",
        f"/tables/{tab.table_id()}/moves",
        {"version": view["version"], "moveId": "elsewhere-1", "type": "draw"},
    )
    assert moved["status"] == 200
    expect(tab.seat(0).locator(".tiles")).to_have_text("14")  # still the old view

    # The draw goes out on the socket, whose answer (a stale_version) is lost too: after 3 s
    # without one the client sends the same move over REST and its 409 brings the view.
    tab.button("Taş çek").click()
    expect(page.locator("#notice")).to_contain_text(
        "Masa sen hamleni gönderirken değişti", timeout=15_000
    )
    expect(tab.seat(0).locator(".tiles")).to_have_text("15")
    expect(tab.rack()).to_have_count(15)
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_a_dropped_connection_comes_back_and_catches_up_by_version(
    local_stack: str, browser: Any
) -> None:
    tab = Tab(browser, local_stack, PHONE)
    page = tab.page
    sockets: list[Any] = []
    said: list[list[str]] = []  # per socket: what the client sent on it

    def keep(ws: Any) -> None:
        server = ws.connect_to_server()  # messages pass both ways as usual, the client's noted
        mine: list[str] = []
        said.append(mine)
        ws.on_message(lambda message: (mine.append(message), server.send(message)))
        server.on_message(ws.send)
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws\?"), keep)
    tab.sign_in("Ece")
    tab.create_table("kastet", seats=2, bots=True)
    tab.start()
    tab.wait_for_my_turn_or_end()
    expect(tab.seat(0).locator(".tiles")).to_have_text("14")

    # The line drops; meanwhile the same player draws from another device.
    sockets[-1].close()
    expect(page.locator("#ws-state")).not_to_have_text("canlı")
    view = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
    for _ in range(5):  # the drop itself is a change (the seat shown disconnected): resync on 409
        moved = tab.api(
            "POST",
            f"/tables/{tab.table_id()}/moves",
            {"version": view["version"], "moveId": "other-device-1", "type": "draw"},
        )
        if moved["status"] != 409:
            break
        view = moved["body"]["view"]
    assert moved["status"] == 200
    expect(page.locator("#ws-state")).to_have_text("canlı")  # reconnected by itself
    expect(tab.seat(0).locator(".tiles")).to_have_text("15")  # and resynced, no click
    expect(tab.rack()).to_have_count(15)
    assert len(sockets) >= 2
    # caught up by the REST read after the opening alone: no {"action": "sync"} on any socket
    # (it and its answer were 2 WebSocket messages a connect, each priced as a push)
    tab.wait_for_my_turn_or_end()  # a move on the socket that came back: what it sends is seen
    move = "draw" if tab.button("Taş çek").is_enabled() else "pass"
    tab.button("Taş çek" if move == "draw" else "Pas").click()
    for _ in range(50):  # until the route's handler has noted the move's frame
        sent = [json.loads(m) for mine in said for m in mine]
        if any(m.get("action") == "move" for m in sent):
            break
        page.wait_for_timeout(100)
    assert [m["type"] for m in sent if m.get("action") == "move"] == [move], said
    assert [m for m in sent if m.get("action") == "sync"] == [], said
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def test_a_harftet_joker_gets_its_letter_from_the_turkish_keyboard(
    local_stack: str, browser: Any
) -> None:
    seed = next(s for s in range(1, 500) if set(shuffled(s, 1)[:14]) & set(JOKER_IDS))
    tab = Tab(browser, local_stack, PHONE, seed=seed)
    page = tab.page
    tab.sign_in("Sibel")
    tab.create_table("harftet", seats=2, bots=True)
    tab.start()
    tab.wait_for_my_turn_or_end()
    tiles = letters_of(tab.rack_tiles())
    found = find_words(default_words(), tiles, max_results=500)
    spelled = next(ids for _, ids in found if any(face is not None for _, face in ids))
    tab.page.get_by_role("button", name="+ Yeni seri").click()
    dialog = page.locator("#face-dialog")
    for tile_id, face in spelled:
        tab.tap_rack(tile_id)
        if face is not None:  # the joker: no list defaulting to A, a keyboard of 29 letters
            expect(dialog).to_be_visible()
            expect(dialog.locator(".key")).to_have_count(29)
            expect(dialog.locator(".key.selected")).to_have_count(0)
            tab.shot("joker-keyboard")
            dialog.get_by_role("button", name=face, exact=True).click()
            expect(dialog).to_be_hidden()
    joker = next(i for i, face in spelled if face is not None)
    letter = next(face for _, face in spelled if face is not None)
    expect(page.locator(f'#series .tile[data-id="{joker}"]')).to_have_attribute(
        "aria-label", f"joker, {letter} yerine"
    )
    expect(page.locator("#series li.meld.valid")).to_have_count(1)
    tab.button("Yere aç").click()
    expect(page.locator(f'#series .tile[data-id="{joker}"] .jface')).to_have_text(letter)
    expect(page.locator("#draft-flag")).to_be_hidden()
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()
