"""The web client's files as a browser should get them: compressed, cacheable, revalidated.

`client_routes(prefix, directory)` serves a directory under a URL prefix (`/play/…`):
* gzip when the request accepts it (text, scripts, styles, JSON, SVG, the manifest);
  `Vary: Accept-Encoding` so caches keep both forms apart;
* a strong ETag per representation (a hash of the bytes) and a 304 when `If-None-Match` matches;
* `Cache-Control`: `no-cache` for what changes with a deploy under the same name (the page,
  scripts, styles, the worker, config.json — always revalidated, usually a 304) and a week for
  icons, which never change under their names;
* `X-Content-Type-Options: nosniff`; paths outside the directory are 404.
Files are read once and re-read when their modification time changes (an edit shows at once).
`generated` adds files made by a function rather than read from the directory
(`generated_files`): the catalogue's shell copies (`texts.tr.json`, `texts.en.json`,
harftet.api.texts.shell_copy) and the service worker with its VERSION stamped by a hash of every
file of the shell (`worker_script`: any change is a new worker, which replaces the old shell).
`python -m harftet.localstack.client_files clients/web OUT` writes the same for `make web-deploy`.
The deployed client gets the same from CloudFront (template.yaml, docs/DEPLOY.md).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = [
    "CACHE_FOREVER",
    "REVALIDATE",
    "ClientFiles",
    "cache_control",
    "client_routes",
    "generated_files",
    "worker_script",
]

REVALIDATE = "no-cache"
CACHE_FOREVER = "public, max-age=604800"
COMPRESS_AT = 256  # bytes: smaller files gain nothing from gzip
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".md": "text/markdown; charset=utf-8",
    ".png": "image/png",
}
COMPRESSIBLE = {".js", ".mjs", ".css", ".html", ".json", ".webmanifest", ".svg", ".md", ".txt"}


WORKER = "sw.js"
_VERSION = re.compile(rb'^(const VERSION = "[\w-]+)(";)', re.M)


def catalogue_copies() -> dict[str, Callable[[], bytes]]:
    """The catalogue's shell copies, `texts.{lang}.json`: what the first screen draws from."""
    from harftet.api.texts import shell_copy
    from harftet.texts import LANGUAGES

    return {f"texts.{lang}.json": functools.partial(shell_copy, lang) for lang in LANGUAGES}


def worker_script(directory: str | Path, copies: Mapping[str, Callable[[], bytes]]) -> bytes:
    """sw.js with its VERSION stamped by a hash of every file it may keep (the directory's and
    the catalogue's copies): a changed file makes a new worker, which fetches the new shell."""
    root = Path(directory)
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    for name, make in sorted(copies.items()):
        digest.update(name.encode() + b"\0" + make())
    stamp = b"-" + digest.hexdigest()[:12].encode()
    return _VERSION.sub(lambda m: m.group(1) + stamp + m.group(2), (root / WORKER).read_bytes(), 1)


def generated_files(directory: str | Path) -> dict[str, Callable[[], bytes]]:
    """The files served beside the directory's own: the catalogue's copies, the stamped worker."""
    copies = catalogue_copies()
    return {**copies, WORKER: functools.partial(worker_script, directory, copies)}


def cache_control(name: str) -> str:
    """How long a browser or CDN may keep a file without asking again."""
    return CACHE_FOREVER if name.startswith("icons/") else REVALIDATE


@dataclass(frozen=True)
class _File:
    mtime: int
    body: bytes
    gz: bytes | None
    etag: str
    media_type: str


class ClientFiles:
    """One directory's files, with the headers above; an endpoint for a `{path:path}` route."""

    def __init__(
        self,
        directory: str | Path,
        index: str = "index.html",
        generated: Mapping[str, Callable[[], bytes]] | None = None,
    ) -> None:
        self.root = Path(directory).resolve()
        self.index = index
        self.generated = dict(generated or {})
        self._files: dict[Path, _File] = {}

    def _locate(self, path: str) -> Path | None:
        target = (self.root / path.lstrip("/")).resolve()
        if not target.is_relative_to(self.root):
            return None
        if target.relative_to(self.root).as_posix() in self.generated:
            return target
        if target.is_dir():
            target = target / self.index
        return target if target.is_file() else None

    def _load(self, target: Path) -> _File:
        made = self.generated.get(target.relative_to(self.root).as_posix())
        mtime = -1 if made else target.stat().st_mtime_ns
        known = self._files.get(target)
        body = made() if made else None
        if known is not None and known.mtime == mtime and body in (None, known.body):
            return known
        body = target.read_bytes() if body is None else body
        suffix = target.suffix.lower()
        guessed = mimetypes.guess_type(target.name)[0]
        media = TYPES.get(suffix) or guessed or "application/octet-stream"
        gz = None
        if suffix in COMPRESSIBLE and len(body) >= COMPRESS_AT:
            packed = gzip.compress(body, compresslevel=9, mtime=0)
            gz = packed if len(packed) < len(body) else None
        etag = hashlib.sha256(body).hexdigest()[:20]
        loaded = _File(mtime=mtime, body=body, gz=gz, etag=etag, media_type=media)
        self._files[target] = loaded
        return loaded

    async def serve(self, request: Request) -> Response:
        """The response for one GET or HEAD of a file."""
        path = request.path_params.get("path", "")
        target = self._locate(path)
        if target is None:
            return Response("Not Found", status_code=404, media_type="text/plain")
        folder = target.name == self.index and not path.endswith(self.index)
        if path and not path.endswith("/") and folder:
            return Response(status_code=307, headers={"Location": request.url.path + "/"})
        f = self._load(target)
        zipped = f.gz is not None and "gzip" in request.headers.get("accept-encoding", "").lower()
        etag = f'"{f.etag}-gz"' if zipped else f'"{f.etag}"'
        name = target.relative_to(self.root).as_posix()
        headers = {
            "ETag": etag,
            "Cache-Control": cache_control(name),
            "X-Content-Type-Options": "nosniff",
        }
        if f.gz is not None:
            headers["Vary"] = "Accept-Encoding"
        seen = {tag.strip() for tag in request.headers.get("if-none-match", "").split(",")}
        if etag in seen or "*" in seen:
            return Response(status_code=304, headers=headers)
        body = f.gz if zipped and f.gz is not None else f.body
        if zipped:
            headers["Content-Encoding"] = "gzip"
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(body))
            return Response(status_code=200, headers=headers, media_type=f.media_type)
        return Response(body, headers=headers, media_type=f.media_type)


def client_routes(
    prefix: str, directory: str | Path, generated: Mapping[str, Callable[[], bytes]] | None = None
) -> list[Route]:
    """Routes serving `directory` (and the `generated` files) at `prefix/…` (GET and HEAD)."""
    files = ClientFiles(directory, generated=generated)
    return [Route(f"{prefix}/{{path:path}}", files.serve, methods=["GET", "HEAD"])]


def write_generated(directory: str | Path, out: str | Path) -> list[str]:
    """Writes the generated files into `out` (`make web-deploy` uploads them)."""
    written = []
    for name, make in generated_files(directory).items():
        path = Path(out) / name
        path.write_bytes(make())
        written.append(str(path))
    return written


if __name__ == "__main__":
    print("\n".join(write_generated(sys.argv[1], sys.argv[2])))
