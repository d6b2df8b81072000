"""The web client's files as the local stack serves them: gzip, ETag + 304, Cache-Control."""

from __future__ import annotations

import os
import re
from pathlib import Path

from starlette.applications import Starlette
from starlette.testclient import TestClient

from harftet.localstack.client_files import (
    CACHE_FOREVER,
    REVALIDATE,
    client_routes,
    generated_files,
    worker_script,
)
from harftet.localstack.emulator import WEB_DIR


def client(directory: Path = WEB_DIR) -> TestClient:
    return TestClient(Starlette(routes=client_routes("/play", directory)))


def test_scripts_come_gzipped_with_an_etag_and_are_revalidated_not_refetched() -> None:
    http = client()
    first = http.get("/play/app.js", headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200
    assert first.headers["content-encoding"] == "gzip"
    assert first.headers["cache-control"] == REVALIDATE
    assert first.headers["vary"] == "Accept-Encoding"
    assert first.headers["content-type"].startswith("text/javascript")
    raw = (WEB_DIR / "app.js").read_bytes()
    assert first.content == raw  # httpx undoes the gzip: the same bytes arrive
    assert int(first.headers["content-length"]) < len(raw) / 2  # what went over the wire
    again = http.get(
        "/play/app.js",
        headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304
    assert again.content == b""


def test_a_browser_without_gzip_gets_the_plain_file_under_its_own_etag() -> None:
    http = client()
    plain = http.get("/play/style.css", headers={"Accept-Encoding": "identity"})
    zipped = http.get("/play/style.css", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert plain.headers["etag"] != zipped.headers["etag"]
    assert plain.content == (WEB_DIR / "style.css").read_bytes()


def test_the_page_icons_and_manifest_have_their_types_and_lifetimes() -> None:
    http = client()
    page = http.get("/play/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert b'rel="manifest"' in page.content
    icon = http.get("/play/icons/icon-192.png")
    assert icon.headers["cache-control"] == CACHE_FOREVER
    assert icon.content.startswith(b"\x89PNG")
    manifest = http.get("/play/manifest.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"
    assert manifest.json()["display"] == "standalone"


def test_nothing_outside_the_client_folder_is_served(tmp_path: Path) -> None:
    (tmp_path / "pub").mkdir()
    (tmp_path / "pub" / "index.html").write_text("<p>hi</p>")
    (tmp_path / "secret.txt").write_text("no")
    http = client(tmp_path / "pub")
    for path in ("/play/../secret.txt", "/play/%2e%2e/secret.txt", "/play/nope.js"):
        assert http.get(path).status_code == 404, path


def test_an_edited_file_is_served_fresh(tmp_path: Path) -> None:
    page = tmp_path / "index.html"
    page.write_text("one " * 100)
    os.utime(page, ns=(10**18, 10**18))
    http = client(tmp_path)
    first = http.get("/play/", headers={"Accept-Encoding": "gzip"})
    page.write_text("two " * 100)
    os.utime(page, ns=(2 * 10**18, 2 * 10**18))
    second = http.get("/play/", headers={"Accept-Encoding": "gzip"})
    assert first.text.startswith("one")
    assert second.text.startswith("two")
    assert second.headers["etag"] != first.headers["etag"]


def _imports(name: str, seen: set[str] | None = None) -> set[str]:
    """`name` and every module it imports, transitively (the client's imports are all "./x.js")."""
    seen = set() if seen is None else seen
    if name not in seen:
        seen.add(name)
        for found in re.findall(
            r'^import .* from "\./([\w.-]+)";$', (WEB_DIR / name).read_text(), re.M
        ):
            _imports(found, seen)
    return seen


def test_the_service_worker_keeps_every_file_an_offline_start_needs_and_no_other() -> None:
    source = (WEB_DIR / "sw.js").read_text()
    listed = source[source.index("const SHELL") : source.index("];", source.index("const SHELL"))]
    shell = set(re.findall(r'"([^"]+)"', listed))
    pages = {"index.html", "rules.html", "style.css", "manifest.webmanifest", "sw-push.js"}
    copies = {
        "texts.tr.json",
        "texts.en.json",
    }  # the catalogue's (generated: emulator.catalogue_copies)
    missing = (
        _imports("boot.js") | _imports("app.js") | _imports("rules.js") | pages | copies
    ) - shell
    assert missing == set(), f"add to sw.js's SHELL (and bump VERSION): {sorted(missing)}"
    assert sorted(f for f in shell - {"./"} - copies if not (WEB_DIR / f).is_file()) == []


def test_the_page_preloads_every_module_of_its_first_screen_and_no_other() -> None:
    """boot.js draws the login (no module of it waits for another: one round trip); app.js and
    its graph load after it, so they take none of a slow phone's six connections before."""
    page = (WEB_DIR / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', page))
    assert '<script type="module" src="boot.js"></script>' in page
    assert preloaded == _imports("boot.js") - {"boot.js"}
    assert "app.js" not in preloaded and len(preloaded) <= 4
    assert '<link rel="preload" href="texts.tr.json" as="fetch" crossorigin="anonymous">' in page


def test_the_shell_carries_the_catalogue_as_get_texts_serves_it_with_its_etag() -> None:
    from harftet.api.texts import texts_reply

    http = TestClient(Starlette(routes=client_routes("/play", WEB_DIR, generated_files(WEB_DIR))))
    for lang in ("tr", "en"):
        got = http.get(f"/play/texts.{lang}.json", headers={"Accept-Encoding": "gzip"})
        assert got.status_code == 200
        assert got.headers["content-type"] == "application/json"
        assert got.headers["cache-control"] == REVALIDATE
        assert int(got.headers["content-length"]) < len(got.content) / 2  # gzipped
        _, body, headers = texts_reply(lang, None)
        assert got.json() == {**body, "etag": headers["ETag"]}  # the API's answer and its ETag
        assert (
            got.json()["texts"]["login.h"] == {"tr": "Kim oynuyor?", "en": "Who is playing?"}[lang]
        )
        again = http.get(
            f"/play/texts.{lang}.json",
            headers={"If-None-Match": got.headers["etag"], "Accept-Encoding": "gzip"},
        )
        assert again.status_code == 304
    assert http.get("/play/texts.de.json").status_code == 404


def test_the_worker_is_a_new_version_whenever_any_file_of_the_shell_changes(tmp_path: Path) -> None:
    """sw.js serves its shell cache-first under VERSION: the servers stamp VERSION with a hash of
    the shell, so an edited file (or catalogue) is a new worker that fetches the new shell."""
    (tmp_path / "icons").mkdir()
    worker = 'const VERSION = "harftet-shell-v9";\nconst SHELL = ["a.js"];\n'
    (tmp_path / "sw.js").write_text(worker)
    (tmp_path / "a.js").write_text("one")
    (tmp_path / "icons" / "i.svg").write_text("<svg/>")
    copies = {"texts.tr.json": lambda: b'{"texts": 1}'}
    version = re.compile(r'const VERSION = "harftet-shell-v9-([0-9a-f]{12})";')

    def stamp() -> str:
        found = version.search(worker_script(tmp_path, copies).decode())
        assert found is not None
        return found.group(1)

    first = stamp()
    assert worker_script(tmp_path, copies).decode() == worker.replace("v9", f"v9-{first}")
    assert stamp() == first  # nothing changed: the same worker, no reinstall
    (tmp_path / "a.js").write_text("two")
    second = stamp()
    (tmp_path / "icons" / "i.svg").write_text("<svg></svg>")
    third = stamp()
    copies["texts.tr.json"] = lambda: b'{"texts": 2}'
    assert len({first, second, third, stamp()}) == 4


def test_the_local_stack_serves_the_stamped_worker() -> None:
    http = TestClient(Starlette(routes=client_routes("/play", WEB_DIR, generated_files(WEB_DIR))))
    served = http.get("/play/sw.js")
    assert served.headers["cache-control"] == REVALIDATE
    assert served.headers["content-type"].startswith("text/javascript")
    assert re.search(r'const VERSION = "harftet-shell-v\d+-[0-9a-f]{12}";', served.text)
    assert "importScripts(...EXTENSIONS)" in served.text
