"""The web client's shape, held: app.js a small bootstrap, modules short enough to read whole,
the state and the table's reading pure, the DOM touched only by the screens (views), and every
module tried by a node test (tests/web/*.test.mjs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
TESTS = Path(__file__).resolve().parent
BOOTSTRAP_MAX = 300
MODULE_MAX = 500

# No DOM, no network, no storage, no timers: node --test runs them as they are.
PURE = ("state", "game", "texts", "refusals", "draft", "delta", "settings", "avatar", "markdown")
# They talk to the server and the browser and dispatch messages; the screens draw the result.
EFFECTS = (
    "api", "attempts", "catalogue", "config", "contacts", "drafting", "dryrun", "identity",
    "live", "passkeys", "play", "push", "replays", "search", "session", "tables", "tourneys",
    "updates",
)  # fmt: skip
BROWSER = re.compile(
    r"\b(?:document|window|localStorage|fetch|WebSocket|navigator|location|history|"
    r"setTimeout|setInterval)\b"
)
DOM = re.compile(r"\b(?:document|querySelector\w*|createElement|innerHTML|textContent)\b")


def code(name: str) -> str:
    """A module's code, its comments left out."""
    text = (WEB / f"{name}.js").read_text(encoding="utf-8")
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def test_app_js_is_a_small_bootstrap_and_every_module_reads_whole() -> None:
    lines = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in WEB.glob("*.js")}
    assert lines["app.js"] <= BOOTSTRAP_MAX, lines["app.js"]
    assert {name: n for name, n in lines.items() if n > MODULE_MAX} == {}


@pytest.mark.parametrize("name", PURE)
def test_the_pure_modules_touch_neither_the_page_nor_the_network(name: str) -> None:
    assert BROWSER.findall(code(name)) == []


@pytest.mark.parametrize("name", EFFECTS)
def test_the_effects_never_touch_the_page(name: str) -> None:
    assert DOM.findall(code(name)) == []


def test_every_module_is_pure_an_effect_or_a_view_and_only_state_js_updates_the_state() -> None:
    views = {
        "account", "chrome", "dialogs", "drag", "friends", "inbox", "lobby", "login", "motion",
        "leagues", "people", "phrases", "render", "replay", "sound", "table", "wordcard",
        "tournaments", "tournament", "badges",
    }  # fmt: skip
    pages = {
        "app",
        "boot",
        "rules",
        "verify",
        "sw",
        "sw-push",
        "deal",
    }  # entry points, the worker, WebCrypto
    assert {p.stem for p in WEB.glob("*.js")} == set(PURE) | set(EFFECTS) | views | pages
    updaters = [p.name for p in WEB.glob("*.js") if re.search(r"function update\(", p.read_text())]
    assert updaters == ["state.js"]


# Modules that only declare (constants, a list of names) and so need no test of their own.
# None today: every module has logic a player would notice broken. Add one only with its reason.
DECLARATION_ONLY: set[str] = set()


def _module_syntax(name: str) -> bool:
    """Whether a module is an ES module (the service worker's scripts are classic ones)."""
    return re.search(r"^(?:import|export)\b", code(name), re.M) is not None


def test_every_client_module_is_tried_by_a_node_test() -> None:
    tests = {p.name: p.read_text(encoding="utf-8") for p in TESTS.glob("*.test.mjs")}
    names = sorted(p.stem for p in WEB.glob("*.js"))

    def tried(name: str) -> bool:
        path = rf"\.\./\.\./clients/web/{re.escape(name)}\.js\b"
        if _module_syntax(name):  # imported (statically or afresh, as a page's script)
            pattern = rf"""(?:\bfrom\s*|\bimport\(\s*)["'`]{path}"""
        else:  # a classic script (the worker's) is run by name in a worker-like scope
            pattern = rf"""["'`]{re.escape(name)}\.js["'`]"""
        return any(re.search(pattern, text) for text in tests.values())

    untried = [n for n in names if n not in DECLARATION_ONLY and not tried(n)]
    assert untried == [], f"no tests/web/*.test.mjs imports these clients/web modules: {untried}"
    assert sorted(DECLARATION_ONLY - set(names)) == [], "the allow-list names a module that is gone"
