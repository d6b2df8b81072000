"""What every journey of issue 36 checks on each screen it visits, in one call (`look`):

- no sideways scroll, and nothing a player needs left under the dock (the page scrolled to its
  end: every visible thing of the page above the fixed dock);
- axe-core: 0 violations of any impact (`heading-order` and the other best practices too);
- the words: on a Turkish screen no word that only the English catalogue has (and on an
  English one no word only the Turkish catalogue has; tiles aside); every notice,
  every open dialog and every browser question (confirm) made of catalogue sentences in the
  screen's language (a player's name, a number or a laid word being the only other pieces);
- a screenshot, `<name>-<phone|desktop>[-en].png` in docs/screens/ with HARFTET_SCREENS=1,
  else in .artifacts/web/ (gitignored).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from test_web_client import PHONE, Tab

from harftet.engine.words import default_words
from harftet.texts import catalogue

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / ("docs/screens" if os.environ.get("HARFTET_SCREENS") == "1" else ".artifacts/web")
_WORD = re.compile(r"[^\W\d_]{2,}")
_DATA = re.compile(r"^[\d\s.,:;·+\-−–()/%…✕×✓#]*$")  # numbers, places, counts, marks


def _words(texts: Iterable[str]) -> set[str]:
    return {w.casefold() for text in texts for w in _WORD.findall(text)}


@cache
def only_in(lang: str) -> frozenset[str]:
    """Words of ``lang``'s catalogue that the other language never uses (for Turkish, no
    Turkish word either: a laid word may be one)."""
    other = "en" if lang == "tr" else "tr"
    theirs = _words(catalogue(other).values())
    if other == "tr":
        theirs |= {w.casefold() for w in default_words()}
    return frozenset(_words(catalogue(lang).values()) - theirs)


@cache
def _templates(lang: str) -> tuple[re.Pattern[str], ...]:
    def pattern(text: str) -> re.Pattern[str]:
        parts = re.split(r"\{\w+\}", text.strip())
        return re.compile("^" + "(.+?)".join(re.escape(p) for p in parts) + "$", re.S)

    texts = catalogue(lang).values()  # a sentence that is only a placeholder says nothing
    return tuple(pattern(t) for t in texts if re.sub(r"\{\w+\}", "", t).strip())


def from_catalogue(text: str, lang: str, data: Iterable[str] = ()) -> bool:
    """Whether ``text`` is a catalogue sentence of ``lang`` whose placeholders hold catalogue
    sentences, numbers or ``data`` (names, words), or is one of those itself, or pieces of
    those joined by " · "."""
    text = " ".join(text.split())
    data = frozenset(data)
    if _DATA.match(text) or text in data:
        return True
    for p in _templates(lang):
        m = p.match(text)
        if m and all(from_catalogue(g, lang, data) for g in m.groups()):
            return True
    marked = re.fullmatch(r"[✓✕●○•]\s*(.+)|(.+?):", text)  # "✓ Sözlükte var", "Türü:"
    if marked and from_catalogue(marked[1] or marked[2], lang, data):
        return True
    pieces = [p for p in text.split(" · ") if p]
    return len(pieces) > 1 and all(from_catalogue(p, lang, data) for p in pieces)


def foreign_words(texts: Iterable[str], lang: str, data: Iterable[str] = ()) -> list[str]:
    """The words of ``texts`` that only the other language's catalogue has (a Turkish screen
    must hold no English word, an English one no Turkish word); ``data`` (names) aside."""
    only = only_in("en" if lang == "tr" else "tr")
    mine = _words(data)
    return sorted({w for t in texts for w in _WORD.findall(t) if w.casefold() in only - mine})


UNDER_THE_DOCK = """() => {
  const dock = document.querySelector("#dock");
  if (!dock || dock.hidden || !dock.getBoundingClientRect().height) return [];
  window.scrollTo(0, document.documentElement.scrollHeight);
  const top = dock.getBoundingClientRect().top;
  const under = [];
  // what of an element shows: its box cut by every ancestor that clips (a list scrolling inside)
  const seen = (el) => {
    const b = el.getBoundingClientRect();
    let [t, bottom] = [b.top, b.bottom];
    for (let a = el.parentElement; a && b.width; a = a.parentElement) {
      if (getComputedStyle(a).overflowY === "visible") continue;
      const c = a.getBoundingClientRect();
      [t, bottom] = [Math.max(t, c.top), Math.min(bottom, c.bottom)];
    }
    return b.width && bottom - t > 0 ? { top: t, bottom } : null;
  };
  for (const el of document.querySelectorAll("main *")) {
    if (dock.contains(el) || el.closest("dialog")) continue;
    const r = seen(el);
    if (!r || getComputedStyle(el).visibility === "hidden") continue;
    const leaf = !el.children.length || el.matches("button, input, select, a, .seat, .tile");
    const name = `${el.tagName}#${el.id}.${el.className}`;
    if (leaf && r.bottom > top + 1 && r.top < innerHeight) under.push(name);
  }
  window.scrollTo(0, 0);
  return under.slice(0, 5);
}"""

SHOWN_TEXTS = """(where) => {
  const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
  const hosts = [...document.querySelectorAll(where)].filter(shown);
  const texts = [];
  for (const host of hosts) {
    const walk = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      const skip = el.closest(".tile, .avatar, #my-friend-code, script, style"); // a code is data
      if (!n.textContent.trim() || !shown(el) || skip) continue;
      texts.push(n.textContent.trim());
    }
  }
  return texts;
}"""


def look(tab: Tab, name: str, lang: str = "tr", data: Iterable[str] = ()) -> Path:
    """Every check of a screen (see the module's text), then its screenshot."""
    page = tab.page
    root = "document.documentElement"
    wide = page.evaluate(f"{root}.scrollWidth - {root}.clientWidth")
    assert wide <= 0, f"{name}: the page scrolls sideways by {wide}px"
    under = page.evaluate(UNDER_THE_DOCK)
    assert under == [], f"{name}: under the dock: {under}"
    tab.axe(name)  # any impact
    data = set(data)
    foreign = foreign_words(page.evaluate(SHOWN_TEXTS, "body"), lang, data)
    assert foreign == [], f"{name}: words of the other language on a screen in {lang}: {foreign}"
    said = page.evaluate(SHOWN_TEXTS, "dialog[open], #notice:not([hidden]), .word-card")
    strange = [t for t in said if not from_catalogue(t, lang, data)]
    assert strange == [], f"{name}: not from the {lang} catalogue: {strange}"
    questions_asked(tab, lang, data)
    SCREENS.mkdir(parents=True, exist_ok=True)
    size = "phone" if tab.size == PHONE else "desktop"
    path = SCREENS / f"{name}-{size}{'' if lang == 'tr' else '-' + lang}.png"
    page.screenshot(path=str(path))
    return path


_QUESTIONS_SEEN: dict[int, int] = {}  # per tab: how many of its questions were checked


def questions_asked(tab: Tab, lang: str, data: Iterable[str] = ()) -> None:
    """The browser questions (confirm) asked since the last look: from the catalogue."""
    seen = _QUESTIONS_SEEN.get(id(tab), 0)
    _QUESTIONS_SEEN[id(tab)] = len(tab.dialogs)
    asked = [m for m in tab.dialogs[seen:] if not from_catalogue(m, lang, data)]
    assert asked == [], f"a question not from the {lang} catalogue: {asked}"


def switch_language(tab: Tab, to: str, data: Iterable[str] = ()) -> None:
    """The header's language switch (the questions asked so far checked in the language
    they were asked in), until the page says it is in ``to``."""
    from test_web_client import expect

    questions_asked(tab, "en" if to == "tr" else "tr", data)
    inside = tab.page.locator("dialog[open]:modal .lang-switch")
    if inside.count():  # a modal dialog keeps the header out of reach: its own switch (the end
        # of a hand, the leaderboard, the league)
        inside.click()
        expect(tab.page.locator("html")).to_have_attribute("lang", to)
        return
    if tab.page.locator("dialog[open]:modal").count():
        # another modal dialog keeps the header out of reach: the switch is made in another
        # tab of the same browser, which the open page follows
        other = tab.context.new_page()
        other.goto(f"{tab.base_url}/play/rules.html")
        other.evaluate(f"localStorage.setItem('harftet.lang', '{to}')")
        other.close()
        expect(tab.page.locator("html")).to_have_attribute("lang", to)
        return
    tab.page.locator("#lang").click()
    expect(tab.page.locator("html")).to_have_attribute("lang", to)
