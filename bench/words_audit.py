"""The words a level laid, checked (bench_hand_length): inside its vocabulary, inside the
published list people know (the ranking's top ``KNOWN_LIST``), never blocked, and a seeded
sample of 200 read by the morphology the word list is built with (akana, as in
``harftet.words.build_lemmas``): a word it reads only as another word's inflected form or a
name, or whose spelling is mostly read so (its own share under ``OWN_SHARE``), is flagged."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from bench import ROOT, Result
from harftet.engine.bots.harftet import KNOWN_LIST, known_words, vocabulary
from harftet.engine.words import default_words
from harftet.engine.words.blocked import blocked
from harftet.words.build_filter import infinitive
from harftet.words.build_lemmas import (
    NAME,
    OWN_SHARE,
    Reader,
    lemma_ranking,
    load_akana,
    raw_wordfreq,
)
from harftet.words.build_sources import AKANA, WORDFREQ, find_archive, read_member_bytes
from harftet.words.info import infos

SAMPLE = 200
CACHE = ROOT / ".cache" / "dict-src"


@cache
def _morphology() -> tuple[Any, Reader, dict[str, float]]:
    """akana, a reader of its analyses, and every listed word's own share of its spelling."""
    wheel, freq = find_archive(AKANA, CACHE), find_archive(WORDFREQ, CACHE)
    assert wheel is not None and freq is not None, "run `make dictionary` first"
    morphology = load_akana(wheel, CACHE / wheel.stem)
    words = set(default_words())
    kinds = infos()
    verbs = {w for w in words if "fiil" in kinds.get(w, ((), ()))[0] and infinitive(w) in words}
    entries = raw_wordfreq(read_member_bytes(freq, WORDFREQ.members[0]))
    _, own = lemma_ranking(entries, morphology.analyze, words, verbs)
    return morphology, Reader(words, verbs), own


def misread(word: str) -> str | None:
    """Why the morphology reads ``word`` as no word of its own (None: it is one)."""
    morphology, reader, own = _morphology()
    raw = word.replace("I", "ı").replace("İ", "i").lower()
    readings = reader.readings(raw, morphology.analyze(raw))
    mine = {word, reader.key(word)}
    if readings and not any(w in mine for w, _ in readings):
        names = all(w.startswith(NAME) for w, _ in readings)
        return "a name" if names else "another word's inflected form"
    if own.get(word, 1.0) < OWN_SHARE:
        return f"mostly read as another word's form or a name ({own[word]:.2f})"
    return None


def word_rows(level: str, laid: list[str]) -> tuple[list[Result], list[str]]:
    """The vocabulary, blocked-list and morphology rows of the words ``level`` laid."""
    n = len(laid)
    knows, listed, barred = vocabulary(level), known_words(KNOWN_LIST), blocked()
    inside = 100 * sum(knows(w) for w in laid) / n
    published = 100 * sum(listed(w) for w in laid) / n
    bad = sorted({w for w in laid if w in barred})
    distinct = sorted(set(laid))
    sample = random.Random(f"audit-{level}").sample(distinct, min(SAMPLE, len(distinct)))
    flagged = {w: why for w in sample if (why := misread(w)) is not None}
    rows = [
        Result(
            name=f"Harftet {level}: words laid inside its vocabulary",
            value=inside,
            unit="%",
            detail=f"{n} words ({len(distinct)} distinct); in the published top "
            f"{KNOWN_LIST:,}: {published:.1f} %; goal ≥ 95 % "
            + ("PASS" if inside >= 95 else "MISS"),
        ),
        Result(
            name=f"Harftet {level}: blocked words laid",
            value=len(bad),
            unit="words",
            detail="goal 0 " + ("PASS" if not bad else "MISS"),
        ),
        Result(
            name=f"Harftet {level}: inflected forms or names laid (morphology, a sample)",
            value=len(flagged),
            unit="words",
            detail=f"of {len(sample)} distinct words sampled; goal 0 "
            + ("PASS" if not flagged else "MISS"),
        ),
    ]
    common = sorted(distinct, key=laid.count, reverse=True)[:12]
    notes = [
        f"{level}: most laid {', '.join(common)}; flagged "
        + (", ".join(f"{w} ({why})" for w, why in sorted(flagged.items())) or "none")
    ]
    return rows, notes
