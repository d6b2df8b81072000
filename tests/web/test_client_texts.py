"""The web client says nothing of its own: every sentence and label a player reads comes from the
server's catalogue (GET /texts, harftet.texts), and every key the client names is in it.

Read from the source (clients/web): string literals in the modules (comments left out), keys in
the pages' data-t attributes. A new module that writes a sentence, or a refusal copied from the
server, fails here.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from harftet.bounds import client_bounds
from harftet.texts import LANGUAGES, catalogue

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
MODULES = sorted(WEB.glob("*.js"))
PAGES = sorted(WEB.glob("*.html"))

_QUOTES = "\"'`"
_REGEX_AFTER = tuple("(,=:[!&|?{};")
_TURKISH_WORD = re.compile(r"\w*[çğıöşüÇĞİÖŞÜ]\w*")
_WORD = r"[^\W\d_](?:[^\W\d_]|['’])*(?!\w)"  # letters only: "C4" is a tile, not a word
_SENTENCE = re.compile(rf"{_WORD}[,.:;!?…]*(?: +[—–-]? *{_WORD}[,.:;!?…]*){{2,}}")
_STYLE_SHEET = re.compile(r"\{[^}]*:[^}]*;")  # wordcard.js's few CSS rules
_DEVELOPER_ERROR = re.compile(r"new \w*Error\(\s*$")  # a thrown error's message: never shown
_KEY = re.compile(r"[a-z][A-Za-z]*(?:\.[A-Za-z_][\w-]*)+")
_NOT_KEYS = re.compile(  # storage keys, selectors, file names
    r"^harftet\.|^(?:button|li|ol|ul|div|span|input)\.|\.(?:js|json|html|md|css|svg|png|webmanifest)$"
)


def _literals(source: str) -> list[tuple[str, str]]:
    """(string, code before it) for every string literal, comments and regex literals skipped."""
    found: list[tuple[str, str]] = []
    code: list[str] = []
    i, n = 0, len(source)
    while i < n:
        if source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else n
            continue
        if source.startswith("/*", i):
            i = source.find("*/", i + 2) + 2 if "*/" in source[i + 2 :] else n
            continue
        c = source[i]
        if c in _QUOTES:
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            found.append((source[i + 1 : j], "".join(code[-80:])))
            code.append(c * 2)
            i = j + 1
            continue
        before = "".join(code[-8:]).rstrip()
        if c == "/" and (before.endswith(_REGEX_AFTER) or before.endswith("return")):
            j, in_class = i + 1, False
            while j < n and (source[j] != "/" or in_class):
                in_class = (in_class or source[j] == "[") and source[j] != "]"
                j += 2 if source[j] == "\\" else 1
            code.append("/re/")
            i = j + 1
            continue
        code.append(c)
        i += 1
    return found


@cache
def literals() -> dict[str, list[tuple[str, str]]]:
    return {path.name: _literals(path.read_text(encoding="utf-8")) for path in MODULES}


def _refusals() -> dict[str, str]:
    """Every refusal sentence of the catalogue (both languages), by the key that says it."""
    return {
        f"{lang}:{key}": text
        for lang in LANGUAGES
        for key, text in catalogue(lang).items()
        if key.startswith(("error.", "reason."))
    }


def test_no_client_module_holds_a_refusal_sentence_of_the_server() -> None:
    sentences = _refusals()
    copied = [
        (module, key)
        for module, found in literals().items()
        for text, _ in found
        for key, sentence in sentences.items()
        if text.strip() == sentence.strip() or (len(sentence) > 20 and sentence in text)
    ]
    assert copied == [], f"say these with errorText (refusals.js), from the catalogue: {copied}"


def test_no_client_module_writes_a_sentence_or_a_turkish_word_of_its_own() -> None:
    """A text table ({tr: {...}, en: {...}}, or [tr, en] pairs) is sentences and Turkish words."""
    written = [
        (module, text[:60])
        for module, found in literals().items()
        for text, before in found
        if not _DEVELOPER_ERROR.search(before)
        and (
            _TURKISH_WORD.search(re.sub(r"\w*\d\w*", "", text))
            or (_SENTENCE.search(text) and not _STYLE_SHEET.search(text))
        )
    ]
    assert written == [], f"put these in shared/harftet/texts/*.json, say them with t(): {written}"


def test_no_client_module_defines_a_text_table() -> None:
    by_language = re.compile(r"\b(?:tr|en)\s*:\s*(?:[\[{]|[\"'`][^\"'`]* )")  # tr: {…}, en: "a b"
    tables = [path.name for path in MODULES if by_language.search(path.read_text(encoding="utf-8"))]
    assert tables == []


def _keys_named() -> set[str]:
    """Keys the client names literally: in t("…"), messages, data-t attributes and dataset."""
    keys = {
        text
        for found in literals().values()
        for text, _ in found
        if _KEY.fullmatch(text) and not _NOT_KEYS.search(text)
    }
    for page in PAGES:
        keys |= set(re.findall(r'data-t(?:-label)?="([^"]+)"', page.read_text(encoding="utf-8")))
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_client_names_is_in_the_catalogue(lang: str) -> None:
    texts = catalogue(lang)
    named = _keys_named()
    assert len(named) > 150  # the scan found the client's keys
    assert sorted(k for k in named if k not in texts) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_client_builds_from_a_value_is_in_the_catalogue(lang: str) -> None:
    """Keys made from a value (t(`level.${level}`)): each value the server may send has one."""
    texts = catalogue(lang)
    bounds = client_bounds()
    built = [f"level.{x}{about}" for x in bounds["levels"] for about in ("", ".about")]
    built += [f"{p}.{g}" for g in ("harftet", "kastet") for p in ("game", "app.sub")]
    built += [f"game.{g}.long" for g in ("harftet", "kastet")]
    built += [f"inbox.pace.{p}" for p in bounds["paces"]]
    built += [f"ws.{s}" for s in ("live", "connecting", "offline")]
    built += [f"lobby.empty.{tab}" for tab in ("waiting", "open", "playing")]
    built += [f"color.{c}" for c in ("red", "yellow", "blue", "black")]
    built += [f"friends.{s}" for s in ("online", "away")]
    built += [f"field.{f}" for f in ("name", "seats", "hands", "turnSeconds", "partners")]
    events = "sit stand start draw lay pass timeout leave disconnect reconnect substitute bot"
    built += [f"log.{e}" for e in (*events.split(), "continue", "handEnd", "gameEnd")]
    assert sorted(k for k in built if k not in texts) == []


def test_the_pages_hold_no_label_of_their_own() -> None:
    """An element labelled by key is empty until the catalogue fills it: no flash of Turkish
    before English, and no sentence to keep in step by hand."""
    for page in PAGES:
        html = page.read_text(encoding="utf-8")
        filled = re.findall(r'<(\w+)\b[^>]*\bdata-t="([^"]+)"[^>]*>([^<]+)</\1>', html)
        assert filled == [], (page.name, filled)
        assert not re.search(r'aria-label="[^"]*[a-zçğıöşü]{3}', html), page.name
