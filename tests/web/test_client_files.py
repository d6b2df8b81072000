"""The web client's files as the local stack serves them: gzip, ETag + 304, Cache-Control."""

from __future__ import annotations

import os
import re
from pathlib import Path

from starlette.applications import Starlette
from starlette.testclient import TestClient

from harftet.localstack.client_files import CACHE_FOREVER, REVALIDATE, client_routes
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
    missing = (_imports("app.js") | _imports("rules.js") | pages) - shell
    assert missing == set(), f"add to sw.js's SHELL (and bump VERSION): {sorted(missing)}"
    assert sorted(f for f in shell - {"./"} if not (WEB_DIR / f).is_file()) == []


def test_the_page_preloads_every_module_the_client_imports() -> None:
    page = (WEB_DIR / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', page))
    assert preloaded == _imports("app.js") - {"app.js"}
