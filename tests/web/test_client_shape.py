"""The web client's shape, held: app.js a small bootstrap, modules short enough to read whole,
the state and the table's reading pure, and the DOM touched only by the screens (views)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
BOOTSTRAP_MAX = 300
MODULE_MAX = 500

# No DOM, no network, no storage, no timers: node --test runs them as they are.
PURE = ("state", "game", "texts", "refusals", "draft", "delta", "settings", "avatar", "markdown")
# They talk to the server and the browser and dispatch messages; the screens draw the result.
EFFECTS = (
    "api", "attempts", "catalogue", "config", "contacts", "drafting", "dryrun", "identity",
    "live", "passkeys", "play", "push", "session", "tables",
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
        "people", "phrases", "render", "sound", "table", "wordcard",
    }  # fmt: skip
    pages = {
        "app",
        "rules",
        "verify",
        "sw",
        "sw-push",
        "deal",
    }  # entry points, the worker, WebCrypto
    assert {p.stem for p in WEB.glob("*.js")} == set(PURE) | set(EFFECTS) | views | pages
    updaters = [p.name for p in WEB.glob("*.js") if re.search(r"function update\(", p.read_text())]
    assert updaters == ["state.js"]
